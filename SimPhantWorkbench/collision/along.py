"""Interference of pairs of solids along a motion, between the output samples too.

For a pair (a, b) the signed distance ``d(t)`` (``geometry.proximity``: clearance > 0,
minus the penetration depth when they overlap) changes no faster than the bound ``V``
on the relative speed of their points on each segment between two samples
(``motion.speed_bound``). On a time span ``[t0, t1]`` with known ends ``d0``, ``d1``:

* ``d(t) >= (d0 + d1 - V (t1 - t0)) / 2``: when that lower bound is > 0 the solids
  cannot touch in between;
* ``d(t) <= (d0 + d1 + V (t1 - t0)) / 2``: when that upper bound is < 0 they cannot
  come apart in between;
* the lower bound also tells whether the span can hold a smaller ``d`` than the
  smallest found so far by more than ``slack``: ``resolution`` once an overlap deeper
  than ``tolerance`` is found, else the largest of ``resolution``, ``tolerance`` and
  5 % of the smallest clearance found (a far pair's minimum clearance needs no finer
  answer).

``check_pair`` starts from the output samples and splits every span that could hold a
contact, a separation or a new minimum, until the span is no longer than
``resolution / V``; the ends of every stretch of overlap are then bisected to the same
accuracy. Every interval of interference (also one that begins and ends between two
output samples) is found, its ends to within ``resolution`` of relative motion (linear
interpolation of ``d`` in the last span), its maximum penetration to within
``resolution``, and the minimum clearance of a pair that never interferes to within
that ``slack`` (never below the true one: it is an exact query's). A broad phase on
bounding boxes of each solid (its body-frame box turned into world axes, vectorised
over the samples) skips the exact query where the boxes alone prove the solids farther
apart than the smallest distance found so far; per segment, the gap between the two
solids' swept boxes (``Trajectory.swept_boxes``: each holds its solid over the whole
segment) is a floor under every span's lower bound there, and the candidate segments
are visited by their lower bound, smallest first, so that the smallest distance found
early prunes the rest. At every instant the search probes, the distance of the two
solids' convex hulls (``probe.hull_between``: the two poses and GJK in one compiled
call, microseconds) stands in for ``d`` in the
span bounds when it is > 0 (no overlap) and not below the smallest distance found less
the slack (no new minimum); only otherwise is the exact query made (``geometry.proximity``).
"""
import math
from collections import namedtuple

import numpy as np

from .geometry import Proximity, proximity
from .motion import speed_bound, speed_bounds

__all__ = ["PairReport", "Interval", "Interference", "check_pair", "check_pairs",
           "box_bounds", "box_bounds_to", "swept_bounds", "swept_bounds_to",
           "MAX_QUERIES_PER_PAIR"]

#: safety limit of exact queries per pair and run (a pair in contact over a long run
#: at a very fine resolution); the report says when it was reached
MAX_QUERIES_PER_PAIR = 20000

Interval = namedtuple("Interval", ["start", "end", "max_depth", "time_of_max", "point_a",
                                   "point_b"])
Interval.__doc__ = """One stretch of interference: start, end [s]; max_depth [m] and the
time [s] it is reached; point_a, point_b (3,) the witness points there (world)."""


class PairReport:
    """What ``check_pair`` found for solids a and b.

    Attributes
    ----------
    a, b : the two solids' labels; names : their result names (None: fixed)
    min_distance : smallest signed distance over the run [m] (negative: the largest
        penetration), at ``time_of_min``, witness points ``point_a``, ``point_b``
    intervals : list of ``Interval`` (chronological)
    frames : (n,) signed distance at each output sample [m] (``nan`` where the broad
        phase proved the solids far enough apart not to need it)
    samples : (times (k,), distances (k,)): every exact query of the search, in time
        order (the output samples it evaluated and the instants between them)
    frame_points : ``{sample index: (point_a (3,), point_b (3,))}`` the witness points
        [m, world] at the output samples where the solids overlap (the search evaluates
        every sample inside an interval of interference; few are kept: cheap for long
        runs and many pairs)
    queries : exact distance queries made; complete : False when
        ``MAX_QUERIES_PER_PAIR`` stopped the search (the figures are then those found)
    hull_queries : distances of the two convex hulls computed (GJK): where they prove
        the time holds neither an overlap nor a new minimum no exact query is made
    """

    def __init__(self, a, b, names):
        self.a, self.b, self.names = a, b, names
        self.min_distance = math.inf
        self.time_of_min = math.nan
        self.point_a = self.point_b = None
        self.intervals = []
        self.frames = None
        self.frame_points = {}
        self.samples = (np.zeros(0), np.zeros(0))
        self.queries = 0
        self.hull_queries = 0
        self.complete = True

    @property
    def interferes(self):
        return bool(self.intervals)

    @property
    def first_contact(self):
        """Start [s] of the first interval of interference, ``nan`` without one."""
        return self.intervals[0].start if self.intervals else math.nan

    @property
    def max_depth(self):
        """Largest penetration depth [m] (0 without interference)."""
        return max((iv.max_depth for iv in self.intervals), default=0.0)

    @property
    def interference_time(self):
        """Total duration of the intervals [s]."""
        return float(sum(iv.end - iv.start for iv in self.intervals))

    @property
    def min_clearance(self):
        """Smallest clearance [m]: ``min_distance`` clipped at 0."""
        return max(self.min_distance, 0.0)

    def __repr__(self):
        return ("PairReport(%r, %r, min_distance=%.6g, intervals=%d)"
                % (self.a, self.b, self.min_distance, len(self.intervals)))


def box_bounds(a, traj_a, b, traj_b):
    """Lower bounds (n,) of the distance of solids ``a``, ``b`` at the samples of their
    trajectories: the gaps between the world axis-aligned boxes around each solid's
    body-frame box (the broad phase; exact for boxes turned by multiples of 90 deg)."""
    return box_bounds_to(a, traj_a, [(b, traj_b)])[0]


def box_bounds_to(a, traj_a, others):
    """``box_bounds`` of solid ``a`` against each ``(solid, trajectory)`` of ``others``
    at once: (len(others), n)."""
    lo_a, hi_a = traj_a.boxes(a.lo, a.hi)
    boxes = [tb.boxes(b.lo, b.hi) for b, tb in others]
    lo_b, hi_b = np.stack([x[0] for x in boxes]), np.stack([x[1] for x in boxes])
    gap = np.maximum(0.0, np.maximum(lo_b - hi_a, lo_a - hi_b))
    return np.linalg.norm(gap, axis=2)


def swept_bounds(a, traj_a, b, traj_b):
    """Lower bounds (n - 1,) of the distance of solids ``a``, ``b`` over each segment
    between two samples: the gaps between their swept boxes
    (``Trajectory.swept_boxes``), which hold each solid at every instant of the
    segment."""
    return swept_bounds_to(a, traj_a, [(b, traj_b)])[0]


def swept_bounds_to(a, traj_a, others):
    """``swept_bounds`` of solid ``a`` against each ``(solid, trajectory)`` of ``others``
    at once: (len(others), n - 1)."""
    lo_a, hi_a = traj_a.swept_boxes(a.lo, a.hi)
    boxes = [tb.swept_boxes(b.lo, b.hi) for b, tb in others]
    lo_b, hi_b = np.stack([x[0] for x in boxes]), np.stack([x[1] for x in boxes])
    gap = np.maximum(0.0, np.maximum(lo_b - hi_a, lo_a - hi_b))
    return np.sqrt((gap * gap).sum(axis=2))


class _Search:
    """The branch and bound of one pair (see the module docstring)."""

    def __init__(self, a, traj_a, b, traj_b, resolution, tolerance):
        self.a, self.ta, self.b, self.tb = a, traj_a, b, traj_b
        self.resolution, self.tolerance = float(resolution), float(tolerance)
        self.points = {}            # time -> Proximity (exact queries)
        self.bounds = {}            # time -> the hulls' distance, where it sufficed
        self.best = math.inf
        self.queries = 0
        self.hull_queries = 0
        self.complete = True
        self.slack = self._slack()
        from .probe import hull_between          # numba: not for what only reads results
        self.hull_between = hull_between

    def query(self, time, k, poses=None, hull=None):
        """The exact ``Proximity`` at ``time`` (segment ``k``)."""
        prox = self.points.get(time)
        if prox is None:
            self.queries += 1
            pose_a, pose_b = poses or (self.ta.pose(time, k), self.tb.pose(time, k))
            prox = proximity(self.a, pose_a, self.b, pose_b, hull)
            self.points[time] = prox
            self.bounds.pop(time, None)
            if prox.distance < self.best:
                self.best = prox.distance
                self.slack = self._slack()
        return prox

    def probe(self, time, k):
        """A lower bound of the distance at ``time``: the hulls' distance where they are
        apart and farther than the smallest distance found less the ``slack`` (the
        time can hold neither an overlap nor a new minimum), else the exact query's."""
        if time in self.points:
            return self.points[time].distance
        if time in self.bounds:
            return self.bounds[time]
        hull = self.hull_between(self.a, self.ta, self.b, self.tb, k, time)
        self.hull_queries += 1
        lower = float(hull[0])
        if lower > 0.0 and lower >= self.best - self.slack \
                and not (self.a.convex and self.b.convex):
            self.bounds[time] = lower
            return lower
        return self.query(time, k, None, hull).distance

    def overlap_at(self, time):
        """The solids overlap at a probed ``time`` (a hull bound > 0: they do not)."""
        prox = self.points.get(time)
        return prox is not None and prox.overlap

    def _slack(self):
        """How much below the smallest distance found a span must possibly reach to be
        searched: ``resolution`` once a reportable overlap is found (its depth), else the
        tolerance or 5 % of the clearance (a touching or far pair needs no finer
        minimum)."""
        if not np.isfinite(self.best):
            return self.resolution
        if self.best < -self.tolerance:
            return self.resolution
        return max(self.resolution, self.tolerance, 0.05 * self.best)

    def span(self, t0, t1, k, v, floor=0.0):
        """Refine [t0, t1] on segment k (both ends probed) with speed bound ``v``;
        ``floor``: a lower bound of the distance on the whole segment (the swept
        boxes' gap; 0 when they touch, which says nothing of a penetration)."""
        points, bounds = self.points, self.bounds

        def known(time):
            """(distance or its hull bound, overlap) at ``time``, probed if need be."""
            p = points.get(time)
            if p is None:
                d = bounds.get(time)
                if d is not None:
                    return d, False
                d = self.probe(time, k)
                p = points.get(time)
                return d, p is not None and p.overlap
            return p.distance, p.overlap

        stack = [(t0, t1)]
        while stack:
            lo, hi = stack.pop()
            (d0, o0), (d1, o1) = known(lo), known(hi)
            reach = v * (hi - lo)
            lower = 0.5 * (d0 + d1 - reach)
            if floor > 0.0:
                lower = max(lower, floor)
            # (both ends overlapping: both exact, an upper bound too)
            upper = 0.5 * (d0 + d1 + reach)
            # nothing reportable inside: no overlap deeper than the tolerance, or no way
            # out of an overlap; and no new minimum
            settled = lower >= -self.tolerance or (o0 and o1 and upper < 0.0)
            if settled and lower >= self.best - self.slack:
                continue
            if reach <= self.resolution or hi - lo <= 1e-12 * max(1.0, abs(hi)):
                continue
            if self.queries >= MAX_QUERIES_PER_PAIR:
                self.complete = False
                return
            mid = 0.5 * (lo + hi)
            self.probe(mid, k)
            stack.append((mid, hi))
            stack.append((lo, mid))

    def sharpen_crossings(self):
        """Bisect both ends of every run of overlap deeper than the tolerance somewhere
        until each is bracketed within ``resolution`` of relative motion."""
        if not any(p.overlap for p in self.points.values()):
            return
        times = sorted(set(self.points) | set(self.bounds))
        flags = [self.overlap_at(x) for x in times]
        runs, start = [], None
        for n, f in enumerate(flags + [False]):
            if f and start is None:
                start = n
            elif not f and start is not None:
                runs.append((start, n - 1))
                start = None
        for first, last in runs:
            if min(self.points[times[m]].distance for m in range(first, last + 1)) \
                    >= -self.tolerance:
                continue
            for lo, hi in ((first - 1, first), (last, last + 1)):
                if lo >= 0 and hi < len(times):
                    self.bisect(times[lo], times[hi])

    def bisect(self, lo, hi):
        k = self.ta.segment(0.5 * (lo + hi))
        v = speed_bound(self.ta, self.a.radius, self.tb, self.b.radius, k)
        inside_lo = self.overlap_at(lo)
        while v * (hi - lo) > self.resolution and self.queries < MAX_QUERIES_PER_PAIR \
                and hi - lo > 1e-12 * max(1.0, abs(hi)):
            mid = 0.5 * (lo + hi)
            self.probe(mid, k)
            if self.overlap_at(mid) == inside_lo:
                lo = mid
            else:
                hi = mid

    def known(self, time, fallback):
        """The distance (or its hull bound) probed at ``time``, else ``fallback``."""
        if time in self.points:
            return self.points[time].distance
        return self.bounds.get(time, fallback)

    def run(self, broad=None):
        """The search; ``broad``: ``(box_bounds, swept_bounds)`` of the pair when the
        caller has them (``check_pairs`` computes them per solid for all its pairs)."""
        t = self.ta.t
        n = len(t)
        last = max(n - 2, 0)
        boxes = box_bounds(self.a, self.ta, self.b, self.tb) if broad is None else broad[0]
        # the nearest sample by the boxes first: a first ``best`` to prune with
        first = int(np.argmin(boxes))
        self.query(t[first], min(first, last))
        if n > 1:
            h = np.diff(t)
            swept = swept_bounds(self.a, self.ta, self.b, self.tb) if broad is None \
                else broad[1]
            # the swept boxes' gap alone rules out most segments of a far pair: the speed
            # bounds of the others only (elsewhere 0 leaves the lower bound >= that gap)
            speeds = np.zeros(n - 1)
            open_ = np.nonzero((swept <= 0.0) | (swept < self.best - self.slack))[0]
            if len(open_):
                speeds[open_] = speed_bounds(self.ta, self.a.radius, self.tb, self.b.radius,
                                             open_)
            seg_lower = np.maximum(0.5 * (boxes[:-1] + boxes[1:] - speeds * h), swept)
            candidates = np.nonzero((seg_lower <= 0.0) | (seg_lower < self.best - self.slack))[0]
            # the most promising spans first: a small ``best`` early prunes the others
            for k in candidates[np.argsort(seg_lower[candidates], kind="stable")]:
                if seg_lower[k] > 0.0 and seg_lower[k] >= self.best - self.slack:
                    # the bound of the spans still to visit is no smaller (the probed
                    # ends are not below the boxes' gaps): none of them can hold an
                    # overlap or a new minimum, and skipping them probes nothing
                    break
                ends = [self.known(t[i], boxes[i]) for i in (k, k + 1)]
                lower = max(0.5 * (ends[0] + ends[1] - speeds[k] * h[k]), swept[k])
                if lower > 0.0 and lower >= self.best - self.slack:
                    continue
                self.probe(t[k], k)
                self.probe(t[k + 1], k)
                self.span(t[k], t[k + 1], k, speeds[k], swept[k])
        self.sharpen_crossings()
        frames = np.full(n, np.nan)
        if self.points:
            times = np.fromiter(self.points, dtype=float, count=len(self.points))
            i = np.minimum(np.searchsorted(t, times), n - 1)
            at = t[i] == times
            frames[i[at]] = [p.distance for p, x in zip(self.points.values(), at) if x]
        return frames

    def timeline(self):
        """``{time: Proximity}`` of every probed time: the exact queries, and the hull
        bounds as apart (no witness points)."""
        out = {x: Proximity(d, None, None, False) for x, d in self.bounds.items()}
        out.update(self.points)
        return out


def _crossing(t0, d0, t1, d1):
    """Where ``d`` crosses 0 between two queried times (linear interpolation)."""
    if d0 == d1:
        return 0.5 * (t0 + t1)
    s = min(max(d0 / (d0 - d1), 0.0), 1.0)
    return t0 + s * (t1 - t0)


def _intervals(points, tolerance):
    """Chronological intervals of overlap from the queried ``{time: Proximity}``; those
    whose depth never exceeds ``tolerance`` are dropped (touching)."""
    times = sorted(points)
    out = []
    start = None
    deepest = None
    prev = None
    for time in times:
        p = points[time]
        if p.overlap and start is None:
            start = time if prev is None else _crossing(prev, points[prev].distance,
                                                        time, p.distance)
            deepest = (p, time)
        elif p.overlap:
            if p.distance < deepest[0].distance:
                deepest = (p, time)
        elif start is not None:
            end = _crossing(prev, points[prev].distance, time, p.distance)
            out.append((start, end, deepest))
            start = None
        prev = time
    if start is not None:
        out.append((start, times[-1], deepest))
    return [Interval(s, e, -p.distance, tm, p.point_a, p.point_b)
            for s, e, (p, tm) in out if -p.distance > tolerance]


def _frame_points(points, t):
    """``{i: (point_a, point_b)}`` of the queried ``{time: Proximity}`` at the samples
    ``t[i]`` where the solids overlap."""
    out = {}
    for time in sorted(x for x, p in points.items() if p.overlap):
        i = int(np.searchsorted(t, time))
        if i < len(t) and t[i] == time:
            p = points[time]
            out[i] = (p.point_a, p.point_b)
    return out


def check_pair(a, traj_a, b, traj_b, resolution, tolerance=0.0, broad=None):
    """The ``PairReport`` of solids ``a``, ``b`` moving along ``Trajectory`` ``traj_a``,
    ``traj_b`` (same samples). ``resolution`` [m]: the accuracy of the times and depths
    (module docstring); ``tolerance`` [m]: overlaps never deeper than this count as
    touching, not interference (a pin in its hole: both tessellated). ``broad``: the
    pair's ``(box_bounds, swept_bounds)`` when the caller has them."""
    if len(traj_a.t) != len(traj_b.t):
        raise ValueError("the two trajectories have different samples")
    search = _Search(a, traj_a, b, traj_b, resolution, tolerance)
    frames = search.run(broad)
    report = PairReport(a.label, b.label, (a.name, b.name))
    report.frames = frames
    report.frame_points = _frame_points(search.points, traj_a.t)
    times = sorted(search.points)
    report.samples = (np.array(times, dtype=float),
                      np.array([search.points[x].distance for x in times], dtype=float))
    report.queries, report.complete = search.queries, search.complete
    if search.points:
        time = min(search.points, key=lambda tm: search.points[tm].distance)
        p = search.points[time]
        report.min_distance, report.time_of_min = p.distance, time
        report.point_a, report.point_b = p.point_a, p.point_b
    report.hull_queries = search.hull_queries
    # (the hull bounds, all apart, only split the overlaps of the exact queries)
    report.intervals = _intervals(search.timeline(), tolerance) \
        if any(p.overlap for p in search.points.values()) else []
    return report


def check_pairs(solids, trajectories, pairs, resolution, tolerance=0.0, progress=None):
    """``[PairReport]`` of ``pairs`` (index pairs into ``solids`` / ``trajectories``).

    ``progress(done, total)`` is called after each pair; return False to stop (the
    pairs checked so far are returned)."""
    reports = []
    partners = {}
    for i, j in pairs:
        partners.setdefault(i, []).append(j)
    rows, row_of = {}, None
    for n, (i, j) in enumerate(pairs):
        if row_of != i:
            # the broad phase of solid i against all its partners at once
            others = [(solids[x], trajectories[x]) for x in partners[i]]
            row_of, size = i, len(trajectories[i].t)
            if any(len(tb.t) != size for _b, tb in others):
                rows = dict.fromkeys(partners[i])      # (check_pair says which differ)
            else:
                boxes = box_bounds_to(solids[i], trajectories[i], others)
                swept = swept_bounds_to(solids[i], trajectories[i], others) \
                    if size > 1 else [None] * len(others)
                rows = {x: (boxes[m], swept[m]) for m, x in enumerate(partners[i])}
        reports.append(check_pair(solids[i], trajectories[i], solids[j], trajectories[j],
                                  resolution, tolerance, rows[j]))
        if progress is not None and progress(n + 1, len(pairs)) is False:
            break
    return reports


class Interference:
    """What an interference check of a run found.

    reports : ``[PairReport]`` of the pairs checked; excluded : ``[(label a, label b,
    why)]`` of the pairs left out (sharing a joint, both fixed); deflection [m] of the
    tessellation, resolution [m] of the search, tolerance [m] (deeper overlaps count);
    queries : exact distance queries made; wall_time [s].
    """

    def __init__(self, reports, excluded=(), deflection=0.0, resolution=0.0, tolerance=0.0,
                 wall_time=0.0):
        self.reports = list(reports)
        self.excluded = list(excluded)
        self.deflection, self.resolution = float(deflection), float(resolution)
        self.tolerance, self.wall_time = float(tolerance), float(wall_time)

    @property
    def queries(self):
        return sum(r.queries for r in self.reports)

    @property
    def hull_queries(self):
        return sum(r.hull_queries for r in self.reports)

    def interfering(self):
        """The reports with interference, earliest first contact first."""
        return sorted((r for r in self.reports if r.interferes), key=lambda r: r.first_contact)

    def pair(self, a, b):
        """The report of the pair of bodies labelled (or named) ``a`` and ``b``."""
        for r in self.reports:
            if {a, b} <= {r.a, r.b} or {a, b} <= set(r.names):
                return r
        raise KeyError("no pair %r - %r in this interference check" % (a, b))

    def closest(self):
        """The report with the smallest ``min_distance`` (None without pairs)."""
        return min(self.reports, key=lambda r: r.min_distance, default=None)

    @property
    def complete(self):
        """No pair's search was stopped by ``MAX_QUERIES_PER_PAIR``."""
        return all(r.complete for r in self.reports)

    def summary(self):
        """Plain data (JSON) of what was found, lengths in m and times in s: the pairs
        checked and left out, the interfering pairs (earliest first contact first) with
        their intervals ``[start, end, max_depth]``, the pair of smallest clearance."""
        close = self.closest()
        return dict(
            pairs=len(self.reports), excluded=[list(x) for x in self.excluded],
            deflection=self.deflection, resolution=self.resolution, tolerance=self.tolerance,
            queries=self.queries, wall_time=self.wall_time, complete=self.complete,
            interfering=[dict(a=r.a, b=r.b, first_contact=r.first_contact,
                              max_depth=r.max_depth, interference_time=r.interference_time,
                              intervals=[[iv.start, iv.end, iv.max_depth]
                                         for iv in r.intervals])
                         for r in self.interfering()],
            closest=None if close is None else dict(
                a=close.a, b=close.b, min_distance=close.min_distance,
                time=close.time_of_min))
