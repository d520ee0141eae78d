r"""The four guardrails of the lab, each a switch the harness reads, each matched to one
failure class:

========================  ==========================================  ======================
guardrail                 fires when                                  costs a model turn?
========================  ==========================================  ======================
``error_recovery``        a lookup returns a transient 503             no (harness retries)
``retry_nudge``           a lookup returns a permanent 400             yes (model re-calls)
``submit_nudge``          a turn ends in prose, nothing submitted      yes
``validation``            a submitted number differs from the total    yes
                          recomputed from this run's tool results
========================  ==========================================  ======================

Validation is a self-consistency check. With :math:`t` the item total and :math:`s` the
rate this run retrieved, it accepts a submission :math:`v` when :math:`|v - (t + s)| < 0.005`
and otherwise sends :math:`t` and :math:`s` back. It never sees the task's answer: a run that
fetched the wrong zone's rate and added correctly passes validation and fails the oracle.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

from .. import _validate
from ..i18n import N_, pgettext, translate
from ..numbers import words_for

__all__ = ["Guardrails", "Check", "validate", "GUARDRAILS", "NONE", "ALL"]

#: The guardrail names, in the order the figures list them.
GUARDRAILS = ("error_recovery", "retry_nudge", "submit_nudge", "validation")
#: The guardrails as a reader sees them (their names with spaces), marked for translation.
GUARDRAIL_NAMES = (N_("error recovery"), N_("retry nudge"), N_("submit nudge"),
                   N_("validation"))
words_for(dict(zip(GUARDRAILS, GUARDRAIL_NAMES)))   # what said() prints for each


@dataclass(frozen=True)
class Guardrails:
    """Which guardrails are on. ``recovery_retries`` bounds the harness's silent retries
    of one call (after them the 503 reaches the model as an ordinary tool result)."""

    error_recovery: bool = False
    retry_nudge: bool = False
    submit_nudge: bool = False
    validation: bool = False
    recovery_retries: int = 5

    def __post_init__(self):
        for name in GUARDRAILS:
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, got {getattr(self, name)!r}")
        object.__setattr__(self, "recovery_retries",
                           _validate.whole("recovery_retries", self.recovery_retries, minimum=0))

    @classmethod
    def only(cls, *names: str) -> "Guardrails":
        """Exactly the named guardrails switched on."""
        unknown = [n for n in names if n not in GUARDRAILS]
        if unknown:
            raise ValueError(f"guardrail names must be among {GUARDRAILS}, got {unknown}")
        return cls(**{n: True for n in names})

    @property
    def on(self) -> tuple[str, ...]:
        return tuple(n for n in GUARDRAILS if getattr(self, n))

    @property
    def label(self) -> str:
        return (" + ".join(translate(n.replace("_", " ")) for n in self.on)
                or pgettext("arm", "baseline"))


NONE = Guardrails()
ALL = Guardrails(True, True, True, True)


@dataclass(frozen=True)
class Check:
    """Validation's decision: ``accepted``, and why (``reason``), with the parts it used."""

    accepted: bool
    reason: str
    parts: tuple = ()

    def __post_init__(self):
        _validate.flag("accepted", self.accepted)
        _validate.text("reason", self.reason)
        _validate.sequence("parts", self.parts, of=numbers.Real, what="numbers")


def validate(submitted, retrieved: dict) -> Check:
    """Recompute the total from ``retrieved`` (this run's successful tool results, by tool
    name) and compare. The signature is the guarantee: nothing here can see the answer key.

    * nothing to compare against (no rate retrieved, or no order): accept, since guessing
      the evidence would turn a consistency check into a fabrication;
    * a non-numeric submission: accept, since it makes no claim about the total this check
      could recompute (a schema check is a different guardrail);
    * a number off the recomputed total: reject, sending back the parts.
    """
    if not isinstance(retrieved, dict):
        raise ValueError(f"retrieved must be a dict of tool results, got {retrieved!r}")
    order, rate = retrieved.get("get_order"), retrieved.get("get_ship_rate")
    if order is None or rate is None:
        return Check(True, "no evidence to recompute from")
    if isinstance(submitted, bool) or not isinstance(submitted, numbers.Real):
        return Check(True, "not a number: nothing to recompute")
    parts = (float(order["item_total_usd"]), float(rate["rate_usd"]))
    if abs(float(submitted) - sum(parts)) < 0.005:
        return Check(True, "consistent with the retrieved parts", parts)
    return Check(False, "differs from the retrieved parts", parts)
