"""The active study as macros recorded by earlier versions set it
(``from SimPhantWorkbench.commands import common; common.set_active_study(...)``):
the GUI helpers live in ``SimPhantWorkbench.gui.common``."""
from ..gui.common import active_study, set_active_study

__all__ = ["set_active_study", "active_study"]
