"""The ablation lab: a lookup-then-compute tool task, a simulated agent with a behaviour
profile, fault injectors, four guardrails, and arms compared with honest intervals.

>>> from reliability.lab import Scenario, Guardrails, run_arm
>>> arm = run_arm(Scenario(fault_rate=0.6), Guardrails(error_recovery=True), runs=20, seed=1)
>>> arm.runs
20
"""

from .agent import PROFILES, Profile, SimulatedAgent, Trajectory, run_episode, transient_success, write_jsonl
from .arms import (FAILURE_CLASSES, FAILURE_LADDER, failure_ladder, ArmResult, Dashboard, Gap, Scenario, ablation,
                   capability_ladder, classify, compare, measure_own, pass_k_over_cases, run_arm, verdict)
from .faults import MalformedFaults, TransientFaults
from .guardrails import ALL, GUARDRAILS, NONE, Guardrails, validate
from .task import Task, ToolResult, make_cases, oracle

__all__ = ["Task", "ToolResult", "oracle", "make_cases", "TransientFaults", "MalformedFaults",
           "Guardrails", "GUARDRAILS", "NONE", "ALL", "validate", "Profile", "PROFILES",
           "SimulatedAgent", "Trajectory", "run_episode", "transient_success", "write_jsonl",
           "Scenario", "ArmResult", "Gap", "verdict", "classify", "run_arm", "ablation",
           "compare", "capability_ladder", "pass_k_over_cases", "Dashboard", "measure_own",
           "FAILURE_CLASSES", "FAILURE_LADDER", "failure_ladder"]
