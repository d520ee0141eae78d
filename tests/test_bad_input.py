"""No crash, no hang, no silent nonsense: every public callable refuses bad input.

The public callables are discovered through ``__all__`` (each package folder and each of
its modules), so a function added tomorrow is swept the day it appears: it fails
:func:`test_every_public_callable_has_a_registry_entry` until it gets an entry below.

Each entry names valid example arguments for one callable. The sweep replaces one argument
at a time with values of the wrong kind (strings, booleans, ``None``, NaN, infinities,
negative or fractional counts, wrong containers, callables and dataclasses) and asserts a
``ValueError`` whose message names the parameter.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import importlib
import inspect
import math
import pkgutil
from decimal import Decimal

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import reliability
from reliability import checks, formattax, passk, selfconditioning, selfcorrection, stats, structured
from reliability import (claims, datasets, i18n, judge, notebook, parameters, reading, validation,
                         workflow)
from reliability.harness import breaker, budget, clock, gate, ladder, loops, traffic
from reliability import homework, refund_loop
from reliability.lab import agent, arms, chat_adapter, faults, guardrails, measure, rig, task
from reliability.figures import budgets as fig_budgets
from reliability.figures import chain as fig_chain
from reliability.figures import formattax as fig_formattax
from reliability.figures import lab as fig_lab
from reliability.figures import ladder as fig_ladder
from reliability.figures import passk as fig_passk
from reliability import live
from reliability import numbers as numbers_module
from reliability.figures import reading as fig_reading
from reliability.figures import retries as fig_retries
from reliability.figures import selfcorrection as fig_selfcorrection
from reliability.figures import verifiers as fig_verifiers

# reliability._validate is the checking itself, which this sweep exercises (its names
# start with an underscore, so it is not public API).
NOT_SWEPT = {"reliability._validate"}
PACKAGES = ("reliability", "reliability.harness", "reliability.lab")
#: Packages whose modules are swept: one module per chapter topic (figures), one per job
#: of the page helpers (notebook, whose own __all__ re-exports its modules' names).
MODULE_PACKAGES = ("reliability.figures", "reliability.notebook")


def _modules():
    out = []
    for package in PACKAGES + MODULE_PACKAGES:
        mod = importlib.import_module(package)
        if package in PACKAGES:
            out.append(mod)
        for info in pkgutil.iter_modules(mod.__path__, package + "."):
            if info.name in NOT_SWEPT or info.name.rsplit(".", 1)[1].startswith("_"):
                continue
            if info.ispkg:
                continue
            out.append(importlib.import_module(info.name))
    return out


MODULES = _modules()


def _key(obj) -> str:
    return f"{obj.__module__}.{obj.__qualname__}"


def _public_callables():
    """Every public function, class and public method of a class, by qualified name."""
    found = {}
    for mod in MODULES:
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name)
            if inspect.isclass(obj):
                if issubclass(obj, BaseException):
                    continue  # exceptions carry any message
                found[_key(obj)] = obj
                for attr, raw in vars(obj).items():
                    if attr.startswith("_") or isinstance(raw, property):
                        continue
                    if isinstance(raw, (staticmethod, classmethod)) or inspect.isfunction(raw):
                        if attr in getattr(obj, "model_fields", {}) or attr.startswith("model_"):
                            continue
                        found[f"{_key(obj)}.{attr}"] = getattr(obj, attr)
            elif inspect.isfunction(obj):
                found[_key(obj)] = obj
    return found


# --- valid examples ----------------------------------------------------------------------

def _fields(instance, **override):
    values = {f.name: getattr(instance, f.name) for f in dataclasses.fields(instance)}
    values.update(override)
    return values


def _not_finite(value) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


def _a_whole_number(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _counted(n, format_spec=None):
    """reliability.numbers.counted with its noun's forms given (they are *forms)."""
    return numbers_module.counted(n, "run", "runs", format_spec=format_spec)


_counted.__module__, _counted.__qualname__ = "reliability.numbers", "counted"


def _check(exercise, answer, quiet):
    """``checks.check`` with one answer, by keyword (its answers are positional)."""
    return checks.check(exercise, answer, quiet=quiet)


@dataclasses.dataclass
class Entry:
    """A callable's valid example: ``target()`` gives the callable (a bound method for a
    method), ``kwargs`` valid arguments for it, ``ok`` values a parameter documents as
    meaningful (e.g. ``None`` for "no limit"), ``anything`` parameters that take any object."""

    target: object
    kwargs: dict
    ok: dict = dataclasses.field(default_factory=dict)
    anything: tuple = ()
    args: tuple = ()
    arrays: tuple = ()  # parameters that also take an array of such numbers


_CLOCK = clock.ManualClock()
_MOVES = (loops.Move("a", (1,), 1), loops.Move("b", (2,), 2))
_DAY = traffic.simulate_day(conversations=3, seed=1)
_ARM = arms.run_arm(arms.Scenario(), guardrails.Guardrails(), runs=3, seed=1)
_TRAJ = agent.run_episode(seed=1)
_SIM = workflow.Workflow().simulate(runs=3)
_CURVES = passk.curves(np.array([[1, 0, 1], [0, 0, 1]]), resamples=10)
_ESTIMATE = passk.from_counts([2, 0, 3], trials=3, k=2, resamples=10)
_DASH = arms.measure_own(arms.Scenario(), guardrails.Guardrails(), cases=2, runs_per_case=2)
_RECORDS = validation.Records(frozenset({"40817-0042"}),
                              {("40817-0042", datetime.date(2024, 5, 1)): Decimal("12.50")},
                              datetime.date(2024, 6, 1))
_REFUND = validation.parse_refund('{"account": "40817-0042", "amount": "12.50", '
                                  '"fee_charged": "12.50", "charged_on": "2024-05-01"}')
_CHECK = structured.check(structured.EXAMPLES["right"], structured.equals(158))
_REGSIM = formattax.Generator().simulate("free", runs=3)
_ORDSIM = formattax.FieldOrderToy().simulate("reasoning_first", runs=3)
_OUTCOME = budget.run_task(budget.fake_agent(clock=_CLOCK, finish_at=2), 0, clock=_CLOCK)
_RIG = __import__("pandas").read_csv(__file__.rsplit("/", 2)[0] + "/data/forge_gap.csv")
_GEN = np.random.default_rng(0)
__import__("matplotlib").use("Agg")
_FIG, _AX = __import__("matplotlib.pyplot").pyplot.subplots(figsize=(2, 1))
_ANIM = __import__("matplotlib.animation").animation.FuncAnimation(
    _FIG, lambda i: [], frames=2)
_POST = lambda url, payload, headers: {"choices": [{"message": {"content": "hi"}}]}  # noqa: E731
_PLT = __import__("matplotlib.pyplot").pyplot
#: Where reliability.lab.measure's example appends its one trial (a rerun resumes it).
_TRIALS = __import__("os").path.join(__import__("tempfile").mkdtemp(), "trials.jsonl")
_TRIAL_RECORDS = [{"arm": "baseline", "passed": True, "outcome": "success", "reason": None,
              "model": "m", "server": "s", "temperature": 0.7, "max_turns": 6,
              "max_tokens": 256}]
#: Where reliability.lab.measure.measure_form's example appends its one call.
_CALLS = __import__("os").path.join(__import__("tempfile").mkdtemp(), "calls.jsonl")
_CALL_RECORDS = [{"arm": "prompted", "form": True, "content": False},
                 {"arm": "grammar_enforced", "form": True, "content": True}]
#: One finished trial as measure() writes it, for stored_rows.
_STORED_TRIALS = [dict(_TRIAL_RECORDS[0], index=0, model_sha256="", server_version="",
                       seed=0, timeout=5.0, finished="2026-12-07T00:00:00Z")]
#: A figure function's other medium (the examples draw for a slide or the PDF's page;
#: a phone is the default).
_MEDIA = {"medium": ["phone"]}
#: The figure the figure modules' draw_* examples draw on (cleared after each).
_CANVAS = _PLT.figure(figsize=(7.0, 5.2))


def _closing(fn):
    """``fn``, closing the figure it returns (or its animation's) and clearing the figure
    it was given to draw on, so the examples do not pile up figures."""
    from matplotlib.figure import Figure

    @functools.wraps(fn)
    def call(*args, **kwargs):
        out = fn(*args, **kwargs)
        drawn = kwargs.get("fig")
        if isinstance(drawn, Figure):
            drawn.clf()
        for fig in (out, getattr(out, "_fig", None)):
            if isinstance(fig, Figure) and fig is not drawn:
                _PLT.close(fig)
        return out
    return call

W = workflow.Workflow


def _an_amount(value):
    """An amount refund_loop accepts as a limit: a number or numeric text >= 0, or None."""
    if value is None:
        return True
    if isinstance(value, bool):
        return False
    try:
        amount = Decimal(str(value))
    except ArithmeticError:
        return False
    return amount.is_finite() and amount >= 0


_TARIFF = refund_loop.Tariff({datetime.date(2024, 1, 1): "12.50"})
_LOOP_CHECK = refund_loop.refund_check(_RECORDS, _TARIFF)
_ATTEMPT = refund_loop.Attempt(1, "{}", ("x",))
_DRAFT = refund_loop.DraftModel(_REFUND.model_dump_json(), ("{}",), 0.5, 0.5)
_COUNTS = refund_loop.LoopCounts({1: 2, "escalated": 1}, runs=3)


def _lax_number(value):
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value)) or (isinstance(value, str) and value.strip().isdigit())
SC = selfconditioning.SelfConditioning
REV = selfcorrection.Revision(0.1, 0.2)
MIX = passk.TaskMix.beta(0.6, 4.0)
_FIT = passk.fit_task_mix([0.6, 0.45, 0.38])
_CONTROL = live.Control("a", "a value", (0.1, 0.2), 0.1, ".0%")
_SERIES = live.Series("s", lambda a: {"x": [1], "y": [a]}, depends=("a",))
_WORDS = live.Words("a = {a}, b = {b}", lambda a: {"b": f"{a:.2f}"}, depends=("a",))
_LIVE = live.Explorer(name="t", controls=(_CONTROL,), series=(_SERIES,), words=_WORDS,
                      x_label="x", y_label="y", alt="a", source=("t.f", {"n": 1}))
_BOARD = __import__("pandas").DataFrame({
    "setting": ["retail"] * 3, "model": ["m"] * 3, "k": [1, 2, 3],
    "fraction": [float(v) for v in MIX.pass_hat([1, 2, 3])]})
# figure modules: small valid inputs, built as the chapters build them
_LOG = workflow.Workflow(steps=3).simulate(runs=3, seed=0, log_runs=3).log
_DECAY = fig_chain.decay_table({"a": W(steps=2)}, [1, 2], runs=3, seed=0)
_BY_ATTEMPTS = fig_chain.decay_table({2: W(attempts=2)}, [1, 2], runs=3, seed=0)
_SWEEP = fig_retries.sweep([W(), W(attempts=2)], runs=3, seed=0)
_COST = workflow.attempt_cost(W(), runs=3, seed=0)
_GRID = fig_verifiers.tradeoff_grid(W(attempts=2), [0.5, 0.9], [0.0, 0.1])
_LINES = fig_verifiers.tradeoff_lines(W(attempts=2), [0.8], [0.0, 0.1], runs=3, seed=0)
_RECALLS = fig_chain.decay_table({0.8: W(attempts=2, verifier=workflow.Verifier())}, [1, 2],
                                 runs=3, seed=0)
_BLIND = fig_verifiers.blind_spot_table(W(attempts=2), workflow.Verifier(), [0.0, 0.5],
                                        runs=3, seed=0)
_HUANG = datasets.load("huang2024_self_correction")
_ROUND = fig_selfcorrection.round_table(_HUANG)
_FATES = datasets.load("huang2024_answer_fates").set_index("fate")["value"] / 100
_LOOPS = {"intrinsic": None, "oracle": selfcorrection.ORACLE}
_ROUNDS = fig_selfcorrection.rounds_frame(REV, 0.5, 2, _LOOPS, questions=10, seed=0)
_TRAJSIM = SC().simulate(3, runs=5, seed=0)
_COND = fig_selfcorrection.conditioning_frame({"m": SC()}, 3, runs=5, seed=0)
_REGTAB = fig_formattax.regime_table(formattax.Generator(), runs=3, seed=0)
_TAXES = [0.0, 0.1]
_TAXFRAMES = fig_formattax.tax_frames(formattax.Generator(), _TAXES, runs=3, seed=0)
_ORDTAB = fig_formattax.order_table([2, 3], step_error=0.02, budget=1, runs=3, seed=0)
_SPEAK = (lambda f: f[f.study != "field_order"])(datasets.load("speak_freely"))
_CHECKED = {k: structured.check(t, structured.equals(158)) for k, t in structured.EXAMPLES.items()}
_LENGTHS = budget.TaskMix().simulate(3, 0)
_LADDER = {"transient 503": {"baseline": _ARM, "mismatched": _ARM, "matched": _ARM,
                             "matched_name": "error_recovery",
                             "mismatched_name": "submit_nudge"}}
_SHARES = {"baseline": fig_lab.composition(_ARM)}
_PROFILES = {"strong": (_ARM, None), "weak": (_ARM, _ARM)}
_GAP = arms.compare(_ARM, _ARM)
_MIRRORS = rig.mirror_stages(_RIG, seed=1)
_MIRROR_ROWS = fig_lab.mirror_rows(_MIRRORS)
_FAULTS = {0.5: (_ARM, _ARM)}
_CLOSED = {"baseline": ([0.0, 0.5], [1.0, 0.5])}
_SLIDE = dict(days=np.arange(3), shares=np.array([0.1, 0.2, 0.3]), low=np.array([0.0, 0.1, 0.2]),
              high=np.array([0.2, 0.3, 0.4]), error_rate=np.array([0.01, 0.01, 0.01]))

_COLRUN = reading.simulate_columns(0.8, 0.1, seed=0)

REGISTRY = {
    # workflow
    "reliability.workflow.Verifier": Entry(lambda: workflow.Verifier, dict(recall=0.8, false_reject=0.05)),
    "reliability.workflow.Workflow": Entry(lambda: W, dict(steps=3, error=0.1, silent=0.1, attempts=2,
                                                          verifier=workflow.Verifier()),
                                           ok={"verifier": [None]}),
    "reliability.workflow.Workflow.success": Entry(lambda: W().success, {}),
    "reliability.workflow.Workflow.success_by_length": Entry(lambda: W().success_by_length, dict(lengths=[1, 2])),
    "reliability.workflow.Workflow.outcome_probabilities": Entry(lambda: W().outcome_probabilities, {}),
    "reliability.workflow.Workflow.expected_attempts": Entry(lambda: W().expected_attempts, {}),
    "reliability.workflow.Workflow.simulate": Entry(lambda: W().simulate, dict(runs=3, seed=0, log_runs=1)),
    "reliability.workflow.Simulation": Entry(lambda: workflow.Simulation, _fields(_SIM)),
    "reliability.workflow.Simulation.interval": Entry(lambda: _SIM.interval, dict(confidence=0.9)),
    "reliability.workflow.ceiling": Entry(lambda: workflow.ceiling, dict(workflow=W())),
    "reliability.workflow.attempt_cost": Entry(lambda: workflow.attempt_cost, dict(
        workflow=W(), runs=3, seed=0, confidence=0.9)),
    "reliability.workflow.mean_attempts_interval": Entry(lambda: workflow.mean_attempts_interval,
                                                         dict(simulation=_SIM, confidence=0.9)),
    "reliability.workflow.horizon": Entry(lambda: workflow.horizon, dict(p=0.99, target=0.5)),
    # stats
    # a result, built by the functions from validated numbers: its fields take anything
    "reliability.stats.Interval": Entry(lambda: stats.Interval, dict(low=0.2, high=0.4),
                                        anything=("low", "high")),
    "reliability.stats.wilson_interval": Entry(lambda: stats.wilson_interval,
                                               dict(successes=3, trials=10, confidence=0.9), arrays=('successes', 'trials')),
    "reliability.stats.newcombe_interval": Entry(lambda: stats.newcombe_interval, dict(
        successes_a=3, trials_a=10, successes_b=4, trials_b=10, confidence=0.9), arrays=('successes_a', 'trials_a', 'successes_b', 'trials_b')),
    "reliability.stats.binomial_standard_error": Entry(lambda: stats.binomial_standard_error,
                                                       dict(rate=0.3, runs=10), arrays=('rate', 'runs')),
    "reliability.stats.z_value": Entry(lambda: stats.z_value, dict(confidence=0.9)),
    "reliability.stats.mean_interval": Entry(lambda: stats.mean_interval, dict(
        values=[1.0, 2.0, 4.0], confidence=0.9, minimum=0.0), ok={"minimum": [None]}),
    # passk
    "reliability.passk.pass_at_k": Entry(lambda: passk.pass_at_k, dict(n=10, c=3, k=2), arrays=('n', 'c', 'k')),
    "reliability.passk.pass_hat_k": Entry(lambda: passk.pass_hat_k, dict(n=10, c=3, k=2), arrays=('n', 'c', 'k')),
    "reliability.passk.PassCurves": Entry(lambda: passk.PassCurves, _fields(_CURVES),
                                           ok={"pass_at_wilson": [None],
                                               "pass_hat_wilson": [None]}),
    "reliability.passk.PassCurves.table": Entry(lambda: _CURVES.table, {}),
    "reliability.passk.PassCurves.beside_closed_form": Entry(
        lambda: _CURVES.beside_closed_form, {"mix": MIX, "ks": (1, 2)}, ok={"ks": [None]}),
    "reliability.passk.curves": Entry(lambda: passk.curves, dict(
        outcomes=[[1, 0, 1], [0, 0, 1]], confidence=0.9, resamples=10, seed=0)),
    "reliability.passk.PassEstimate": Entry(lambda: passk.PassEstimate, _fields(_ESTIMATE)),
    "reliability.passk.from_counts": Entry(lambda: passk.from_counts, dict(
        successes=[2, 0, 3], trials=3, k=2, confidence=0.9, resamples=10, seed=0)),
    "reliability.passk.from_outcomes": Entry(lambda: passk.from_outcomes, dict(
        outcomes=[[1, 0, 1], [0, 0, 1]], k=2, confidence=0.9, resamples=10, seed=0)),
    "reliability.passk.TaskMix": Entry(lambda: passk.TaskMix, dict(
        weights=(0.5, 0.5), means=(0.3, 0.8), concentrations=(2.0, 5.0))),
    "reliability.passk.TaskMix.constant": Entry(lambda: passk.TaskMix.constant, dict(p=0.5)),
    "reliability.passk.TaskMix.beta": Entry(lambda: passk.TaskMix.beta, dict(mean=0.5, concentration=3.0)),
    "reliability.passk.TaskMix.pass_hat": Entry(lambda: MIX.pass_hat, dict(k=[1, 2])),
    "reliability.passk.TaskMix.pass_at": Entry(lambda: MIX.pass_at, dict(k=[1, 2])),
    "reliability.passk.TaskMix.task_variance": Entry(lambda: MIX.task_variance, dict(k=2)),
    "reliability.passk.TaskMix.sample": Entry(lambda: MIX.sample, dict(tasks=3, seed=0)),
    "reliability.passk.TaskMix.simulate": Entry(lambda: MIX.simulate, dict(tasks=3, trials=2, seed=0)),
    "reliability.passk.Fit": Entry(lambda: passk.Fit, dict(mix=MIX, family="Beta", residuals=(0.0,))),
    "reliability.passk.fit_task_mix": Entry(lambda: passk.fit_task_mix, dict(values=[0.6, 0.5, 0.45])),
    "reliability.passk.moment_bounds": Entry(lambda: passk.moment_bounds, dict(
        values=[0.6, 0.5, 0.45], k=4, tolerance=0.0005, grid=11), arrays=("tolerance",)),
    "reliability.passk.standard_error_bound": Entry(lambda: passk.standard_error_bound,
                                                    dict(values=[0.6, 0.5], tasks=100)),
    "reliability.passk.extrapolate": Entry(lambda: passk.extrapolate, dict(
        values=[0.6, 0.5, 0.45], k=4, tasks=100, rounding=0.0005, spread=2.0), ok={"tasks": [None]}),
    "reliability.passk.estimator_variance": Entry(lambda: passk.estimator_variance,
                                                  dict(mix=MIX, k=2, trials=4)),
    "reliability.passk.half_width": Entry(lambda: passk.half_width, dict(
        mix=MIX, k=2, tasks=100, trials=4, confidence=0.9), arrays=("tasks",)),
    "reliability.passk.plan": Entry(lambda: passk.plan, dict(mix=MIX, k=2, width=0.05, trials=4,
                                                             confidence=0.9), arrays=("trials",)),
    "reliability.passk.resamples_within": Entry(lambda: passk.resamples_within, dict(
        resamples=2000, tasks=40, draws=100_000)),
    "reliability.passk.published_table": Entry(lambda: passk.published_table, dict(
        table=__import__("reliability.datasets").datasets.load("tau_bench"))),
    "reliability.passk.extrapolation_table": Entry(lambda: passk.extrapolation_table, dict(
        board=_BOARD, k=8, tasks={"retail": 115}), ok={"tasks": [None]}),
    "reliability.passk.extrapolation_summary": Entry(lambda: passk.extrapolation_summary, dict(
        frame=passk.extrapolation_table(_BOARD, 8))),
    # selfconditioning
    "reliability.selfconditioning.SelfConditioning": Entry(lambda: SC, dict(
        base_error=0.02, gain=0.5, clean_context=3, window=4), ok={"window": [None]}),
    "reliability.selfconditioning.SelfConditioning.error_rate": Entry(lambda: SC().error_rate, dict(
        visible_errors=[1, 2], visible_steps=[3, 4])),
    "reliability.selfconditioning.SelfConditioning.expected_error": Entry(lambda: SC().expected_error, dict(steps=5)),
    "reliability.selfconditioning.SelfConditioning.expected_accuracy": Entry(lambda: SC().expected_accuracy, dict(steps=5)),
    "reliability.selfconditioning.SelfConditioning.fixed_point": Entry(lambda: SC().fixed_point, {}),
    "reliability.selfconditioning.SelfConditioning.full_history_closed_form": Entry(
        lambda: SC(clean_context=0).full_history_closed_form, dict(steps=5)),
    "reliability.selfconditioning.SelfConditioning.accuracy_horizon": Entry(
        lambda: SC().accuracy_horizon, dict(target=0.9, max_steps=20)),
    "reliability.selfconditioning.SelfConditioning.simulate": Entry(lambda: SC().simulate, dict(
        steps=3, runs=2, seed=0, history=np.zeros((2, 2), bool), clear_history=False),
        ok={"history": [None]}),
    "reliability.selfconditioning.TrajectorySimulation": Entry(
        lambda: selfconditioning.TrajectorySimulation, dict(errors=np.zeros((2, 3), bool))),
    "reliability.selfconditioning.TrajectorySimulation.accuracy": Entry(
        lambda: SC().simulate(3, runs=2).accuracy, {}),
    "reliability.selfconditioning.TrajectorySimulation.interval": Entry(
        lambda: SC().simulate(3, runs=2).interval, dict(confidence=0.9)),
    # selfcorrection
    "reliability.selfcorrection.Revision": Entry(lambda: selfcorrection.Revision,
                                                 dict(break_rate=0.1, fix_rate=0.2)),
    "reliability.selfcorrection.Revision.matrix": Entry(lambda: REV.matrix, {}),
    "reliability.selfcorrection.Revision.net_change": Entry(lambda: REV.net_change, dict(accuracy=0.5)),
    "reliability.selfcorrection.Revision.accuracy": Entry(lambda: REV.accuracy, dict(initial=0.5, rounds=[0, 3])),
    "reliability.selfcorrection.Revision.fates": Entry(lambda: REV.fates, dict(initial=0.5, rounds=3)),
    "reliability.selfcorrection.Arbiter": Entry(lambda: selfcorrection.Arbiter, dict(recall=0.9, false_reject=0.1)),
    "reliability.selfcorrection.LoopSimulation": Entry(lambda: selfcorrection.LoopSimulation, dict(
        questions=10, right=np.array([5, 6]), revisions=3)),
    "reliability.selfcorrection.LoopSimulation.interval": Entry(
        lambda: selfcorrection.simulate_loop(REV, 0.5, 2, questions=10).interval, dict(confidence=0.9)),
    "reliability.selfcorrection.loop_accuracy": Entry(lambda: selfcorrection.loop_accuracy, dict(
        revision=REV, initial=0.5, rounds=[0, 2], arbiter=selfcorrection.ORACLE), ok={"arbiter": [None]}),
    "reliability.selfcorrection.loop_limit": Entry(lambda: selfcorrection.loop_limit, dict(
        revision=REV, initial=0.5, arbiter=selfcorrection.ORACLE), ok={"arbiter": [None]}),
    "reliability.selfcorrection.expected_revisions": Entry(lambda: selfcorrection.expected_revisions, dict(
        revision=REV, initial=0.5, rounds=2, arbiter=selfcorrection.ORACLE), ok={"arbiter": [None]}),
    "reliability.selfcorrection.simulate_loop": Entry(lambda: selfcorrection.simulate_loop, dict(
        revision=REV, initial=0.5, rounds=2, questions=10, seed=0, arbiter=selfcorrection.ORACLE),
        ok={"arbiter": [None]}),
    "reliability.selfcorrection.fit_fates": Entry(lambda: selfcorrection.fit_fates, dict(
        initial=0.759, right_to_wrong=0.088, wrong_to_right=0.076, rounds=2)),
    "reliability.selfcorrection.fit_rounds": Entry(lambda: selfcorrection.fit_rounds, dict(
        before=0.5, round1=0.6, round2=0.65)),
    # structured
    "reliability.structured.Answer": Entry(lambda: structured.Answer, dict(reasoning="1+1", answer=2),
                                           ok={"answer": [-1]}),
    "reliability.structured.LaxAnswer": Entry(lambda: structured.LaxAnswer, dict(reasoning="1+1", answer=2),
                                              ok={"answer": ["3", True, 1.0, -1]}),
    "reliability.structured.Check": Entry(lambda: structured.Check, _fields(_CHECK),
                                          ok={"content_ok": [None], "value": [None]}),
    "reliability.structured.check": Entry(lambda: structured.check, dict(
        text=structured.EXAMPLES["right"], rule=structured.equals(158), strict=True), ok={"rule": [None]}),
    "reliability.structured.feedback": Entry(lambda: structured.feedback, dict(result=_CHECK)),
    "reliability.structured.retry": Entry(lambda: structured.retry, dict(
        replies=[structured.EXAMPLES["right"]], rule=structured.equals(158), max_attempts=2, strict=True)),
    "reliability.structured.Attempt": Entry(lambda: structured.Attempt, dict(number=1, check=_CHECK, sent_back="x"),
                                            ok={"sent_back": [None]}),
    "reliability.structured.field_order": Entry(lambda: structured.field_order, dict(model=structured.Answer)),
    "reliability.structured.equals": Entry(lambda: structured.equals, dict(expected=158),
                                           ok={"expected": [-1]}),
    # validation
    "reliability.validation.RefundRequest": Entry(lambda: validation.RefundRequest, dict(
        account="40817-0042", amount="12.50", fee_charged="12.50", charged_on="2024-05-01"),
        # Lax by design (strict=False): numbers and numeric strings become Decimals and
        # whole numbers become dates, as the chapter shows.
        ok={"amount": _lax_number, "fee_charged": _lax_number, "charged_on": _lax_number}),
    "reliability.validation.Records": Entry(lambda: validation.Records, _fields(_RECORDS)),
    "reliability.validation.Verdict": Entry(lambda: validation.Verdict, dict(accepted=True, refund=_REFUND,
                                                                             problems=()),
                                            ok={"refund": [None]}),
    "reliability.validation.parse_refund": Entry(lambda: validation.parse_refund, dict(
        text='{"account": "40817-0042", "amount": "12.50", "fee_charged": "12.50", '
             '"charged_on": "2024-05-01"}')),
    "reliability.validation.rule_violations": Entry(lambda: validation.rule_violations,
                                                    dict(refund=_REFUND, records=_RECORDS)),
    "reliability.validation.check_business_rules": Entry(lambda: validation.check_business_rules,
                                                         dict(refund=_REFUND, records=_RECORDS)),
    "reliability.validation.validate_refund": Entry(lambda: validation.validate_refund, dict(
        text=_REFUND.model_dump_json(), records=_RECORDS)),
    # refund_loop
    "reliability.refund_loop.Tariff": Entry(lambda: refund_loop.Tariff, dict(
        changes={datetime.date(2024, 1, 1): "12.50"})),
    "reliability.refund_loop.Tariff.in_force": Entry(lambda: _TARIFF.in_force, dict(
        day=datetime.date(2024, 5, 1))),
    "reliability.refund_loop.tariff_violations": Entry(lambda: refund_loop.tariff_violations,
                                                       dict(refund=_REFUND, tariff=_TARIFF)),
    "reliability.refund_loop.refund_check": Entry(lambda: refund_loop.refund_check, dict(
        records=_RECORDS, tariff=_TARIFF), ok={"tariff": [None]}),
    "reliability.refund_loop.Attempt": Entry(lambda: refund_loop.Attempt, dict(
        number=1, draft="{}", problems=("x",))),
    "reliability.refund_loop.Outcome": Entry(lambda: refund_loop.Outcome, dict(
        status="accepted", refund=_REFUND, attempts=(_ATTEMPT,), reason=None),
        ok={"refund": [None], "reason": [None]}),
    "reliability.refund_loop.escalate_to_human": Entry(lambda: refund_loop.escalate_to_human,
                                                       dict(attempts=(_ATTEMPT,),
                                                            reason="validation_failed",
                                                            refund=_REFUND),
                                                       ok={"refund": [None]}),
    "reliability.refund_loop.refund_with_validation": Entry(
        lambda: refund_loop.refund_with_validation, dict(
            model=lambda feedback: _REFUND.model_dump_json(), check=_LOOP_CHECK,
            max_attempts=2, approval_limit=Decimal("500.00")),
        ok={"approval_limit": _an_amount}),
    "reliability.refund_loop.DraftModel": Entry(lambda: refund_loop.DraftModel, dict(
        right="{}", wrong=("x",), draft_wrong=0.5, fix_rate=0.5)),
    "reliability.refund_loop.DraftModel.caller": Entry(lambda: _DRAFT.caller, dict(rng=_GEN)),
    "reliability.refund_loop.LoopCounts": Entry(lambda: refund_loop.LoopCounts, dict(
        counts={1: 2, "escalated": 1}, runs=3)),
    "reliability.refund_loop.LoopCounts.rows": Entry(lambda: _COUNTS.rows, dict(
        closed={1: 0.5, "escalated": 0.5}), ok={"closed": [None]}),
    "reliability.refund_loop.loop_probabilities": Entry(lambda: refund_loop.loop_probabilities,
                                                        dict(draft_wrong=0.3, fix_rate=0.8,
                                                             max_attempts=3)),
    "reliability.refund_loop.simulate_loop": Entry(lambda: refund_loop.simulate_loop, dict(
        model=_DRAFT, check=_LOOP_CHECK, runs=3, seed=0, max_attempts=2)),
    # formattax
    "reliability.formattax.Regime": Entry(lambda: formattax.Regime, dict(name="free", compliance=0.8, accuracy=0.6)),
    "reliability.formattax.Generator": Entry(lambda: formattax.Generator, dict(
        free_accuracy=0.6, parse_rate=0.8, prompt_compliance=0.5, prompt_tax=0.05,
        constrained_compliance=0.95, decoder_tax=0.0, reformat_fidelity=0.98)),
    "reliability.formattax.Generator.regime": Entry(lambda: formattax.Generator().regime, dict(name="free")),
    "reliability.formattax.Generator.regimes": Entry(lambda: formattax.Generator().regimes, {}),
    "reliability.formattax.Generator.simulate": Entry(lambda: formattax.Generator().simulate, dict(
        name="free", runs=3, seed=0)),
    "reliability.formattax.RegimeSimulation": Entry(lambda: formattax.RegimeSimulation, _fields(_REGSIM)),
    "reliability.formattax.RegimeSimulation.rate": Entry(lambda: _REGSIM.rate, dict(what="valid")),
    "reliability.formattax.RegimeSimulation.count": Entry(lambda: _REGSIM.count, dict(what="valid")),
    "reliability.formattax.RegimeSimulation.interval": Entry(lambda: _REGSIM.interval, dict(
        what="valid", confidence=0.9)),
    "reliability.formattax.cell_partition": Entry(lambda: formattax.cell_partition, dict(
        cells=20, significant=8, with_prompt=5, with_decoder=6, decoder_only=3)),
    "reliability.formattax.split_tax": Entry(lambda: formattax.split_tax, dict(
        table={"accuracy_free": 60, "accuracy_constrained": 50, "drop_prompt": 3,
               "drop_decoder": 1})),
    "reliability.formattax.FieldOrderToy": Entry(lambda: formattax.FieldOrderToy, dict(
        digits=4, step_error=0.02, budget=1)),
    "reliability.formattax.FieldOrderToy.accuracy": Entry(lambda: formattax.FieldOrderToy().accuracy,
                                                          dict(order="reasoning_first")),
    "reliability.formattax.FieldOrderToy.simulate": Entry(lambda: formattax.FieldOrderToy().simulate, dict(
        order="reasoning_first", runs=3, seed=0)),
    "reliability.formattax.OrderSimulation": Entry(lambda: formattax.OrderSimulation, _fields(_ORDSIM)),
    "reliability.formattax.OrderSimulation.interval": Entry(lambda: _ORDSIM.interval, dict(confidence=0.9)),
    # harness.breaker
    "reliability.harness.breaker.BreakerConfig": Entry(lambda: breaker.BreakerConfig, dict(
        failure_threshold=3, reset_timeout=10.0)),
    "reliability.harness.breaker.BreakerState": Entry(lambda: breaker.BreakerState, dict(
        state="open", failures=2, opened_at=1.0, probing=False), ok={"opened_at": [-math.inf]}),
    "reliability.harness.breaker.transition": Entry(lambda: breaker.transition, dict(
        current=breaker.BreakerState(), event="failure", now=1.0, config=breaker.BreakerConfig())),
    "reliability.harness.breaker.CircuitBreaker": Entry(lambda: breaker.CircuitBreaker, dict(
        config=breaker.BreakerConfig(), clock=_CLOCK), ok={"clock": [None]}),
    "reliability.harness.breaker.CircuitBreaker.allow": Entry(lambda: breaker.CircuitBreaker(clock=_CLOCK).allow, {}),
    "reliability.harness.breaker.CircuitBreaker.record_success": Entry(
        lambda: breaker.CircuitBreaker(clock=_CLOCK).record_success, {}),
    "reliability.harness.breaker.CircuitBreaker.record_failure": Entry(
        lambda: breaker.CircuitBreaker(clock=_CLOCK).record_failure, {}),
    "reliability.harness.breaker.CircuitBreaker.call": Entry(lambda: breaker.CircuitBreaker(clock=_CLOCK).call,
                                                             dict(fn=lambda: 1)),
    # harness.budget
    "reliability.harness.budget.TaskBudget": Entry(lambda: budget.TaskBudget, dict(
        max_steps=5, max_cost_usd=0.1, deadline_s=10.0, max_retries=2),
        ok={"max_steps": [None], "max_cost_usd": [None], "deadline_s": [None], "max_retries": [None]}),
    "reliability.harness.budget.TaskBudget.tripped": Entry(lambda: budget.TaskBudget().tripped, dict(
        steps=1, cost_usd=0.01, elapsed_s=1.0)),
    "reliability.harness.budget.TaskBudget.may_retry": Entry(lambda: budget.TaskBudget().may_retry,
                                                             dict(retries_used=1)),
    "reliability.harness.budget.Step": Entry(lambda: budget.Step, dict(
        state=1, cost_usd=0.01, tool="t", args=(1,), failed=False, done=False, best="x"),
        anything=("state", "best")),
    "reliability.harness.budget.Outcome": Entry(lambda: budget.Outcome, _fields(_OUTCOME),
                                                ok={"limit": [None]}, anything=("result",)),
    "reliability.harness.budget.Outcome.as_dict": Entry(lambda: _OUTCOME.as_dict, {}),
    "reliability.harness.budget.run_task": Entry(lambda: budget.run_task, dict(
        agent=budget.fake_agent(clock=_CLOCK, finish_at=2), start=0, budget=budget.TaskBudget(),
        clock=_CLOCK, detector=loops.LoopDetector(), retry_wait_s=0.0, transient=(TimeoutError,)),
        ok={"budget": [None], "detector": [None]}, anything=("start",)),
    "reliability.harness.budget.max_provider_calls": Entry(lambda: budget.max_provider_calls, dict(
        steps=3, attempts_per_call=2, task_retries=2),
        ok={"attempts_per_call": [None], "task_retries": [None]}),
    "reliability.harness.budget.retry_success": Entry(lambda: budget.retry_success, dict(error=0.1, attempts=3)),
    "reliability.harness.budget.flaky_call": Entry(lambda: budget.flaky_call, dict(
        error=0.1, seed=0, exception=ConnectionError)),
    "reliability.harness.budget.fake_agent": Entry(lambda: budget.fake_agent, dict(
        clock=_CLOCK, cost_usd=0.01, seconds=1.0, fail_every=0, finish_at=3), ok={"finish_at": [None]}),
    "reliability.harness.budget.scripted_agent": Entry(lambda: budget.scripted_agent, dict(
        script=_MOVES, clock=_CLOCK, after_hint=_MOVES, finishes=False, seconds=1.0, cost_usd=0.001),
        ok={"after_hint": [None]}),
    "reliability.harness.budget.TaskMix": Entry(lambda: budget.TaskMix, dict(median=6.0, spread=0.5, stuck=0.03)),
    "reliability.harness.budget.TaskMix.cut_short": Entry(lambda: budget.TaskMix().cut_short, dict(limits=[5, 10])),
    "reliability.harness.budget.TaskMix.hit_share": Entry(lambda: budget.TaskMix().hit_share, dict(limits=[5, 10])),
    "reliability.harness.budget.TaskMix.simulate": Entry(lambda: budget.TaskMix().simulate, dict(runs=3, seed=0)),
    "reliability.harness.budget.LengthSample": Entry(lambda: budget.LengthSample, dict(
        lengths=np.array([3, 0]), stuck=np.array([False, True]))),
    "reliability.harness.budget.LengthSample.hits": Entry(lambda: budget.TaskMix().simulate(3, 0).hits,
                                                          dict(limit=5)),
    # harness.clock
    "reliability.harness.clock.SystemClock": Entry(lambda: clock.SystemClock, {}),
    "reliability.harness.clock.SystemClock.now": Entry(lambda: clock.SystemClock().now, {}),
    "reliability.harness.clock.SystemClock.sleep": Entry(lambda: clock.SystemClock().sleep, dict(seconds=0.0)),
    "reliability.harness.clock.ManualClock": Entry(lambda: clock.ManualClock, dict(time=0.0)),
    "reliability.harness.clock.ManualClock.now": Entry(lambda: clock.ManualClock().now, {}),
    "reliability.harness.clock.ManualClock.sleep": Entry(lambda: clock.ManualClock().sleep, dict(seconds=1.0)),
    "reliability.harness.clock.ManualClock.advance": Entry(lambda: clock.ManualClock().advance, dict(seconds=1.0)),
    # harness.ladder
    "reliability.harness.ladder.Rung": Entry(lambda: ladder.Rung, dict(name="x", kind="model", value=0.5, cost="c")),
    "reliability.harness.ladder.Policy": Entry(lambda: ladder.Policy, dict(
        time_budget=10.0, validation_failures=2, task_calls=6, retries=2, confidence=0.3,
        backoff_base=0.5, backoff_cap=4.0)),
    "reliability.harness.ladder.Observation": Entry(lambda: ladder.Observation, dict(
        status="ok", latency=1.0, valid=True, confidence=0.9)),
    "reliability.harness.ladder.Descent": Entry(lambda: ladder.Descent, dict(
        rung=0, passed=(), elapsed=1.0, waited=0.0, calls=1)),
    "reliability.harness.ladder.backoff_delays": Entry(lambda: ladder.backoff_delays, dict(
        policy=ladder.Policy(), jitter=[0.5, 0.2])),
    "reliability.harness.ladder.descend": Entry(lambda: ladder.descend, dict(
        observe=lambda rung, attempt: ladder.Observation(), policy=ladder.Policy(),
        jitter=[0.5, 0.5], skip=(), rungs=ladder.RUNGS, seed=0), ok={"jitter": [None]}),
    "reliability.harness.ladder.rung_counts": Entry(lambda: ladder.rung_counts, dict(
        rungs_answered=[0, 1, 1], n_rungs=7)),
    "reliability.harness.ladder.cascade_cost": Entry(lambda: ladder.cascade_cost, dict(
        strong_share=0.3, price_ratio=0.1), arrays=("strong_share",)),
    # harness.loops
    "reliability.harness.loops.Move": Entry(lambda: loops.Move, dict(tool="t", args=(1,), state=1),
                                            anything=("state",)),
    "reliability.harness.loops.LoopDetector": Entry(lambda: loops.LoopDetector, dict(repeats=3, stall=4, cycles=2)),
    "reliability.harness.loops.LoopDetector.sign": Entry(lambda: loops.LoopDetector().sign, dict(
        moves=_MOVES, before=0), anything=("before",)),
    "reliability.harness.loops.LoopDetector.respond": Entry(lambda: loops.LoopDetector().respond, dict(
        moves=_MOVES, hinted_at=1, before=0), ok={"hinted_at": [None]}, anything=("before",)),
    "reliability.harness.loops.LoopDetector.scan": Entry(lambda: loops.LoopDetector().scan, dict(
        moves=_MOVES, before=0), anything=("before",)),
    "reliability.harness.loops.Verdict": Entry(lambda: loops.Verdict, dict(action="hint", sign="repeat"),
                                               ok={"sign": [None]}),
    # harness.traffic
    "reliability.harness.traffic.Provider": Entry(lambda: traffic.Provider, dict(
        error=0.01, rate_limited=0.005, median_latency=2.0, spread=0.5, invalid=0.03,
        confidence_a=8.0, confidence_b=2.0)),
    "reliability.harness.traffic.Scenario": Entry(lambda: traffic.Scenario, dict(
        name="x", outage_start=10.0, outage_hours=1.0, dead_latency=4.0, slow_start=14.0,
        slow_hours=1.0, slow_factor=4.0, quality_drop=0.0, rules_cover=0.35, cache_hit=0.3)),
    "reliability.harness.traffic.DayReport": Entry(lambda: traffic.DayReport, _fields(_DAY),
                                                   ok={"breaker": [None]}),
    "reliability.harness.traffic.DayReport.latency": Entry(lambda: _DAY.latency, dict(q=0.5)),
    "reliability.harness.traffic.DayReport.trigger_counts": Entry(lambda: _DAY.trigger_counts, {}),
    "reliability.harness.traffic.simulate_day": Entry(lambda: traffic.simulate_day, dict(
        scenario=traffic.Scenario(), policy=ladder.Policy(), breaker=breaker.BreakerConfig(),
        conversations=3, turns=2.0, providers=traffic.PROVIDERS, seed=0), ok={"breaker": [None]}),
    "reliability.harness.traffic.rung_alerts": Entry(lambda: traffic.rung_alerts, dict(
        counts=[90, 5, 5, 0, 0, 0, 0], requests=100, baseline_shares=[0.9, 0.05, 0.05, 0, 0, 0, 0],
        z=4.0)),
    # lab.task
    "reliability.lab.task.Task": Entry(lambda: task.Task, dict(order_id="A-1", item_total=10.0, zone="A",
                                                               rates={"A": 1.0, "B": 2.0})),
    "reliability.lab.task.Task.get_order": Entry(lambda: task.Task().get_order, dict(args={"order_id": "A-1001"})),
    "reliability.lab.task.Task.get_ship_rate": Entry(lambda: task.Task().get_ship_rate, dict(args={"zone": "B"})),
    "reliability.lab.task.ToolResult": Entry(lambda: task.ToolResult, dict(status=200, data={"a": 1}, error="e"),
                                             ok={"data": [None], "error": [None]}),
    "reliability.lab.task.oracle": Entry(lambda: task.oracle, dict(task=task.Task(), submitted=158),
                                         anything=("submitted",)),
    "reliability.lab.task.make_cases": Entry(lambda: task.make_cases, dict(cases=3, seed=0)),
    # lab.faults
    "reliability.lab.faults.TransientFaults": Entry(lambda: faults.TransientFaults, dict(rate=0.1)),
    "reliability.lab.faults.TransientFaults.strike": Entry(lambda: faults.TransientFaults(0.5).strike, dict(rng=_GEN)),
    "reliability.lab.faults.MalformedFaults": Entry(lambda: faults.MalformedFaults, dict(rate=0.1)),
    "reliability.lab.faults.MalformedFaults.arm": Entry(lambda: faults.MalformedFaults(0.5).arm, dict(rng=_GEN)),
    # lab.guardrails
    "reliability.lab.guardrails.Guardrails": Entry(lambda: guardrails.Guardrails, dict(
        error_recovery=True, retry_nudge=False, submit_nudge=False, validation=True, recovery_retries=2)),
    "reliability.lab.guardrails.Guardrails.only": Entry(lambda: guardrails.Guardrails.only, {},
                                                        args=("validation",)),
    "reliability.lab.guardrails.Check": Entry(lambda: guardrails.Check, dict(accepted=True, reason="r", parts=(1.0,))),
    "reliability.lab.guardrails.validate": Entry(lambda: guardrails.validate, dict(
        submitted=158, retrieved={"get_order": {"item_total_usd": 140.0}, "get_ship_rate": {"rate_usd": 18.0}}),
        anything=("submitted",)),
    # lab.agent
    "reliability.lab.agent.Profile": Entry(lambda: agent.Profile, dict(
        malformed=0.1, heal=0.9, skip_lookup=0.1, wrong_record=0.1, no_submit=0.1, non_numeric=0.1,
        made_up=0.1, slip=0.1, heeds=0.9)),
    "reliability.lab.agent.Action": Entry(lambda: agent.Action, dict(kind="call", tool="get_order",
                                                                     args={"order_id": "A"}, value=1, text="t"),
                                          ok={"tool": [None]}, anything=("value",)),
    "reliability.lab.agent.Event": Entry(lambda: agent.Event, dict(turn=1, source="model", kind="call", text="t")),
    "reliability.lab.agent.Trajectory": Entry(lambda: agent.Trajectory, _fields(_TRAJ),
                                              anything=("submitted",)),
    "reliability.lab.agent.Trajectory.lines": Entry(lambda: _TRAJ.lines, {}),
    "reliability.lab.agent.Trajectory.records": Entry(lambda: _TRAJ.records, {}),
    "reliability.lab.agent.SimulatedAgent": Entry(lambda: agent.SimulatedAgent, dict(
        profile=agent.Profile(), rng=np.random.default_rng(0), zones=("A", "B"), order_id="A-1")),
    "reliability.lab.agent.SimulatedAgent.act": Entry(lambda: agent.SimulatedAgent(
        agent.Profile(), np.random.default_rng(0), zones=("A", "B"), order_id="A-1").act, dict(observations=[])),
    "reliability.lab.agent.run_episode": Entry(lambda: agent.run_episode, dict(
        task=task.Task(), profile=agent.Profile(), guardrails=guardrails.Guardrails(), fault_rate=0.1,
        malformed_rate=0.1, max_turns=3, seed=0, index=0, agent=None, record=False),
        ok={"agent": [None]}),
    "reliability.lab.agent.episode_streams": Entry(lambda: agent.episode_streams, dict(seed=0, index=1)),
    "reliability.lab.agent.transient_success": Entry(lambda: agent.transient_success, dict(
        fault_rate=0.1, max_turns=6, retries=1)),
    "reliability.lab.agent.write_jsonl": Entry(lambda: agent.write_jsonl, dict(
        trajectories=[_TRAJ], path="/dev/null")),
    # lab.arms
    "reliability.lab.arms.Scenario": Entry(lambda: arms.Scenario, dict(
        profile=agent.Profile(), fault_rate=0.1, malformed_rate=0.1, max_turns=3, task=task.Task())),
    "reliability.lab.arms.ArmResult": Entry(lambda: arms.ArmResult, _fields(_ARM)),
    "reliability.lab.arms.ArmResult.interval": Entry(lambda: _ARM.interval, dict(confidence=0.9)),
    "reliability.lab.arms.ArmResult.share": Entry(lambda: _ARM.share, dict(failure="success")),
    "reliability.lab.arms.ArmResult.share_interval": Entry(lambda: _ARM.share_interval, dict(
        failure="success", confidence=0.9)),
    "reliability.lab.arms.Gap": Entry(lambda: arms.Gap, dict(reference="a", treated="b", delta=0.1,
                                                             low=-0.1, high=0.3)),
    "reliability.lab.arms.Gap.sentence": Entry(lambda: arms.compare(_ARM, _ARM).sentence, {}),
    "reliability.lab.arms.verdict": Entry(lambda: arms.verdict, dict(low=-0.1, high=0.2)),
    "reliability.lab.arms.classify": Entry(lambda: arms.classify, dict(task=task.Task(), trajectory=_TRAJ)),
    "reliability.lab.arms.run_arm": Entry(lambda: arms.run_arm, dict(
        scenario=arms.Scenario(), guardrails=guardrails.Guardrails(), runs=2, seed=0, label="x",
        keep=1, first=0), ok={"label": [None]}),
    "reliability.lab.arms.ablation": Entry(lambda: arms.ablation, dict(
        scenario=arms.Scenario(), arms={"a": guardrails.Guardrails()}, runs=2, seed=0)),
    "reliability.lab.arms.compare": Entry(lambda: arms.compare, dict(reference=_ARM, treated=_ARM,
                                                                     confidence=0.9)),
    "reliability.lab.arms.capability_ladder": Entry(lambda: arms.capability_ladder, dict(
        profiles={"clean": agent.Profile()}, guardrails=guardrails.Guardrails(), runs=2, seed=0,
        fault_rate=0.1)),
    "reliability.lab.arms.pass_k_over_cases": Entry(lambda: arms.pass_k_over_cases, dict(
        successes=[1, 2], n=2, k=1)),
    "reliability.lab.arms.Dashboard": Entry(lambda: arms.Dashboard, _fields(_DASH)),
    "reliability.lab.arms.measure_own": Entry(lambda: arms.measure_own, dict(
        scenario=arms.Scenario(), guardrails=guardrails.Guardrails(), cases=2, runs_per_case=2, seed=0,
        difficulty=MIX)),
    "reliability.lab.arms.failure_ladder": Entry(lambda: arms.failure_ladder, dict(
        runs=2, seed=0, fault_rate=0.1, max_turns=3), ok={"fault_rate": [None], "max_turns": [None]}),
    # notebook
    "reliability.notebook.style.setup": Entry(lambda: notebook.setup,
                                              dict(language="en")),
    # i18n (valid examples keep English: the sweep must not leave the package in Russian)
    "reliability.claims.check": Entry(lambda: claims.check, dict(claim="c", holds=True)),
    "reliability.claims.where": Entry(lambda: claims.where, dict(value=0.5, low=0.2, high=0.8)),
    "reliability.claims.inside": Entry(lambda: claims.inside, dict(value=0.5, low=0.2,
                                                                   high=0.8)),
    "reliability.claims.trend": Entry(lambda: claims.trend, dict(first=0.1, last=0.2,
                                                                 tolerance=0.05)),
    "reliability.claims.change": Entry(lambda: claims.change, dict(
        before=(1, 10), after=(3, 10), confidence=0.95)),
    "reliability.claims.same": Entry(lambda: claims.same, dict(first=(1.0, 2.0),
                                                               second=(1.0, 2.0),
                                                               tolerance=0.0)),
    "reliability.claims.chance_of_misses": Entry(lambda: claims.chance_of_misses, dict(
        misses=1, intervals=6, confidence=0.95)),
    "reliability.claims.choose": Entry(lambda: claims.choose, dict(
        case="flat", sentences={"flat": "stays flat"})),
    "reliability.claims.word": Entry(lambda: claims.word, dict(case="flat")),
    "reliability._language.set_language": Entry(lambda: i18n.set_language, dict(language="en")),
    "reliability._language.get_language": Entry(lambda: i18n.get_language, {}),
    "reliability._language.language": Entry(lambda: i18n.language, dict(language="ru")),
    "reliability.i18n.gettext": Entry(lambda: i18n.gettext, dict(message="Solution")),
    "reliability._language.N_": Entry(lambda: i18n.N_, dict(message="closed form")),
    "reliability._language.NP_": Entry(lambda: i18n.NP_, dict(context="confidence",
                                                         message="low")),
    "reliability.i18n.pgettext": Entry(lambda: i18n.pgettext, dict(context="confidence",
                                                                   message="low")),
    "reliability.i18n.translate": Entry(lambda: i18n.translate, dict(value="x"),
                                        anything=("value",)),
    "reliability._language.catalog": Entry(lambda: i18n.catalog, dict(language="ru")),
    "reliability.i18n.ngettext": Entry(lambda: i18n.ngettext, dict(
        singular="call", plural="calls", n=2), ok=dict(n=_a_whole_number)),
    "reliability._language.plural_index": Entry(lambda: i18n.plural_index, dict(n=2),
                                           ok=dict(n=_a_whole_number)),
    "reliability._language.plural_count": Entry(lambda: i18n.plural_count, dict(language="ru"),
                                           ok=dict(language=[None])),
    # reliability.numbers: nan and inf are numbers a reader is told are "n/a"
    "reliability.numbers.number": Entry(lambda: numbers_module.number, dict(
        value=6931.1, digits=1, group=True, sign=False),
        ok=dict(value=_not_finite, digits=[None])),
    "reliability.numbers.percent": Entry(lambda: numbers_module.percent, dict(
        share=0.241, digits=1, sign=False), ok=dict(share=_not_finite)),
    "reliability.numbers.points": Entry(lambda: numbers_module.points, dict(
        difference=0.023, digits=1, sign=True), ok=dict(difference=_not_finite)),
    "reliability.numbers.interval": Entry(lambda: numbers_module.interval, dict(
        low=0.3, high=0.58, format_spec=".1%", width=0),
        ok=dict(low=_not_finite, high=_not_finite)),
    "reliability.numbers.counted": Entry(lambda: _counted, dict(n=3, format_spec=",d"),
                                         ok=dict(n=_a_whole_number, format_spec=[None])),
    "reliability.numbers.money": Entry(lambda: numbers_module.money, dict(
        amount=1234.5, currency="USD", digits=2), ok=dict(amount=_not_finite)),
    "reliability.numbers.day": Entry(lambda: numbers_module.day, dict(
        value=datetime.date(2026, 11, 3))),
    "reliability.numbers.fmt": Entry(lambda: numbers_module.fmt, dict(
        value=0.5, format_spec=".1%"), anything=("value",), ok=dict(format_spec=[None])),
    "reliability.numbers.seeded": Entry(lambda: numbers_module.seeded, dict(
        values=[29.4, 28.7, 30.4, 28.7], format_spec=".1f", minimum=0.0),
        ok=dict(minimum=[None])),
    "reliability.numbers.glued_text": Entry(lambda: numbers_module.glued_text, dict(
        text="0.5", format_spec=".1%")),
    "reliability.numbers.yes_no": Entry(lambda: numbers_module.yes_no, dict(flag=True)),
    "reliability.i18n.fill_slots": Entry(lambda: i18n.fill_slots,
                                         dict(template="{runs:,d} runs give {rate}")),
    "reliability._language.read_po": Entry(lambda: i18n.read_po, dict(
        path=str(i18n.LOCALE / "ru" / "parameters.po"))),
    "reliability.notebook.glue.glued": Entry(lambda: notebook.glued, dict(value=0.5),
                                        anything=("value",)),
    "reliability.notebook.glue.glue_values": Entry(lambda: notebook.glue_values, {}),
    "reliability.notebook.glue.Sampled": Entry(lambda: notebook.Sampled, dict(
        value=0.082, low=0.074, high=0.091)),
    "reliability.notebook.glue.expanded": Entry(
        lambda: __import__("reliability.notebook.glue", fromlist=["expanded"]).expanded,
        dict(values={"ch7_cut": notebook.Sampled(0.082, 0.074, 0.091)})),
    "reliability.notebook.style.percent_axis": Entry(lambda: notebook.percent_axis,
                                               dict(axis=_AX.yaxis)),
    "reliability.notebook.style.fit_text": Entry(lambda: notebook.fit_text,
                                                dict(fig=_FIG, pad_px=3.0)),
    "reliability.notebook.style.legend_below": Entry(
        lambda: notebook.legend_below, dict(fig=_FIG, handles=None, labels=None,
                                            most_columns=2),
        ok={"handles": [None], "labels": [None]}),
    "reliability.notebook.legibility.figure_problems": Entry(
        lambda: notebook.figure_problems,
        dict(fig=_FIG, column_px=360.0, min_text_px=7.5)),
    "reliability.notebook.tables.table": Entry(lambda: notebook.table, dict(
        frame=__import__("pandas").DataFrame({"a": [0.5]}), name="t",
        formats={"a": "{:.1%}"}, index=False),
        ok={"formats": lambda v: v is None or isinstance(v, str)}),
    "reliability.notebook.animation.animation_html": Entry(
        lambda: notebook.animation_html, dict(animation=_ANIM, name="a")),
    "reliability.notebook.animation.scrubber": Entry(lambda: notebook.scrubber, dict(
        draw=lambda fig, value: None, values=[1, 2], name="s", figsize=(2.0, 1.0))),
    # datasets and parameters
    "reliability.datasets.names": Entry(lambda: datasets.names, {}),
    "reliability.datasets.path": Entry(lambda: datasets.path, dict(name="bfcl")),
    "reliability.datasets.load": Entry(lambda: datasets.load, dict(name="bfcl")),
    "reliability.parameters.Number": Entry(lambda: parameters.Number, dict(
        low=0.0, high=10.0, whole=True)),
    "reliability.parameters.Number.describe": Entry(lambda: parameters.Number(0, 1).describe, {}),
    "reliability.parameters.Number.accepts": Entry(lambda: parameters.Number(0, 1).accepts,
                                                   dict(value=0.5), anything=("value",)),
    "reliability.parameters.Rule": Entry(lambda: parameters.Rule, dict(
        names=("a",), holds=lambda a: a > 0, says="a must be positive")),
    "reliability.parameters.ChapterParameters": Entry(lambda: parameters.ChapterParameters, dict(
        ranges={"a": parameters.Number(0, 1)}, rules=(), cases=({"a": 0},))),
    "reliability.parameters.allowed": Entry(lambda: parameters.allowed,
                                            dict(chapter="01_chain_decay")),
    "reliability.parameters.extreme_cases": Entry(lambda: parameters.extreme_cases,
                                                  dict(chapter="01_chain_decay")),
    "reliability.parameters.check_parameters": Entry(lambda: parameters.check_parameters, dict(
        chapter="01_chain_decay", language="en", error=0.05, silent=0.03, runs=2000,
        seed=1)),
    # lab.chat_adapter
    "reliability.lab.chat_adapter.ChatAgent": Entry(lambda: chat_adapter.ChatAgent, dict(
        url="http://x.invalid", model="m", key="", order_id="A-1", temperature=0.7,
        max_tokens=64, seed=3, post=_POST), ok={"seed": [None]}),
    "reliability.lab.chat_adapter.ChatAgent.act": Entry(lambda: chat_adapter.ChatAgent(
        url="http://x.invalid", model="m", post=_POST).act, dict(observations=[])),
    # lab.measure
    "reliability.lab.measure.Arm": Entry(lambda: measure.Arm, dict(
        label="a", guardrails=guardrails.Guardrails(), fault_rate=0.5, malformed_rate=0.0,
        condition="transient 503", reference="baseline"), ok={"reference": [None]}),
    "reliability.lab.measure.Arm.shown": Entry(lambda: measure.ARMS["baseline"].shown, dict()),
    "reliability.lab.measure.Endpoint": Entry(lambda: measure.Endpoint, dict(
        url="http://x.invalid/v1", model="m", key="", server="s", server_version="1",
        model_sha256="")),
    "reliability.lab.measure.measure": Entry(lambda: measure.measure, dict(
        endpoint=measure.Endpoint("http://x.invalid/v1", "m"), path=_TRIALS, trials=1,
        arms=["baseline"], temperature=0.7, seed=0, max_turns=2, max_tokens=64, timeout=5.0,
        concurrency=1, post=_POST, progress=None), ok={"arms": [None], "post": [None], "progress": [None]}),
    "reliability.lab.measure.summary": Entry(lambda: measure.summary, dict(
        records=_TRIAL_RECORDS, confidence=0.95)),
    "reliability.lab.measure.in_brief": Entry(lambda: measure.in_brief, dict(
        records=_TRIAL_RECORDS, confidence=0.95)),
    "reliability.lab.measure.measure_form": Entry(lambda: measure.measure_form, dict(
        endpoint=measure.Endpoint("http://x.invalid/v1", "m"), path=_CALLS, calls=1,
        temperature=0.7, seed=0, max_tokens=64, timeout=5.0, post=_POST, progress=None),
        ok={"post": [None], "progress": [None]}),
    "reliability.lab.measure.form_summary": Entry(lambda: measure.form_summary, dict(
        records=_CALL_RECORDS, confidence=0.95)),
    "reliability.lab.measure.stored_rows": Entry(lambda: measure.stored_rows, dict(
        records=_STORED_TRIALS)),
    "reliability.lab.measure.stored_records": Entry(lambda: measure.stored_records, dict(
        rows=[{"arm": "baseline", "ending": "no_submit", "endpoint_error": False,
               "passed": False, "value": 2}])),
    # lab.rig
    "reliability.lab.rig.StageMirror": Entry(lambda: rig.StageMirror, dict(
        stage="S1", label="l", model="m", trials=10, rig_gap=1.0, rig_low=-1.0, rig_high=3.0,
        lab=arms.compare(_ARM, _ARM))),
    "reliability.lab.rig.mirror_stages": Entry(lambda: rig.mirror_stages, dict(rig=_RIG, seed=0)),
    # figures.chain
    "reliability.figures.chain.decay_table": Entry(lambda: fig_chain.decay_table, dict(
        workflows={"a": W(steps=2)}, lengths=[1, 2], runs=3, seed=0)),
    "reliability.figures.chain.decay_frame": Entry(lambda: fig_chain.decay_frame, dict(table=_DECAY)),
    "reliability.figures.chain.interval_text": Entry(lambda: fig_chain.interval_text, dict(
        low=0.1, high=0.2, form="{:.1%}")),
    "reliability.figures.chain.plot_decay": Entry(lambda: _closing(fig_chain.plot_decay), dict(
        table=_DECAY, title="t", medium="page"), ok=_MEDIA),
    "reliability.figures.chain.plot_horizon": Entry(lambda: _closing(fig_chain.plot_horizon), dict(
        accuracies=[0.9, 0.99], target=0.5, medium="slide"), ok=_MEDIA),
    "reliability.figures.chain.run_grid": Entry(lambda: fig_chain.run_grid, dict(log=_LOG, steps=3)),
    "reliability.figures.chain.animate_runs": Entry(lambda: _closing(fig_chain.animate_runs), dict(
        log=_LOG, steps=3, title="t", states={"ok": "right"}, medium="page"),
        ok={"states": [None], **_MEDIA}),
    "reliability.figures.chain.plot_explorer": Entry(lambda: _closing(fig_chain.plot_explorer), dict(
        error=0.05, silent=0.03, longest=5)),
    # live
    "reliability.live.Control": Entry(lambda: live.Control, dict(
        name="a", label="a value", values=(0.1, 0.2), default=0.1, format=".0%",
        labels=("low", "high")), ok={"labels": [None]}),
    "reliability.live.Control.shown": Entry(lambda: _CONTROL.shown, dict(value=0.2)),
    "reliability.live.Series": Entry(lambda: live.Series, dict(
        label="s", draw=lambda a: {"x": [1], "y": [a]}, depends=("a",), kind="points",
        colour="orange", dashed=False)),
    "reliability.live.Words": Entry(lambda: live.Words, dict(
        template="{a}", fill=lambda a: {}, depends=("a",))),
    "reliability.live.Explorer": Entry(lambda: live.Explorer, dict(
        name="t", controls=(_CONTROL,), series=(_SERIES,), words=_WORDS, x_label="x",
        y_label="y", alt="a", title="t", x_percent=False, y_percent=True, x_range=(0, 1),
        y_range=(0, 1), source=("t.f", {"n": 1})),
        ok={"x_range": [None], "y_range": [None], "source": [None]}),
    "reliability.live.nearest": Entry(lambda: live.nearest, dict(grid=(0.1, 0.2), value=0.14)),
    "reliability.live.Explorer.sentence": Entry(lambda: _LIVE.sentence, dict(a=0.2)),
    "reliability.live.Explorer.data": Entry(lambda: _LIVE.data, dict()),
    "reliability.live.Explorer.html": Entry(lambda: _LIVE.html, dict()),
    "reliability.figures.chain.live_decay": Entry(lambda: fig_chain.live_decay, dict(
        runs=5, seed=0, p=0.9, n=3)),
    # figures.passk
    "reliability.figures.passk.draw_mixes": Entry(lambda: _closing(fig_passk.draw_mixes), dict(
        fig=_CANVAS, mixes={"a": MIX}, kmax=3, k=2, title="t"), ok={"k": [None]}),
    "reliability.figures.passk.plot_mixes": Entry(lambda: _closing(fig_passk.plot_mixes), dict(
        mixes={"a": MIX}, kmax=3, title="t", medium="slide"), ok=_MEDIA),
    "reliability.figures.passk.plot_curves": Entry(lambda: _closing(fig_passk.plot_curves), dict(
        result=_CURVES, mix=MIX, title="t", medium="page"), ok={"mix": [None], **_MEDIA}),
    "reliability.figures.passk.plot_extrapolation": Entry(
        lambda: _closing(fig_passk.plot_extrapolation), dict(rows=[dict(
            label="m", values=[0.6, 0.45, 0.38], fit=_FIT, rounding=(0.2, 0.3),
            sampling=None, headline=0.25)], kmax=4, title="t", medium="page"), ok=_MEDIA),
    "reliability.figures.passk.wilson_table": Entry(lambda: fig_passk.wilson_table, dict(
        sizes=[16, 50], rate=0.6, confidence=0.95)),
    "reliability.figures.passk.plot_wilson": Entry(lambda: _closing(fig_passk.plot_wilson), dict(
        table=fig_passk.wilson_table([16, 50], 0.6), title="t", medium="page"), ok=_MEDIA),
    "reliability.figures.passk.live_mixes": Entry(lambda: fig_passk.live_mixes, dict(
        cases=2, runs=2, seed=0, pass1=0.6, concentration=1.0, k=2, resamples=2)),
    # figures.retries
    "reliability.figures.retries.sweep": Entry(lambda: fig_retries.sweep, dict(
        workflows=[W()], runs=3, seed=0, confidence=0.9)),
    "reliability.figures.retries.cost_frame": Entry(lambda: fig_retries.cost_frame, dict(costs=[_COST])),
    "reliability.figures.retries.sweep_frame": Entry(lambda: fig_retries.sweep_frame, dict(
        attempts=[1, 2], table=_SWEEP)),
    "reliability.figures.retries.plot_attempts": Entry(lambda: _closing(fig_retries.plot_attempts), dict(
        attempts=[1, 2], table=_SWEEP, ceiling_value=0.5, title="t", medium="slide"),
        ok=_MEDIA),
    "reliability.figures.retries.plot_steps": Entry(lambda: _closing(fig_retries.plot_steps), dict(
        table=_DECAY, ceilings={"c": ([1, 2], [0.9, 0.8])}, title="t", medium="page"), ok=_MEDIA),
    "reliability.figures.retries.draw_attempts_frame": Entry(
        lambda: _closing(fig_retries.draw_attempts_frame), dict(
            fig=_CANVAS, attempts=2, base=W(), lengths=[1, 2], table=_BY_ATTEMPTS)),
    "reliability.figures.retries.plot_explorer": Entry(lambda: _closing(fig_retries.plot_explorer), dict(
        error=0.05, silent=0.03, attempts=2, longest=5)),
    "reliability.figures.retries.live_retries": Entry(lambda: fig_retries.live_retries, dict(
        runs=2, seed=0, steps=2, error=0.05, silent=0.03, attempts=2)),
    # judge
    "reliability.judge.effective_recall": Entry(lambda: judge.effective_recall, dict(
        recall=0.8, shared=0.3)),
    "reliability.judge.judged_workflow": Entry(lambda: judge.judged_workflow, dict(
        base=W(attempts=2), recall=0.8, false_reject=0.05, shared=0.3)),
    "reliability.judge.lift": Entry(lambda: judge.lift, dict(
        base=W(attempts=2), recall=0.8, false_reject=0.05, shared=0.3)),
    "reliability.judge.blind_share_of_passes": Entry(lambda: judge.blind_share_of_passes,
                                                     dict(recall=0.8, shared=0.3)),
    "reliability.judge.simulate": Entry(lambda: judge.simulate, dict(
        base=W(attempts=2), recall=0.8, false_reject=0.05, shared=0.3, runs=3, seed=0)),
    # figures.verifiers
    "reliability.figures.verifiers.outcomes": Entry(lambda: fig_verifiers.outcomes, dict(
        workflow=W(attempts=2), runs=3, seed=0)),
    "reliability.figures.verifiers.tradeoff_grid": Entry(lambda: fig_verifiers.tradeoff_grid, dict(
        base=W(attempts=2), recalls=[0.5, 0.9], false_rejects=[0.0, 0.1])),
    "reliability.figures.verifiers.plot_tradeoff": Entry(
        lambda: _closing(fig_verifiers.plot_tradeoff), dict(
            grid=_GRID, mark=workflow.Verifier(), title="t", medium="slide"), ok=_MEDIA),
    "reliability.figures.verifiers.tradeoff_lines": Entry(lambda: fig_verifiers.tradeoff_lines, dict(
        base=W(attempts=2), recalls=[0.8], false_rejects=[0.0, 0.1], runs=3, seed=0)),
    "reliability.figures.verifiers.plot_tradeoff_lines": Entry(
        lambda: _closing(fig_verifiers.plot_tradeoff_lines), dict(
            base=W(attempts=2), false_rejects=[0.0, 0.1], tables=_LINES, title="t", medium="page"), ok=_MEDIA),
    "reliability.figures.verifiers.draw_recall_frame": Entry(
        lambda: _closing(fig_verifiers.draw_recall_frame), dict(
            fig=_CANVAS, recall=0.8, base=W(attempts=2), false_reject=0.05, lengths=[1, 2],
            table=_RECALLS)),
    "reliability.figures.verifiers.blind_spot_table": Entry(
        lambda: fig_verifiers.blind_spot_table, dict(
            base=W(attempts=2), verifier=workflow.Verifier(), shares=[0.0, 0.5], runs=3,
            seed=0)),
    "reliability.figures.verifiers.plot_blind_spot": Entry(
        lambda: _closing(fig_verifiers.plot_blind_spot), dict(
            base=W(attempts=2), verifier=workflow.Verifier(), table=_BLIND, title="t", medium="page"), ok=_MEDIA),
    "reliability.figures.verifiers.live_verifier": Entry(lambda: fig_verifiers.live_verifier, dict(
        runs=2, seed=0, steps=2, error=0.05, silent=0.03, recall=0.8, false_reject=0.05,
        attempts=2)),
    # figures.selfcorrection
    "reliability.figures.selfcorrection.round_table": Entry(lambda: fig_selfcorrection.round_table,
                                                            dict(huang=_HUANG)),
    "reliability.figures.selfcorrection.even_percent_axis": Entry(
        lambda: fig_selfcorrection.even_percent_axis, dict(axis=_AX.yaxis)),
    "reliability.figures.selfcorrection.fates_table": Entry(lambda: fig_selfcorrection.fates_table, dict(
        fates=_FATES, questions=100)),
    "reliability.figures.selfcorrection.trajectory_fits": Entry(
        lambda: fig_selfcorrection.trajectory_fits, dict(table=_ROUND)),
    "reliability.figures.selfcorrection.two_fits": Entry(lambda: fig_selfcorrection.two_fits, dict(
        fates_fit=REV, rounds_fit=REV, initial=0.5)),
    "reliability.figures.selfcorrection.loop_table": Entry(lambda: fig_selfcorrection.loop_table, dict(
        revision=REV, initial=0.5, rounds=2, arbiters=_LOOPS, frame=_ROUNDS, label="loop"),
        ok={"frame": [None]}),
    "reliability.figures.selfcorrection.blank_nan": Entry(lambda: fig_selfcorrection.blank_nan, dict(
        form="{:.1%}", blank="-")),
    "reliability.figures.selfcorrection.restart_table": Entry(
        lambda: fig_selfcorrection.restart_table, dict(resumed=_TRAJSIM, rebuilt=_TRAJSIM,
                                                       never_crashed=0.9)),
    "reliability.figures.selfcorrection.restart_difference": Entry(
        lambda: fig_selfcorrection.restart_difference, dict(resumed=_TRAJSIM, rebuilt=_TRAJSIM)),
    "reliability.figures.selfcorrection.refine_table": Entry(lambda: fig_selfcorrection.refine_table, dict(
        refine=datasets.load("self_refine_baseline"))),
    "reliability.figures.selfcorrection.styled_changes": Entry(
        lambda: fig_selfcorrection.styled_changes, dict(table=_ROUND, name="t", digits=1)),
    "reliability.figures.selfcorrection.rounds_frame": Entry(lambda: fig_selfcorrection.rounds_frame, dict(
        revision=REV, initial=0.5, rounds=2, arbiters=_LOOPS, questions=10, seed=0)),
    "reliability.figures.selfcorrection.plot_rounds": Entry(
        lambda: _closing(fig_selfcorrection.plot_rounds), dict(frame=_ROUNDS, title="t",
                                                             medium="slide"), ok=_MEDIA),
    "reliability.figures.selfcorrection.draw_recall_frame": Entry(
        lambda: _closing(fig_selfcorrection.draw_recall_frame), dict(
            fig=_CANVAS, recall=0.6, revision=REV, initial=0.5, rounds=2, false_reject=0.05)),
    "reliability.figures.selfcorrection.conditioning_frame": Entry(
        lambda: fig_selfcorrection.conditioning_frame, dict(models={"m": SC()}, steps=3, runs=5,
                                                            seed=0)),
    "reliability.figures.selfcorrection.plot_conditioning": Entry(
        lambda: _closing(fig_selfcorrection.plot_conditioning), dict(frame=_COND, title="t", every=1,
                                                                    medium="slide"), ok=_MEDIA),
    "reliability.figures.selfcorrection.live_arbiter": Entry(
        lambda: fig_selfcorrection.live_arbiter, dict(
            break_rate=0.07, fix_rate=0.18, initial=0.76, false_reject=0.05, questions=2,
            seed=0, recall=0.6, rounds=2)),
    # figures.formattax
    "reliability.figures.formattax.plot_two_rates": Entry(lambda: _closing(fig_formattax.plot_two_rates), dict(
        compliance_prompt=0.8, compliance_constrained=0.95, accuracy_free=0.6, accuracy_constrained=0.55, medium="page"), ok=_MEDIA),
    "reliability.figures.formattax.plot_cells": Entry(lambda: _closing(fig_formattax.plot_cells), dict(
        partition=formattax.cell_partition(20, 8, 5, 6, 3), columns=12, medium="slide"), ok=_MEDIA),
    "reliability.figures.formattax.spread_table": Entry(lambda: fig_formattax.spread_table, dict(
        values=datasets.load("format_tax").set_index("id")["value"])),
    "reliability.figures.formattax.speak_freely_deltas": Entry(
        lambda: fig_formattax.speak_freely_deltas, dict(frame=_SPEAK)),
    "reliability.figures.formattax.plot_speak_freely": Entry(
        lambda: _closing(fig_formattax.plot_speak_freely), dict(frame=_SPEAK, medium="page"), ok=_MEDIA),
    "reliability.figures.formattax.regime_table": Entry(lambda: fig_formattax.regime_table, dict(
        generator=formattax.Generator(), runs=3, seed=0)),
    "reliability.figures.formattax.draw_regimes": Entry(lambda: _closing(fig_formattax.draw_regimes), dict(
        fig=_CANVAS, table=_REGTAB, title="t")),
    "reliability.figures.formattax.plot_regimes": Entry(lambda: _closing(fig_formattax.plot_regimes), dict(
        table=_REGTAB, title="t", medium="page"), ok=_MEDIA),
    "reliability.figures.formattax.order_table": Entry(lambda: fig_formattax.order_table, dict(
        digits=[2, 3], step_error=0.02, budget=1, runs=3, seed=0)),
    "reliability.figures.formattax.plot_order": Entry(lambda: _closing(fig_formattax.plot_order), dict(
        table=_ORDTAB, title="t", medium="page"), ok=_MEDIA),
    "reliability.figures.formattax.tax_frames": Entry(lambda: fig_formattax.tax_frames, dict(
        generator=formattax.Generator(), taxes=_TAXES, runs=3, seed=0)),
    "reliability.figures.formattax.live_cure": Entry(lambda: fig_formattax.live_cure, dict(
        runs=3, seed=0, free_accuracy=0.6, prompt_tax=0.05, reformat_fidelity=0.98,
        decoder_tax=0.01)),
    "reliability.figures.formattax.regime_frame": Entry(lambda: fig_formattax.regime_frame,
                                                        dict(table=_REGTAB)),
    "reliability.figures.formattax.cure_table": Entry(lambda: fig_formattax.cure_table, dict(
        frames=_TAXFRAMES, taxes=_TAXES)),
    "reliability.figures.formattax.order_frame": Entry(lambda: fig_formattax.order_frame,
                                                       dict(table=_ORDTAB)),
    "reliability.figures.formattax.verdict_table": Entry(lambda: fig_formattax.verdict_table, dict(
        examples=structured.EXAMPLES, checked=_CHECKED)),
    # harness.gate
    "reliability.harness.gate.DryRun": Entry(lambda: gate.DryRun, dict(
        checks=("schema",), problems=("too large",))),
    "reliability.harness.gate.GateDecision": Entry(lambda: gate.GateDecision, dict(
        action="pay", allowed=True, reason="dry run passed")),
    "reliability.harness.gate.irreversible_gate": Entry(lambda: gate.irreversible_gate, dict(
        action="pay", irreversible=True, dry_run=gate.DryRun(("schema",)),
        confirmed_by="duty officer", judge_approved=True),
        ok={"dry_run": [None], "confirmed_by": [None], "judge_approved": [None]}),
    # figures.budgets
    "reliability.figures.budgets.plot_mast": Entry(lambda: _closing(fig_budgets.plot_mast), dict(
        modes={"FM-1.3 step repetition": 0.15, "FM-2.1 other": 0.05}, title="t",
        medium="slide"), ok=_MEDIA),
    "reliability.figures.budgets.plot_traces": Entry(lambda: _closing(fig_budgets.plot_traces), dict(
        outcomes={"a": _OUTCOME}, title="t", start=0, medium="page"), ok=_MEDIA, anything=("start",)),
    "reliability.figures.budgets.plot_hit_share": Entry(lambda: _closing(fig_budgets.plot_hit_share), dict(
        limits=[2, 4], closed=budget.TaskMix().hit_share([2, 4]),
        rows=[_LENGTHS.hits(2), _LENGTHS.hits(4)], stuck=0.03, chosen=3, title="t", medium="page"), ok=_MEDIA),
    "reliability.figures.budgets.draw_limit_frame": Entry(lambda: _closing(fig_budgets.draw_limit_frame),
                                                          dict(fig=_CANVAS, sample=_LENGTHS, limit=3,
                                                               longest=10)),
    "reliability.figures.budgets.live_step_limit": Entry(lambda: fig_budgets.live_step_limit, dict(
        runs=5, seed=0, median=6.0, spread=0.5, stuck=0.03, limit=12)),
    # figures.ladder
    "reliability.figures.ladder.plot_outage": Entry(lambda: _closing(fig_ladder.plot_outage), dict(
        without=_DAY, with_breaker=_DAY, start=8.0, end=14.0, width=0.25, medium="slide"),
        ok=_MEDIA),
    "reliability.figures.ladder.plot_outage_lines": Entry(lambda: _closing(fig_ladder.plot_outage_lines),
                                                          dict(without=_DAY, with_breaker=_DAY, start=8.0,
                                                               end=14.0, width=0.25)),
    "reliability.figures.ladder.draw_outage_frame": Entry(lambda: _closing(fig_ladder.draw_outage_frame),
                                                          dict(fig=_CANVAS, hours=1.0, frames={
                                                              1.0: (_DAY, _DAY), "top": (1.0, 2.0)})),
    "reliability.figures.ladder.plot_slide": Entry(lambda: _closing(fig_ladder.plot_slide), dict(
        **_SLIDE, alert_day=1, rung_name="rules", rules_trend="rising",
        error_trend="flat", medium="page"), ok={"alert_day": [None], **_MEDIA}),
    "reliability.figures.ladder.plot_routellm": Entry(lambda: _closing(fig_ladder.plot_routellm), dict(
        classes=["a", "b"], shares=[0.2, 0.3], title="t", random_share=0.5, medium="page"),
        ok={"random_share": [None], **_MEDIA}),
    "reliability.figures.ladder.live_outage": Entry(lambda: fig_ladder.live_outage, dict(
        conversations=1, seed=0, outage_hours=2.0, failure_threshold=5, reset_timeout=60.0,
        chapter_conversations=16), ok={"chapter_conversations": [None]}),
    # figures.lab
    "reliability.figures.lab.ladder_table": Entry(lambda: fig_lab.ladder_table, dict(rows=_LADDER)),
    "reliability.figures.lab.plot_ladder": Entry(lambda: _closing(fig_lab.plot_ladder), dict(
        rows=_LADDER, title="t", medium="slide"), ok=_MEDIA),
    "reliability.figures.lab.composition": Entry(lambda: fig_lab.composition, dict(arm=_ARM, fixed=0)),
    "reliability.figures.lab.plot_blind_spot": Entry(lambda: _closing(fig_lab.plot_blind_spot), dict(
        arms=_SHARES, title="t", medium="page"), ok=_MEDIA),
    "reliability.figures.lab.plot_capability": Entry(lambda: _closing(fig_lab.plot_capability), dict(
        ladder=_PROFILES, title="t", medium="page"), ok=_MEDIA),
    "reliability.figures.lab.capability_table": Entry(lambda: fig_lab.capability_table,
                                                      dict(ladder=_PROFILES)),
    "reliability.figures.lab.plot_rig_vs_lab": Entry(lambda: _closing(fig_lab.plot_rig_vs_lab), dict(
        rows=_MIRROR_ROWS, title="t", medium="page"), ok=_MEDIA),
    "reliability.figures.lab.draw_fault_rate": Entry(lambda: _closing(fig_lab.draw_fault_rate), dict(
        fig=_CANVAS, rate=0.5, frames=_FAULTS, closed=_CLOSED, medium="page"), ok=_MEDIA),
    "reliability.figures.lab.plot_fault_rate": Entry(lambda: _closing(fig_lab.plot_fault_rate), dict(
        rate=0.5, frames=_FAULTS, closed=_CLOSED, medium="slide"), ok=_MEDIA),
    "reliability.figures.lab.live_fault_rate": Entry(lambda: fig_lab.live_fault_rate, dict(
        runs=2, seed=0, max_turns=6, fault_rate=0.6, error_recovery=True, submit_nudge=False)),
    "reliability.figures.lab.pass_k_band": Entry(lambda: fig_lab.pass_k_band, dict(
        dash=_DASH, confidence=0.9, seed=0)),
    "reliability.figures.lab.plot_dashboard": Entry(lambda: _closing(fig_lab.plot_dashboard), dict(
        dash=_DASH, title="t", seed=0, medium="page"), ok=_MEDIA),
    "reliability.figures.lab.plot_explorer": Entry(lambda: _closing(fig_lab.plot_explorer), dict(
        arms={"baseline": _ARM, "treated": _ARM}, gap=_GAP)),
    "reliability.figures.lab.rig_check_table": Entry(lambda: fig_lab.rig_check_table, dict(
        rig=_RIG, stages=rig.STAGES)),
    "reliability.figures.lab.mirror_rows": Entry(lambda: fig_lab.mirror_rows, dict(mirrors=_MIRRORS)),
    "reliability.figures.lab.mirror_table": Entry(lambda: fig_lab.mirror_table, dict(mirrors=_MIRRORS)),
    # reading
    "reliability.reading.classify_calls": Entry(lambda: reading.classify_calls, dict(
        calls=[("a", {"x": 1}, "out")], tools={"a": ("x",)})),
    "reliability.reading.hallucination_rate": Entry(lambda: reading.hallucination_rate, dict(
        hallucinated=[1, 0], calls=[2, 3]), arrays=("hallucinated", "calls")),
    "reliability.reading.pooled_rate": Entry(lambda: reading.pooled_rate, dict(
        hallucinated=[1, 0], calls=[2, 3]), arrays=("hallucinated", "calls")),
    "reliability.reading.column_scores": Entry(lambda: reading.column_scores, dict(
        call_needed=0.8, call_unneeded=0.1), arrays=("call_needed", "call_unneeded")),
    "reliability.reading.threshold_model": Entry(lambda: reading.threshold_model, dict(
        threshold=1.0, separation=2.0), arrays=("threshold",)),
    "reliability.reading.ColumnRun": Entry(lambda: reading.ColumnRun, _fields(_COLRUN)),
    "reliability.reading.ColumnRun.interval": Entry(lambda: _COLRUN.interval, dict(
        column="relevance", confidence=0.9)),
    "reliability.reading.ColumnRun.beside_closed_form": Entry(
        lambda: _COLRUN.beside_closed_form, dict(column="irrelevance", confidence=0.9)),
    "reliability.reading.simulate_columns": Entry(lambda: reading.simulate_columns, dict(
        call_needed=0.8, call_unneeded=0.1, relevance_cases=16, irrelevance_cases=20, seed=0)),
    "reliability.reading.resolution": Entry(lambda: reading.resolution, dict(cases=16)),
    "reliability.checks.judge": Entry(lambda: checks.judge,
                                      dict(value=0.14, expected=0.14, whole=False,
                                           tolerance=0.01),
                                      ok={"tolerance": [None]}),
    # a student's value is refused in words, never raised: the notebook goes on
    "reliability.homework.answer": Entry(lambda: homework.answer,
                                         dict(problem="hw1", value=0.14),
                                         anything=("value",)),
    "reliability.numbers.said": Entry(lambda: numbers_module.said, dict(value="done"),
                                      anything=("value",)),
    "reliability.numbers.words_for": Entry(lambda: numbers_module.words_for,
                                           dict(mapping={"done": "done"}, context="status"),
                                           ok={"context": [None]}),
    "reliability.numbers.known_identifiers": Entry(lambda: numbers_module.known_identifiers,
                                                   dict()),
    # a student's answer is told in words, never raised (a decimal comma, text)
    "reliability.checks.check": Entry(lambda: _check,
                                      dict(exercise="ch1-ex1", answer=0.14, quiet=True),
                                      anything=("answer",)),
    "reliability.checks.parts": Entry(lambda: checks.parts, dict(exercise="ch2-ex1")),
    "reliability.reading.smallest_case_count": Entry(lambda: reading.smallest_case_count, dict(
        scores=[50.0, 75.0], decimals=2, largest=10)),
    # figures.reading
    "reliability.figures.reading.plot_columns": Entry(lambda: _closing(fig_reading.plot_columns), dict(
        runs={"m": _COLRUN}, title="t", medium="slide"), ok=_MEDIA),
    "reliability.figures.reading.draw_threshold_frame": Entry(
        lambda: _closing(fig_reading.draw_threshold_frame), dict(
            fig=_CANVAS, threshold=1.0, separation=2.0, relevance_cases=16,
            irrelevance_cases=20, seed=0, medium="page"), ok=_MEDIA),
    "reliability.figures.reading.plot_threshold": Entry(
        lambda: _closing(fig_reading.plot_threshold), dict(
            threshold=1.0, separation=2.0, relevance_cases=16, irrelevance_cases=20,
            seed=0, medium="page"), ok=_MEDIA),
    "reliability.figures.reading.live_threshold": Entry(lambda: fig_reading.live_threshold, dict(
        seed=0, relevance_cases=16, irrelevance_cases=20, threshold=1.0, separation=2.0)),
    "reliability.figures.reading.plot_baselines": Entry(lambda: _closing(fig_reading.plot_baselines), dict(
        pairs={"a": (44.0, 67.0)}, title="t", medium="page"), ok=_MEDIA),
}


# --- bad values by kind ------------------------------------------------------------------

NAN, INF = math.nan, math.inf


def _bad_values(name, valid, arrays=()):
    """Values of the wrong kind for a parameter whose valid example is ``valid``."""
    if name in arrays:
        return [v for v in _bad_values(name, valid) if not isinstance(v, list)]
    if name in ("seed",):
        return ["0", True, None, NAN, INF, -1, 1.5, [0]]
    if isinstance(valid, bool):
        return ["yes", None, 2, NAN, 0.5, [True]]
    if isinstance(valid, (int, np.integer)):
        return ["3", True, None, NAN, INF, -INF, 1.5, -1, [1], object()]
    if isinstance(valid, (float, np.floating)):
        return ["0.5", True, None, NAN, INF, -INF, [0.5], object()]
    if isinstance(valid, str):
        return [1, None, True, 2.5, ["x"], object()]
    if isinstance(valid, (np.ndarray, list, tuple, frozenset, dict)):
        return ["x", None, True, NAN, object()]
    if isinstance(valid, np.random.Generator):
        return ["x", 1, None, True]
    if isinstance(valid, type):
        return ["x", 1, None, int]
    if callable(valid) and not dataclasses.is_dataclass(valid):
        return ["x", 1, None, True]
    return ["x", 1, None, True, NAN, object()]  # dataclasses, clocks, data frames, dates


def _pairs():
    for name, entry in sorted(REGISTRY.items()):
        for param, valid in entry.kwargs.items():
            if param in entry.anything:
                continue
            yield pytest.param(name, param, id=f"{name}:{param}")


# --- the tests ---------------------------------------------------------------------------

def test_every_module_names_its_public_api():
    missing = [m.__name__ for m in MODULES if not hasattr(m, "__all__")]
    assert not missing, f"modules without __all__: {missing}"
    assert "run_task" in reliability.harness.__all__ and "CircuitBreaker" in reliability.harness.__all__


def test_every_public_callable_has_a_registry_entry():
    missing = sorted(set(_public_callables()) - set(REGISTRY))
    assert not missing, f"public callables with no entry in tests/test_bad_input.py: {missing}"
    stale = sorted(set(REGISTRY) - set(_public_callables()))
    assert not stale, f"registry entries for callables that are no longer public: {stale}"


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_parameter_has_an_example_and_the_example_runs(name):
    entry = REGISTRY[name]
    target = entry.target()
    params = [p for p in inspect.signature(target).parameters.values()
              if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    missing = [p.name for p in params if p.name not in entry.kwargs]
    assert not missing, f"{name}: no example value for {missing}"
    target(*entry.args, **entry.kwargs)


@pytest.mark.parametrize("name, param", list(_pairs()))
def test_bad_values_are_refused_by_name(name, param):
    entry = REGISTRY[name]
    valid = entry.kwargs[param]
    allowed = entry.ok.get(param, [])
    if callable(allowed):
        is_allowed = allowed
    else:
        def is_allowed(v):
            return any(v is a or (type(v) is type(a) and v == a) for a in allowed)
    fixed = [v for v in _bad_values(param, valid, entry.arrays) if not is_allowed(v)]
    extra = st.text(max_size=3) if not isinstance(valid, str) else st.integers()

    @settings(max_examples=len(fixed) + 4, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(st.one_of(st.sampled_from(fixed), extra))
    def check(bad):
        assume(not is_allowed(bad))
        target = entry.target()
        with pytest.raises(ValueError) as info:
            target(*entry.args, **{**entry.kwargs, param: bad})
        assert param in str(info.value), (
            f"{name}({param}={bad!r}) raised without naming {param!r}: {info.value}")

    check()


# --- inputs the package once accepted, hung on or crashed with another error (issue 42) ---

def _rounds_far_past_the_cap():
    return selfcorrection.simulate_loop(selfcorrection.Revision(0.1, 0.2), 0.7, 10**7,
                                        questions=1)


def _a_budget_that_stops_nothing():
    day = clock.ManualClock()
    return budget.run_task(budget.fake_agent(clock=day), 0,
                           budget.TaskBudget(None, None, None, None), clock=day)


def _a_fee_that_is_not_an_amount(fee):
    return lambda: validation.Records(
        customer_accounts={"A1"}, fees={("A1", datetime.date(2026, 11, 3)): fee},
        today=datetime.date(2026, 12, 2))


@pytest.mark.parametrize("call, words", [
    (_rounds_far_past_the_cap, r"rounds must be a whole number in \[0, 10000\]"),
    (_a_budget_that_stops_nothing, r"budget must bound the task: .* set max_steps "
                                   r"\(a whole number >= 1\)"),
    (_a_fee_that_is_not_an_amount("x"), r"fees values must be amounts >= 0 .* got 'x'"),
    (_a_fee_that_is_not_an_amount("-2.50"), r"fees values must be amounts >= 0"),
    (_a_fee_that_is_not_an_amount("NaN"), r"fees values must be amounts >= 0"),
    (_a_fee_that_is_not_an_amount(math.inf), r"fees values must be amounts >= 0"),
    (_a_fee_that_is_not_an_amount(None), r"fees values must be amounts >= 0"),
    (_a_fee_that_is_not_an_amount(True), r"fees values must be amounts >= 0"),
    (lambda: workflow.Workflow().success_by_length([[1, 2], [3]]),
     r"lengths must hold whole numbers >= 1 in one flat or rectangular array"),
    (lambda: passk.TaskMix.beta(0.5, math.inf), r"concentration must be a finite number > 0"),
    (lambda: passk.TaskMix.beta(0.5, 1e400), r"concentration must be a finite number > 0"),
    (lambda: stats.wilson_interval([[1, 2], [3]], 5), r"successes"),
])
def test_issue_42_bad_inputs_are_refused_by_name_and_range(call, words):
    """Each used to run past 20 s, loop for ever, raise decimal.InvalidOperation or
    numpy's shape message, or be accepted."""
    with pytest.raises(ValueError, match=words):
        call()


def test_a_fee_given_as_digits_or_a_number_is_still_an_amount():
    for fee, amount in (("900.00", Decimal("900.00")), (900, Decimal("900")),
                        (Decimal("2.5"), Decimal("2.5")), (" 12 ", Decimal("12"))):
        records = _a_fee_that_is_not_an_amount(fee)()
        assert records.fees[("A1", datetime.date(2026, 11, 3))] == amount


def test_the_round_cap_is_time_not_a_refusal_of_legal_loops():
    """MAX_ROUNDS rounds of one question run well inside a second."""
    import time

    began = time.perf_counter()
    out = selfcorrection.simulate_loop(selfcorrection.Revision(0.1, 0.2), 0.7,
                                       selfcorrection.MAX_ROUNDS, questions=1, seed=1)
    assert time.perf_counter() - began < 5.0
    assert out.right.size == selfcorrection.MAX_ROUNDS + 1
