"""Every chapter's parameters and the values they accept, checked in one place.

A chapter's first code cell (tagged ``parameters``) holds its defaults; the cell after it
calls :func:`check_parameters`, so a bad value passed by papermill, by
``bookbuild/rerun.py`` or typed by a reader stops the chapter at once with a message
naming the chapter's own parameter and its allowed range, instead of a
``ZeroDivisionError`` twenty cells later:

>>> check_parameters("01_chain_decay", error=1.5, silent=0.03, runs=2000, seed=1)
Traceback (most recent call last):
...
ValueError: chapter 01_chain_decay: error must be a number in [0, 1], got 1.5

Every value inside a range runs: the tests execute each chapter at the extremes that
:func:`extreme_cases` lists, and check that together they reach both ends of every range.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Callable, Mapping

from .i18n import N_, _, translate

__all__ = ["Number", "Rule", "ChapterParameters", "CHAPTERS", "check_parameters",
           "extreme_cases", "allowed"]


@dataclass(frozen=True)
class Number:
    """A parameter that accepts any number in ``[low, high]`` (whole numbers only when
    ``whole``)."""

    low: float
    high: float
    whole: bool = False

    def __post_init__(self):
        for name in ("low", "high"):
            value = getattr(self, name)
            if not _finite(value) or (self.whole is True and not float(value).is_integer()):
                kind = "a whole number" if self.whole is True else "a finite number"
                raise ValueError(f"{name} must be {kind}, got {value!r}")
        if not isinstance(self.whole, bool):
            raise ValueError(f"whole must be True or False, got {self.whole!r}")
        if self.low > self.high:
            raise ValueError(f"low must be at most high, got low={self.low!r}, "
                             f"high={self.high!r}")

    def describe(self) -> str:
        """The range in words, in the language set by :mod:`reliability.i18n`."""
        text = _("a whole number in [{low}, {high}]") if self.whole else _(
            "a number in [{low}, {high}]")
        return text.format(low=_show(self.low), high=_show(self.high))

    def accepts(self, value) -> bool:
        if not isinstance(value, numbers.Real) or isinstance(value, bool):
            return False
        if not math.isfinite(float(value)) or not self.low <= float(value) <= self.high:
            return False
        return not self.whole or float(value).is_integer()


@dataclass(frozen=True)
class Rule:
    """A condition that joins several parameters, such as ``error + silent <= 1``.

    ``holds`` receives the named parameters as keywords; ``says`` is the sentence shown
    when it does not hold.
    """

    names: tuple[str, ...]
    holds: Callable[..., bool]
    says: str

    def __post_init__(self):
        if (not isinstance(self.names, tuple) or not self.names
                or not all(isinstance(n, str) and n for n in self.names)):
            raise ValueError(f"names must be a non-empty tuple of parameter names, "
                             f"got {self.names!r}")
        if not callable(self.holds):
            raise ValueError(f"holds must be a function of the named parameters, "
                             f"got {self.holds!r}")
        if not isinstance(self.says, str) or not self.says:
            raise ValueError(f"says must be the sentence shown when the rule fails, "
                             f"got {self.says!r}")


@dataclass(frozen=True)
class ChapterParameters:
    """The ranges of one chapter's parameters, the rules that join them, and the extreme
    combinations the tests run (by default: every parameter at its low end, then every
    parameter at its high end)."""

    ranges: Mapping[str, Number]
    rules: tuple[Rule, ...] = ()
    cases: tuple[Mapping[str, float], ...] = field(default=())

    def __post_init__(self):
        if (not isinstance(self.ranges, Mapping) or not self.ranges
                or not all(isinstance(k, str) and isinstance(v, Number)
                           for k, v in self.ranges.items())):
            raise ValueError(f"ranges must map each parameter name to a Number, "
                             f"got {self.ranges!r}")
        if not isinstance(self.rules, tuple) or not all(
                isinstance(r, Rule) and set(r.names) <= set(self.ranges) for r in self.rules):
            raise ValueError(f"rules must be a tuple of Rules over the parameters "
                             f"{list(self.ranges)}, got {self.rules!r}")
        if not isinstance(self.cases, tuple) or not all(
                isinstance(c, Mapping) and set(c) <= set(self.ranges) for c in self.cases):
            raise ValueError(f"cases must be a tuple of mappings from the parameters "
                             f"{list(self.ranges)} to values, got {self.cases!r}")


def _finite(value) -> bool:
    return (isinstance(value, numbers.Real) and not isinstance(value, bool)
            and math.isfinite(float(value)))


def _show(value) -> str:
    if isinstance(value, int) and value >= 10_000:
        # English shows the literal a user can type back (20_000); a Russian box shows
        # the number as the page writes numbers («20 000»)
        from ._language import get_language
        from .numbers import number

        return f"{value:,}".replace(",", "_") if get_language() == "en" else number(value)
    return _localised(value) if isinstance(value, float) else str(value)


def _localised(value) -> str:
    from .numbers import fmt  # numbers imports i18n, which this module does too

    return fmt(value, "g")


PROBABILITY = Number(0.0, 1.0)
SEED = Number(0, 2**32 - 1, whole=True)
VISIBLE_PLUS_SILENT = Rule(("error", "silent"), lambda error, silent: error + silent <= 1,
                           N_("error + silent must be at most 1 (they are shares of one "
                              "attempt)"))

CHAPTERS: dict[str, ChapterParameters] = {
    "01_chain_decay": ChapterParameters(
        ranges={"error": PROBABILITY, "silent": PROBABILITY,
                "runs": Number(1, 20_000, whole=True), "seed": SEED},
        rules=(VISIBLE_PLUS_SILENT,),
        cases=({"error": 0.0, "silent": 0.0, "runs": 1, "seed": 0},
               {"error": 1.0, "silent": 0.0, "runs": 20_000, "seed": 2**32 - 1},
               {"error": 0.0, "silent": 1.0})),

    "02_retries": ChapterParameters(
        ranges={"error": PROBABILITY, "silent": PROBABILITY,
                "attempts": Number(1, 20, whole=True), "steps": Number(1, 200, whole=True),
                "runs": Number(2, 20_000, whole=True), "seed": SEED},
        rules=(VISIBLE_PLUS_SILENT,),
        cases=({"error": 0.0, "silent": 0.0, "attempts": 1, "steps": 1, "runs": 2,
                "seed": 0},
               {"error": 1.0, "silent": 0.0, "attempts": 20, "steps": 200,
                "runs": 20_000, "seed": 2**32 - 1},
               {"error": 0.0, "silent": 1.0})),

    "03_verifiers": ChapterParameters(
        ranges={"error": PROBABILITY, "silent": PROBABILITY,
                "attempts": Number(1, 20, whole=True), "recall": PROBABILITY,
                "false_reject": PROBABILITY, "runs": Number(2, 20_000, whole=True),
                "draft_wrong": PROBABILITY, "fix_rate": PROBABILITY, "seed": SEED},
        rules=(VISIBLE_PLUS_SILENT,),
        cases=({"error": 0.0, "silent": 0.0, "attempts": 1, "recall": 0.0,
                "false_reject": 0.0, "runs": 2, "draft_wrong": 0.0, "fix_rate": 0.0,
                "seed": 0},
               {"error": 1.0, "silent": 0.0, "attempts": 20, "recall": 1.0,
                "false_reject": 1.0, "runs": 20_000, "draft_wrong": 1.0, "fix_rate": 1.0,
                "seed": 2**32 - 1},
               {"error": 0.0, "silent": 1.0})),

    "04_pass_k": ChapterParameters(
        ranges={"tasks": Number(1, 1_000, whole=True), "trials": Number(1, 50, whole=True),
                # small s spreads tasks to the extremes, large s makes them alike: the
                # two ranges meet nowhere, so the "alike" set always repeats less
                "alike": Number(5.0, 1_000.0), "split": Number(0.1, 2.0),
                "wanted_width": Number(0.01, 0.99), "score": PROBABILITY,
                "conversations_per_day": Number(1, 1_000_000, whole=True),
                "turns": Number(1, 200, whole=True), "bad_turn_share": PROBABILITY,
                "resamples": Number(1, 20_000, whole=True), "seed": SEED}),

    "05_self_correction": ChapterParameters(
        ranges={"recall": PROBABILITY, "false_reject": PROBABILITY,
                "rounds": Number(1, 50, whole=True),
                "questions": Number(1, 100_000, whole=True),
                # the chapter's base error is 0.02, and base error + gain is a probability
                "gain": Number(0.0, 0.98),
                "window": Number(1, 1_000, whole=True), "seed": SEED}),

    "06_format_tax": ChapterParameters(
        ranges={"runs": Number(1, 100_000, whole=True), "parse_rate": PROBABILITY,
                "reformat_fidelity": PROBABILITY, "step_error": PROBABILITY,
                "seed": SEED}),

    "07_budgets_and_loops": ChapterParameters(
        # runs: 20_000 tasks at 20 tenacity attempts each already take about 15 s.
        ranges={"step_limit": Number(1, 200, whole=True),
                "median_steps": Number(1.0, 100.0), "spread": Number(0.0, 3.0),
                "stuck": PROBABILITY, "runs": Number(1, 20_000, whole=True),
                "flaky_error": PROBABILITY, "attempts": Number(1, 20, whole=True),
                "seed": SEED}),

    "08_degradation_ladder": ChapterParameters(
        # The outage starts at 10:00 and the simulated day ends at midnight: 14 hours.
        ranges={"outage_hours": Number(0.0, 14.0), "reset_timeout": Number(1.0, 3_600.0),
                "failure_threshold": Number(1, 1_000, whole=True),
                "conversations": Number(1, 20_000, whole=True), "seed": SEED}),

    "09_ablation_lab": ChapterParameters(
        ranges={"runs": Number(1, 2_000, whole=True), "fault_rate": PROBABILITY,
                "max_turns": Number(1, 50, whole=True), "seed": SEED}),

    "10_reading_numbers": ChapterParameters(
        # threshold and separation are in the need signal's standard deviations; cases x
        # runs_per_case runs of the lab take about 4 ms each, so the top end stays fast.
        ranges={"separation": Number(0.0, 6.0), "threshold": Number(-4.0, 4.0),
                "irrelevance_cases": Number(1, 5_000, whole=True),
                "cases": Number(1, 100, whole=True),
                "runs_per_case": Number(1, 12, whole=True),
                "fault_rate": PROBABILITY, "seed": SEED}),
}


def _spec(chapter: str) -> ChapterParameters:
    if not isinstance(chapter, str) or chapter not in CHAPTERS:
        raise ValueError(f"chapter must be one of {sorted(CHAPTERS)}, got {chapter!r}")
    return CHAPTERS[chapter]


def allowed(chapter: str) -> dict[str, str]:
    """Each parameter of ``chapter`` with the values it accepts, in words."""
    return {name: number.describe() for name, number in _spec(chapter).ranges.items()}


def check_parameters(chapter: str, *, language: str | None = None, **values) -> None:
    """Refuse a parameter of ``chapter`` outside its range, an unknown or a missing one,
    or a combination that breaks one of the chapter's rules, with a ``ValueError`` that
    names the parameter and what it accepts, in ``language`` (the Russian chapter passes
    ``"ru"``; by default the language set by :mod:`reliability.i18n`)."""
    from . import i18n

    if language is None:
        return _check(chapter, values)
    with i18n.language(language):
        return _check(chapter, values)


def _check(chapter: str, values: dict) -> None:
    spec = _spec(chapter)
    unknown = sorted(set(values) - set(spec.ranges))
    if unknown:
        raise ValueError(_("chapter {chapter} has no parameter {unknown}; its parameters "
                           "are {known}").format(chapter=chapter, unknown=", ".join(unknown),
                                                 known=", ".join(spec.ranges)))
    missing = [name for name in spec.ranges if name not in values]
    if missing:
        raise ValueError(_("chapter {chapter}: check every parameter; missing "
                           "{missing}").format(chapter=chapter, missing=", ".join(missing)))
    for name, number in spec.ranges.items():
        if not number.accepts(values[name]):
            raise ValueError(_("chapter {chapter}: {name} must be {allowed}, got "
                               "{value}").format(chapter=chapter, name=name,
                                                 allowed=number.describe(),
                                                 value=_given(values[name])))
    for rule in spec.rules:
        if not rule.holds(**{name: values[name] for name in rule.names}):
            # parted by "; " in Russian, where the comma is the decimal sign
            shown = _(", ").join(f"{name}={_given(values[name])}" for name in rule.names)
            raise ValueError(_("chapter {chapter}: {rule}, got {shown}").format(
                chapter=chapter, rule=translate(rule.says), shown=shown))


def _given(value) -> str:
    """A value the reader passed, as the message shows it: a number in the page's
    language, anything else as Python writes it."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return _localised(float(value)) if isinstance(value, float) else str(value)
    return repr(value)


def extreme_cases(chapter: str) -> list[dict]:
    """The parameter sets the tests run ``chapter`` with, so that every end of every range
    is run at least once. Parameters a case leaves out keep the chapter's defaults."""
    spec = _spec(chapter)
    if spec.cases:
        return [dict(case) for case in spec.cases]
    return [{name: number.low for name, number in spec.ranges.items()},
            {name: number.high for name, number in spec.ranges.items()}]
