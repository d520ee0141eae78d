"""A gate in front of actions that cannot be undone.

An agent may draft, look up and propose as it likes; a refund paid, a record deleted or a
message sent stays done. Before such an action the harness asks for evidence that does not
come from a model: a dry run whose deterministic checks (schema, business rules) all
passed, or a named person's confirmation. A model judge's approval is recorded but never
releases the action by itself: a judge tends to be wrong on the same cases as the model it
judges, so it adds least exactly where it is needed most.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import _validate
from ..i18n import _

__all__ = ["DryRun", "GateDecision", "irreversible_gate"]


@dataclass(frozen=True)
class DryRun:
    """What a dry run of an action found: the deterministic checks it ran (at least one:
    a dry run that checked nothing is no evidence) and the problems they raised."""

    checks: tuple
    problems: tuple = ()

    def __post_init__(self):
        _validate.sequence("checks", self.checks, of=str, what="check names", minimum=1)
        _validate.sequence("problems", self.problems, of=str, what="problem descriptions")

    @property
    def passed(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class GateDecision:
    """Whether ``action`` may run, and the reason the gate gives."""

    action: str
    allowed: bool
    reason: str

    def __post_init__(self):
        _validate.text("action", self.action)
        _validate.flag("allowed", self.allowed)
        _validate.text("reason", self.reason)


def irreversible_gate(action: str, *, irreversible: bool, dry_run: DryRun | None = None,
                      confirmed_by: str | None = None,
                      judge_approved: bool | None = None) -> GateDecision:
    """Decide whether ``action`` may run.

    A reversible action always may. An irreversible one needs a dry run that passed or a
    confirmation by a named person (``confirmed_by``); a dry run that found problems stops
    it even if someone confirmed, because the confirmation was given without them in view.
    ``judge_approved`` (a model judge's verdict) is taken and reported, and never enough.

    Parameters
    ----------
    action : str
        What would run, named for the log.
    irreversible : bool
        Whether it can be undone.
    dry_run : DryRun or None
        What a dry run of it found.
    confirmed_by : str or None
        The person who confirmed it.
    judge_approved : bool or None
        A model judge's verdict.

    Returns
    -------
    GateDecision
        ``allowed`` and the ``reason``, in words.

    Examples
    --------
    >>> from reliability.harness import irreversible_gate
    >>> irreversible_gate("delete_user", irreversible=True).allowed
    False
    >>> irreversible_gate("delete_user", irreversible=True, confirmed_by="Ana").reason
    'confirmed by Ana'
    """
    _validate.text("action", action)
    _validate.flag("irreversible", irreversible)
    _validate.instance("dry_run", dry_run, DryRun, optional=True)
    if confirmed_by is not None and (not isinstance(confirmed_by, str)
                                     or not confirmed_by.strip()):
        raise ValueError(f"confirmed_by must be a person's name or None, got {confirmed_by!r}")
    if judge_approved is not None:
        _validate.flag("judge_approved", judge_approved)
    if not irreversible:
        return GateDecision(action, True, _("reversible: can be undone, no gate"))
    if dry_run is not None and not dry_run.passed:
        return GateDecision(action, False, _("dry run found: {problems}").format(
            problems="; ".join(dry_run.problems)))
    if dry_run is not None:
        return GateDecision(action, True, _("dry run passed: {checks}").format(
            checks=", ".join(dry_run.checks)))
    if confirmed_by is not None:
        return GateDecision(action, True, _("confirmed by {person}").format(person=confirmed_by))
    if judge_approved:
        return GateDecision(action, False, _("judge approval alone: not enough"))
    return GateDecision(action, False, _("no dry run, no confirmation"))
