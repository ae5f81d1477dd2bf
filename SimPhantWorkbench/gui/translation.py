"""Translatable GUI strings, as FreeCAD's own Python workbenches mark and load them.

* ``translate("SimPhant", "text")`` (``FreeCAD.Qt.translate``) for every string the user
  reads: widget texts, tooltips, dialog titles, messages, report-view lines. A string
  with ``%`` fields translates its pattern and fills it afterwards:
  ``translate("SimPhant", "Study '%s'") % study.Label``, never the filled-in result.
  Texts of the registries (joint, force-element and driver kinds, motion functions,
  integrators, plot quantities) are translated where they are shown, from the same
  "SimPhant" context.
* ``QT_TRANSLATE_NOOP(context, "text")`` marks a string that is translated later by
  someone else: command menu texts and tooltips, which FreeCAD translates itself with
  the command's name as context (``QT_TRANSLATE_NOOP("SimPhant_Solve", "Solve")``), and
  toolbar names (context "Workbench"), and tables of labels translated when shown.

``make translations`` extracts every marked string (and the registries' texts, through
``resources/translations/registry_strings.py``) into
``resources/translations/SimPhant.ts``, the template translators start from; their
``SimPhant_<language>.qm`` files go into the same folder, which ``install`` registers
with FreeCAD when the workbench is loaded.
"""
import os

import FreeCAD

__all__ = ["translate", "QT_TRANSLATE_NOOP", "CONTEXT", "TRANSLATIONS_DIR", "install"]

#: the context of the workbench's own strings (commands use their name, toolbars "Workbench")
CONTEXT = "SimPhant"
TRANSLATIONS_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "resources", "translations")

translate = FreeCAD.Qt.translate
QT_TRANSLATE_NOOP = FreeCAD.Qt.QT_TRANSLATE_NOOP


def install():
    """Register ``TRANSLATIONS_DIR`` (the workbench's ``.qm`` files) with FreeCAD's
    translator and load the files of the language FreeCAD runs in."""
    import FreeCADGui
    FreeCADGui.addLanguagePath(TRANSLATIONS_DIR)
    FreeCADGui.updateLocale()
