"""The ``GuiDocument.xml`` the example models are saved with (``make_examples.py``).

Saved headless, a document has none, and FreeCAD's GUI would open it with every
object hidden: this one gives each object its visibility, the bodies' shapes their
colours (those of the animation) and a camera looking at the model.
"""
import math

import FreeCAD

V = FreeCAD.Vector

#: colours of the moving bodies' shapes, in study order (those of the animation), and of
#: the fixed ones
MOVING_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd")
FIXED_COLOR = "#9a9a9a"


def packed(color):
    """'#rrggbb' -> FreeCAD's packed colour (r << 24 | g << 16 | b << 8 | transparency)."""
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return (r << 24) | (g << 16) | (b << 8)




#: the GUI's initial view (elevation, azimuth) [deg], as matplotlib's and the animation's:
#: planar mechanisms seen mostly from -y
DEFAULT_VIEW = (18.0, -72.0)


def camera_settings(doc, view):
    """An Open Inventor orthographic camera looking at the visible shapes from ``view``."""
    boxes = [o.Shape.BoundBox for o in doc.Objects
             if o.Visibility and hasattr(o, "Shape") and not o.Shape.isNull()]
    bb = boxes[0]
    for b in boxes[1:]:
        bb.add(b)
    elev, azim = (math.radians(a) for a in view)
    z = V(math.cos(elev) * math.cos(azim), math.cos(elev) * math.sin(azim), math.sin(elev))
    y = (V(0, 0, 1) - z * z.z).normalize()
    x = y.cross(z)
    rot = FreeCAD.Rotation(FreeCAD.Matrix(x.x, y.x, z.x, 0, x.y, y.y, z.y, 0,
                                          x.z, y.z, z.z, 0, 0, 0, 0, 1))
    size = bb.DiagonalLength
    pos = bb.Center + z * (2.0 * size)
    axis = rot.Axis
    return ("OrthographicCamera {\n  viewportMapping ADJUST_CAMERA\n  position %.6g %.6g %.6g\n"
            "  orientation %.9g %.9g %.9g  %.9g\n  nearDistance %.6g\n  farDistance %.6g\n"
            "  aspectRatio 1\n  focalDistance %.6g\n  height %.6g\n\n}\n"
            % (pos.x, pos.y, pos.z, axis.x, axis.y, axis.z, rot.Angle, 0.5 * size,
               4.0 * size, 2.0 * size, 1.1 * size))


def gui_document_xml(study, view=DEFAULT_VIEW):
    """A minimal ``GuiDocument.xml``: visibility (from the App side), the shape colours
    and a camera looking at the model from ``view`` (elevation, azimuth in degrees).

    Saved headless, a document has no ``GuiDocument.xml``, and FreeCAD's GUI then
    opens it with every object hidden. This one gives each object its view
    provider's ``Visibility`` and the bodies' shapes a ``ShapeColor``.
    """
    from xml.sax.saxutils import quoteattr
    from SimPhantWorkbench.document.base import study_bodies
    doc = study.Document
    colors = {}
    moving = 0
    for body in study_bodies(study):
        if body.Fixed:
            colors[body.ShapeObject.Name] = FIXED_COLOR
        else:
            colors[body.ShapeObject.Name] = MOVING_COLORS[moving % len(MOVING_COLORS)]
            moving += 1
    items = []
    for obj in doc.Objects:
        props = ['                <Property name="Visibility" type="App::PropertyBool">\n'
                 '                    <Bool value="%s"/>\n'
                 '                </Property>' % ("true" if obj.Visibility else "false")]
        if obj.Name in colors:
            props.append('                <Property name="ShapeColor" type="App::PropertyColor">\n'
                         '                    <PropertyColor value="%d"/>\n'
                         '                </Property>' % packed(colors[obj.Name]))
        items.append('        <ViewProvider name="%s" expanded="0">\n'
                     '            <Properties Count="%d">\n%s\n'
                     '            </Properties>\n'
                     '        </ViewProvider>' % (obj.Name, len(props), "\n".join(props)))
    return ("<?xml version='1.0' encoding='utf-8'?>\n"
            '<Document SchemaVersion="1">\n'
            '    <ViewProviderData Count="%d">\n%s\n    </ViewProviderData>\n'
            '    <Camera settings=%s/>\n'
            "</Document>\n" % (len(items), "\n".join(items),
                                quoteattr(camera_settings(doc, view))))


def add_gui_document(path, xml):
    """Add ``GuiDocument.xml`` to the .FCStd archive at ``path`` (if it has none)."""
    import zipfile
    with zipfile.ZipFile(path) as z:
        if "GuiDocument.xml" in z.namelist():
            return
    with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("GuiDocument.xml", xml)
