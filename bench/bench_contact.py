"""Contact elements: time per simulated second and the share of the contact evaluation.

Models (``solver.contact``):

* ``ball``   a ball bouncing on a plate (sphere vs half-space, one sample point),
             Hunt-Crossley, dt = 1e-5, 0.2 s;
* ``block``  a block sliding down a ramp with friction (the 8 corners of its convex hull
             against a half-space), dt = 2e-5, 0.2 s;
* ``hull``   a ball resting on a box (sphere vs the 6 face planes of a convex hull),
             dt = 2e-5, 0.2 s;
* ``apart``  ``n`` balls far apart with a contact between every pair (the broad phase
             skips them all), dt = 1e-4, 0.2 s;
* ``cam``    the bundled ``disc_cam`` example (a roller's 259 rim points against the
             128 faces of the cam's hull), its study's settings: dt = 5e-5, 0.6 s;
* ``gripper10`` the bundled ``gripper`` example with six more cubes in a row on a second
             table: 10 moving bodies (palm, two fingers, seven cubes), 26 contacts (each
             cube on the table, neighbouring cubes, each finger against every cube),
             dt = 5e-5, 1 s.

The last two are FreeCAD documents (``examples/make_examples.py``) converted to the
solver's model, run with ``Model.simulate`` at their study's step and output interval.

Each model runs paired with the same bodies without their contact elements (``base``),
back to back, ``reps`` times; the share of the contacts is ``1 - base / with`` per pair
(median): the time spent in the contacts' collision queries and forces. Times are
``settings["wall_time"]`` (the integration loop). Run
``tools/run_python.sh bench/bench_contact.py [--reps 5] [--models cam,gripper10]
[--json FILE]``; writes ``bench/results/contact.json`` (or FILE) and prints a table. See
bench/README.md.
"""
import argparse
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from SimPhantWorkbench.solver import Model  # noqa: E402
from SimPhantWorkbench.solver import contact as C  # noqa: E402

G = 9.81


def ball(with_contact):
    m = Model(gravity=(0, 0, -G))
    b = m.add_body("ball", mass=1.0, inertia=(4e-5,) * 3, position=(0, 0, 0.02))
    if with_contact:
        m.add_contact(b, m.ground, C.sphere((0, 0, 0.02), 0.01),
                      C.half_space((0, 0, 0), (0, 0, 1)), stiffness=1e9,
                      law="hunt_crossley", restitution=0.8)
    return m, 1e-5


def block(with_contact):
    th = math.radians(20)
    m = Model(gravity=(G * math.sin(th), 0, -G * math.cos(th)))
    b = m.add_body("block", mass=1.0, inertia=(1e-3,) * 3, position=(0, 0, 0.0198),
                   velocity=(0.05, 0, 0))
    if with_contact:
        corners = [(x, y, 0.0198 + z) for x in (-.05, .05) for y in (-.04, .04)
                   for z in (-.02, .02)]
        m.add_contact(b, m.ground, C.convex(corners), C.half_space((0, 0, 0), (0, 0, 1)),
                      stiffness=1e6, damping=300.0, mu_static=0.3, mu_dynamic=0.2)
    return m, 2e-5


def hull(with_contact):
    m = Model(gravity=(0, 0, -G))
    p = (G / 1e8) ** (1 / 1.5)
    b = m.add_body("ball", mass=1.0, inertia=(4e-5,) * 3, position=(0, 0, 0.01 - p))
    if with_contact:
        box = [(x, y, z) for x in (-.05, .05) for y in (-.05, .05) for z in (-.01, 0.0)]
        m.add_contact(b, m.ground, C.sphere((0, 0, 0.01 - p), 0.01), C.convex(box),
                      stiffness=1e8, damping=1e3, penetration=1e-5)
    return m, 2e-5


def apart(with_contact, n=8):
    m = Model(gravity=(0, 0, 0))
    bs = [m.add_body("b%d" % i, mass=1.0, inertia=(1e-3,) * 3, position=(i, 0, 0))
          for i in range(n)]
    if with_contact:
        for i in range(n):
            for j in range(i + 1, n):
                m.add_contact(bs[i], bs[j], C.sphere((i, 0, 0), 0.1), C.sphere((j, 0, 0), 0.1))
    return m, 1e-4


def _example_study(name, extend=None, with_contact=True):
    """The study of the bundled example ``name`` (built by ``make_examples``), its document
    changed by ``extend(doc, study)``, without its contact elements if not
    ``with_contact``."""
    for p in (ROOT, os.path.join(ROOT, "examples")):
        if p not in sys.path:
            sys.path.insert(0, p)
    import FreeCAD
    import make_examples
    doc = make_examples.new_document("bench_" + name)
    study = make_examples.EXAMPLES[name](doc)
    if extend is not None:
        extend(doc, study)
    doc.recompute()
    if not with_contact:
        for o in list(doc.Objects):
            if getattr(o, "Kind", None) == "contact":
                doc.removeObject(o.Name)
    return FreeCAD, doc, study


def _simulate_example(name, extend, with_contact):
    from SimPhantWorkbench import conversion
    FreeCAD, doc, study = _example_study(name, extend, with_contact)
    try:
        m = conversion.convert(study).model
        dt, t_end, out = float(study.TimeStep), float(study.EndTime), float(study.OutputInterval)
    finally:
        FreeCAD.closeDocument(doc.Name)
    return m.simulate(t_end=t_end, dt=dt, output_dt=out), dt, t_end


def cam(with_contact):
    return _simulate_example("disc_cam", None, with_contact)


def _more_cubes(doc, study, n=6):
    """Six more aluminium cubes (40 mm, 10 mm apart) in a row on a second table beside the
    first, each touching that table, its neighbours and both fingers through contacts."""
    from SimPhantWorkbench import factory
    from example_parts import ALUMINIUM, box
    table = box(doc, "SideTable", "Side table", (100.0, -60.0, -20.0), (400.0, 60.0, 0.0))
    doc.recompute()
    factory.make_body(study, table, fixed=True, name="SideTableBody")
    fingers = [doc.getObject("LeftFinger"), doc.getObject("RightFinger")]
    prev = None
    for i in range(n):
        x0 = 110.0 + 50.0 * i
        cube = box(doc, "Cube%d" % (i + 1), "Cube %d" % (i + 1), (x0, -20.0, 0.0),
                   (x0 + 40.0, 20.0, 40.0))
        doc.recompute()
        factory.make_body(study, cube, density=ALUMINIUM, name="CubeBody%d" % (i + 1))
        for other in [table] + fingers + ([prev] if prev is not None else []):
            factory.make_force_element(study, "contact", (cube, "Face1"), (other, "Face1"),
                                       name="Contact%d_%s" % (i + 1, other.Name),
                                       stiffness=1e4, exponent=1.5, damping=0.05,
                                       penetration=2e-4,
                                       contact=dict(MuStatic=0.4, MuDynamic=0.3,
                                                    StictionSpeed=2.0, FrictionSpeed=4.0,
                                                    SampleSpacing="5 mm"))
        prev = cube


def gripper10(with_contact):
    return _simulate_example("gripper", _more_cubes, with_contact)


MODELS = {"ball": ball, "block": block, "hull": hull, "apart": apart, "cam": cam,
          "gripper10": gripper10}
#: the models built from FreeCAD documents: (result, dt, t_end) from ``make``
DOCUMENT_MODELS = ("cam", "gripper10")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--t-end", type=float, default=0.2,
                    help="simulated time of the solver-API models [s]")
    ap.add_argument("--models", default=",".join(MODELS),
                    help="comma-separated, of: " + ", ".join(MODELS))
    ap.add_argument("--json", default=os.path.join(HERE, "results", "contact.json"))
    args = ap.parse_args()
    out = {}
    for name in args.models.split(","):
        make = MODELS[name]
        pairs = []
        for _ in range(args.reps + 1):
            times = []
            for with_contact in (True, False):
                if name in DOCUMENT_MODELS:
                    r, dt, t_end = make(with_contact)
                else:
                    m, dt = make(with_contact)
                    t_end = args.t_end
                    r = m.simulate(t_end=t_end, dt=dt, output_dt=t_end / 100)
                times.append(r.settings["wall_time"])
            pairs.append(times)
        pairs = np.array(pairs[1:])           # the first pair loads the kernels
        w, b = np.median(pairs[:, 0]), np.median(pairs[:, 1])
        share = float(np.median(1.0 - pairs[:, 1] / pairs[:, 0]))
        out[name] = dict(dt=dt, t_end=t_end, wall_per_sim_s=w / t_end,
                         base_per_sim_s=b / t_end, contact_share=share,
                         us_per_step=1e6 * w * dt / t_end, pairs=pairs.tolist())
        print("%-9s dt %.0e  %8.3f s per simulated s (without contact %8.3f), %6.2f us per "
              "step, contact share %4.0f %%" % (name, dt, w / t_end, b / t_end,
                                                out[name]["us_per_step"], 100 * share))
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w") as fh:
        json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
