"""Drivers that disagree, in the bundled examples: the run, Check model and ``simphant
run`` name the drivers that conflict (not every joint of the loop), each with its gap,
and a kinematic analysis the time; the document is left as it was."""
import os
import shutil

import pytest

import FreeCAD

from helpers_doc import docs  # noqa: F401 (fixture)
from SimPhantWorkbench import cli, factory, runner
from SimPhantWorkbench.document.base import is_type
from SimPhantWorkbench.run import prepare
from SimPhantWorkbench.run.check import fact_lines, model_facts
from SimPhantWorkbench.solver import AssemblyError, SimulationError

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "examples")


@pytest.fixture
def example(docs, tmp_path):  # noqa: F811
    docs()                            # closes every document the test opens

    def open_(name):
        path = str(tmp_path / (name + ".FCStd"))
        shutil.copy(os.path.join(EXAMPLES, name + ".FCStd"), path)
        doc = FreeCAD.openDocument(path)
        study = next(o for o in doc.Objects if is_type(o, "SimPhant::Study"))
        return doc, study, path
    return open_


def _placements(doc):
    return {o.Name: o.Placement.toMatrix() for o in doc.Objects if hasattr(o, "Placement")}


def test_a_second_motor_at_another_speed_names_both_motors_and_the_time(example, tmp_path):
    """driven_slider_crank with a second motor on the crank pin at half the speed: both
    start at 0, so the analysis stops at the first sample after t0 naming the two motors."""
    doc, study, path = example("driven_slider_crank")
    factory.make_driver(study, doc.getObject("CrankPin"), "rotation", "ramp", name="Motor2",
                        Speed=60.0)
    before = _placements(doc)
    with pytest.raises(SimulationError) as e:
        runner.run_study(study, t_end=0.1)
    text = str(e.value)
    assert "cannot be assembled at t = 0.01 s" in text
    assert "Motor (" in text and "conflicts with Motor2 (" in text
    assert text.endswith("; the joints hold without them)")
    for joint in ("CrankPivot", "WristPin", "SliderGuide"):
        assert joint not in text
    assert _placements(doc) == before
    doc.save()
    code, _out, err = cli_run(path, tmp_path)
    assert code != 0 and "conflicts with Motor2 (" in err and "t = 0.01 s" in err


def cli_run(path, tmp_path):
    import io
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(["run", path, "--out", str(tmp_path / "out"), "--t-end", "0.1"],
                    stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_two_drivers_on_the_four_bar_are_the_pair_in_the_run_and_in_check_model(example):
    """four_bar with a driver on its crank pivot (held at 0) and one on its rocker pivot
    (held at 5 deg): the run and Check model give the same text, naming the two drivers
    and none of the four joints of the loop."""
    doc, study, _path = example("four_bar")
    factory.make_driver(study, doc.getObject("JointA"), "rotation", "constant",
                        name="HoldCrank", Angle="0 deg")
    factory.make_driver(study, doc.getObject("JointD"), "rotation", "constant",
                        name="HoldRocker", Angle="5 deg")
    with pytest.raises(AssemblyError) as e:
        runner.run_study(study, t_end=0.05)
    text = str(e.value)
    assert e.value.joints == ["HoldCrank", "HoldRocker"]
    assert "HoldCrank (0 mm, " in text and "conflicts with HoldRocker (0 mm, 5 deg off" in text
    assert "Joint" not in text
    # the run prefixes the study; Check model gives the solver's text as it is
    solver_text = text.split("Study 'Study': ", 1)[1]
    warnings = [t for key, t in fact_lines(model_facts(prepare(study))) if key == "warning"]
    assert "not assembled (%s): analysed at the given positions" % solver_text in warnings
