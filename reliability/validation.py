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

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from collections.abc import Mapping
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from . import _validate

__all__ = ["RefundRequest", "Records", "Verdict", "RuleViolation", "VAGUE_FEEDBACK",
           "parse_refund", "rule_violations", "check_business_rules", "validate_refund"]

#: The feedback a loop without an arbiter sends: it names no field, no value, no range.
VAGUE_FEEDBACK = "Are you sure? Please check your answer again."


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
            fees[key] = Decimal(str(fee))
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
    return f"{value:.2f}"


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
        owned = ", ".join(sorted(records.customer_accounts)) or "none"
        problems.append(f"account {refund.account} does not belong to this customer; "
                        f"allowed: {owned}")
        return tuple(problems)  # the other rules would read another customer's records
    withheld = records.fees.get((refund.account, refund.charged_on))
    if withheld is None:
        on_record = ", ".join(f"{day.isoformat()} ({_money(fee)})"
                              for (acct, day), fee in sorted(records.fees.items())
                              if acct == refund.account) or "none"
        problems.append(f"no fee was withheld on account {refund.account} on "
                        f"{refund.charged_on.isoformat()}; fees on record: {on_record}")
    else:
        if refund.fee_charged != withheld:
            problems.append(f"fee charged {_money(refund.fee_charged)} does not match the fee "
                            f"on record {_money(withheld)} for account {refund.account} on "
                            f"{refund.charged_on.isoformat()}")
        if refund.amount > withheld:
            problems.append(f"refund amount {_money(refund.amount)} exceeds the fee withheld "
                            f"{_money(withheld)}; allowed 0 to {_money(withheld)}")
    age = (records.today - refund.charged_on).days
    earliest = date.fromordinal(records.today.toordinal() - records.appeal_days)
    if age < 0:
        problems.append(f"charge date {refund.charged_on.isoformat()} is in the future; "
                        f"allowed {earliest.isoformat()} to {records.today.isoformat()}")
    elif age > records.appeal_days:
        problems.append(f"the charge on {refund.charged_on.isoformat()} is {age} days old; "
                        f"refunds are allowed up to {records.appeal_days} days after the "
                        f"charge, i.e. charges from {earliest.isoformat()} to "
                        f"{records.today.isoformat()}")
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
        where = ".".join(str(part) for part in item["loc"]) or "answer"
        message = f"{where}: {item['msg']}"
        if item["type"] not in ("missing", "json_invalid") and "input" in item:
            message += f" (got {item['input']!r})"
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
