"""Write the workbench's SVG icons (SimPhantWorkbench/resources/icons).

Flat, 64 x 64, FreeCAD's icon look: dark outlines, two body colours (body 1
blue, body 2 orange), red for loads, green for run/check. Every joint kind of
the solver registry has one icon named by its spec (``JointSpec.icon``), and so has
every force-element kind (``FORCE_TYPES``, ``.icon``), every driver kind
(``DriverSpec.icon``, green motor badge) and every coupler kind (``CouplerSpec.icon``); a kind without a drawing here gets the
generic joint icon with its initial.

    python3 tools/gen_icons.py          # rewrite the icons
    python3 tools/gen_icons.py --check  # exit 1 if a file is out of date
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ICONS = os.path.join(ROOT, "SimPhantWorkbench", "resources", "icons")

INK = "#16212e"
B1, B1D = "#729fcf", "#204a87"          # body 1 fill, dark
B2, B2D = "#fcaf3e", "#ce5c00"          # body 2 fill, dark
RED, RED_D = "#ef2929", "#a40000"
GREEN, GREEN_D = "#8ae234", "#4e9a06"
GREY, GREY_D = "#d3d7cf", "#555753"
W = 'stroke="%s" stroke-width="2.5" stroke-linejoin="round" stroke-linecap="round"' % INK


def svg(*parts):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">\n'
            + "".join("  %s\n" % p for p in parts) + "</svg>\n")


def rect(x, y, w, h, fill, rx=2, extra=""):
    return '<rect x="%g" y="%g" width="%g" height="%g" rx="%g" fill="%s" %s %s/>' % (
        x, y, w, h, rx, fill, W, extra)


def circle(cx, cy, r, fill, stroke=True):
    return '<circle cx="%g" cy="%g" r="%g" fill="%s" %s/>' % (cx, cy, r, fill, W if stroke else "")


def path(d, fill="none", stroke=INK, width=2.5):
    return ('<path d="%s" fill="%s" stroke="%s" stroke-width="%g" stroke-linejoin="round" '
            'stroke-linecap="round"/>' % (d, fill, stroke, width))


def arrow_head(x, y, dx, dy, fill=RED, size=9):
    """Filled triangle with its tip at (x, y), pointing along (dx, dy)."""
    import math
    n = math.hypot(dx, dy)
    ux, uy = dx / n, dy / n
    bx, by = x - ux * size, y - uy * size
    px, py = -uy * size * 0.55, ux * size * 0.55
    return path("M%g,%g L%g,%g L%g,%g Z" % (x, y, bx + px, by + py, bx - px, by - py), fill,
                INK, 2)


def ground(y=54):
    hatch = "".join("M%d,%d l-6,8 " % (x, y) for x in range(12, 60, 8))
    return [path("M4,%d H60" % y, stroke=INK, width=3), path(hatch, stroke=GREY_D, width=2)]


def cube(x, y, s, fill, dark):
    d = s * 0.35
    return [path("M%g,%g h%g l%g,%g h%g Z" % (x, y, s, d, -d, -s), "#ffffff", INK),
            path("M%g,%g l%g,%g v%g l%g,%g Z" % (x + s, y, d, -d, s, -d, d), dark, INK),
            rect(x, y, s, s, fill, rx=0)]


def cog(cx, cy, r=6):
    return [circle(cx, cy, r, "#ffffff"),
            path("M%g,%g v%g a%g,%g 0 0 1 %g,%g Z" % (cx, cy, -r, r, r, r, r), INK, INK, 1),
            path("M%g,%g v%g a%g,%g 0 0 1 %g,%g Z" % (cx, cy, r, r, r, -r, -r), INK, INK, 1)]


def letter(ch, x=32, y=40, size=26, fill=INK):
    return ('<text x="%g" y="%g" font-family="sans-serif" font-weight="bold" font-size="%g" '
            'text-anchor="middle" fill="%s">%s</text>' % (x, y, size, fill, ch))


# ---------------------------------------------------------------- joints

def joint_fixed():
    return svg(rect(6, 30, 26, 22, B1), rect(32, 12, 26, 40, B2),
               path("M32,16 V50", stroke=INK, width=4),
               path("M26,24 l6,6 l-6,6 M38,24 l-6,6 l6,6", stroke=RED_D, width=3))


def joint_revolute():
    return svg(rect(4, 36, 40, 16, B1, rx=8),
               '<g transform="rotate(-40 36 44)">%s</g>' % rect(28, 36, 34, 16, B2, rx=8),
               circle(36, 44, 7, "#ffffff"), circle(36, 44, 2.5, INK, stroke=False),
               path("M14,22 A22,22 0 0 1 40,12", stroke=RED_D, width=3),
               arrow_head(46, 13, 1, 0.2, RED))


def joint_prismatic():
    return svg(rect(4, 38, 56, 12, B1, rx=1), rect(18, 22, 22, 16, B2),
               path("M12,16 H50", stroke=RED_D, width=3), arrow_head(58, 16, 1, 0, RED),
               arrow_head(4, 16, -1, 0, RED))


def joint_cylindrical():
    return svg(rect(4, 28, 56, 12, B1, rx=6), rect(20, 20, 22, 28, B2, rx=4),
               path("M16,14 H46", stroke=RED_D, width=3), arrow_head(54, 14, 1, 0, RED),
               path("M22,56 A14,5 0 0 0 42,56", stroke=RED_D, width=3),
               arrow_head(48, 53, 1, -0.6, RED, 7))


def joint_spherical():
    return svg(path("M8,30 A24,24 0 0 0 56,30 H48 A16,16 0 0 1 16,30 Z", B1, INK),
               rect(28, 4, 8, 20, B2, rx=2),
               circle(32, 30, 13, B2), circle(27, 25, 3.5, "#ffffff", stroke=False))


def joint_planar():
    return svg(path("M4,50 L18,34 H60 L46,50 Z", B1, INK),
               rect(22, 22, 20, 16, B2),
               path("M10,18 H30 M20,8 V28", stroke=RED_D, width=3),
               arrow_head(36, 18, 1, 0, RED, 7), arrow_head(20, 4, 0, -1, RED, 7))


def joint_universal():
    return svg(path("M10,58 V34 M10,40 H22 V22", stroke=B1D, width=6),
               path("M54,6 V30 M54,24 H42 V42", stroke=B2D, width=6),
               path("M22,22 L42,42 M22,42 L42,22", stroke=INK, width=7),
               path("M22,22 L42,42", stroke=B1, width=3.5),
               path("M22,42 L42,22", stroke=B2, width=3.5),
               circle(32, 32, 5, "#ffffff"))


def joint_distance():
    return svg(circle(10, 46, 7, B1), circle(54, 18, 7, B2),
               path("M16,42 L48,22", stroke=INK, width=2.5),
               arrow_head(48, 22, 32, -20, RED, 8), arrow_head(16, 42, -32, 20, RED, 8),
               path("M6,28 L14,22 M58,36 L50,42", stroke=GREY_D, width=2))


def joint_revolute_spherical():
    return svg(rect(4, 42, 24, 14, B1, rx=7), circle(16, 49, 4, "#ffffff"),
               path("M16,49 L46,20", stroke=INK, width=7), path("M16,49 L46,20", stroke=GREY, width=3),
               circle(46, 20, 10, B2), circle(42, 16, 3, "#ffffff", stroke=False))


def joint_parallel():
    """Two bars (body 1 and 2) with the same direction, '//' between them."""
    return svg('<g transform="rotate(-35 32 32)">%s%s</g>' % (rect(4, 16, 56, 10, B1, rx=3),
                                                            rect(4, 38, 56, 10, B2, rx=3)),
               path("M24,40 L32,24 M32,40 L40,24", stroke=RED_D, width=3))


def joint_perpendicular():
    """Body 2's bar standing on body 1's at a right angle, the right-angle mark."""
    return svg(rect(4, 44, 56, 12, B1, rx=3), rect(26, 6, 12, 38, B2, rx=3),
               path("M38,34 H48 V44", stroke=RED_D, width=3))


def joint_angle():
    """Body 2's bar at an angle to body 1's, the arc of the angle between them."""
    return svg(rect(4, 44, 56, 12, B1, rx=3),
               '<g transform="rotate(-50 12 50)">%s</g>' % rect(6, 44, 50, 12, B2, rx=3),
               path("M44,44 A30,30 0 0 0 34,22", stroke=RED_D, width=3),
               arrow_head(33, 20, -0.5, -1, RED, 7))


def joint_generic(initial=None):
    parts = [circle(14, 46, 10, B1), circle(50, 18, 10, B2),
             path("M22,40 L42,24", stroke=INK, width=4)]
    if initial:
        parts = [circle(32, 32, 26, "#eeeeec"), letter(initial, 32, 41, 26)]
    return svg(*parts)


# ---------------------------------------------------------------- drivers

def _motor_badge():
    """A green motor with its shaft: what marks a driver."""
    return [rect(40, 40, 20, 18, GREEN, rx=3), path("M44,46 H56 M44,52 H56", stroke=GREEN_D,
                                                     width=2)]


def driver_rotation():
    return svg(rect(4, 20, 30, 14, B1, rx=7),
               '<g transform="rotate(-35 22 27)">%s</g>' % rect(18, 20, 30, 14, B2, rx=7),
               circle(22, 27, 6, "#ffffff"), circle(22, 27, 2.2, INK, stroke=False),
               path("M8,44 A16,16 0 0 0 34,46", stroke=GREEN_D, width=3.5),
               arrow_head(36, 44, 1, -0.5, GREEN, 9), *_motor_badge())


def driver_translation():
    return svg(rect(4, 24, 34, 10, B1, rx=1), rect(10, 10, 16, 14, B2),
               path("M6,44 H30", stroke=GREEN_D, width=3.5), arrow_head(38, 44, 1, 0, GREEN, 9),
               *_motor_badge())


def driver_point():
    return svg(*(cube(6, 24, 24, B1, B1D) + [
        path("M18,36 C26,8 44,8 52,22", stroke=GREEN_D, width=3.5),
        arrow_head(54, 27, 0.4, 1, GREEN, 9), circle(18, 36, 3.5, RED, stroke=False)]
        + _motor_badge()))


def driver_angle():
    return svg(path("M8,50 L46,50", stroke=B1D, width=5), path("M8,50 L36,16", stroke=B2D, width=5),
               path("M28,50 A20,20 0 0 0 21,34", stroke=GREEN_D, width=3.5),
               arrow_head(20, 33, -0.5, -1, GREEN, 8), *_motor_badge())


def driver_direction():
    """A body's vector (blue) turned onto a prescribed direction (green)."""
    return svg(*(cube(6, 28, 22, B1, B1D) + [
        path("M17,39 L40,12", stroke=B2D, width=4), arrow_head(42, 10, 0.65, -0.76, B2, 8),
        path("M17,39 L50,26", stroke=GREEN_D, width=3),
        arrow_head(53, 25, 1, -0.4, GREEN, 8)] + _motor_badge()))


DRIVER_DRAWINGS = {"rotation": driver_rotation, "translation": driver_translation,
                   "point": driver_point, "angle": driver_angle, "direction": driver_direction}

# ---------------------------------------------------------------- couplers

def _gear_wheel(cx, cy, r, teeth, fill, dark):
    """A toothed wheel: a polygon of ``teeth`` teeth around a hub."""
    import math
    pts = []
    for k in range(4 * teeth):
        a = 2 * math.pi * k / (4 * teeth)
        rr = r if (k % 4) in (0, 1) else r - 4
        pts.append("%.1f,%.1f" % (cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return ['<polygon points="%s" fill="%s" %s/>' % (" ".join(pts), fill, W),
            circle(cx, cy, 3, dark, stroke=False)]


def coupler_gear():
    return svg(*(_gear_wheel(20, 40, 16, 8, B1, B1D) + _gear_wheel(46, 20, 12, 6, B2, B2D)))


def coupler_belt():
    return svg(path("M14,22 L44,14 M14,52 L44,38", stroke=INK, width=3.5),
               circle(14, 37, 15, B1), circle(14, 37, 3, B1D, stroke=False),
               circle(44, 26, 12, B2), circle(44, 26, 3, B2D, stroke=False))


def coupler_rack_pinion():
    teeth = "".join("M%d,44 L%d,38 L%d,38 L%d,44 " % (x, x + 2, x + 6, x + 8)
                    for x in range(6, 58, 10))
    return svg(*(_gear_wheel(32, 22, 16, 8, B2, B2D) + [
        rect(4, 44, 56, 12, B1, rx=1), path(teeth, stroke=INK, width=2)]))


def coupler_screw():
    thread = "".join("M20,%d L44,%d " % (y, y - 6) for y in range(14, 56, 8))
    return svg(rect(26, 4, 12, 56, GREY, rx=2), path(thread, stroke=INK, width=2.5),
               rect(14, 28, 36, 14, B2, rx=2))


def coupler_lead_screw():
    thread = "".join("M%d,20 L%d,36 " % (x, x + 6) for x in range(8, 56, 8))
    return svg(rect(4, 22, 56, 12, GREY, rx=2), path(thread, stroke=INK, width=2.5),
               path("M4,56 H60", stroke=INK, width=3), path("M32,40 V56", stroke=INK, width=4),
               rect(22, 14, 20, 28, B2, rx=2))


COUPLER_DRAWINGS = {"gear": coupler_gear, "belt": coupler_belt,
                    "rack_pinion": coupler_rack_pinion, "screw": coupler_screw,
                    "lead_screw": coupler_lead_screw}

JOINT_DRAWINGS = {
    "fixed": joint_fixed, "revolute": joint_revolute, "prismatic": joint_prismatic,
    "cylindrical": joint_cylindrical, "spherical": joint_spherical, "planar": joint_planar,
    "universal": joint_universal, "distance": joint_distance,
    "revolute_spherical": joint_revolute_spherical, "parallel": joint_parallel,
    "perpendicular": joint_perpendicular, "angle": joint_angle,
}

# ---------------------------------------------------------------- objects and actions


def study():
    return svg(path("M6,14 H26 L30,20 H58 V56 H6 Z", "#fce94f", INK),
               path("M6,24 H58", stroke=INK, width=2),
               path("M32,28 L22,48", stroke=INK, width=3), circle(32, 28, 3, INK, stroke=False),
               circle(21, 49, 5, B2),
               path("M30,52 A18,18 0 0 0 46,42", stroke=RED_D, width=2.5),
               arrow_head(48, 38, 0.4, -1, RED, 6))


def body():
    return svg(*(cube(10, 22, 32, B1, B1D) + cog(26, 38)))


def fixed_body():
    return svg(*(cube(12, 16, 30, GREY, GREY_D) + cog(27, 31) + ground(52)))


def force():
    return svg(*(cube(6, 30, 26, B1, B1D) + [path("M58,8 L34,32", stroke=RED_D, width=5),
                                             arrow_head(32, 34, -1, 1, RED, 13)]))


def torque():
    return svg(path("M32,60 V4", stroke=INK, width=4),
               path("M12,34 A20,12 0 1 0 52,34", stroke=RED_D, width=7),
               arrow_head(52, 20, 0.0, -1, RED, 16),
               circle(32, 34, 6, B1))


def result():
    return svg(rect(6, 8, 52, 48, "#ffffff"),
               path("M12,48 H54 M12,48 V14", stroke=GREY_D, width=2),
               path("M12,32 C20,10 26,10 32,32 S44,54 52,30", stroke=B1D, width=3.5),
               path("M12,40 C24,38 34,22 52,18", stroke=RED_D, width=2.5))


def result_outdated():
    """The result icon with a warning badge: the model changed since the run."""
    return result()[:-len("</svg>\n")] + "".join("  %s\n" % p for p in (
        path("M48,30 L63,58 H33 Z", "#fce94f", INK, 2.5),
        path("M48,39 V49", stroke=INK, width=3.5), circle(48, 54, 1.8, INK, stroke=False))) \
        + "</svg>\n"


def solve():
    return svg(circle(32, 32, 27, GREEN), path("M24,16 L48,32 L24,48 Z", "#ffffff", INK),
               path("M8,34 Q14,24 20,34 T32,34", stroke=GREEN_D, width=0))


def playback():
    return svg(rect(4, 10, 56, 34, "#2e3436", rx=3),
               path("M26,18 L42,27 L26,36 Z", "#ffffff", INK, 1.5),
               path("M8,54 H56", stroke=GREY_D, width=4),
               path("M8,54 H30", stroke=B1D, width=4), circle(30, 54, 5, B2))


def reset():
    return svg(*(cube(20, 26, 24, GREY, GREY_D) + [
        path("M10,38 A22,22 0 1 1 26,58", stroke=B1D, width=5),
        arrow_head(10, 44, -0.1, 1, B1, 12)]))


def check():
    return svg(rect(12, 8, 40, 50, "#ffffff"), rect(24, 4, 16, 8, GREY),
               path("M18,20 H46 M18,28 H38 M18,36 H30", stroke=GREY_D, width=2),
               path("M26,46 L34,54 L56,28", stroke=GREEN_D, width=9),
               path("M26,46 L34,54 L56,28", stroke=GREEN, width=4.5))


def import_assembly():
    return svg(rect(4, 6, 22, 18, B1), rect(14, 20, 22, 16, B2),
               path("M30,44 H50", stroke=GREEN_D, width=6), arrow_head(60, 44, 1, 0, GREEN, 12),
               path("M6,54 H40", stroke=INK, width=3), path("M6,44 H22", stroke=INK, width=3))


def spring():
    return svg(rect(4, 4, 22, 14, B1), rect(38, 46, 22, 14, B2),
               path("M15,18 V24 L27,28 L11,33 L27,38 L11,43 L23,47 H49 V46", stroke=INK, width=3))


def damper():
    return svg(rect(4, 4, 22, 14, B1), rect(38, 46, 22, 14, B2),
               path("M15,18 V26", stroke=INK, width=3), rect(7, 26, 16, 18, GREY, rx=1),
               path("M10,36 H20 M15,36 V52 H38", stroke=INK, width=3))


def contractile():
    return svg(rect(4, 24, 14, 16, B1), rect(46, 24, 14, 16, B2),
               path("M18,32 H26", stroke=RED_D, width=5), arrow_head(30, 32, 1, 0, RED, 10),
               path("M46,32 H38", stroke=RED_D, width=5), arrow_head(34, 32, -1, 0, RED, 10))


def joint_spring():
    return svg(path("M32,60 V4", stroke=INK, width=4), rect(4, 44, 56, 12, B1),
               path("M32,30 m-6,0 a6,6 0 1 1 6,6 a12,12 0 1 1 -12,-12 a18,18 0 1 1 18,18",
                    stroke=B2D, width=3.5))


def joint_actuator():
    return svg(path("M32,60 V4", stroke=INK, width=4), rect(4, 44, 56, 12, B1),
               path("M12,26 A20,12 0 1 0 52,26", stroke=RED_D, width=6),
               arrow_head(52, 13, 0.0, -1, RED, 14), rect(24, 14, 16, 16, GREEN, rx=2))


def joint_stop():
    """A lever on a pin swung against a red stop block: End stop."""
    return svg(rect(4, 44, 56, 12, B1), path("M14,44 L38,14", stroke=INK, width=6),
               circle(14, 44, 5, GREEN), rect(44, 6, 12, 38, RED),
               path("M34,30 A22,22 0 0 0 42,22", stroke=RED_D, width=3))


def contact():
    """A ball resting on a plate, its contact force in red: Contact."""
    return svg(rect(4, 44, 56, 12, B1), circle(32, 26, 17, B2),
               path("M12,44 H52", stroke=RED_D, width=3), path("M32,44 V60", stroke=RED,
                                                                width=4))


def loads_to_fem():
    """A part in stress colours (blue to red) pulled by two arrows: Loads to FEM."""
    grad = ('<defs><linearGradient id="s" x1="0" x2="1" y1="0" y2="0">'
            '<stop offset="0" stop-color="#3465a4"/><stop offset="0.5" stop-color="#8ae234"/>'
            '<stop offset="1" stop-color="#ef2929"/></linearGradient></defs>')
    mesh = "".join("M%d,22 L%d,42 " % (x, x + 8) for x in range(14, 46, 8))
    return svg(grad, rect(12, 22, 40, 20, "url(#s)"), path(mesh, stroke=INK, width=1.2),
               path("M4,32 H12", stroke=RED_D, width=4), arrow_head(4, 32, -1, 0, RED, 9),
               path("M52,32 H60", stroke=RED_D, width=4), arrow_head(60, 32, 1, 0, RED, 9))


def _export_arrow():
    """The green arrow leaving a file: what marks an export."""
    return [path("M40,52 H54", stroke=GREEN_D, width=6), arrow_head(63, 52, 1, 0, GREEN, 12)]


def plot_results():
    """Axes, two curves and the time cursor: the plot panel."""
    return svg(rect(4, 6, 56, 52, "#ffffff"),
               path("M10,50 H56 M10,50 V12", stroke=GREY_D, width=2),
               path("M10,36 C18,12 24,12 30,34 S42,54 54,26", stroke=B1D, width=3.5),
               path("M10,44 C22,42 32,26 54,20", stroke=RED_D, width=2.5),
               path("M38,10 V52", stroke=GREEN_D, width=2.5))


def results_viewer():
    """A separate window with a part and an orbit arrow: the 3-D viewer."""
    return svg(*([rect(4, 6, 56, 52, "#2e3436", rx=3), path("M4,14 H60", stroke=GREY, width=2)]
                 + cube(20, 24, 20, B1, B1D)
                 + [path("M12,48 A22,9 0 0 0 52,46", stroke=B2, width=3.5),
                    arrow_head(54, 42, 0.4, -1, B2, 9)]))


def export_csv():
    """A table going out: Export CSV."""
    grid = "M8,18 H44 M8,28 H44 M8,38 H44 M20,8 V48 M32,8 V48"
    return svg(rect(8, 8, 36, 40, "#ffffff", rx=1), rect(8, 8, 36, 10, GREY, rx=1),
               path(grid, stroke=GREY_D, width=1.8), *_export_arrow())


def export_plots():
    """A picture of a plot going out: Export plots."""
    return svg(rect(6, 6, 40, 40, "#ffffff", rx=1),
               path("M12,40 H42 M12,40 V12", stroke=GREY_D, width=2),
               path("M12,32 C18,12 24,12 28,28 S36,40 42,18", stroke=B1D, width=3),
               *_export_arrow())


def export_animation():
    """A film strip going out: Export animation."""
    holes = "".join("M%d,12 h4 M%d,40 h4 " % (x, x) for x in range(10, 46, 8))
    return svg(rect(6, 6, 42, 40, "#2e3436", rx=1), path(holes, stroke="#ffffff", width=3),
               rect(12, 17, 14, 18, B1, rx=1), rect(30, 17, 14, 18, B2, rx=1),
               *_export_arrow())


def _triad(x, y, s=1.0):
    return [path("M%g,%g h%g" % (x, y, 26 * s), stroke="#cc2626", width=4),
            path("M%g,%g v%g" % (x, y, -26 * s), stroke="#268c26", width=4),
            path("M%g,%g l%g,%g" % (x, y, -14 * s, 14 * s), stroke="#2659e6", width=4),
            circle(x, y, 3.5, INK, stroke=False)]


def markers_selectable():
    """A triad and the mouse pointer on it: markers catch clicks."""
    pointer = "M36,30 L36,58 L43,51 L48,62 L53,60 L48,49 L58,49 Z"
    return svg(*(_triad(22, 34) + [path(pointer, "#ffffff", INK, 2.5)]))


def show_markers():
    """A triad and a centre-of-gravity ball over a part: markers shown."""
    return svg(*(cube(24, 26, 30, GREY, GREY_D) + _triad(14, 40) + cog(46, 16)))


def hide_others():
    """One part kept, the others faded: Hide other parts."""
    faded = 'stroke-dasharray="4,3" opacity="0.6"'
    return svg(rect(4, 6, 20, 20, GREY, extra=faded), rect(40, 6, 20, 20, GREY, extra=faded),
               rect(4, 40, 20, 20, GREY, extra=faded), *cube(28, 28, 26, B1, B1D))


def show_hidden():
    """All parts shown again, with an eye: Show hidden parts."""
    eye = "M14,50 Q32,34 50,50 Q32,66 14,50 Z"
    return svg(rect(4, 6, 20, 20, B2), rect(40, 6, 20, 20, B2), rect(22, 18, 20, 20, B1),
               path(eye, "#ffffff", INK, 2.5), circle(32, 50, 5, INK, stroke=False))


FORCE_DRAWINGS = {
    "spring_damper": spring, "damper": damper, "contractile": contractile,
    "joint_spring": joint_spring, "joint_actuator": joint_actuator, "joint_stop": joint_stop,
    "contact": contact,
}


OTHER = {
    "Study.svg": study, "Body.svg": body, "FixedBody.svg": fixed_body, "Force.svg": force,
    "Torque.svg": torque, "Result.svg": result,
    "ResultOutdated.svg": result_outdated, "Solve.svg": solve, "Playback.svg": playback,
    "Reset.svg": reset, "Check.svg": check, "ImportAssembly.svg": import_assembly,
    "Joint.svg": joint_generic, "LoadsToFEM.svg": loads_to_fem,
    "PlotResults.svg": plot_results, "ResultsViewer.svg": results_viewer,
    "ExportCSV.svg": export_csv, "ExportPlots.svg": export_plots,
    "ExportAnimation.svg": export_animation, "MarkersSelectable.svg": markers_selectable,
    "ShowMarkers.svg": show_markers, "HideOthers.svg": hide_others,
    "ShowHidden.svg": show_hidden,
}


def all_icons():
    """{file name: SVG text} of every icon the workbench uses."""
    sys.path.insert(0, ROOT)
    from SimPhantWorkbench.solver.joints import JOINT_TYPES
    out = {name: fn() for name, fn in OTHER.items()}
    for kind, spec in JOINT_TYPES.items():
        draw = JOINT_DRAWINGS.get(kind)
        out[spec.icon] = draw() if draw else joint_generic(spec.label[:1].upper())
    from SimPhantWorkbench.solver.forces import FORCE_TYPES
    for kind, spec in FORCE_TYPES.items():
        draw = FORCE_DRAWINGS.get(kind)
        out[spec.icon] = draw() if draw else joint_generic(spec.label[:1].upper())
    from SimPhantWorkbench.solver.drivers import DRIVER_TYPES
    for kind, spec in DRIVER_TYPES.items():
        draw = DRIVER_DRAWINGS.get(kind)
        out[spec.icon] = draw() if draw else joint_generic(spec.label[:1].upper())
    from SimPhantWorkbench.solver.couplers import COUPLER_TYPES
    for kind, spec in COUPLER_TYPES.items():
        draw = COUPLER_DRAWINGS.get(kind)
        out[spec.icon] = draw() if draw else joint_generic(spec.label[:1].upper())
    return out


def main(argv):
    check_only = "--check" in argv
    stale = []
    for name, text in sorted(all_icons().items()):
        target = os.path.join(ICONS, name)
        old = open(target).read() if os.path.exists(target) else None
        if old != text:
            stale.append(name)
            if not check_only:
                with open(target, "w") as f:
                    f.write(text)
    if check_only and stale:
        print("out of date: %s (run tools/gen_icons.py)" % ", ".join(stale))
        return 1
    print(("%d icons out of date" if check_only else "%d icons written") % len(stale))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
