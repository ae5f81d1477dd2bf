"""View providers of the SimPhant document objects (GUI only; FEM's ``femviewprovider``).

``factory`` attaches them when ``FreeCAD.GuiUp``; one module per object type,
``view_<type>.py``. Module paths and class names are stored in saved documents.
"""
