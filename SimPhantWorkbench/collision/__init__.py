"""Distances and interference between the tessellated solids of the bodies.

A FreeCAD-free room (NumPy, SciPy and the optional ``python-fcl``): the document side
tessellates the bodies (``document.scene``) and hands their triangle meshes here.

Modules
=======
``geometry``  ``Solid`` (a closed triangle mesh in its body's own frame, SI units) and
              ``proximity(solid_a, pose_a, solid_b, pose_b)``: the signed distance of
              two solids at given poses, clearance > 0 apart, minus the penetration
              depth when they overlap, with the witness points on each surface. This is
              the narrow phase any other user (contact forces) calls.
``gjk``       ``hull_distance``: bounds of the distance between the convex hulls of two
              point sets at given poses (GJK, numba), ``penetration_depth``: bounds of
              the depth of two overlapping hulls (EPA, numba), and ``surface_point``:
              the point of a triangle mesh nearest a given point.
``probe``     ``hull_between``: the two solids' poses between two output samples and the
              distance of their hulls (GJK) in one compiled call, the search's probe.
``motion``    ``Trajectory``: a body's pose between the output samples of a result
              (the interpolant along which the checks run) and the bound on how fast
              any point of a solid moves there.
``along``     ``check_pairs``: per pair of bodies, the minimum clearance over a run, the
              intervals of interference, the first contact and the largest penetration,
              found between the output samples too (branch and bound on the signed
              distance, whose rate is bounded by the relative speed of the solids).

FCL (the Flexible Collision Library, through ``python-fcl``) answers the mesh queries
the hulls cannot settle.
Without it everything here raises ``CollisionUnavailable`` with ``INSTALL_HINT``;
``missing_reason()`` says why, for the commands that grey out.
"""

__all__ = ["missing_reason", "require", "CollisionUnavailable", "INSTALL_HINT", "available"]

#: how to get the optional collision library into FreeCAD's Python
INSTALL_HINT = ("Install python-fcl into FreeCAD's Python packages: `make setup` in the "
                "SimPhant checkout, or pip install --no-deps --target "
                "<FreeCAD user data>/AdditionalPythonPackages python-fcl")


class CollisionUnavailable(RuntimeError):
    """The collision library (python-fcl) cannot be imported."""


_MISSING = []


def missing_reason():
    """``None`` when python-fcl imports, else why not (one line)."""
    if not _MISSING:
        try:
            import fcl  # noqa: F401
            _MISSING.append(None)
        except Exception as exc:  # noqa: BLE001 - ImportError, a broken binary wheel
            _MISSING.append("python-fcl cannot be imported (%s: %s)"
                            % (type(exc).__name__, exc))
    return _MISSING[0]


def available():
    return missing_reason() is None


def require():
    """The ``fcl`` module; ``CollisionUnavailable`` (with the install hint) without it."""
    reason = missing_reason()
    if reason is not None:
        raise CollisionUnavailable("%s. %s" % (reason, INSTALL_HINT))
    import fcl
    return fcl
