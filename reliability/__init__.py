"""Agent reliability, by the numbers: closed forms, seeded simulations and statistics.

>>> from reliability import Workflow, Verifier, horizon
>>> round(Workflow().success(), 3)
0.434
"""

from .workflow import EVENTS, Simulation, Verifier, Workflow, horizon

__all__ = ["Workflow", "Verifier", "Simulation", "horizon", "EVENTS"]
__version__ = "0.1.0"
