"""Checks a student can call on an exercise's answer: right, close (with a hint), or not
yet (with a hint), and never the answer itself.

>>> from reliability.checks import check
>>> check("ch4-ex1", 0.5).verdict
Not yet. pass^k counts the k-subsets of trials that are all successes, out of all k-subsets.
'wrong'

The answers are computed here from the package, the way the chapter's solution computes
them, so a check never disagrees with the book. A number within half a per cent of the
answer is right (the rounding a reader may do); within five per cent, or right but as a
share for a percentage (or the reverse), it is close.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import partial
from typing import Callable

from . import _validate
from .i18n import N_, _

__all__ = ["EXERCISES", "LABELS", "check", "judge", "parts"]

#: How near a typed number must be: relative to the answer.
RIGHT = 0.005
CLOSE = 0.05


@dataclass(frozen=True)
class Exercise:
    """One checkable answer: how to compute it, whether it is a whole number, and the
    hint shown when the answer is not yet right (it must not give the answer away)."""

    answer: Callable[[], float]
    hint: str
    #: What the number is, for the launch notebook's check cell.
    what: str = ""
    whole: bool = False
    #: An absolute tolerance where a relative one is too loose (a probability near 1);
    #: close is ten times as far.
    tolerance: float | None = None


def _bad_turns() -> float:
    from .workflow import Workflow
    return 1.0 - Workflow(steps=15, error=0.01, silent=0.0).success()


def _accuracy_for_100_steps() -> float:
    return 0.9 ** (1 / 100)


def _horizon_at_098() -> float:
    from .workflow import horizon
    return horizon(0.98)


def _attempts_for_085() -> int:
    from .workflow import Workflow
    for attempts in range(1, 100):
        if Workflow(error=0.2, silent=0.01, attempts=attempts).success() >= 0.85:
            return attempts
    raise ValueError("no number of attempts up to 99 reaches 0.85")


def _ceiling_flaky() -> float:
    from .workflow import Workflow, ceiling
    return ceiling(Workflow(error=0.2, silent=0.01))


def _pass_hat_3() -> float:
    from .passk import pass_hat_k
    return float(pass_hat_k(10, 5, 3))


def _pass_at_3() -> float:
    from .passk import pass_at_k
    return float(pass_at_k(10, 5, 3))


def _ch2_thirty(attempts: int) -> float:
    from .workflow import Workflow
    return Workflow(steps=30, error=0.065, silent=0.015, attempts=attempts).success()


def _ch2_thirty_ceiling() -> float:
    from .workflow import Workflow, ceiling
    return ceiling(Workflow(steps=30, error=0.065, silent=0.015, attempts=3))


def _ch3_success(recall: float, false_reject: float, attempts: int) -> float:
    from .workflow import Verifier
    from .workflow import Workflow
    return Workflow(steps=10, attempts=attempts,
                    verifier=Verifier(recall, false_reject)).success()


def _ch3_recall() -> float:
    from .workflow import Verifier
    from .workflow import Workflow
    for d in (i / 1000 for i in range(1001)):
        if Workflow(steps=30, attempts=3, verifier=Verifier(d, 0.05)).success() >= 0.9:
            return d
    raise ValueError("no recall up to 1 reaches 0.9")


def _split_tasks():
    from .datasets import load
    from .passk import TaskMix, published_table
    table = published_table(load("tau_bench"))
    row = table[(table["condition"] == "function calling")
                & (table["setting"] == "tau-retail") & (table["k"] == 1)]
    return TaskMix.beta(float(row["fraction"].iloc[0]), 1.0)


def _ch4_concentration() -> float:
    import math

    from scipy.optimize import brentq

    from .passk import TaskMix
    return math.exp(brentq(lambda log_s: TaskMix.beta(0.8, math.exp(log_s)).pass_hat(8)
                           - 0.5, -5, 8))


def _ch4_identical() -> float:
    from .passk import TaskMix
    return float(TaskMix.constant(0.8).pass_hat(8))


def _ch4_cases(k: int) -> int:
    from .passk import plan
    return int(plan(_split_tasks(), k, 0.05, 8)["tasks"][0])


def _ch5_revision(rounds: int | None) -> float:
    from .selfcorrection import Revision
    revision = Revision(0.05, 0.30)
    return revision.fixed_point if rounds is None else revision.accuracy(0.9, rounds)


def _ch5_window(window: int | None, steps: int | None) -> float:
    from .selfconditioning import SelfConditioning
    model = SelfConditioning(0.02, 0.9, clean_context=0, window=window)
    if steps is None:
        return 1.0 - model.fixed_point()
    return float(model.expected_accuracy(steps)[-1])


def _ch5_recall() -> float:
    from .datasets import load
    from .selfcorrection import Arbiter, fit_fates, loop_accuracy
    rows = load("huang2024_self_correction").set_index(["model", "setting", "condition"])
    start = rows.loc[("GPT-3.5-Turbo", "GSM8K", "Standard Prompting"), "value"] / 100
    fates = load("huang2024_answer_fates").set_index("fate")["value"] / 100
    chain = fit_fates(start, fates["right_to_wrong"], fates["wrong_to_right"], rounds=2)
    for d in (i / 100 for i in range(101)):
        if loop_accuracy(chain, start, 6, Arbiter(d, 0.05)) >= start:
            return d
    raise ValueError("no recall up to 1 keeps the starting accuracy")


def _ch6_valid_and_right(regime: str) -> float:
    from .formattax import Generator
    generator = Generator(free_accuracy=0.6, prompt_tax=0.05, prompt_compliance=0.5,
                          constrained_compliance=0.9)
    return generator.regime(regime).valid_and_right


def _ch6_fidelity() -> float:
    from .formattax import Generator
    generator = Generator(free_accuracy=0.6, prompt_tax=0.05)
    return generator.regime("constrained").accuracy / generator.free_accuracy


def _ch7_dry() -> float:
    from scipy.stats import binom
    return float(binom.cdf(11, 18, 2 / 3))


def _ch7_mix(field: str) -> float:
    from scipy.optimize import brentq

    from .harness import TaskMix
    if field == "median":
        return brentq(lambda m: TaskMix(median=m, spread=0.5, stuck=0.03).hit_share(12)
                      - 0.14, 1, 30)
    return brentq(lambda q: TaskMix(median=6.0, spread=0.5, stuck=q).hit_share(12)
                  - 0.14, 0, 0.5)


def _ch8_saving(task_class: str) -> float:
    from .datasets import load
    from .harness import cascade_cost
    routellm = load("routellm")
    cpt = routellm[routellm.metric.str.startswith("CPT(50%)")]
    shares = {s.split(" (")[0]: v / 100 for s, v in zip(cpt.setting, cpt.value)}
    return 1.0 - cascade_cost(shares[task_class], 0.1)


def _ch9_fired() -> int:
    from . import lab
    arms = lab.ablation(lab.Scenario(profile="strong", malformed_rate=1.0),
                        {"baseline": lab.NONE, "nudge": lab.Guardrails(retry_nudge=True)},
                        runs=200, seed=2)
    return int(arms["nudge"].fired["retry_nudge"])


def _ch9_wrong_record(what: str) -> float:
    from . import lab
    arm = lab.run_arm(lab.Scenario(profile=lab.Profile(wrong_record=1.0)),
                      lab.Guardrails(validation=True), runs=50, seed=3)
    return arm.fired["validation"] if what == "fired" else arm.successes / arm.runs


def _ch9_ten_turns(gap: bool) -> float:
    from . import lab
    base = lab.transient_success(0.6, 10)
    if not gap:
        return base
    fixed = lab.transient_success(0.6, 10, retries=lab.Guardrails().recovery_retries)
    return 100 * (fixed - base)


def _ch10_cases() -> int:
    from .reading import smallest_case_count
    return int(smallest_case_count([70.0, 85.0, 95.0, 100.0], decimals=2))


def _ch10_rates(pooled: bool) -> float:
    from .reading import classify_calls, hallucination_rate, pooled_rate
    tools = {"find_order": ("order_id",), "refund": ("order_id", "amount")}
    first = [("find_order", {"order_id": "A-7"}, "order A-7, 12.50"),
             ("find_order", {"order_id": "A-7"}, "order A-7, 12.50"),
             ("send_voucher", {"order_id": "A-7"}, "sent"),
             ("refund", {"order_id": "A-7"}, "error: amount missing"),
             ("refund", {"order_id": "A-7", "amount": 12.5}, "refunded")]
    second = [("refund", {"order_id": "A-7"}, "error"),
              ("refund", {"order_id": "A-7"}, "error"),
              ("refund", {"order_id": "A-7", "amount": 5}, "refunded")]
    bad = [sum(label != "ok" for label in classify_calls(t, tools)) for t in (first, second)]
    made = [len(first), len(second)]
    return float((pooled_rate if pooled else hallucination_rate)(bad, made))


def _ch10_threshold(score: bool) -> float:
    import numpy as np

    from .reading import column_scores, threshold_model
    grid = np.linspace(-3, 5, 801)
    relevance, irrelevance = column_scores(*threshold_model(grid, 2.0))
    best = int(np.argmax(relevance + irrelevance))
    return float(relevance[best]) if score else float(grid[best])


#: The exercises a student can check, by the chapter's label (a second answer of the
#: same exercise has a suffix).
EXERCISES: dict[str, Exercise] = {
    "ch1-ex1": Exercise(_bad_turns, N_(
        "Work out the chance that all fifteen turns are right, then take what is left."),
        what=N_("the share of conversations with a bad turn")),
    "ch1-ex2": Exercise(_accuracy_for_100_steps, N_(
        "Solve p to the power 100 = 0.9 for p: a hundredth root."), tolerance=6e-5,
        what=N_("the accuracy per step")),
    "ch1-ex3": Exercise(_horizon_at_098, N_(
        "The horizon is ln 0.5 / ln p, with p = 1 - error - silent."),
        what=N_("the new horizon, in steps")),
    "ch2-ex1": Exercise(_attempts_for_085, N_(
        "Try one attempt more at a time and stop at the first count whose success reaches "
        "the target."), whole=True, what=N_("attempts per step")),
    "ch2-ex1-ceiling": Exercise(_ceiling_flaky, N_(
        "With unlimited attempts a step ends on an accepted answer; which share of those "
        "is right?"), what=N_("the most it can ever reach")),
    "ch4-ex1": Exercise(_pass_hat_3, N_(
        "pass^k counts the k-subsets of trials that are all successes, out of all "
        "k-subsets."), what=N_("pass^3")),
    "ch4-ex1-at": Exercise(_pass_at_3, N_(
        "pass@k is one minus the share of k-subsets that are all failures."),
        what=N_("pass@3")),
    "ch2-ex3": Exercise(_ch2_thirty_ceiling, N_(
        "The ceiling depends only on c / (c + w), raised to the number of steps."),
        what=N_("the thirty-step ceiling")),
    "ch2-ex3-three": Exercise(partial(_ch2_thirty, 3), N_(
        "Build the thirty-step workflow with the new error mix and three attempts, and "
        "ask for its success in closed form."), what=N_("success with three attempts")),
    "ch3-ex1": Exercise(partial(_ch3_success, 0.6, 0.01, 3), N_(
        "A ten-step Workflow with a Verifier(recall, false rejection) and the limit of "
        "attempts: its success() is the closed form."),
        what=N_("success, lenient verifier, three attempts")),
    "ch3-ex1-strict": Exercise(partial(_ch3_success, 0.95, 0.3, 3), N_(
        "The strict verifier's false rejections use up attempts: build the workflow with "
        "its two rates and read success() in closed form."),
        what=N_("success, strict verifier, three attempts")),
    "ch3-ex1-lenient-six": Exercise(partial(_ch3_success, 0.6, 0.01, 6), N_(
        "The same workflow with six attempts: only the limit of attempts changes."),
        what=N_("success, lenient verifier, six attempts")),
    "ch3-ex1-strict-six": Exercise(partial(_ch3_success, 0.95, 0.3, 6), N_(
        "With six attempts most false rejections are retried away; compute the strict "
        "verifier's success in closed form."),
        what=N_("success, strict verifier, six attempts")),
    "ch3-ex2": Exercise(_ch3_recall, N_(
        "Scan the recall upwards in small steps and keep the first one whose thirty-step "
        "success reaches the target."), what=N_("the recall needed")),
    "ch4-ex2": Exercise(_ch4_concentration, N_(
        "pass^8 falls as s grows: search for the root over log s, with TaskMix.beta."),
        what=N_("the concentration s")),
    "ch4-ex2-identical": Exercise(_ch4_identical, N_(
        "If every task succeeds with the same probability, pass^k is that probability to "
        "the power k."), what=N_("pass^8 of identical tasks")),
    "ch4-ex3": Exercise(partial(_ch4_cases, 4), N_(
        "Ask passk.plan for the split task set, k = 4, the width and eight runs; read its "
        "tasks column."), whole=True, what=N_("cases for pass^4")),
    "ch4-ex3-one": Exercise(partial(_ch4_cases, 1), N_(
        "The same plan with k = 1: the width falls only as one over the square root of "
        "the cases."), whole=True, what=N_("cases for pass^1")),
    "ch5-ex1": Exercise(partial(_ch5_revision, None), N_(
        "At the fixed point as many answers are fixed as broken: fix / (break + fix)."),
        what=N_("the fixed point")),
    "ch5-ex1-three": Exercise(partial(_ch5_revision, 3), N_(
        "Each round moves the accuracy a share of the way towards the fixed point; "
        "Revision.accuracy does three rounds."), what=N_("accuracy after three rounds")),
    "ch5-ex2": Exercise(partial(_ch5_window, None, 300), N_(
        "SelfConditioning with clean_context=0 and no window; read expected_accuracy at "
        "step 300."), what=N_("full history: accuracy at step 300")),
    "ch5-ex2-window": Exercise(partial(_ch5_window, 10, 300), N_(
        "The same model with a window of ten steps; read expected_accuracy at step 300."),
        what=N_("window of ten: accuracy at step 300")),
    "ch5-ex2-long-run": Exercise(partial(_ch5_window, 10, None), N_(
        "In the long run the error settles at e0 / (1 - g)."),
        what=N_("accuracy in the long run")),
    "ch5-ex3": Exercise(_ch5_recall, N_(
        "Scan the recall in steps of a hundredth with loop_accuracy over six rounds and "
        "keep the first that does not fall below the start."), tolerance=0.006,
        what=N_("the recall needed")),
    "ch6-ex1": Exercise(partial(_ch6_valid_and_right, "prompt"), N_(
        "Valid and right is the compliance times the accuracy of a valid reply."),
        what=N_("valid and right, format in the prompt")),
    "ch6-ex1-constrained": Exercise(partial(_ch6_valid_and_right, "constrained"), N_(
        "The grammar changes the compliance only; the accuracy of a valid reply stays."),
        what=N_("valid and right, constrained decoding")),
    "ch6-ex2": Exercise(_ch6_fidelity, N_(
        "Solve a0 r = a0 - tp - tg for r: the fidelity at which both regimes are equal."),
        what=N_("the fidelity at which the cure stops paying")),
    "ch7-ex1": Exercise(_ch7_dry, N_(
        "The pool runs dry when fewer than twelve of the first eighteen calls succeed: a "
        "binomial tail."), what=N_("the chance the pool runs dry")),
    "ch7-ex3": Exercise(partial(_ch7_mix, "median"), N_(
        "Keep the stuck share and find, with a root search, the median whose "
        "hit_share(12) is the share given."), what=N_("the median steps of the longer tasks")),
    "ch7-ex3-stuck": Exercise(partial(_ch7_mix, "stuck"), N_(
        "Keep the median and find, with a root search, the stuck share whose "
        "hit_share(12) is the share given."), what=N_("the stuck share")),
    "ch8-ex3": Exercise(partial(_ch8_saving, "open dialogue"), N_(
        "The saving against all-strong is one minus cascade_cost(strong share, price "
        "ratio), with the class's CPT(50%) as its strong share."),
        what=N_("open dialogue: saving at a tenth")),
    "ch8-ex3-knowledge": Exercise(partial(_ch8_saving, "knowledge"), N_(
        "The same saving with the knowledge class's strong share."),
        what=N_("knowledge: saving at a tenth")),
    "ch8-ex3-maths": Exercise(partial(_ch8_saving, "maths"), N_(
        "The same saving with the maths class's strong share."),
        what=N_("maths: saving at a tenth")),
    "ch9-ex1": Exercise(_ch9_fired, N_(
        "The nudge fires once for every rejected call, in every run of the arm."),
        whole=True, what=N_("times the nudge fires")),
    "ch9-ex2": Exercise(partial(_ch9_wrong_record, "fired"), N_(
        "Validation checks that the sum agrees with the records the agent fetched; does "
        "a wrong record break that?"), whole=True,
        what=N_("times validation fires")),
    "ch9-ex2-passed": Exercise(partial(_ch9_wrong_record, "passed"), N_(
        "The oracle compares the answer with the right order's record, not the fetched "
        "one."), tolerance=0.005, what=N_("the share of runs that pass")),
    "ch9-ex3": Exercise(partial(_ch9_ten_turns, False), N_(
        "The baseline needs two good lookups in the turns after the first: a binomial "
        "tail, or lab.transient_success."), what=N_("the transient baseline")),
    "ch9-ex3-gap": Exercise(partial(_ch9_ten_turns, True), N_(
        "The gap is error recovery's closed form minus the baseline's, at ten turns."),
        what=N_("the gap, in percentage points")),
    "ch10-ex1": Exercise(_ch10_cases, N_(
        "Find the fewest cases whose multiples of one case reproduce every printed "
        "score: reading.smallest_case_count."), whole=True,
        what=N_("the smallest number of cases")),
    "ch10-ex1-step": Exercise(lambda: 1 / _ch10_cases(), N_(
        "One case moves a score by one over the number of cases."),
        what=N_("how far one case moves a score, as a share")),
    "ch10-ex2": Exercise(partial(_ch10_rates, False), N_(
        "Per task: each trace's share of hallucinated calls, then the mean of the "
        "shares."), what=N_("the rate averaged per task")),
    "ch10-ex2-pooled": Exercise(partial(_ch10_rates, True), N_(
        "Pooled: every hallucinated call over every call, both traces together."),
        what=N_("the pooled rate")),
    "ch10-ex3": Exercise(partial(_ch10_threshold, False), N_(
        "The sum is largest where the two densities cross: halfway between their "
        "centres."), what=N_("the best threshold")),
    "ch10-ex3-score": Exercise(partial(_ch10_threshold, True), N_(
        "At that threshold both columns score the normal distribution's CDF of half "
        "the separation."), what=N_("each column's score there")),
}


def parts(exercise: str) -> list[str]:
    """The checkable answers of ``exercise`` (its label, such as ``"ch2-ex1"``), in the
    order its check cell asks for them: the label's own entry first, then those with a
    suffix."""
    _validate.text("exercise", exercise, choices=(*LABELS, *EXERCISES))
    return [name for name in EXERCISES
            if name == exercise or name.startswith(f"{exercise}-")]


#: Every exercise label a student can check, one per exercise with a number to find.
LABELS: tuple[str, ...] = tuple(dict.fromkeys(
    next(label for label in EXERCISES if name == label or name.startswith(f"{label}-"))
    for name in EXERCISES))


@dataclass(frozen=True)
class Verdict:
    """What :func:`check` found: ``right``, ``close``, ``wrong`` or ``missing`` (none
    given, or one that is not a number: a decimal comma, text), and the
    one line it printed (for an exercise of several answers, ``parts`` holds each
    answer's own verdict)."""

    verdict: str
    message: str
    parts: tuple = ()
    #: Whether :func:`check` printed the message already (a notebook then shows nothing
    #: more: the line, never a repr).
    printed: bool = field(default=False, repr=False, compare=False)

    def __str__(self) -> str:
        return self.message

    def _ipython_display_(self) -> None:
        if not self.printed:
            print(self.message)


def check(exercise: str, *answers, quiet: bool = False) -> Verdict:
    """Check the answers to ``exercise`` and print one line: right, close or not yet,
    with a hint; the answer is never shown.

    ``exercise`` is an answer's name in :data:`EXERCISES` with one answer (such as
    ``check("ch1-ex1", 0.14)``), or an exercise's label with one answer for each of its
    :func:`parts`, in order (``check("ch2-ex1", 4, 0.88)``). ``...`` or ``None`` stands
    for an answer not given yet.

    A slip in typing the answer is told in one line of the student's language, with
    the verdict ``missing``, not raised: a decimal comma (``check("ch1-ex1", 0,14)``,
    which Python reads as more numbers than the exercise has answers) and an answer that
    is not one finite number (``"0,14"``, text). Only a label that is not an exercise's,
    or fewer answers than its parts, raise ``ValueError``."""
    _validate.text("exercise", exercise, choices=tuple(EXERCISES))
    quiet = _validate.flag("quiet", quiet)
    names = [exercise] if len(answers) == 1 else parts(exercise)
    if len(answers) > len(names) and all(_validate._is_real(a) for a in answers):
        return _say("missing", _(
            "Not checked: Python reads a decimal comma as two numbers. Write each answer "
            "to {exercise} with a decimal point (0.25, not 0,25), then run the cell "
            "again.").format(exercise=exercise), quiet)
    if len(answers) != len(names):
        # in the student's language: a Russian notebook's cell shows it as it is
        raise ValueError(_("answers must be {count} for {exercise} (one for each of "
                           "{names}), got {given}").format(
            count=len(names), exercise=repr(exercise), names=", ".join(names),
            given=len(answers)))
    found = [_verdict(name, answer) for name, answer in zip(names, answers)]
    if len(found) == 1:
        return _say(found[0][0], found[0][1], quiet)
    kinds = [kind for kind, _message in found]
    if all(answer is Ellipsis or answer is None for answer in answers):
        return _say("missing", _("Replace each ... with your answer, then run the cell "
                                 "again."), quiet, tuple(kinds))
    if all(kind == "right" for kind in kinds):
        return _say("right", _("Right."), quiet, tuple(kinds))
    overall = next(kind for kind in ("wrong", "close", "missing") if kind in kinds)
    lines = []
    for name, (kind, message) in zip(names, found):
        what = _(EXERCISES[name].what)
        lines.append(_("{what}: {verdict}").format(what=what[:1].upper() + what[1:],
                                                    verdict=message))
    return _say(overall, " ".join(lines), quiet, tuple(kinds))


def _verdict(name: str, answer) -> tuple[str, str]:
    """One answer's verdict and its sentence."""
    task = EXERCISES[name]
    if answer is Ellipsis or answer is None:
        return "missing", _("Replace ... with your answer, then run the cell again.")
    try:
        value = _validate.real("answer", answer)
    except ValueError:
        return "missing", _(
            "Not checked: an answer must be one finite number, written without quotes "
            "and with a decimal point (0.25, not \"0.25\" or \"0,25\"). Change it, then "
            "run the cell again.")
    verdict = judge(value, float(task.answer()), whole=task.whole,
                    tolerance=task.tolerance)
    if verdict == "right":
        return "right", _("Right.")
    if verdict == "units":
        return "close", _("Close: the number is right but in other units; a share and a "
                          "percentage differ by a factor of 100.")
    if verdict == "close":
        return "close", _("Close, but not there: {hint}").format(hint=_(task.hint))
    return "wrong", _("Not yet. {hint}").format(hint=_(task.hint))


def judge(value: float, expected: float, *, whole: bool = False,
          tolerance: float | None = None) -> str:
    """How near ``value`` is to ``expected``: ``right``, ``close``, ``units`` (right but a
    share for a percentage, or the reverse) or ``wrong``; the rules of the module's
    docstring, shared with the teacher's homework grader (bookbuild/grade.py)."""
    value = _validate.real("value", value)
    expected = _validate.real("expected", expected)
    whole = _validate.flag("whole", whole)
    if tolerance is not None:
        tolerance = _validate.real("tolerance", tolerance, minimum=0.0)
    if whole:
        gap = abs(value - expected)
        return "right" if gap == 0 else "close" if gap <= 1 else "wrong"
    if tolerance is not None:
        gap = abs(value - expected)
        return ("right" if gap <= tolerance else "close"
                if gap <= 10 * tolerance else "wrong")
    return _compare(value, expected)


def _compare(value: float, expected: float) -> str:
    def near(x: float, within: float) -> bool:
        return math.isclose(x, expected, rel_tol=within, abs_tol=1e-12)
    if near(value, RIGHT):
        return "right"
    if near(value / 100, RIGHT) or near(value * 100, RIGHT):
        return "units"
    return "close" if near(value, CLOSE) else "wrong"


def _say(verdict: str, message: str, quiet: bool, kinds: tuple = ()) -> Verdict:
    if not quiet:
        print(message)
    return Verdict(verdict, message, kinds, printed=not quiet)
