"""The ablation lab: a lookup-then-compute tool task, a simulated agent with a behaviour
profile, fault injectors, four guardrails, and arms compared with honest intervals.

This namespace holds what a chapter needs; the rest stays public in its own module
(``reliability.lab.task``, ``.faults``, ``.guardrails``, ``.agent``, ``.arms``, ``.rig``).

>>> from reliability.lab import Scenario, Guardrails, run_arm
>>> arm = run_arm(Scenario(fault_rate=0.6), Guardrails(error_recovery=True), runs=20, seed=1)
>>> arm.runs
20
"""

from .agent import PROFILES, Profile, run_episode, transient_success, write_jsonl
from .arms import (Scenario, ablation, capability_ladder, compare, failure_ladder,
                   measure_own, run_arm)
from .guardrails import ALL, NONE, Guardrails
from .task import make_cases

__all__ = ["Scenario", "Profile", "PROFILES", "Guardrails", "NONE", "ALL",
           "run_episode", "write_jsonl", "run_arm", "ablation", "compare",
           "failure_ladder", "capability_ladder", "measure_own", "transient_success",
           "make_cases"]
