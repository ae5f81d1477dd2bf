"""SimPhant multibody solver: pure Python + NumPy + SciPy + Numba, SI units.

No FreeCAD, Qt or pivy import happens anywhere in this package (a test checks
it), so it runs in any Python with those three libraries.

>>> from SimPhantWorkbench.solver import Model
>>> m = Model(gravity=(0, 0, -9.81))
>>> b = m.add_body("link", mass=1.0, inertia=(0.04, 0.1, 0.1), position=(2, 0, 0))
>>> j = m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 1, 0))
>>> r = m.simulate(t_end=1.0, dt=1e-3, method="rk4", output_dt=0.1)
"""
from .blas import one_thread
from .errors import (AssemblyError, ModelError, SimPhantError, SimulationCancelled,
                     SimulationError)
from .integrators import METHODS
from .joints import JOINT_TYPES, joint_kinds, joint_spec
from .model import Body, Joint, Load, Model
from .result import Result

__all__ = ["Model", "Body", "Joint", "Load", "Result", "JOINT_TYPES", "joint_kinds", "joint_spec",
           "METHODS", "SimPhantError", "ModelError", "AssemblyError", "SimulationError",
           "SimulationCancelled"]

one_thread()        # the same bits in every process (blas.py)
