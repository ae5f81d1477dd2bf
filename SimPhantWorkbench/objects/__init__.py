"""App-side document objects of SimPhant (proxies of Python features).

One module per role, as FEM's ``femobjects``. The module paths and class names
(``SimPhantWorkbench.objects.study.Study`` ...) are stored in ``.FCStd`` files:
they are public API and are never renamed. Create objects through
``SimPhantWorkbench.factory``.
"""
from ..document.base import is_type, proxy_type

__all__ = ["is_type", "proxy_type", "TYPES"]

#: Proxy ``Type`` strings of all SimPhant objects.
TYPES = ("SimPhant::Study", "SimPhant::Body", "SimPhant::Joint", "SimPhant::Force",
         "SimPhant::Torque", "SimPhant::Result", "SimPhant::ParameterStudy",
         "SimPhant::ForceElement", "SimPhant::Driver")
