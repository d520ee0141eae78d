"""Small guardrail building blocks a reader could lift into real code: budgets, loop
detection, a degradation ladder, a circuit breaker, a gate before irreversible actions.
All take an injectable clock, so the simulations that use them are deterministic.

Every public name of the modules below is importable from here, so a chapter imports
from one place (``from reliability.harness import CircuitBreaker, run_task``); the
module paths (``reliability.harness.breaker``) keep working too."""

from .breaker import (CLOSED, HALF_OPEN, OPEN, BreakerConfig, BreakerState, CircuitBreaker,
                      CircuitOpenError, transition)
from .budget import (LIMITS, LengthSample, Outcome, Step, TaskBudget, TaskMix, fake_agent,
                     flaky_call, max_provider_calls, retry_success, run_task, scripted_agent)
from .clock import ManualClock, SystemClock
from .gate import DryRun, GateDecision, irreversible_gate
from .ladder import (RUNGS, TRIGGERS, Descent, Observation, Policy, Rung, backoff_delays,
                     cascade_cost, descend, rung_counts)
from .loops import HINT, SIGNS, LoopDetector, Move, Verdict
from .traces import BUDGET_AGENTS, LOOP_SCRIPTS, LOOP_START
from .traffic import DAY, REASONS, DayReport, Provider, Scenario, rung_alerts, simulate_day

__all__ = ["CLOSED", "OPEN", "HALF_OPEN", "BreakerConfig", "BreakerState", "transition",
           "CircuitBreaker", "CircuitOpenError",
           "TaskBudget", "Step", "Outcome", "run_task", "max_provider_calls", "retry_success",
           "flaky_call", "fake_agent", "scripted_agent", "TaskMix", "LengthSample", "LIMITS",
           "SystemClock", "ManualClock",
           "DryRun", "GateDecision", "irreversible_gate",
           "Rung", "RUNGS", "TRIGGERS", "Policy", "Observation", "Descent", "backoff_delays",
           "descend", "rung_counts", "cascade_cost",
           "Move", "LoopDetector", "Verdict", "SIGNS", "HINT",
           "BUDGET_AGENTS", "LOOP_SCRIPTS", "LOOP_START",
           "Provider", "Scenario", "DayReport", "simulate_day", "rung_alerts", "REASONS", "DAY"]
