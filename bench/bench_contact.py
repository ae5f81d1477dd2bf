"""Contact elements: time per simulated second and the share of the contact evaluation.

Models (``solver.contact``):

* ``ball``   a ball bouncing on a plate (sphere vs half-space, one sample point),
             Hunt-Crossley, dt = 1e-5, 0.2 s;
* ``block``  a block sliding down a ramp with friction (the 8 corners of its convex hull
             against a half-space), dt = 2e-5, 0.2 s;
* ``hull``   a ball resting on a box (sphere vs the 6 face planes of a convex hull),
             dt = 2e-5, 0.2 s;
* ``apart``  ``n`` balls far apart with a contact between every pair (the broad phase
             skips them all), dt = 1e-4, 0.2 s.

Each model runs paired with the same bodies without their contact elements (``base``),
back to back, ``reps`` times; the share of the contacts is ``1 - base / with`` per pair
(median). Times are ``settings["wall_time"]`` (the integration loop). Run
``tools/run_python.sh bench/bench_contact.py [--reps 5]``; writes
``bench/results/contact.json`` and prints a table. See bench/README.md.
"""
import argparse
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from SimPhantWorkbench.solver import Model  # noqa: E402
from SimPhantWorkbench.solver import contact as C  # noqa: E402

G = 9.81


def ball(with_contact):
    m = Model(gravity=(0, 0, -G))
    b = m.add_body("ball", mass=1.0, inertia=(4e-5,) * 3, position=(0, 0, 0.02))
    if with_contact:
        m.add_contact(b, m.ground, C.sphere((0, 0, 0.02), 0.01),
                      C.half_space((0, 0, 0), (0, 0, 1)), stiffness=1e9,
                      law="hunt_crossley", restitution=0.8)
    return m, 1e-5


def block(with_contact):
    th = math.radians(20)
    m = Model(gravity=(G * math.sin(th), 0, -G * math.cos(th)))
    b = m.add_body("block", mass=1.0, inertia=(1e-3,) * 3, position=(0, 0, 0.0198),
                   velocity=(0.05, 0, 0))
    if with_contact:
        corners = [(x, y, 0.0198 + z) for x in (-.05, .05) for y in (-.04, .04)
                   for z in (-.02, .02)]
        m.add_contact(b, m.ground, C.convex(corners), C.half_space((0, 0, 0), (0, 0, 1)),
                      stiffness=1e6, damping=300.0, mu_static=0.3, mu_dynamic=0.2)
    return m, 2e-5


def hull(with_contact):
    m = Model(gravity=(0, 0, -G))
    p = (G / 1e8) ** (1 / 1.5)
    b = m.add_body("ball", mass=1.0, inertia=(4e-5,) * 3, position=(0, 0, 0.01 - p))
    if with_contact:
        box = [(x, y, z) for x in (-.05, .05) for y in (-.05, .05) for z in (-.01, 0.0)]
        m.add_contact(b, m.ground, C.sphere((0, 0, 0.01 - p), 0.01), C.convex(box),
                      stiffness=1e8, damping=1e3, penetration=1e-5)
    return m, 2e-5


def apart(with_contact, n=8):
    m = Model(gravity=(0, 0, 0))
    bs = [m.add_body("b%d" % i, mass=1.0, inertia=(1e-3,) * 3, position=(i, 0, 0))
          for i in range(n)]
    if with_contact:
        for i in range(n):
            for j in range(i + 1, n):
                m.add_contact(bs[i], bs[j], C.sphere((i, 0, 0), 0.1), C.sphere((j, 0, 0), 0.1))
    return m, 1e-4


MODELS = {"ball": ball, "block": block, "hull": hull, "apart": apart}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--t-end", type=float, default=0.2)
    args = ap.parse_args()
    out = {}
    for name, make in MODELS.items():
        pairs = []
        for _ in range(args.reps + 1):
            times = []
            for with_contact in (True, False):
                m, dt = make(with_contact)
                r = m.simulate(t_end=args.t_end, dt=dt, output_dt=args.t_end / 100)
                times.append(r.settings["wall_time"])
            pairs.append(times)
        pairs = np.array(pairs[1:])           # the first pair loads the kernels
        w, b = np.median(pairs[:, 0]), np.median(pairs[:, 1])
        share = float(np.median(1.0 - pairs[:, 1] / pairs[:, 0]))
        out[name] = dict(dt=dt, wall_per_sim_s=w / args.t_end, base_per_sim_s=b / args.t_end,
                         contact_share=share, us_per_step=1e6 * w * dt / args.t_end)
        print("%-6s dt %.0e  %8.3f s per simulated s (without contact %8.3f), %5.2f us per "
              "step, contact share %4.0f %%" % (name, dt, w / args.t_end, b / args.t_end,
                                                out[name]["us_per_step"], 100 * share))
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    with open(os.path.join(HERE, "results", "contact.json"), "w") as fh:
        json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
