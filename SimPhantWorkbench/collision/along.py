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
  smallest found so far by more than ``slack``: ``resolution``, or 1 % of that smallest
  distance when it is a clearance larger than 100 ``resolution`` (a far pair's minimum
  clearance needs no finer answer).

``check_pair`` starts from the output samples and splits every span that could hold a
contact, a separation or a new minimum, until the span is no longer than
``resolution / V``: every interval of interference (also one that begins and ends between
two output samples) is found, its ends to within ``resolution`` of relative motion
(linear interpolation of ``d`` in the last span), and the minimum clearance or the
maximum penetration to within ``resolution`` (a large clearance to within 1 %). A broad phase on bounding spheres about
each body's frame origin skips the exact query where the spheres alone prove the
solids farther apart than the smallest distance found so far.
"""
import math
from collections import namedtuple

import numpy as np

from .geometry import proximity
from .motion import speed_bound

__all__ = ["PairReport", "Interval", "check_pair", "check_pairs", "MAX_QUERIES_PER_PAIR"]

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
        phase proved the solids farther apart than ``min_distance``)
    queries : exact distance queries made; complete : False when
        ``MAX_QUERIES_PER_PAIR`` stopped the search (the figures are then those found)
    """

    def __init__(self, a, b, names):
        self.a, self.b, self.names = a, b, names
        self.min_distance = math.inf
        self.time_of_min = math.nan
        self.point_a = self.point_b = None
        self.intervals = []
        self.frames = None
        self.queries = 0
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


class _Search:
    """The branch and bound of one pair (see the module docstring)."""

    def __init__(self, a, traj_a, b, traj_b, resolution, tolerance):
        self.a, self.ta, self.b, self.tb = a, traj_a, b, traj_b
        self.resolution, self.tolerance = float(resolution), float(tolerance)
        self.points = {}            # time -> Proximity (exact queries)
        self.best = math.inf
        self.queries = 0
        self.complete = True

    def query(self, time, k):
        prox = self.points.get(time)
        if prox is None:
            self.queries += 1
            prox = proximity(self.a, self.ta.pose(time, k), self.b, self.tb.pose(time, k))
            self.points[time] = prox
            self.best = min(self.best, prox.distance)
        return prox

    @property
    def slack(self):
        """How much smaller than the best a span must possibly be to be searched."""
        return max(self.resolution, 0.01 * self.best) if np.isfinite(self.best) \
            else self.resolution

    def sphere_bound(self, time, k):
        """Lower bound of the distance from the bounding spheres at ``time``."""
        ra, _ = self.ta.pose(time, k)
        rb, _ = self.tb.pose(time, k)
        return float(np.linalg.norm(ra - rb)) - self.a.radius - self.b.radius

    def span(self, t0, t1, k, v):
        """Refine [t0, t1] on segment k (both ends queried) with speed bound ``v``."""
        stack = [(t0, t1)]
        while stack:
            lo, hi = stack.pop()
            d0, d1 = self.points[lo].distance, self.points[hi].distance
            o0, o1 = self.points[lo].overlap, self.points[hi].overlap
            reach = v * (hi - lo)
            lower, upper = 0.5 * (d0 + d1 - reach), 0.5 * (d0 + d1 + reach)
            no_change = o0 == o1 and (lower > 0.0 or (o0 and upper < 0.0))
            if no_change and lower >= self.best - self.slack:
                continue
            if reach <= self.resolution or hi - lo <= 1e-12 * max(1.0, abs(hi)):
                continue
            if self.queries >= MAX_QUERIES_PER_PAIR:
                self.complete = False
                return
            mid = 0.5 * (lo + hi)
            self.query(mid, k)
            stack.append((mid, hi))
            stack.append((lo, mid))

    def run(self):
        t = self.ta.t
        n = len(t)
        last = max(n - 2, 0)
        spheres = np.array([self.sphere_bound(t[i], min(i, last)) for i in range(n)])
        # the nearest sample by the spheres first: a first ``best`` to prune with
        self.query(t[int(np.argmin(spheres))], min(int(np.argmin(spheres)), last))
        self.query(t[0], 0)
        low = self.points[t[0]].distance        # lower bound of d at t[k]
        for k in range(n - 1):
            v = speed_bound(self.ta, self.a.radius, self.tb, self.b.radius, k)
            h = t[k + 1] - t[k]
            if t[k] in self.points:
                low = self.points[t[k]].distance
            end = self.points[t[k + 1]].distance if t[k + 1] in self.points \
                else max(spheres[k + 1], low - v * h)
            lower = 0.5 * (low + end - v * h)
            if lower > 0.0 and lower >= self.best - self.slack:
                low = end                       # d(t[k+1]) >= end: nothing to find here
                continue
            self.query(t[k], k)
            self.query(t[k + 1], k)
            self.span(t[k], t[k + 1], k, v)
            low = self.points[t[k + 1]].distance
        frames = np.full(n, np.nan)
        for i in range(n):
            if t[i] in self.points:
                frames[i] = self.points[t[i]].distance
        return frames


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


def check_pair(a, traj_a, b, traj_b, resolution, tolerance=0.0):
    """The ``PairReport`` of solids ``a``, ``b`` moving along ``Trajectory`` ``traj_a``,
    ``traj_b`` (same samples). ``resolution`` [m]: the accuracy of the times and depths
    (module docstring); ``tolerance`` [m]: overlaps never deeper than this count as
    touching, not interference (a pin in its hole: both tessellated)."""
    if len(traj_a.t) != len(traj_b.t):
        raise ValueError("the two trajectories have different samples")
    search = _Search(a, traj_a, b, traj_b, resolution, tolerance)
    frames = search.run()
    report = PairReport(a.label, b.label, (a.name, b.name))
    report.frames = frames
    report.queries, report.complete = search.queries, search.complete
    if search.points:
        time = min(search.points, key=lambda tm: search.points[tm].distance)
        p = search.points[time]
        report.min_distance, report.time_of_min = p.distance, time
        report.point_a, report.point_b = p.point_a, p.point_b
    report.intervals = _intervals(search.points, tolerance)
    return report


def check_pairs(solids, trajectories, pairs, resolution, tolerance=0.0, progress=None):
    """``[PairReport]`` of ``pairs`` (index pairs into ``solids`` / ``trajectories``).

    ``progress(done, total)`` is called after each pair; return False to stop (the
    pairs checked so far are returned)."""
    reports = []
    for n, (i, j) in enumerate(pairs):
        reports.append(check_pair(solids[i], trajectories[i], solids[j], trajectories[j],
                                  resolution, tolerance))
        if progress is not None and progress(n + 1, len(pairs)) is False:
            break
    return reports
