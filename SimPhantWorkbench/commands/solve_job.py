"""Solve as macros recorded by earlier versions start it
(``from SimPhantWorkbench.commands import solve_job; solve_job.start(...)``): the job
lives in ``SimPhantWorkbench.gui.solve_job``."""
from ..gui.solve_job import current_job, start

__all__ = ["start", "current_job"]
