"""The GUI's strings are translatable and the translation template is up to date.

* Every string literal of the GUI rooms (and ``InitGui.py``) that reaches the user --
  a Qt widget's text, tooltip or title, a message box, a file dialog, a report-view
  line, an undo step's name, a plot's labels, an exception's message, a command's or
  the workbench's resources -- goes through ``translate`` or ``QT_TRANSLATE_NOOP``. The
  check reads the sources (``ast``): the arguments that carry text at those places are
  followed through ``%`` formatting, conditional expressions, ``str`` methods, local
  variables and the return values of the module's own functions. A string built with
  ``%`` translates its pattern, never the filled-in result.
* ``resources/translations/SimPhant.ts`` holds exactly the marked strings of the
  sources and of the registries (``registry_strings.py``, generated from the registries
  by ``make translations``): a new or changed string without ``make translations``
  fails here. Where Debian's extractor is installed, a fresh extraction in a temporary
  directory must also give the committed template's messages.
"""
import ast
import importlib.util
import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _tool():
    spec = importlib.util.spec_from_file_location("simphant_translations",
                                                  os.path.join(ROOT, "tools", "translations.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


T = _tool()

#: Qt and matplotlib calls: name -> positions of their user-visible text arguments
#: (None: every positional argument)
SINKS = {
    # widgets made with their text
    "QLabel": None, "QPushButton": None, "QCheckBox": None, "QRadioButton": None,
    "QGroupBox": None, "QToolButton": None, "QAction": None, "QDockWidget": (0,),
    "QTableWidgetItem": None, "QListWidgetItem": None,
    # texts set later
    "setText": (0,), "setToolTip": (0,), "setWindowTitle": (0,), "setPlaceholderText": (0,),
    "setTitle": (0,), "setStatusTip": (0,), "setWhatsThis": (0,), "setSuffix": (0,),
    "setPrefix": (0,), "setSpecialValueText": (0,), "setLabelText": (0,),
    "setHorizontalHeaderLabels": (0,), "setVerticalHeaderLabels": (0,), "addItems": (0,),
    "setItemText": (1,), "setItemData": (1,), "setTabText": (1,), "addTab": (1,),
    "addRow": (0,),
    # message boxes and file dialogs: title and text, caption and filter
    "information": (1, 2), "warning": (1, 2), "critical": (1, 2), "question": (1, 2),
    "getSaveFileName": (1, 3), "getOpenFileName": (1, 3), "getExistingDirectory": (1,),
    # the report view, undo steps, toolbars and menus
    "PrintMessage": (0,), "PrintWarning": (0,), "PrintError": (0,), "openTransaction": (0,),
    "appendToolbar": (0,), "appendMenu": (0,),
    # plots
    "set_xlabel": (0,), "set_ylabel": (0,), "set_title": (0,), "suptitle": (0,),
}
#: keyword arguments that carry user-visible text, whatever the call
TEXT_KEYWORDS = {"tooltip", "label", "title", "hint", "text", "caption"}
#: parameters of the GUI rooms' own helpers that carry user-visible text
TEXT_PARAMS = TEXT_KEYWORDS | {"reason"}
#: class attributes and resources that are command or workbench texts
RESOURCE_NAMES = {"menu", "tooltip", "MENU", "TIP", "title", "MenuText", "ToolTip"}
MARKERS = {"translate", "QT_TRANSLATE_NOOP"}
STR_METHODS = {"format", "join", "replace", "strip", "rstrip", "lstrip", "lower", "upper",
               "capitalize"}
PRODUCT = "SimPhant"


def worded(text):
    """True for text a user reads as words (not a format, a unit-less number, a name)."""
    text = re.sub(r"%(\(\w+\))?[-#0 +]*\d*(\.\d+)?[sdifgGeExXr%]", " ", text)
    return re.search(r"[A-Za-z]{2,}", text.replace(PRODUCT, "")) is not None


def _name(func):
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


class Module:
    """One source file: its functions by name and what is assigned to each local name."""

    def __init__(self, path, helpers):
        self.path = path
        self.rel = os.path.relpath(path, ROOT)
        with open(path, encoding="utf-8") as fh:
            self.tree = ast.parse(fh.read(), path)
        self.helpers = helpers
        self.functions = {}
        self.parent = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parent[child] = node
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions.setdefault(node.name, []).append(node)
        self.problems = []

    def scope(self, node):
        while node in self.parent and not isinstance(node, (ast.FunctionDef, ast.Lambda)):
            node = self.parent[node]
        return node if node in self.parent else self.tree

    def assigned(self, name, scope):
        """The values assigned to ``name`` in ``scope`` (a function or the module)."""
        out = []
        for node in ast.walk(scope):
            targets = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
                targets = [node.target]
            for t in targets:
                if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(t)):
                    out.append(node.value)
        return out

    def returns(self, call):
        """The return values of the module's own function ``call`` calls, if it is one."""
        func = call.func
        if isinstance(func, ast.Name) or (isinstance(func, ast.Attribute)
                                          and isinstance(func.value, ast.Name)
                                          and func.value.id in ("self", "cls")):
            defs = self.functions.get(_name(func), [])
            return [n.value for d in defs for n in ast.walk(d)
                    if isinstance(n, ast.Return) and n.value is not None]
        return None

    # ------------------------------------------------------------------ the check
    def untranslated(self, expr, seen):
        """Literals with words in ``expr`` that reach the user untranslated."""
        if expr is None or expr in seen:
            return []
        seen.add(expr)
        if isinstance(expr, ast.Constant):
            return [expr] if isinstance(expr.value, str) and worded(expr.value) else []
        if isinstance(expr, ast.JoinedStr):
            return [v for v in expr.values if isinstance(v, ast.Constant) and worded(v.value)]
        if isinstance(expr, ast.Call):
            name = _name(expr.func)
            if name in MARKERS:
                self.check_marker(expr)
                return []
            if isinstance(expr.func, ast.Attribute) and name in STR_METHODS:
                out = self.untranslated(expr.func.value, seen)
                return out + [x for a in expr.args for x in self.untranslated(a, seen)]
            values = self.returns(expr)
            return [x for v in values or () for x in self.untranslated(v, seen)]
        if isinstance(expr, ast.BinOp):
            return self.untranslated(expr.left, seen) + self.untranslated(expr.right, seen)
        if isinstance(expr, ast.IfExp):
            return self.untranslated(expr.body, seen) + self.untranslated(expr.orelse, seen)
        if isinstance(expr, ast.BoolOp):
            return [x for v in expr.values for x in self.untranslated(v, seen)]
        if isinstance(expr, (ast.Tuple, ast.List, ast.Set)):
            return [x for v in expr.elts for x in self.untranslated(v, seen)]
        if isinstance(expr, (ast.ListComp, ast.GeneratorExp)):
            return self.untranslated(expr.elt, seen)
        if isinstance(expr, ast.Name):
            return [x for v in self.assigned(expr.id, self.scope(expr))
                    for x in self.untranslated(v, seen)]
        return []

    def check_marker(self, call):
        """``translate(context, text)``: a literal text with a literal context (else the
        extractor misses it), or a marked string looked up (``translate(self.name,
        self.menu)``); never a text built before."""
        if len(call.args) < 2:
            self.report(call, "translate/QT_TRANSLATE_NOOP needs a context and a text")
            return
        text = call.args[1]
        if isinstance(text, ast.Constant) and not isinstance(call.args[0], ast.Constant):
            self.report(call, "a literal text needs a literal context (the extractor reads "
                        "both)")
        built = isinstance(text, (ast.BinOp, ast.JoinedStr)) or (
            isinstance(text, ast.Call) and _name(text.func) in STR_METHODS)
        if built:
            self.report(call, "translates a string built before: translate the pattern, "
                        "then fill it in")

    def report(self, node, what):
        self.problems.append("%s:%d: %s" % (self.rel, node.lineno, what))

    def sink(self, node, exprs, where):
        for expr in exprs:
            for lit in self.untranslated(expr, set()):
                self.report(lit, "untranslated text %r (%s)" % (
                    getattr(lit, "value", "f-string"), where))

    def text_arguments(self, call):
        name = _name(call.func)
        exprs = [kw.value for kw in call.keywords if kw.arg in TEXT_KEYWORDS]
        args = list(call.args)
        if name == "addItem":
            positions = (1,) if len(args) == 3 else (0,)
        elif name == "text":
            positions = (2,)              # matplotlib's Axes.text(x, y, s)
        elif name in SINKS:
            positions = SINKS[name]
        else:
            positions = self.helpers.get(name, ())
        if positions is None:
            positions = range(len(args))
        return exprs + [args[i] for i in positions if i < len(args)]

    def run(self):
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Call):
                self.sink(node, self.text_arguments(node), "%s()" % _name(node.func))
            elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) \
                    and str(_name(node.exc.func)).endswith("Error"):
                self.sink(node, node.exc.args[:1], "exception message")
            elif isinstance(node, ast.Assign):
                names = {_name(t) for t in node.targets}
                if names & RESOURCE_NAMES:
                    self.sink(node, [node.value], "command or panel resource")
            elif isinstance(node, ast.Dict):
                self.sink(node, [v for k, v in zip(node.keys, node.values)
                                 if isinstance(k, ast.Constant) and k.value in RESOURCE_NAMES],
                          "command resources")
            elif isinstance(node, ast.FunctionDef) and node.name in RESOURCE_NAMES \
                    and any(_name(d) == "property" for d in node.decorator_list):
                self.sink(node, [n.value for n in ast.walk(node)
                                 if isinstance(n, ast.Return) and n.value is not None],
                          "command resource")
        return self.problems


def helper_text_positions(paths):
    """``{function name: positions of its text parameters}`` of the GUI rooms' own
    functions, methods and classes (their ``__init__``), ``self`` left out."""
    out = {}
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), path)
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                init = [n for n in node.body if isinstance(n, ast.FunctionDef)
                        and n.name == "__init__"]
                if init:
                    out[node.name] = _text_positions(init[0])
            elif isinstance(node, ast.FunctionDef) and not node.name.startswith("__"):
                out[node.name] = tuple(sorted(set(out.get(node.name, ()))
                                              | set(_text_positions(node))))
    return {k: v for k, v in out.items() if v}


def _text_positions(func):
    params = [a.arg for a in func.args.args]
    if params[:1] in (["self"], ["cls"]):
        params = params[1:]
    return tuple(i for i, p in enumerate(params) if p in TEXT_PARAMS)


def untranslated_strings(paths):
    helpers = helper_text_positions(paths)
    return [p for path in paths for p in Module(path, helpers).run()]


# ---------------------------------------------------------------------------- (a) the check

def test_every_gui_string_goes_through_translate():
    problems = untranslated_strings(T.gui_sources())
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("source, finds", [
    ('QtGui.QLabel("Joint kind")', "Joint kind"),
    ('box.setToolTip("Click, then pick %s" % x)', "Click, then pick"),
    ('message("warning", "SimPhant: apply best", str(exc))', "SimPhant: apply best"),
    ('FreeCAD.Console.PrintMessage("SimPhant: wrote %s\\n" % p)', "SimPhant: wrote"),
    ('text = "remaining ~%.0f s" % eta\nlabel.setText(text)', "remaining"),
    ('raise ValueError("Study %s has no result" % s)', "has no result"),
    ('class C:\n    menu = "Solve"', "Solve"),
    ('def GetResources(self):\n    return {"MenuText": "Joints"}', "Joints"),
    ('ax.set_xlabel("time [s]")', "time [s]"),
    ('ax.plot(x, y, "o", label="best")', "best"),
    ('form.row("Mass", box)', "Mass"),
    ('b.setText(f"frame {i}")', "frame"),
    ('b.setText(translate("SimPhant", "Study %s" % name))', "translate the pattern"),
    ('def f(self):\n    return "Pick a vertex"\nlabel.setText(self.f())', "Pick a vertex"),
])
def test_the_check_finds_a_planted_untranslated_string(tmp_path, source, finds):
    path = tmp_path / "planted.py"
    path.write_text("def row(self, label, widget, hint=None):\n    pass\n\n\n"
                    "def message(kind, title, text):\n    pass\n\n\n" + source + "\n")
    problems = untranslated_strings([str(path)])
    assert any(finds in p for p in problems), problems


@pytest.mark.parametrize("source", [
    'QtGui.QLabel(translate("SimPhant", "Joint kind"))',
    'box.setToolTip(translate("SimPhant", "Click, then pick %s") % x)',
    'FreeCAD.Console.PrintMessage(translate("SimPhant", "SimPhant: wrote %s") % p + "\\n")',
    'class C:\n    menu = QT_TRANSLATE_NOOP("SimPhant_Solve", "Solve")',
    'label.setText("%s: %s" % (a, b))',
    'self.kind_box.addItem(icon, translate("SimPhant", spec.label), "revolute_spherical")',
    'combo.addItem(translate("SimPhant", "World axes"), "World")',
    'b.setText("\\u25b6 " + text)',
    'message("warning", self.title(), reason)',
])
def test_the_check_passes_translated_strings(tmp_path, source):
    path = tmp_path / "fine.py"
    path.write_text(source + "\n")
    assert untranslated_strings([str(path)]) == []


# ---------------------------------------------------------------------------- (b) the template

def marked_messages(paths):
    """``{(context, text)}`` of every ``translate``/``QT_TRANSLATE_NOOP`` call with literal
    arguments in ``paths`` (what the extractor collects)."""
    out = set()
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) in MARKERS \
                    and len(node.args) >= 2 and all(isinstance(a, ast.Constant)
                                                    and isinstance(a.value, str)
                                                    for a in node.args[:2]):
                out.add((node.args[0].value, node.args[1].value))
    return out


def test_the_registry_strings_are_those_of_the_registries():
    with open(T.STUB, encoding="utf-8") as fh:
        assert fh.read() == T.stub_text(), \
            "registry_strings.py is out of date: run make translations"


def test_the_template_holds_exactly_the_marked_strings():
    marked = marked_messages(T.gui_sources() + [T.STUB])
    held = T.messages(T.TEMPLATE)
    missing, stale = sorted(marked - held), sorted(held - marked)
    assert not missing and not stale, (
        "SimPhant.ts is out of date (run make translations; the extractor reads no \\u "
        "escapes): missing %s, no longer in the sources %s" % (missing[:10], stale[:10]))
    assert ("SimPhant", "Joint kind") in held and ("SimPhant_Solve", "Solve") in held \
        and ("Workbench", "SimPhant run") in held and ("SimPhant", "Revolute") in held


def test_a_fresh_extraction_gives_the_committed_messages():
    if shutil.which(T.TOOL) is None:
        pytest.skip("%s not installed (tools/setup_env.sh --translations); the template is "
                    "checked against the sources above" % T.TOOL)
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "translations.py"),
                           "--check"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
