"""``python -m SimPhantWorkbench.solver``: compile (first use) or load the solver kernels of
every joint block size, as ``make setup`` does (``warmup.ensure_all``)."""
import sys
import time

from . import Model, warmup


def main():
    t0 = time.perf_counter()

    def report(bs, sec, compiled):
        print("[warmup] block size %d: %s in %.1f s" % (bs, "compiled" if compiled else "loaded",
                                                        sec), file=sys.stderr, flush=True)

    print("[warmup] solver kernels (numba cache: %s)" % warmup.cache_path(), file=sys.stderr,
          flush=True)
    warmup.ensure_all(Model, report)
    print("[warmup] all block sizes ready in %.1f s" % (time.perf_counter() - t0),
          file=sys.stderr)


if __name__ == "__main__":
    main()
