"""The validation loop whole: draft, validate, feed the exact error back, escalate.

A refund request is one step of a support agent. The model drafts a JSON refund; the
deterministic validator (:mod:`reliability.validation`, plus the tariff rule here) either
accepts it or says exactly what is wrong; the loop sends that message back as the reason
for the next draft, up to ``max_attempts`` drafts, and then hands the case to a person
with a reason instead of letting the model go on:

>>> from datetime import date
>>> from reliability.validation import Records
>>> records = Records({"40817-0042"}, {("40817-0042", date(2026, 11, 3)): "900.00"},
...                   today=date(2026, 12, 2))
>>> tariff = Tariff({date(2023, 1, 1): "1200.00", date(2025, 7, 1): "900.00"})
>>> drafts = iter(['{"account": "40817-0042", "amount": "1200.00", '
...                '"fee_charged": "1200.00", "charged_on": "2026-11-03"}',
...                '{"account": "40817-0042", "amount": "900.00", '
...                '"fee_charged": "900.00", "charged_on": "2026-11-03"}'])
>>> outcome = refund_with_validation(lambda feedback: next(drafts),
...                                  refund_check(records, tariff))
>>> outcome.status, outcome.attempts_used, str(outcome.refund.amount)
('accepted', 2, '900.00')

Two reasons end a case with a person: ``"validation_failed"`` (no draft passed in
``max_attempts``) and ``"approval_required"`` (a valid refund above the amount the bank
lets the agent grant alone). The second never goes back to the model: telling it the
limit would invite it to shrink a legitimate refund until it fits.

:func:`simulate_loop` runs the loop many times with a seeded stand-in for the model
(:class:`DraftModel`) and counts how cases end; :func:`loop_probabilities` gives the same
shares in closed form.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from types import MappingProxyType

import numpy as np

from . import _validate
from .i18n import N_, _
from .numbers import day as _day, fmt, words_for
from .stats import wilson_interval
from .validation import Records, RefundRequest, Verdict, validate_refund

__all__ = ["MAX_ATTEMPTS", "VALIDATION_FAILED", "APPROVAL_REQUIRED", "Tariff",
           "tariff_violations", "refund_check", "Attempt", "Outcome", "escalate_to_human",
           "refund_with_validation", "DraftModel", "LoopCounts", "loop_probabilities",
           "simulate_loop"]

#: Drafts the loop allows before it escalates (the lesson's ``MAX_ATTEMPTS``).
MAX_ATTEMPTS = 3
#: The reason given to a person when no draft passed the validator.
VALIDATION_FAILED = "validation_failed"
#: The reason given to a person when a valid refund exceeds the agent's own limit.
APPROVAL_REQUIRED = "approval_required"
# The reasons as a person (and a printed line) reads them (reliability.numbers.said).
words_for({VALIDATION_FAILED: N_("no draft passed validation"),
           APPROVAL_REQUIRED: N_("approval required")})


def _money(value: Decimal) -> str:
    return fmt(value, ".2f")   # 900.00, «900,00»


def _decimal(name: str, value) -> Decimal:
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        number = None
    if number is None or not number.is_finite() or number < 0 or isinstance(value, bool):
        raise ValueError(f"{name} must be an amount >= 0 such as '900.00', got {value!r}")
    return number


@dataclass(frozen=True)
class Tariff:
    """The bank's fee schedule: ``{date a fee took effect: fee}``.

    The fee in force on a day is the one that took effect last on or before it; a fee
    charged on a day must match that fee, not today's and not an older one.
    """

    changes: Mapping

    def __post_init__(self):
        if not isinstance(self.changes, Mapping) or not self.changes:
            raise ValueError(f"changes must be a non-empty dict of datetime.date -> fee, "
                             f"got {self.changes!r}")
        cleaned = {}
        for day, fee in self.changes.items():
            if not isinstance(day, date):
                raise ValueError(f"changes keys must be datetime.date, got {day!r}")
            cleaned[day] = _decimal("changes values", fee)
        object.__setattr__(self, "changes", MappingProxyType(dict(sorted(cleaned.items()))))

    def in_force(self, day: date):
        """``(effective date, fee)`` of the tariff in force on ``day``, or ``None``
        before the first one."""
        if not isinstance(day, date):
            raise ValueError(f"day must be a datetime.date, got {day!r}")
        current = None
        for since, fee in self.changes.items():
            if since <= day:
                current = (since, fee)
        return current


def tariff_violations(refund: RefundRequest, tariff: Tariff) -> tuple:
    """The tariff rule: ``fee_charged`` is the fee in force on ``charged_on``.

    Returns one message naming the fee, the tariff of that date and since when it applies,
    or an empty tuple.
    """
    _validate.instance("refund", refund, RefundRequest)
    _validate.instance("tariff", tariff, Tariff)
    in_force = tariff.in_force(refund.charged_on)
    if in_force is None:
        first = next(iter(tariff.changes))
        return (_("no tariff was in force on {day}; the first tariff took effect on "
                  "{first}").format(day=_day(refund.charged_on),
                                    first=_day(first)),)
    since, fee = in_force
    if refund.fee_charged != fee:
        return (_("fee charged {charged} is not the tariff in force on the charge date "
                  "{day}: that tariff is {fee}, in force since {since}").format(
                      charged=_money(refund.fee_charged), day=_day(refund.charged_on),
                      fee=_money(fee), since=_day(since)),)
    return ()


def refund_check(records: Records, tariff: Tariff | None = None) -> Callable[[str], Verdict]:
    """The validator the loop calls on each draft: form, the business rules of
    :func:`reliability.validation.validate_refund`, and the tariff rule if a ``tariff``
    is given. Deterministic: one draft text always gets the same verdict."""
    _validate.instance("records", records, Records)
    _validate.instance("tariff", tariff, Tariff, optional=True)

    def check(text: str) -> Verdict:
        verdict = validate_refund(text, records)
        if verdict.refund is None or tariff is None:
            return verdict
        problems = verdict.problems + tariff_violations(verdict.refund, tariff)
        return Verdict(accepted=not problems, refund=verdict.refund, problems=problems)

    return check


@dataclass(frozen=True)
class Attempt:
    """One draft and what the validator said about it (no problems: accepted)."""

    number: int
    draft: str
    problems: tuple

    def __post_init__(self):
        _validate.whole("number", self.number, minimum=1)
        _validate.text("draft", self.draft)
        object.__setattr__(self, "problems", _validate.sequence(
            "problems", self.problems, of=str, what="messages"))

    @property
    def feedback(self) -> str:
        return "; ".join(self.problems)


@dataclass(frozen=True)
class Outcome:
    """How one case ended: ``"accepted"`` with the refund, or ``"escalated"`` to a
    person with a ``reason`` (and the valid refund, if the reason is approval)."""

    status: str
    refund: RefundRequest | None
    attempts: tuple
    reason: str | None = None

    def __post_init__(self):
        _validate.text("status", self.status, choices=("accepted", "escalated"))
        _validate.instance("refund", self.refund, RefundRequest, optional=True)
        object.__setattr__(self, "attempts", _validate.sequence(
            "attempts", self.attempts, of=Attempt, what="Attempt records"))
        _validate.text("reason", self.reason, choices=(VALIDATION_FAILED, APPROVAL_REQUIRED),
                       optional=True)
        if (self.status == "escalated") != (self.reason is not None):
            raise ValueError(f"reason must be given exactly when status is 'escalated', "
                             f"got status={self.status!r}, reason={self.reason!r}")

    @property
    def attempts_used(self) -> int:
        return len(self.attempts)


def escalate_to_human(attempts, reason: str, refund: RefundRequest | None = None) -> Outcome:
    """Hand the case to a person, with every draft and rejection so far and the reason."""
    _validate.text("reason", reason, choices=(VALIDATION_FAILED, APPROVAL_REQUIRED))
    attempts = _validate.sequence("attempts", attempts, of=Attempt, what="Attempt records")
    return Outcome("escalated", refund, attempts, reason)


def refund_with_validation(model: Callable, check: Callable[[str], Verdict], *,
                           max_attempts: int = MAX_ATTEMPTS,
                           approval_limit=None) -> Outcome:
    """Draft, validate, feed the exact problems back; after ``max_attempts`` rejected
    drafts, escalate with reason ``"validation_failed"``.

    model : ``model(feedback)`` returns a JSON draft; ``feedback`` is ``None`` for the
        first draft and the validator's message after a rejection.
    check : a draft's verdict, e.g. :func:`refund_check`.
    approval_limit : a valid refund above it goes to a person (``"approval_required"``)
        instead of being granted, and the model is not told the limit.
    """
    _validate.function("model", model)
    _validate.function("check", check)
    max_attempts = _validate.whole("max_attempts", max_attempts, minimum=1)
    limit = None if approval_limit is None else _decimal("approval_limit", approval_limit)
    attempts, feedback = [], None
    for number in range(1, max_attempts + 1):
        draft = model(feedback)
        verdict = check(draft)
        attempts.append(Attempt(number, draft, verdict.problems))
        if not verdict.accepted:
            feedback = verdict.feedback  # what is wrong and what would be accepted
            continue
        if limit is not None and verdict.refund.amount > limit:
            # A person decides; the model is not asked to shrink a valid refund to fit.
            return escalate_to_human(attempts, APPROVAL_REQUIRED, verdict.refund)
        return Outcome("accepted", verdict.refund, tuple(attempts))
    return escalate_to_human(attempts, VALIDATION_FAILED)


@dataclass(frozen=True)
class DraftModel:
    """A seeded stand-in for the model: illustrative rates, not a measured model.

    The first draft is wrong with probability ``draft_wrong`` (one of ``wrong`` drafts,
    drawn uniformly); after a rejection that names the problem, the next draft is the
    right one with probability ``fix_rate``, another wrong one otherwise.
    """

    right: str
    wrong: tuple
    draft_wrong: float
    fix_rate: float

    def __post_init__(self):
        _validate.text("right", self.right)
        object.__setattr__(self, "wrong", _validate.sequence(
            "wrong", self.wrong, of=str, what="drafts", minimum=1))
        object.__setattr__(self, "draft_wrong",
                           _validate.probability("draft_wrong", self.draft_wrong))
        object.__setattr__(self, "fix_rate", _validate.probability("fix_rate", self.fix_rate))

    def caller(self, rng: np.random.Generator) -> Callable:
        """One case's model: a function of the feedback that draws from ``rng`` (a
        ``numpy.random.Generator``, shared by the cases of one simulation)."""
        _validate.instance("rng", rng, np.random.Generator)

        def draft(feedback):
            right = 1.0 - self.draft_wrong if feedback is None else self.fix_rate
            if rng.random() < right:
                return self.right
            return self.wrong[int(rng.integers(len(self.wrong)))]

        return draft


def loop_probabilities(draft_wrong: float, fix_rate: float,
                       max_attempts: int = MAX_ATTEMPTS) -> dict:
    """Closed form: the share of cases accepted on attempt k (k = 1..max_attempts) and
    escalated, when every wrong draft breaks a stated rule (the validator's recall is 1
    and it rejects no right draft).

    P(1) = 1 - q;  P(k) = q (1 - s)^(k-2) s for k >= 2;  P(escalated) = q (1 - s)^(A-1),
    with q = ``draft_wrong``, s = ``fix_rate``, A = ``max_attempts``.
    """
    q = _validate.probability("draft_wrong", draft_wrong)
    s = _validate.probability("fix_rate", fix_rate)
    a = _validate.whole("max_attempts", max_attempts, minimum=1)
    shares = {1: 1.0 - q}
    for k in range(2, a + 1):
        shares[k] = q * (1.0 - s) ** (k - 2) * s
    shares["escalated"] = q * (1.0 - s) ** (a - 1)
    return shares


@dataclass(frozen=True)
class LoopCounts:
    """How ``runs`` simulated cases ended: ``counts[k]`` accepted on attempt k,
    ``counts["escalated"]`` handed to a person."""

    counts: Mapping
    runs: int

    def __post_init__(self):
        if not isinstance(self.counts, Mapping) or not all(
                isinstance(n, int) and not isinstance(n, bool) and n >= 0
                for n in self.counts.values()):
            raise ValueError(f"counts must be a dict of ending -> whole count >= 0, "
                             f"got {self.counts!r}")
        object.__setattr__(self, "counts", MappingProxyType(dict(self.counts)))
        _validate.whole("runs", self.runs, minimum=1)
        if sum(self.counts.values()) != self.runs:
            raise ValueError(f"counts must add up to runs={self.runs}, "
                             f"got {dict(self.counts)!r}")

    def rows(self, closed: Mapping | None = None) -> list:
        """One row per ending: count, share, 95% Wilson interval (and the closed form,
        if ``closed`` gives a share for every ending)."""
        if closed is not None and (not isinstance(closed, Mapping)
                                   or set(closed) != set(self.counts)):
            raise ValueError(f"closed must be None or a dict with a share for each ending "
                             f"{list(self.counts)}, got {closed!r}")
        keys = list(self.counts)
        low, high = wilson_interval([self.counts[k] for k in keys], self.runs)
        rows = []
        for key, lo, hi in zip(keys, np.atleast_1d(low), np.atleast_1d(high)):
            row = {"ending": key, "cases": self.counts[key],
                   "simulated": self.counts[key] / self.runs, "low": float(lo),
                   "high": float(hi)}
            if closed is not None:
                row["closed"] = closed[key]
            rows.append(row)
        return rows


def simulate_loop(model: DraftModel, check: Callable[[str], Verdict], *, runs: int,
                  seed, max_attempts: int = MAX_ATTEMPTS) -> LoopCounts:
    """Run :func:`refund_with_validation` on ``runs`` cases with the seeded ``model``,
    every draft judged by the real validator ``check``, and count how they end."""
    _validate.instance("model", model, DraftModel)
    _validate.function("check", check)
    runs = _validate.whole("runs", runs, minimum=1)
    max_attempts = _validate.whole("max_attempts", max_attempts, minimum=1)
    rng = _validate.generator(seed)
    verdicts = {}

    def cached(text):  # the validator is deterministic, so each draft is judged once
        if text not in verdicts:
            verdicts[text] = check(text)
        return verdicts[text]

    counts = dict.fromkeys([*range(1, max_attempts + 1), "escalated"], 0)
    for _run in range(runs):
        outcome = refund_with_validation(model.caller(rng), cached,
                                         max_attempts=max_attempts)
        counts["escalated" if outcome.status == "escalated" else outcome.attempts_used] += 1
    return LoopCounts(counts, runs)
