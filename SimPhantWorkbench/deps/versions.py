"""Version numbers and requirement specifiers, as much of PEP 440/508 as the checks need.

No third-party import (``packaging`` is not in every FreeCAD's Python): versions
compare by their leading release numbers (``"2.0.0rc1"`` -> ``(2, 0, 0)``), a
specifier is a comma-separated list of ``op version`` clauses.
"""
import re

__all__ = ["parse", "satisfies", "spec_text", "requirement_spec"]

_OPS = ("~=", "==", "!=", "<=", ">=", "<", ">")


def parse(version):
    """``(major, minor, micro, ...)`` of a version string; ``()`` when it has no number."""
    m = re.match(r"\s*v?(\d+(?:\.\d+)*)", str(version or ""))
    return tuple(int(p) for p in m.group(1).split(".")) if m else ()


def _cmp(a, b):
    n = max(len(a), len(b))
    a = a + (0,) * (n - len(a))
    b = b + (0,) * (n - len(b))
    return (a > b) - (a < b)


def _clauses(spec):
    for part in (spec or "").split(","):
        part = part.strip().strip("()").strip()
        if not part:
            continue
        for op in _OPS:
            if part.startswith(op):
                yield op, part[len(op):].strip()
                break


def satisfies(version, spec):
    """True when ``version`` meets every clause of ``spec`` (e.g. ``">=1.22,<2.6"``);
    a clause with a wildcard (``==1.2.*``) compares its numbers as a prefix."""
    v = parse(version)
    for op, ref in _clauses(spec):
        if op in ("==", "!=") and ref.endswith(".*"):
            prefix = parse(ref[:-2])
            same = v[:len(prefix)] == prefix
            if same != (op == "=="):
                return False
            continue
        c = _cmp(v, parse(ref))
        ok = {"==": c == 0, "!=": c != 0, "<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0,
              "~=": c >= 0}[op]
        if not ok:
            return False
    return True


def spec_text(minimum=None, below=None):
    """``">=minimum,<below"`` (either part may be missing)."""
    return ",".join(p for p in ((">=" + minimum) if minimum else "",
                                ("<" + below) if below else "") if p)


def requirement_spec(lines, name):
    """The version specifier a distribution's ``Requires-Dist`` lines give for ``name``
    (``""`` when it names it without one, None when it does not name it). Lines with an
    environment marker (``; extra == ...``) are skipped."""
    want = name.lower().replace("_", "-")
    for line in lines:
        req = line.split(";", 1)[0].strip() if ";" in line else line.strip()
        if ";" in line and "extra" in line.split(";", 1)[1]:
            continue
        m = re.match(r"([A-Za-z0-9_.\-]+)\s*(?:\[[^\]]*\])?\s*(.*)$", req)
        if m and m.group(1).lower().replace("_", "-") == want:
            return m.group(2).strip().strip("()").replace(" ", "")
    return None
