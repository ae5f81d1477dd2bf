"""The document side of SimPhant (FreeCAD, no Qt): reading studies out of FreeCAD documents.

``base`` (type tests, studies and members, undo steps), ``units`` (the mm/deg/Rotation
<-> SI conversions), ``massprops`` and ``references`` (geometry), ``links`` (picked
references as stored, and their migration from older documents), ``bodies``, ``joints``,
``elements`` (loads, force elements, drivers) and ``settings`` read one kind of object each,
``conversion`` builds the solver model of a study from them (the one document -> solver
conversion); ``file_check``, ``inventory`` and ``result_check`` guard what is read and
saved, ``results`` loads stored results, ``scene`` tessellates bodies for outputs and the
viewer, ``assembly`` reads FreeCAD Assembly workbench assemblies, ``opening`` opens and
saves documents for every entry point, ``headless`` starts FreeCAD without its GUI.

Nothing here creates SimPhant objects or imports their proxy classes
(``SimPhantWorkbench.objects``, one layer up).
"""
