"""A deterministic validator for one structured answer: a bank's fee refund.

The validator is written before the model runs and does not depend on it. It parses the
model's JSON into :class:`RefundRequest` (pydantic checks the *form*: valid JSON, every
field present, the right types) and then checks the *business rules* against the bank's
own records (the account is the customer's, the charge is on record, the amount does not
exceed the fee withheld, the charge is inside the appeal window). Each rejection says
exactly what is wrong and what would be accepted, so the feedback can be sent straight
back to the model as the reason for its next attempt; compare :data:`VAGUE_FEEDBACK`.
"""

from __future__ import annotations

import numbers
import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from collections.abc import Mapping
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from . import _validate
from .i18n import N_, _, ngettext

__all__ = ["RefundRequest", "Records", "Verdict", "RuleViolation", "VAGUE_FEEDBACK",
           "parse_refund", "rule_violations", "check_business_rules", "validate_refund"]

class _Shown(str):
    """A marked constant that reads in the current language wherever it is printed or
    formatted (``print(x)``, ``f"{x}"``), and is its English text for everything else: it
    compares, hashes and looks up as the English string, so code keyed by it is unchanged."""

    __slots__ = ()

    def __str__(self) -> str:
        return _(str.__str__(self))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


#: The feedback a loop without an arbiter sends: it names no field, no value, no range.
VAGUE_FEEDBACK = _Shown(N_("Are you sure? Please check your answer again."))

#: pydantic's messages that the chapters show, for the catalogs: :func:`_pydantic_message`
#: translates a message by its text (pydantic itself speaks only English).
PYDANTIC_MESSAGES = (N_("Field required"), N_("Input should be a valid integer"),
                     N_("Input should be a valid decimal"),
                     N_("Input should be a valid date or datetime, invalid character in year"),
                     N_("String should have at least 1 character"),
                     N_("Extra inputs are not permitted"), N_("EOF while parsing an object"),
                     N_("EOF while parsing a value"))

_JSON_WHERE = re.compile(r"(.+) at line (\d+) column (\d+)")


def _pydantic_message(error: dict) -> str:
    """A pydantic error's ``msg`` in the current language (as pydantic gives it in
    English, or where no translation is known)."""
    if error.get("type") == "json_invalid" and "error" in error.get("ctx", {}):
        detail = str(error["ctx"]["error"])
        found = _JSON_WHERE.fullmatch(detail)
        if found:
            detail = _("{problem} at line {line} column {column}").format(
                problem=_(found[1]), line=found[2], column=found[3])
        return _("Invalid JSON: {detail}").format(detail=detail)
    return _(error["msg"])


class RefundRequest(BaseModel):
    """The structured answer the model must produce to refund a fee."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=False)

    account: str = Field(pattern=r"^\d{5}-\d{4}$", description="e.g. 40817-0042")
    amount: Decimal = Field(ge=0, decimal_places=2, description="refund, in the account's currency")
    fee_charged: Decimal = Field(gt=0, decimal_places=2, description="the fee being disputed")
    charged_on: date = Field(description="the date the fee was withheld, ISO 8601")


class RuleViolation(ValueError):
    """A well-formed refund that breaks a business rule; ``problems`` lists each one."""

    def __init__(self, problems):
        self.problems = tuple(problems)
        super().__init__("; ".join(self.problems))


def _fee(key, fee) -> Decimal:
    """One fee on record as a Decimal: a finite amount >= 0, given as a number or as its
    digits ("2.50"); anything else is refused naming the fee's key."""
    problem = ValueError(f"fees values must be amounts >= 0 (a number or a string of digits "
                         f"such as '2.50'), got {fee!r} for {key!r}")
    if isinstance(fee, bool) or not isinstance(fee, (numbers.Real, Decimal, str)):
        raise problem
    try:
        amount = Decimal(str(fee).strip())
    except InvalidOperation:
        raise problem from None
    if not amount.is_finite() or amount < 0:
        raise problem
    return amount


@dataclass(frozen=True)
class Records:
    """What the bank knows, independently of the model.

    customer_accounts : the accounts of the customer who asked.
    fees : ``{(account, date): fee withheld}`` for every fee on record.
    today : the date of the request (passed in, so the rules are deterministic).
    appeal_days : how many days after a charge a refund may still be granted.
    """

    customer_accounts: frozenset
    fees: dict = field(hash=False)
    today: date
    appeal_days: int = 90

    def __post_init__(self):
        if not isinstance(self.customer_accounts, (set, frozenset, list, tuple)) or not all(
                isinstance(a, str) for a in self.customer_accounts):
            raise ValueError(f"customer_accounts must be a set of account strings, got "
                             f"{self.customer_accounts!r}")
        if not isinstance(self.fees, Mapping):
            raise ValueError(f"fees must be a dict of (account, date) -> fee, got {self.fees!r}")
        object.__setattr__(self, "customer_accounts", frozenset(self.customer_accounts))
        object.__setattr__(self, "appeal_days",
                           _validate.whole("appeal_days", self.appeal_days, minimum=1))
        if not isinstance(self.today, date):
            raise ValueError(f"today must be a datetime.date, got {self.today!r}")
        fees = {}
        for key, fee in dict(self.fees).items():
            if not (isinstance(key, tuple) and len(key) == 2 and isinstance(key[1], date)):
                raise ValueError(f"fees keys must be (account, datetime.date), got {key!r}")
            fees[key] = _fee(key, fee)
        # Read-only, so a frozen Records cannot have its ledger edited behind its back.
        object.__setattr__(self, "fees", MappingProxyType(fees))


@dataclass(frozen=True)
class Verdict:
    """The validator's answer: accepted or not, the parsed refund, and each problem found.

    ``feedback`` is what goes back to the model: every problem, joined, or "" if accepted.
    """

    accepted: bool
    refund: RefundRequest | None
    problems: tuple

    def __post_init__(self):
        _validate.flag("accepted", self.accepted)
        _validate.instance("refund", self.refund, RefundRequest, optional=True)
        _validate.sequence("problems", self.problems, of=str, what="messages")

    @property
    def feedback(self) -> str:
        return "; ".join(self.problems)


def parse_refund(text: str) -> RefundRequest:
    """Parse the model's JSON answer; raises ``pydantic.ValidationError`` on a bad form."""
    if not isinstance(text, (str, bytes)):
        raise ValueError(f"text must be the model's answer as a JSON string, got {text!r}")
    return RefundRequest.model_validate_json(text)


def _money(value: Decimal) -> str:
    """An amount as a message shows it, in the page's language (900.00, «900,00»): the
    Decimal rounds to cents first, so no float ever changes a cent."""
    from .numbers import fmt

    return fmt(float(f"{value:.2f}"), ".2f")


def _day(value: date) -> str:
    """A date as a message shows it, in the page's language (2026-11-03, «03.11.2026»)."""
    from .numbers import day

    return day(value)


def rule_violations(refund: RefundRequest, records: Records) -> tuple:
    """Every business rule ``refund`` breaks, each as a message naming the value and what
    would be allowed. An empty tuple means the refund may go ahead.

    Rules: (1) the account is the customer's; (2) a fee on that account and date is on
    record and ``fee_charged`` matches it; (3) ``0 <= amount <= fee withheld``;
    (4) ``0 <= today - charged_on <= appeal_days``.
    """
    if not isinstance(refund, RefundRequest):
        raise ValueError(f"refund must be a RefundRequest, got {refund!r}")
    if not isinstance(records, Records):
        raise ValueError(f"records must be a Records, got {records!r}")
    problems = []
    if refund.account not in records.customer_accounts:
        owned = ", ".join(sorted(records.customer_accounts)) or _("none")
        problems.append(_("account {account} does not belong to this customer; "
                          "allowed: {owned}").format(account=refund.account, owned=owned))
        return tuple(problems)  # the other rules would read another customer's records
    withheld = records.fees.get((refund.account, refund.charged_on))
    if withheld is None:
        on_record = ", ".join(f"{_day(when)} ({_money(fee)})"
                              for (acct, when), fee in sorted(records.fees.items())
                              if acct == refund.account) or _("none")
        problems.append(_("no fee was withheld on account {account} on {day}; fees on "
                          "record: {on_record}").format(
                              account=refund.account, day=_day(refund.charged_on),
                              on_record=on_record))
    else:
        if refund.fee_charged != withheld:
            problems.append(_("fee charged {charged} does not match the fee on record "
                              "{withheld} for account {account} on {day}").format(
                                  charged=_money(refund.fee_charged),
                                  withheld=_money(withheld), account=refund.account,
                                  day=_day(refund.charged_on)))
        if refund.amount > withheld:
            problems.append(_("refund amount {amount} exceeds the fee withheld "
                              "{withheld}; allowed 0 to {withheld}").format(
                                  amount=_money(refund.amount), withheld=_money(withheld)))
    age = (records.today - refund.charged_on).days
    earliest = date.fromordinal(records.today.toordinal() - records.appeal_days)
    if age < 0:
        problems.append(_("charge date {day} is in the future; allowed {earliest} to "
                          "{today}").format(day=_day(refund.charged_on),
                                            earliest=_day(earliest),
                                            today=_day(records.today)))
    elif age > records.appeal_days:
        # the whole sentence takes the count's form: Russian verbs agree with it
        # («прошёл 121 день», «прошло 125 дней»)
        problems.append(ngettext(
            "the charge on {day} is {age} day old; refunds are allowed up to "
            "{appeal_days} days after the charge, i.e. charges from {earliest} to {today}",
            "the charge on {day} is {age} days old; refunds are allowed up to "
            "{appeal_days} days after the charge, i.e. charges from {earliest} to {today}",
            age).format(day=_day(refund.charged_on), age=age,
                        appeal_days=records.appeal_days, earliest=_day(earliest),
                        today=_day(records.today)))
    return tuple(problems)


def check_business_rules(refund: RefundRequest, records: Records) -> None:
    """Raise :class:`RuleViolation` listing every broken rule; return ``None`` if none."""
    problems = rule_violations(refund, records)
    if problems:
        raise RuleViolation(problems)


def _form_problems(error: ValidationError) -> tuple:
    """One line per pydantic error: which field, what was wrong, what it received."""
    problems = []
    for item in error.errors(include_url=False):
        where = ".".join(str(part) for part in item["loc"]) or _("answer")
        message = f"{where}: {_pydantic_message(item)}"
        if item["type"] not in ("missing", "json_invalid") and "input" in item:
            message += _(" (got {input!r})").format(input=item["input"])
        problems.append(message)
    return tuple(problems)


def validate_refund(text: str, records: Records) -> Verdict:
    """Form first, then rules: the verdict on one JSON answer, with exact feedback."""
    if not isinstance(records, Records):
        raise ValueError(f"records must be a Records, got {records!r}")
    try:
        refund = parse_refund(text)
    except ValidationError as error:
        return Verdict(accepted=False, refund=None, problems=_form_problems(error))
    problems = rule_violations(refund, records)
    return Verdict(accepted=not problems, refund=refund, problems=problems)
