r"""Ablation arms over paired seeds, their intervals, and an honest verdict on each gap.

Every arm runs the same ``runs`` seeds (run :math:`i` of each arm meets the same injected
faults), so arms differ only by their guardrails. Per arm: :math:`k/N` with a Wilson 95%
interval, how often each guardrail fired, and each failed run classified. The gap
:math:`\hat p_b - \hat p_a` between two arms gets Newcombe's interval :math:`(L, U)` and the
verdict

.. math::  \text{result if } L > 0 \text{ or } U < 0, \quad \text{null otherwise}

(an interval that touches zero contains it). Newcombe's interval treats the arms as
independent samples; with paired seeds that makes it, if anything, too wide.

For "measure your own", :func:`pass_k_over_cases` is the share of cases whose runs all succeed,
estimated without bias from :math:`n` runs with :math:`c` successes as
:math:`\binom{c}{k} / \binom{n}{k}` averaged over cases (Yao et al.'s pass^k).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

import numpy as np

from .. import _validate
from ..i18n import N_, _, pgettext, translate
from ..numbers import words_for
from ..passk import TaskMix, pass_hat_k
from ..stats import Interval, newcombe_interval, wilson_interval

from .agent import MAX_TURNS, PROFILES, Profile, Trajectory, _arm_streams, _episode
from .faults import MalformedFaults, TransientFaults
from .guardrails import GUARDRAILS, Guardrails
from .task import Task, make_cases

__all__ = ["Scenario", "ArmResult", "Gap", "verdict", "classify", "run_arm", "ablation",
           "compare", "capability_ladder", "pass_k_over_cases", "Dashboard", "measure_own",
           "FAILURE_LADDER", "failure_ladder",
           "FAILURE_CLASSES"]

#: How a failed run failed, in the order the figures stack them.
FAILURE_CLASSES = {
    "inconsistent": N_("wrong number, contradicted by its own evidence"),
    "never_retrieved": N_("never retrieved the rate"),
    "wrong_record": N_("wrong record, self-consistent"),
    "non_numeric": N_("non-numeric answer"),
    "no_submit": N_("stopped in prose, no submission"),
    "turn_limit": N_("hit the turn limit"),
}
words_for(FAILURE_CLASSES)   # a printed failure class reads as these words (said())


@dataclass(frozen=True)
class Scenario:
    """What stays fixed across the arms of one ablation: task, agent, faults, turn limit."""

    profile: Profile = PROFILES["clean"]
    fault_rate: float = 0.0
    malformed_rate: float = 0.0
    max_turns: int = 6
    task: Task = field(default_factory=Task)

    def __post_init__(self):
        if isinstance(self.profile, str):
            if self.profile not in PROFILES:
                raise ValueError(f"profile must be one of {sorted(PROFILES)} or a Profile, "
                                 f"got {self.profile!r}")
            object.__setattr__(self, "profile", PROFILES[self.profile])
        _validate.instance("profile", self.profile, Profile)
        _validate.probability("fault_rate", self.fault_rate)
        _validate.probability("malformed_rate", self.malformed_rate)
        _validate.whole("max_turns", self.max_turns, minimum=1, maximum=MAX_TURNS)
        _validate.instance("task", self.task, Task)


#: Most episodes one call may run (each a Python state machine, well under a millisecond).
MAX_RUNS = 1_000_000


def _arm_dict(name: str, value, kind) -> dict:
    """A dict of labels to ``kind`` instances (at least one)."""
    if not isinstance(value, dict) or not value or not all(
            isinstance(k, str) and isinstance(v, kind) for k, v in value.items()):
        raise ValueError(f"{name} must be a dict of labels to {kind.__name__} (at least one), "
                         f"got {value!r}")
    return value


def classify(task: Task, trajectory: Trajectory) -> str:
    """``success`` or one of :data:`FAILURE_CLASSES`. Reads the task (this is the grader's
    bookkeeping after the run, not a guardrail)."""
    _validate.instance("task", task, Task)
    _validate.instance("trajectory", trajectory, Trajectory)
    if trajectory.passed:
        return "success"
    if trajectory.ending != "submitted":
        return trajectory.ending
    value, got = trajectory.submitted, trajectory.retrieved
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "non_numeric"
    rate = got.get("get_ship_rate")
    if rate is None:
        return "never_retrieved"
    consistent = abs(value - got["get_order"]["item_total_usd"] - rate["rate_usd"]) < 0.005
    if consistent and rate["zone"] != task.zone:
        return "wrong_record"
    return "inconsistent"


@dataclass(frozen=True)
class ArmResult:
    """One arm: counts, guardrail firings, failure classes and a few kept trajectories."""

    label: str
    successes: int
    runs: int
    fired: dict
    classes: dict
    endings: dict
    answers: int
    rejected: int
    outcomes: np.ndarray = field(repr=False, compare=False)
    kept: tuple = field(default=(), repr=False, compare=False)

    def __post_init__(self):
        _validate.text("label", self.label)
        runs = _validate.whole("runs", self.runs, minimum=1)
        _validate.whole("successes", self.successes, minimum=0, maximum=runs)
        for name in ("fired", "classes", "endings"):
            _validate.mapping(name, getattr(self, name), what="names to counts")
        _validate.whole("answers", self.answers, minimum=0)
        _validate.whole("rejected", self.rejected, minimum=0)
        _validate.numeric_array("outcomes", self.outcomes, kind="bool", ndim=1)
        if np.size(self.outcomes) != runs:
            raise ValueError(f"outcomes must hold one boolean per run ({runs}), "
                             f"got {np.size(self.outcomes)}")
        _validate.sequence("kept", self.kept, of=Trajectory, what="Trajectories")

    @property
    def rate(self) -> float:
        return self.successes / self.runs

    def interval(self, confidence: float = 0.95) -> Interval:
        """Wilson interval for :attr:`rate`."""
        return wilson_interval(self.successes, self.runs, confidence)

    def share(self, failure: str) -> float:
        """Share of all runs that ended in ``failure`` (a class name or ``success``)."""
        _validate.text("failure", failure)
        return self.classes.get(failure, 0) / self.runs

    def share_interval(self, failure: str, confidence: float = 0.95) -> Interval:
        """Wilson interval for :meth:`share`: an arm's runs are one sample, and so is
        the share of them that ended in ``failure``."""
        _validate.text("failure", failure)
        return wilson_interval(self.classes.get(failure, 0), self.runs, confidence)


def run_arm(scenario: Scenario, guardrails: Guardrails, *, runs: int = 200, seed=0,
            label: str | None = None, keep: int = 0, first: int = 0) -> ArmResult:
    """``runs`` paired runs (indices ``first`` ... ``first + runs - 1``) of one arm.

    The runs are a Python loop, not an array operation: each run is a small state machine
    whose next draw depends on what its guardrails did, so there is nothing to broadcast.
    A run costs well under a millisecond, which keeps a 200-run arm far below a second.
    """
    if not isinstance(scenario, Scenario):
        raise ValueError(f"scenario must be a Scenario, got {scenario!r}")
    _validate.instance("guardrails", guardrails, Guardrails)
    runs = _validate.whole("runs", runs, minimum=1, maximum=MAX_RUNS)
    keep = _validate.whole("keep", keep, minimum=0)
    first = _validate.whole("first", first, minimum=0)
    _validate.text("label", label, optional=True)
    seed = _validate.seed_integer(seed)
    fired, classes, endings = Counter(), Counter(), Counter()
    outcomes = np.zeros(runs, dtype=bool)
    answers = rejected = 0
    kept = []
    # run_episode's work, its arguments checked once for the arm (a Scenario checked its
    # own) and its runs' streams derived together
    faults = TransientFaults(scenario.fault_rate), MalformedFaults(scenario.malformed_rate)
    for i, streams in enumerate(_arm_streams(seed, first, runs)):
        t = _episode(scenario.task, scenario.profile, guardrails, faults,
                     scenario.max_turns, streams, None,
                     i < keep)   # only the kept runs are read line by line
        outcomes[i] = t.passed
        fired.update(t.fired)
        classes[classify(scenario.task, t)] += 1
        endings[t.ending] += 1
        answers += t.rejected + (t.ending == "submitted")
        rejected += t.rejected
        if i < keep:
            kept.append(t)
    return ArmResult(label or guardrails.label, int(outcomes.sum()), runs,
                     {g: fired.get(g, 0) for g in GUARDRAILS}, dict(classes), dict(endings),
                     answers, rejected, outcomes, tuple(kept))


def ablation(scenario: Scenario, arms: dict, *, runs: int = 200, seed=0) -> dict:
    """Every arm in ``arms`` (label -> Guardrails) over the same ``runs`` seeds."""
    _validate.instance("scenario", scenario, Scenario)
    _arm_dict("arms", arms, Guardrails)
    runs = _validate.whole("runs", runs, minimum=1, maximum=MAX_RUNS)
    _validate.size("arms x runs", len(arms) * runs, limit=MAX_RUNS)
    seed = _validate.seed_integer(seed)
    return {label: run_arm(scenario, g, runs=runs, seed=seed, label=label)
            for label, g in arms.items()}


def verdict(low: float, high: float) -> str:
    """``result`` when the interval excludes zero, ``null`` when it contains or touches it."""
    low = _validate.real("low", low)
    high = _validate.real("high", high)
    if low > high:
        raise ValueError(f"low must be <= high, got low={low!r}, high={high!r}")
    return N_("result") if low > 0 or high < 0 else N_("null")


@dataclass(frozen=True)
class Gap:
    """``treated`` minus ``reference``, with Newcombe's interval and the verdict."""

    reference: str
    treated: str
    delta: float
    low: float
    high: float

    def __post_init__(self):
        _validate.text("reference", self.reference)
        _validate.text("treated", self.treated)
        for name in ("delta", "low", "high"):
            _validate.real(name, getattr(self, name))
        if not self.low <= self.high:
            raise ValueError(f"low must be <= high, got low={self.low!r}, high={self.high!r}")

    @property
    def verdict(self) -> str:
        return verdict(self.low, self.high)

    def sentence(self) -> str:
        # A difference of two rates is in percentage points, not percent.
        points = [100 * x for x in (self.delta, self.low, self.high)]
        span = _("{delta:+.1f} pp [{low:+.1f}, {high:+.1f}]").format(
            delta=points[0], low=points[1], high=points[2])
        if self.verdict == "result":
            sentence = _("{treated} vs {reference}: {span}, the interval excludes zero: "
                         "a result")
        else:
            sentence = _("{treated} vs {reference}: {span}, the interval contains zero: "
                         "a null")
        # an arm's label is a key ("baseline"); the reader reads its name («база»)
        return sentence.format(treated=pgettext("arm", self.treated),
                               reference=pgettext("arm", self.reference), span=span)


def compare(reference: ArmResult, treated: ArmResult, confidence: float = 0.95) -> Gap:
    """The gap ``treated.rate - reference.rate`` with Newcombe's interval."""
    _validate.instance("reference", reference, ArmResult)
    _validate.instance("treated", treated, ArmResult)
    low, high = newcombe_interval(treated.successes, treated.runs, reference.successes,
                                  reference.runs, confidence)
    return Gap(reference.label, treated.label, treated.rate - reference.rate, low, high)


def capability_ladder(profiles: dict, guardrails: Guardrails, *, runs: int = 200, seed=0,
                      **scenario) -> dict:
    """Baseline for each profile; the guardrail arm only where the baseline left a gap.

    Returns ``{name: (baseline, guarded or None)}``. A profile whose baseline has no failed
    run has nothing to close: running the arm would draw a bar that measures nothing.
    """
    _arm_dict("profiles", profiles, Profile)
    _validate.instance("guardrails", guardrails, Guardrails)
    runs = _validate.whole("runs", runs, minimum=1, maximum=MAX_RUNS)
    _validate.size("2 x profiles x runs", 2 * len(profiles) * runs, limit=MAX_RUNS)
    _validate.seed(seed)
    unknown = set(scenario) - {"fault_rate", "malformed_rate", "max_turns", "task"}
    if unknown:
        raise ValueError(f"scenario settings must be among fault_rate, malformed_rate, "
                         f"max_turns and task, got {sorted(unknown)}")
    ladder = {}
    for name, profile in profiles.items():
        s = Scenario(profile=profile, **scenario)
        base = run_arm(s, Guardrails(), runs=runs, seed=seed,
                       label=pgettext("arm", "baseline"))
        guarded = None
        if base.successes < base.runs:
            guarded = run_arm(s, guardrails, runs=runs, seed=seed, label=guardrails.label)
        ladder[name] = (base, guarded)
    return ladder


def pass_k_over_cases(successes, n: int, k: int) -> float:
    r"""Share of cases that succeed on all ``k`` of ``k`` runs, from ``n >= k`` runs per
    case with ``successes[i]`` successes: :math:`\frac{1}{C}\sum_i \binom{c_i}{k} / \binom{n}{k}`."""
    n = _validate.whole("n", n, minimum=1)
    k = _validate.whole("k", k, minimum=1, maximum=n)
    c = _validate.whole_array("successes", successes, minimum=0)
    if c.size == 0 or np.any(c > n):
        raise ValueError(f"successes must be a non-empty array of counts in [0, n={n}]")
    return float(np.mean(pass_hat_k(n, c.ravel(), k)))


@dataclass(frozen=True)
class Dashboard:
    """The four rows of "measure your own", from ``cases`` x ``runs_per_case`` runs."""

    cases: int
    runs_per_case: int
    per_case: np.ndarray = field(repr=False)
    pass_k: dict = field(default_factory=dict)
    answers: int = 0
    rejected: int = 0
    turn_limited: int = 0
    fired: dict = field(default_factory=dict)

    @property
    def runs(self) -> int:
        return self.cases * self.runs_per_case

    @property
    def rejected_share(self) -> float:
        return self.rejected / self.answers if self.answers else 0.0

    def __post_init__(self):
        cases = _validate.whole("cases", self.cases, minimum=1)
        _validate.whole("runs_per_case", self.runs_per_case, minimum=1)
        _validate.numeric_array("per_case", self.per_case, kind="whole", ndim=1, minimum=0)
        if np.size(self.per_case) != cases:
            raise ValueError(f"per_case must hold one count per case ({cases}), "
                             f"got {np.size(self.per_case)}")
        _validate.mapping("pass_k", self.pass_k, what="k to pass^k")
        for name in ("answers", "rejected", "turn_limited"):
            _validate.whole(name, getattr(self, name), minimum=0)
        _validate.mapping("fired", self.fired, what="guardrail names to counts")

    @property
    def turn_limit_share(self) -> float:
        return self.turn_limited / self.runs


#: The agent's own mistakes, the fields a case's difficulty scales.
MISTAKES = ("malformed", "skip_lookup", "wrong_record", "no_submit", "non_numeric",
            "made_up", "slip")


def _scaled_profile(profile: Profile, difficulty: float) -> Profile:
    """``profile`` on a case of the given difficulty in [0, 1]: every mistake probability
    multiplied by it (0: the agent makes none on this case, 1: the profile as it is)."""
    _validate.instance("profile", profile, Profile)
    d = _validate.probability("difficulty", difficulty)
    return replace(profile, **{name: getattr(profile, name) * d for name in MISTAKES})


def measure_own(scenario: Scenario, guardrails: Guardrails, *, cases: int = 50,
                runs_per_case: int = 8, seed=0,
                difficulty: TaskMix = TaskMix.constant(1.0)) -> Dashboard:
    """Run each of ``cases`` generated orders ``runs_per_case`` times under one arm and
    collect pass^k for k = 1..runs_per_case, validator rejections, turn-limit hits and
    guardrail firings.

    ``difficulty`` (a :class:`reliability.passk.TaskMix` over [0, 1]) gives each case a
    difficulty :math:`d_i` that scales the profile's mistakes (``_scaled_profile``): a
    case at 0 nearly always passes, a case at 1 fails as often as the profile does. The
    default, every case at 1, is a set of equally hard cases. The difficulties are drawn
    from their own stream, so the runs' seeds do not depend on the mix."""
    _validate.instance("scenario", scenario, Scenario)
    _validate.instance("guardrails", guardrails, Guardrails)
    cases = _validate.whole("cases", cases, minimum=1)
    runs_per_case = _validate.whole("runs_per_case", runs_per_case, minimum=1)
    _validate.size("cases x runs_per_case", cases * runs_per_case, limit=MAX_RUNS)
    seed = _validate.seed_integer(seed)
    _validate.instance("difficulty", difficulty, TaskMix)
    tasks = make_cases(cases, seed)
    hardness = difficulty.sample(cases, np.random.default_rng([seed, 4]))
    per_case = np.zeros(cases, dtype=int)
    fired = Counter()
    answers = rejected = limited = 0
    for c, task in enumerate(tasks):
        profile = _scaled_profile(scenario.profile, float(hardness[c]))
        s = Scenario(profile, scenario.fault_rate, scenario.malformed_rate,
                     scenario.max_turns, task)
        arm = run_arm(s, guardrails, runs=runs_per_case, seed=seed, first=c * runs_per_case)
        per_case[c] = arm.successes
        fired.update(arm.fired)
        answers += arm.answers
        rejected += arm.rejected
        limited += arm.endings.get("turn_limit", 0)
    pass_k = {k: pass_k_over_cases(per_case, runs_per_case, k) for k in range(1, runs_per_case + 1)}
    return Dashboard(cases, runs_per_case, per_case, pass_k, answers, rejected, limited,
                     {g: fired.get(g, 0) for g in GUARDRAILS})


#: The four failure classes of the ladder, each isolated in its own scenario, with the
#: guardrail matched to it and one that is not (which should fire zero times).
FAILURE_LADDER = {
    # The keys are the rows' names (marked for translation where a table shows them).
    N_("transient 503"): (dict(profile=Profile(), fault_rate=0.6), "error_recovery", "submit_nudge"),
    N_("malformed call"): (dict(profile=Profile(heal=0.2, heeds=0.95), malformed_rate=0.6),
                       "retry_nudge", "error_recovery"),
    N_("never submits"): (dict(profile=Profile(no_submit=0.9, heeds=0.95)), "submit_nudge",
                      "retry_nudge"),
    N_("wrong answer"): (dict(profile=Profile(slip=0.4, heeds=0.95)), "validation", "submit_nudge"),
}


def failure_ladder(*, runs: int = 200, seed=0, fault_rate: float | None = None,
                   max_turns: int | None = None) -> dict:
    """For each failure class: baseline, mismatched and matched arms over the same seeds.

    ``fault_rate`` overrides the transient scenario's injected rate and ``max_turns`` every
    scenario's turn limit (default: :class:`Scenario`'s). Returns
    ``{class: {"baseline", "mismatched", "matched": ArmResult, "gap": Gap, "miss": Gap}}``.
    """
    _validate.whole("runs", runs, minimum=1, maximum=MAX_RUNS // 12)
    _validate.seed(seed)
    if fault_rate is not None:
        _validate.probability("fault_rate", fault_rate)
    if max_turns is not None:
        _validate.whole("max_turns", max_turns, minimum=1, maximum=MAX_TURNS)
    rows = {}
    for name, (settings, matched, mismatched) in FAILURE_LADDER.items():
        settings = dict(settings)
        if fault_rate is not None and "fault_rate" in settings:
            settings["fault_rate"] = fault_rate
        if max_turns is not None:
            settings["max_turns"] = max_turns
        arms = ablation(Scenario(**settings), {
            pgettext("arm", "baseline"): Guardrails(),
            _("+{name} (mismatched)").format(name=translate(mismatched.replace("_", " "))):
                Guardrails.only(mismatched),
            _("+{name} (matched)").format(name=translate(matched.replace("_", " "))):
                Guardrails.only(matched)},
            runs=runs, seed=seed)
        base, miss, hit = arms.values()
        rows[name] = {"baseline": base, "mismatched": miss, "matched": hit,
                      "matched_name": matched, "mismatched_name": mismatched,
                      "gap": compare(base, hit), "miss": compare(base, miss)}
    return rows
