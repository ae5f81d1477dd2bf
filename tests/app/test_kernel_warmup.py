"""What the solve dialog shows while the solver kernels are being prepared."""
import time

import FreeCAD  # noqa: F401 - the app layer's environment

from SimPhantWorkbench.gui import kernel_warmup
from SimPhantWorkbench.solver import warmup


def test_status_text_says_compiling_first_use_only_while_a_preparation_runs(monkeypatch):
    assert kernel_warmup.status_text() is None          # nothing under way
    monkeypatch.setattr(warmup, "_busy", [(5, time.perf_counter() - 12.0)])
    text = kernel_warmup.status_text()
    assert "compiling the solver kernels" in text and "first use only" in text
    assert "block size 5" in text and "12 s" in text
    # a preparation that is only loading from the cache (short) is not announced
    monkeypatch.setattr(warmup, "_busy", [(5, time.perf_counter())])
    assert kernel_warmup.status_text() is None
