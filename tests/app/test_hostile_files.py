"""Hostile-but-fair files, round 2: every entry point that opens or saves a model file (run,
sweep, --in-place, the result and sweep documents) checks it before FreeCAD reads it,
bounds what it reads, and saves through a checked temporary file; a full disk, a symlink,
``kill -9`` or a forged manifest lose nothing. Each case ends with exit 2 and a message
naming the file, object or value (or a correct run)."""
import json
import os
import shutil
import signal
import stat
import struct
import subprocess
import sys
import textwrap
import tracemalloc
import zipfile

import pytest

import FreeCAD

from helpers_doc import PROBE_MODULE, docs, pendulum  # noqa: F401
from helpers_hostile import (T_END, edit_fcstd, model, object_data_start,  # noqa: F401
                             run_cli, tree_hashes, work)
from SimPhantWorkbench import cli, factory
from SimPhantWorkbench.document import file_check, inventory
from SimPhantWorkbench.output import atomic, outdir

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAUNCHER = os.path.join(ROOT, "bin", "simphant")
RUN_PYTHON = os.path.join(ROOT, "tools", "run_python.sh")

SPEC = """design = "grid"
[settings]
t_end = 0.02
[[variables]]
name = "density"
target = "Rod_body.Density"
values = [1000, 2000]
[metrics]
peak = "max(speed(Rod_body))"
[objective]
minimize = "peak"
"""

GUI_XML = b"""<?xml version='1.0' encoding='utf-8'?>
<Document SchemaVersion="1">
    <ViewProviderData Count="1">
        <ViewProvider name="Rod" expanded="0">
            <Properties Count="2">
                <Property name="DiffuseColor" type="App::PropertyColorList">
                    <ColorList file="DiffuseColor"/>
                </Property>
                <Property name="ShapeColor" type="App::PropertyColor">
                    <PropertyColor value="527938560"/>
                </Property>
            </Properties>
        </ViewProvider>
    </ViewProviderData>
    <Camera settings=""/>
</Document>
"""


def spec_file(root):
    path = root / "spec.toml"
    path.write_text(SPEC)
    return str(path)


def with_gui(src, dst):
    """A copy of the model with view data (GuiDocument.xml and the colour list it names)."""
    edit_fcstd(src, dst)
    with zipfile.ZipFile(str(dst), "a", zipfile.ZIP_DEFLATED) as z:
        z.writestr("GuiDocument.xml", GUI_XML)
        z.writestr("DiffuseColor", struct.pack("<I", 1) + b"\x00\x77\x1f\xff")
    return str(dst)


def temps(folder):
    return sorted(n for n in os.listdir(str(folder)) if n.startswith(atomic.TEMP_PREFIX))


# ============================================================================ sweep

def test_sweep_refuses_a_truncated_document_as_run_does(work):
    """Item 1: simphant sweep on a Document.xml cut off before the Force's data: exit 2
    naming the file, nothing written (it used to sweep the model without the force)."""
    root, model = work
    bad = edit_fcstd(model, root / "cut.FCStd",
                     xml=lambda x: x[:object_data_start(x, "Push") + 150])
    spec = spec_file(root)
    before = tree_hashes(root)
    code, out, err = run_cli("sweep", bad, spec, "--out", root / "out", "--workers", "1")
    assert code == cli.EXIT_INPUT, err
    assert "cut.FCStd' is damaged: its Document.xml is cut off" in err
    assert out == "" and tree_hashes(root) == before and not (root / "out").exists()




def probe_model(folder, docs):
    """The pendulum model with an object of an add-on module that is then uninstalled."""
    addon = folder / "addon"
    addon.mkdir()
    (addon / "simphant_probe_addon23.py").write_text(PROBE_MODULE)
    sys.path.insert(0, str(addon))
    try:
        import simphant_probe_addon23
        doc = docs()
        p = pendulum(doc)
        factory.make_force(p["study"], p["link"], (0.0, 0.0, -0.01), name="Push")
        probe = doc.addObject("App::FeaturePython", "Probe")
        simphant_probe_addon23.Probe(probe)
        doc.recompute()
        path = str(folder / "addon_model.FCStd")
        doc.saveAs(path)
        FreeCAD.closeDocument(doc.Name)
    finally:
        sys.path.remove(str(addon))
        sys.modules.pop("simphant_probe_addon23", None)
    assert inventory.file_inventory(path)["Probe"].proxy[0] == "simphant_probe_addon23"
    return path


def test_sweep_refuses_a_document_that_would_lose_add_on_data_before_sweeping(tmp_path, docs):
    """Item 2: the model holds an object of an add-on this FreeCAD cannot load. The sweep
    (with --apply-best) stops before any variant, names the object, writes no document and
    no results (it used to sweep, then save a document without the add-on's data)."""
    path = probe_model(tmp_path, docs)
    spec = spec_file(tmp_path)
    before = tree_hashes(tmp_path)
    progress = []
    code, out, err = run_cli("sweep", path, spec, "--out", tmp_path / "out", "--workers", "1",
                             "--apply-best", progress=progress.append)
    assert code == cli.EXIT_INPUT, err
    line = err.strip().splitlines()[-1]
    assert "addon_model.FCStd': 1 object of the document would be lost" in line
    assert "Probe (App::FeaturePython): its Python class simphant_probe_addon23.Probe could " \
        "not be loaded" in line
    assert "variants" not in err and out == "" and progress == []
    assert tree_hashes(tmp_path) == before and not (tmp_path / "out").exists()
    # simphant run refuses it the same way, before solving
    code, out, err = run_cli("run", path, "--out", tmp_path / "out", "--t-end", T_END,
                             progress=lambda t, te: progress.append(t))
    assert code == cli.EXIT_INPUT and "would be lost" in err and progress == []
    assert tree_hashes(tmp_path) == before


# ============================================================================ documents

@pytest.mark.parametrize("prop,owner", [("JointType", "Hinge"), ("Integrator", "Study")])
def test_a_negative_enumeration_index_is_refused_naming_object_and_property(work, prop, owner):
    """Item 3: value="-1" loaded as another item (CrankPivot became 'fixed', mobility 0,
    exit 0); refused from the file before FreeCAD reads it. FreeCAD's own -1 for a list
    without items stays allowed."""
    root, model = work

    def negative(x):
        i = x.index('name="%s"' % prop, x.index("<ObjectData"))
        j = x.index("<Integer value=", i)
        k = x.index("/>", j)
        return x[:j] + '<Integer value="-1" CustomEnum="true"' + x[k:]
    bad = edit_fcstd(model, root / "negative.FCStd", xml=negative)
    before = tree_hashes(root)
    code, out, err = run_cli("run", bad, "--out", root / "out", "--t-end", T_END)
    assert code == cli.EXIT_INPUT, err
    assert "negative.FCStd' is damaged: object '%s': its enumeration %s stores the item " \
        "index '-1'" % (owner, prop) in err
    assert out == "" and tree_hashes(root) == before
    with pytest.raises(file_check.DocumentError, match="object '%s'" % owner):
        file_check.check_file(bad)

    def empty_list(x):
        i = x.index('name="%s"' % prop, x.index("<ObjectData"))
        j = x.index("<Integer value=", i)
        k = x.index("</CustomEnumList>", j) + len("</CustomEnumList>")
        return x[:j] + '<Integer value="-1" CustomEnum="true"/><CustomEnumList count="0">' \
            '</CustomEnumList>' + x[k:]
    file_check.check_file(edit_fcstd(model, root / "empty.FCStd", xml=empty_list))


def billion_laughs(x):
    """A DOCTYPE with nested entities (10 levels of 10: 10^10 'lol's when expanded), the
    expansion used as the study's label."""
    decl = ['<!ENTITY lol0 "lol">'] + ['<!ENTITY lol%d "%s">' % (i, ("&lol%d;" % (i - 1)) * 10)
                                       for i in range(1, 11)]
    head = x.index("?>") + 2
    x = x[:head] + "\n<!DOCTYPE Document [%s]>" % "".join(decl) + x[head:]
    i = x.index('<String value="Study"/>')
    return x[:i] + '<String value="&lol10;"/>' + x[i + len('<String value="Study"/>'):]


@pytest.mark.parametrize("member", ["Document.xml", "GuiDocument.xml"])
def test_a_billion_laughs_document_is_refused_before_freecad_parses_it(work, member):
    """Item 14: a 10 kB Document.xml declaring nested entities took FreeCAD's loader 300 s
    and 4.3 GB; refused unread. In a child process, so that a regression fails by its
    timeout instead of exhausting the machine."""
    root, model = work
    if member == "Document.xml":
        bad = edit_fcstd(model, root / "laughs.FCStd", xml=billion_laughs)
    else:
        with_gui(model, root / "gui.FCStd")
        xml = billion_laughs(GUI_XML.decode().replace(
            'name="Rod"', 'name="Rod"><Label><String value="Study"/></Label'))
        bad = edit_fcstd(root / "gui.FCStd", root / "laughs.FCStd",
                         replace={"GuiDocument.xml": xml.encode()})
    assert os.path.getsize(bad) < 20000
    done = subprocess.run([LAUNCHER, "run", bad, "--out", str(root / "out"), "--t-end", T_END,
                           "--no-animation"], capture_output=True, text=True, timeout=120)
    assert done.returncode == cli.EXIT_INPUT, done.stderr
    assert "laughs.FCStd' is refused: its %s declares a DOCTYPE or entities" % member \
        in done.stderr
    assert not (root / "out").exists()


def test_a_gui_member_inflating_beyond_the_limit_is_refused_before_reading(work, monkeypatch):
    """Item 13: a colour list GuiDocument.xml refers to inflates 3 MB -> 3 GB: SimPhant's
    member reader used 6 GB. Members are sized from the zip directory before anything is
    decompressed (the limit lowered to 1 MB here, the member 40 MB of zeros)."""
    root, model = work
    with_gui(model, root / "gui.FCStd")
    bad = edit_fcstd(root / "gui.FCStd", root / "bomb.FCStd",
                     replace={"DiffuseColor": b"\0" * (40 * 1024 ** 2)})
    assert os.path.getsize(bad) < 200000
    monkeypatch.setattr(file_check, "MAX_XML_BYTES", 1024 ** 2)
    tracemalloc.start()
    try:
        code, out, err = run_cli("run", bad, "--out", root / "out", "--t-end", T_END)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == cli.EXIT_INPUT, err
    assert "bomb.FCStd' is refused: its member 'DiffuseColor' holds 41.9 MB, more than the " \
        "limit of 1.05 MB" in err
    assert peak < 8e6, peak
    # any member FreeCAD would read is sized too: a shape inflating past MAX_MEMBER_BYTES
    monkeypatch.setattr(file_check, "MAX_MEMBER_BYTES", 1024 ** 2)
    shape = shape_member(model)
    brep = edit_fcstd(model, root / "brep.FCStd", replace={shape: b"\0" * (40 * 1024 ** 2)})
    code, out, err = run_cli("run", brep, "--out", root / "out", "--t-end", T_END)
    assert code == cli.EXIT_INPUT, err
    assert "brep.FCStd' is refused: its member '%s' holds 41.9 MB" % shape in err
    # a member whose directory entry understates it is read only as far as it declares,
    # then refused as damaged
    set_declared_size(bad, "DiffuseColor", 100)
    with zipfile.ZipFile(bad) as z:
        with pytest.raises(file_check.DocumentError, match="cannot be read: its member "
                                                           "'DiffuseColor': Bad CRC"):
            file_check.read_member(z, "DiffuseColor", bad, limit=1000)
    assert not (root / "out").exists()


def shape_member(path):
    """The name of a shape (BRep) member of the .FCStd at ``path`` (FreeCAD 0.20 and 1.x
    name them differently)."""
    with zipfile.ZipFile(path) as z:
        return next(n for n in z.namelist() if n.endswith(".brp"))


def set_declared_size(path, member, size):
    """Rewrite the uncompressed size ``member`` declares (local header and central
    directory) without changing what it holds."""
    data = bytearray(open(path, "rb").read())
    with zipfile.ZipFile(path) as z:
        info = z.getinfo(member)
    struct.pack_into("<I", data, info.header_offset + 22, size)
    at = data.index(b"PK\x01\x02")
    while data[at + 46:at + 46 + len(member)] != member.encode():
        at = data.index(b"PK\x01\x02", at + 4)
    struct.pack_into("<I", data, at + 24, size)
    open(path, "wb").write(bytes(data))


def test_a_file_declaring_far_more_than_it_holds_is_refused(work):
    """Weaker spot: a 14 kB .FCStd declaring 1.9 GB was accepted (2.3 GB RSS): deflate
    expands at most about 1032 times, so such a directory is a lie."""
    root, model = work
    bad = edit_fcstd(model, root / "liar.FCStd")
    shape = shape_member(bad)
    set_declared_size(bad, shape, 1900 * 1000 ** 2)
    with zipfile.ZipFile(bad) as z:
        assert z.getinfo(shape).file_size == 1900 * 1000 ** 2
    before = tree_hashes(root)
    code, out, err = run_cli("run", bad, "--out", root / "out", "--t-end", T_END)
    assert code == cli.EXIT_INPUT, err
    assert "liar.FCStd' is damaged: its member '%s' declares 1.9e+03 MB but holds only" \
        % shape in err
    assert tree_hashes(root) == before


def test_gui_document_xml_with_unclosed_tags_is_read_in_linear_time(work):
    """Item 16: 60 000 unclosed <ViewProvider> tags (14 kB zipped) took 228 s in a regular
    expression quadratic in the tag count. A whole run in a child process (its colours
    are read for the animation), bounded by a timeout."""
    root, model = work
    with_gui(model, root / "gui.FCStd")
    hostile = b"<Document>" + b'<ViewProvider name="x">' * 60000
    bad = edit_fcstd(root / "gui.FCStd", root / "tags.FCStd",
                     replace={"GuiDocument.xml": hostile})
    done = subprocess.run([LAUNCHER, "run", bad, "--out", str(root / "out"), "--t-end", T_END],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    from SimPhantWorkbench.viewer.scene import colors_from_gui_xml
    assert colors_from_gui_xml(hostile) == {}
    assert colors_from_gui_xml(GUI_XML) == {"Rod": "#1f77b4"}


# ============================================================================ saving

def on_tmpfs(tmp_path, setup, command, free):
    """Run ``command`` (shell) in a private mount namespace where ``$D`` is a small tmpfs
    holding what ``setup`` (shell) put there, filled up to ``free`` bytes; returns
    (exit code of the command, its output, the listing and hashes of ``$D`` after)."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("a full disk is made with a tmpfs in a private mount namespace: needs "
                    "root and unshare")
    mnt = tmp_path / "disk"
    mnt.mkdir()
    script = textwrap.dedent("""\
        set -u
        D=%s
        mount -t tmpfs -o size=1m tmpfs "$D" || exit 99
        %s
        avail=$(df --output=avail -B1 "$D" | tail -1)
        head -c $((avail - %d)) /dev/zero > "$D/filler" 2>/dev/null
        ( %s ) > "$D/../cmd.out" 2>&1
        echo "rc=$?"
        cd "$D" && ls -A && sha256sum * 2>/dev/null
        """) % (mnt, setup, free, command)
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True,
                          text=True, timeout=600)
    if "propagation" in done.stderr and "rc=" not in done.stdout:
        # in a chroot (make test-fc1) / is no mount point; its mounts are private already
        done = subprocess.run(["unshare", "-m", "--propagation", "unchanged", "sh", "-c",
                               script], capture_output=True, text=True, timeout=600)
    assert "rc=" in done.stdout, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    rc = int(lines[0][3:])
    return rc, (tmp_path / "cmd.out").read_text(), lines[1:]


def test_in_place_on_a_full_disk_keeps_the_model_and_exits_2(work):
    """Item 4: FreeCAD writes a truncated zip on a full disk without raising; the save was
    not checked and the model was destroyed. Now: exit 2 naming the file, the model as it
    was, no temporary file left."""
    root, model = work
    digest = outdir.file_sha256(model)
    rc, text, after = on_tmpfs(
        root, 'cp "%s" "$D/swing.FCStd"' % model,
        '"%s" run "$D/swing.FCStd" --in-place --no-animation --t-end %s --out "%s"'
        % (LAUNCHER, T_END, root / "out"), free=8192)
    assert rc == cli.EXIT_INPUT, text
    assert "cannot save '%s/swing.FCStd': " % (root / "disk") in text
    assert "the file is unchanged" in text and "internal error" not in text
    assert sorted(a.split()[-1] for a in after if "  " in a) == ["filler", "swing.FCStd"]
    assert "%s  swing.FCStd" % digest in after


def test_outputs_on_a_full_disk_exit_2_naming_the_file(work):
    """Weaker spot: a full disk without --in-place was 'internal error' (exit 1). Now exit 2
    naming the file; the output folder the run made is gone again."""
    root, model = work
    rc, text, after = on_tmpfs(
        root, "true", '"%s" run "%s" --no-animation --t-end %s --out "$D/out"'
        % (LAUNCHER, model, T_END), free=16384)
    assert rc == cli.EXIT_INPUT, text
    assert "simphant: error: cannot write '%s/body_Rod_body.csv': No space left on device; " \
        "nothing written" % (root / "disk" / "out") in text
    assert "internal error" not in text
    assert [a for a in after if "  " not in a] == ["filler"]


def test_the_sweep_document_on_a_full_disk_is_not_left_broken(work):
    """The sweep's document is saved by the same checked save (ModelFile.save_as): on a full
    disk no broken swing_sweep.FCStd and no temporary file remain."""
    root, model = work
    code = ("import sys; from SimPhantWorkbench.cli.common import import_freecad; "
            "from SimPhantWorkbench.document.opening import ModelFile, ModelFileError\n"
            "m = ModelFile(import_freecad(), sys.argv[1])\n"
            "try:\n    m.save_as(sys.argv[2])\nexcept ModelFileError as e:\n"
            "    print(e); sys.exit(2)\n")
    (root / "save.py").write_text(code)
    rc, text, after = on_tmpfs(root, "true", '"%s" "%s" "%s" "$D/swing_sweep.FCStd"'
                               % (RUN_PYTHON, root / "save.py", model), free=4096)
    assert rc == 2, text
    assert "cannot save '%s/swing_sweep.FCStd'" % (root / "disk") in text
    assert "nothing written" in text
    assert [a for a in after if "  " not in a] == ["filler"]


def test_in_place_through_a_symlink_writes_the_real_file_with_its_view_data(work):
    """Item 5: --in-place on a symlinked model replaced the link with a copy and the real
    file lost GuiDocument.xml. Now the real file gets the result, keeps its view data and
    its permissions; the link stays a link."""
    root, model = work
    real_dir = root / "real"
    real_dir.mkdir()
    real = with_gui(model, real_dir / "swing.FCStd")
    os.chmod(real, 0o640)
    link = root / "link.FCStd"
    os.symlink(real, link)
    with zipfile.ZipFile(real) as z:
        gui = {n: z.read(n) for n in ("GuiDocument.xml", "DiffuseColor")}
    code, out, err = run_cli("run", link, "--in-place", "--out", root / "out", "--t-end", T_END,
                             "--no-animation")
    assert code == 0, err
    assert os.path.islink(link) and os.readlink(link) == real
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o640
    saved = inventory.file_inventory(real)
    assert any(e.type == "App::FeaturePython" and e.proxy[1] == "Result"
               for e in saved.values() if e.proxy)
    with zipfile.ZipFile(real) as z:
        assert {n: z.read(n) for n in gui} == gui
    assert temps(root) == temps(real_dir) == []


KILLED_SAVE = """
import os, signal, sys
from SimPhantWorkbench.output import atomic
def killed(tmp, final):
    os.kill(os.getpid(), signal.SIGKILL)        # kill -9 with the checked copy written
atomic.commit = killed
from SimPhantWorkbench.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_kill_9_during_an_in_place_save_leaves_no_temporary_file_after_the_next_run(work):
    """Weaker spot: kill -9 during an --in-place save left a 13-71 MB temporary file. The
    model stays whole, and the next run on it removes what the killed save left."""
    root, model = work
    digest = outdir.file_sha256(model)
    done = subprocess.run([RUN_PYTHON, "-c", KILLED_SAVE, "run", model, "--in-place",
                           "--no-animation", "--t-end", T_END, "--out", str(root / "out")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert outdir.file_sha256(model) == digest
    assert len(temps(root)) == 1                       # what the killed save left
    code, out, err = run_cli("run", model, "--no-animation", "--t-end", T_END, "--out",
                             root / "out")
    assert code == 0, err
    assert temps(root) == [] and outdir.file_sha256(model) == digest
    # a temporary file of a save still running (this process) is left alone
    mine = atomic.temp_path(str(root))
    open(mine, "w").close()
    assert atomic.remove_stale_temps(str(root)) == [] and os.path.exists(mine)
    os.remove(mine)
    # a save into another folder (the sweep's document) removes what a killed one left there
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    folder = root / "sweep"
    folder.mkdir()
    stale = atomic.temp_path(str(folder)).replace("-%d-" % os.getpid(), "-%d-" % dead.pid, 1)
    open(stale + ".3f2a", "w").close()                 # as FreeCAD names its own temporaries
    from SimPhantWorkbench.document.opening import ModelFile
    with ModelFile(FreeCAD, model) as m:
        m.save_as(str(folder / "swing_sweep.FCStd"))
    assert sorted(os.listdir(str(folder))) == ["swing_sweep.FCStd"]


# ============================================================================ the CLI's files

def test_a_forged_run_json_with_a_run_id_deletes_nothing(work):
    """Weaker spot: a run.json with a run id and the hash of a file the forger knows made
    the next run delete that file. Only a manifest signed with this user's key proves a
    file is a previous run's."""
    root, model = work
    out = root / "out"
    out.mkdir()
    (out / "precious.txt").write_text("thesis")
    forged = dict(run_id="0" * 32, files=["precious.txt", "run.json"],
                  sha256={"precious.txt": outdir.file_sha256(str(out / "precious.txt"))},
                  signature="0" * 64)
    (out / "run.json").write_text(json.dumps(forged))
    code, _, err = run_cli("run", model, "--out", out, "--t-end", T_END, "--no-animation")
    assert code == 0, err
    assert (out / "precious.txt").read_text() == "thesis"
    # the run's own manifest is signed: its files are removed by the next run when unchanged
    info = json.loads((out / "run.json").read_text())
    assert info["signature"] == outdir.manifest_signature(info, outdir.manifest_key())
    info["sha256"]["precious.txt"] = forged["sha256"]["precious.txt"]     # tampered
    (out / "run.json").write_text(json.dumps(info))
    code, _, err = run_cli("run", model, "--out", out, "--t-end", T_END, "--no-animation")
    assert code == 0, err
    assert (out / "precious.txt").read_text() == "thesis"


def test_two_outputs_of_one_name_are_refused_before_anything_is_moved(tmp_path):
    """Item 6 (the commit): two staged outputs of one name moved the first and failed on
    the second, leaving a half-written folder; refused before anything is moved."""
    target = outdir.OutputDir(str(tmp_path / "out"))
    staging = target.prepare()
    for name in ("a.csv", "animation.gif"):
        open(os.path.join(staging, name), "w").close()
    with pytest.raises(outdir.OutputDirError, match="two outputs are named 'animation.gif'"):
        target.commit(["a.csv", "animation.gif", "animation.gif"], {})
    assert os.listdir(str(tmp_path / "out")) == [os.path.basename(staging)]
    target.discard()


def test_video_names_of_the_runs_own_files_are_refused_before_the_run(work):
    """Item 6: --video animation.gif (a file the run writes itself) ended in exit 1 with 11
    files in DIR and no run.json. Refused before solving, in any spelling."""
    root, model = work
    out = root / "out"
    for name in ("animation.gif", str(out / "animation.gif"), ".hidden.gif"):
        calls = []
        code, _, err = run_cli("run", model, "--out", out, "--t-end", T_END, "--video", name,
                               progress=lambda t, te: calls.append(t))
        assert code == cli.EXIT_INPUT, err
        assert "the run writes '%s' itself" % os.path.basename(name) in err
        assert calls == [] and not out.exists()


def test_an_existing_video_target_is_not_overwritten(work):
    """Item 6: --video onto an existing file overwrote it silently; refused before the run
    (outside DIR always, inside DIR unless the previous run wrote it)."""
    root, model = work
    (root / "clip.gif").write_text("mine")
    out = root / "out"
    out.mkdir()
    (out / "mine.gif").write_text("mine too")
    for name, path in ((str(root / "clip.gif"), root / "clip.gif"),
                       ("mine.gif", out / "mine.gif")):
        calls = []
        code, _, err = run_cli("run", model, "--out", out, "--t-end", T_END, "--video", name,
                               progress=lambda t, te: calls.append(t))
        assert code == cli.EXIT_INPUT, err
        assert "'%s' exists" % path in err and "not overwriting it" in err
        assert calls == []
    assert (root / "clip.gif").read_text() == "mine"
    assert (out / "mine.gif").read_text() == "mine too"
    assert sorted(os.listdir(out)) == ["mine.gif"]


# ============================================================================ values

def test_t_end_1e_300_runs_from_t0_to_t_end(work):
    """Weaker spot: t_end 1e-300 s gave an IndexError (the output times collapsed to one
    sample). A span shorter than the output interval runs one step, t0 and t_end stored."""
    root, model = work
    code, out, err = run_cli("run", model, "--out", root / "out", "--t-end", "1e-300",
                             "--no-animation")
    assert code == 0, err
    rows = (root / "out" / "energy.csv").read_text().splitlines()
    assert [r.split(",")[0] for r in rows[1:]] == ["0.0", "1e-300"]


def test_output_dt_1e_13_is_bad_input_naming_the_value(work):
    """Weaker spot: output_dt 1e-13 s (a raw MemoryError before): exit 2 naming it."""
    root, model = work
    code, _, err = run_cli("run", model, "--out", root / "out", "--output-dt", "1e-13")
    assert code == cli.EXIT_INPUT, err
    assert "output_dt 1e-13 s" in err and "internal" not in err


def test_a_460_deep_unary_minus_is_bad_input_naming_the_force(work):
    """Weaker spot: a time function of 460 nested unary minuses raised a RecursionError
    (internal error); its depth is bounded like its length."""
    root, model = work
    doc = FreeCAD.openDocument(model)
    try:
        doc.getObject("Push").ForceFunction = "-" * 460 + "t, 0, 0"
        doc.save()
    finally:
        FreeCAD.closeDocument(doc.Name)
    code, _, err = run_cli("run", model, "--out", root / "out", "--t-end", T_END)
    assert code == cli.EXIT_INPUT, err
    assert "Force 'Push': the function '" in err and "nests 464 levels deep; at most 100" in err


def test_duplicate_load_names_are_refused():
    """Weaker spot: the solver's Model took two loads of one name (results by name then
    ambiguous), unlike bodies, joints, force elements and drivers."""
    from SimPhantWorkbench.solver import Model, ModelError
    m = Model()
    b = m.add_body("b", 1.0, (1.0, 1.0, 1.0))
    m.add_force(b, (0.0, 0.0, 1.0), name="F")
    with pytest.raises(ModelError, match="torque 'F': a load with this name already exists"):
        m.add_torque(b, (0.0, 0.0, 1.0), name="F")
    assert [ld.name for ld in m.loads] == ["F"]
