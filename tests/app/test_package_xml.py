"""package.xml against the rules FreeCAD's Addon Managers apply to it.

FreeCAD 0.20 reads it with its C++ ``FreeCAD.Metadata`` and treats *every* ``<depend>``
as a required dependency (it knows neither ``type`` nor ``optional``): one that is not a
FreeCAD workbench or add-on is installed with ``pip install --target
<user data>/AdditionalPythonPackages NAME`` when ``__import__(NAME)`` fails. FreeCAD 1.x
reads it with its own Python reader (``addonmanager_metadata``, checked here when this
FreeCAD has it), honours ``type="python"`` and ``optional``, and cancels the
installation when ``pythonmin`` is above the running Python. Both clone the
repository URL's branch into ``Mod/<name>`` and register the content's workbench from
``<subdirectory>/InitGui.py``.
"""
import ast
import os
import re
import sys
import xml.etree.ElementTree as ET

import FreeCAD
import pytest

from SimPhantWorkbench import deps
from SimPhantWorkbench.deps import versions

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGE_XML = os.path.join(ROOT, "package.xml")
NS = "{https://wiki.freecad.org/Package_Metadata}"
#: what a solve needs: imported and pip-installed by the same name (llvmlite comes with numba)
REQUIRED = {r.name for r in deps.REQUIREMENTS if r.name != "llvmlite"}


def _xml():
    return ET.parse(PACKAGE_XML).getroot()


def _depends():
    return _xml().findall(NS + "depend")


def test_freecad_parses_it_and_supports_this_version():
    md = FreeCAD.Metadata(PACKAGE_XML)
    assert md.Name == "SimPhant"                 # the Mod folder the Addon Manager clones into
    assert md.supportsCurrentFreeCAD()
    assert versions.parse(md.Version) >= (0, 1)
    assert md.License and os.path.isfile(os.path.join(ROOT, md.License[0]["file"]))
    assert os.path.isfile(os.path.join(ROOT, md.Icon))


def test_every_depend_is_what_a_solve_needs():
    """0.20 installs every depend: none may be optional, each must be what the solver
    needs, importable and installable by pip under that name."""
    md = FreeCAD.Metadata(PACKAGE_XML)
    names = [d["package"] for d in md.Depend]
    assert sorted(names) == sorted(REQUIRED)
    for dep in _depends():
        assert dep.get("type") == "python", dep.text        # 1.x: not an add-on or workbench
        assert dep.get("optional", "false").lower() != "true", dep.text
    req = {r.name: r for r in deps.REQUIREMENTS}
    for name in names:
        assert req[name].modules[0] == name


def test_numba_lower_bound_and_pythonmin_agree_with_the_check():
    numba = [d for d in _depends() if d.text == "numba"][0]
    req = {r.name: r for r in deps.REQUIREMENTS}
    assert numba.get("version_gte") == req["numba"].minimum
    pymin = versions.parse(_xml().find(NS + "pythonmin").text)
    assert pymin == deps.PYTHON_MIN
    # 1.x cancels the installation when the running Python's minor version is lower
    assert sys.version_info[:2] >= pymin


def test_the_workbench_content_is_what_initgui_registers():
    md = FreeCAD.Metadata(PACKAGE_XML)
    (wb,) = md.Content["workbench"]
    init = os.path.join(ROOT, wb.Subdirectory, "InitGui.py")
    tree = ast.parse(open(init).read())
    classes = [n.name for n in tree.body if isinstance(n, ast.ClassDef)]
    assert wb.Classname in classes
    assert "addWorkbench(%s())" % wb.Classname in open(init).read()
    assert os.path.isfile(os.path.join(ROOT, wb.Icon))


def test_repository_url_has_a_branch_and_placeholders_are_marked():
    urls = {u["type"]: u for u in FreeCAD.Metadata(PACKAGE_XML).Urls}
    assert urls["repository"].get("branch")
    assert {"repository", "bugtracker", "readme", "documentation"} <= set(urls)
    for line in open(PACKAGE_XML):
        if re.search(r"example\.invalid|\.example\"", line):
            assert "<!-- MAINTAINER -->" in line, line


@pytest.mark.fc1
def test_freecad_1x_addon_manager_reader():
    """FreeCAD 1.x's own reader: python dependencies, none optional, pythonmin."""
    am = os.path.join(FreeCAD.getResourceDir(), "Mod", "AddonManager")
    assert os.path.isfile(os.path.join(am, "addonmanager_metadata.py")), am
    sys.path.insert(0, am)
    try:
        import addonmanager_metadata as amm
    finally:
        sys.path.remove(am)
    md = amm.MetadataReader.from_file(PACKAGE_XML)
    assert md.name == "SimPhant"
    assert {d.package for d in md.depend} == REQUIRED
    assert all(d.dependency_type == amm.DependencyType.python and not d.optional
               for d in md.depend)
    assert md.pythonmin.version_as_list[:2] == list(deps.PYTHON_MIN)
    assert md.content["workbench"][0].classname == "SimPhantWorkbench"
