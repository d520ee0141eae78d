"""The stand-in agents of chapter 7, as fixtures: crafted, illustrative examples, not
measurements of any real agent.

:data:`BUDGET_AGENTS` holds four :func:`~reliability.harness.budget.fake_agent` settings,
each built to trip a different limit of the bank bot's budget; :data:`LOOP_SCRIPTS` holds
five :func:`~reliability.harness.budget.scripted_agent` scripts for the same bank task,
four of them loops of different kinds and one legitimate persistence. Both are read-only
mappings of label -> keyword arguments, so ``fake_agent(clock=clock, **settings)`` runs one.
"""

from __future__ import annotations

from types import MappingProxyType

from ..i18n import N_
from .loops import Move

__all__ = ["BUDGET_AGENTS", "LOOP_SCRIPTS", "LOOP_START"]


def _frozen(table: dict) -> MappingProxyType:
    return MappingProxyType({label: MappingProxyType(kw) for label, kw in table.items()})


#: Four illustrative agents: cost per call (USD), seconds per call, ``fail_every`` (that
#: many minus one of every that many calls fail) and ``finish_at`` (the step it is done).
BUDGET_AGENTS = _frozen({
    N_("loops on cheap, fast steps"): dict(cost_usd=0.002, seconds=2.0),
    N_("long context, pricey steps"): dict(cost_usd=0.012, seconds=3.0, finish_at=20),
    N_("slow provider (25 s a call)"): dict(cost_usd=0.001, seconds=25.0, finish_at=30),
    N_("flaky provider (2 of 3 fail)"): dict(cost_usd=0.001, seconds=1.0, fail_every=3,
                                             finish_at=20),
})

#: The state every scripted agent starts from: the bot can see only the balance.
LOOP_START = "balance only"

_STUBBORN = (Move("kb_search", ("refund fee",), LOOP_START),)
_FOUND_IT = (Move("kb_search", ("commission refund",), "fee rule found"),
             Move("file_refund", ("900.00",), "refund filed"))
_FORM = (Move("open_form", ("refund",), N_("form open")),
         Move("close_form", ("refund",), N_("form closed")))
_NEW_TOOLS = tuple(Move(tool, args, LOOP_START) for tool, args in (
    ("account", ("42",)), ("history", ("42",)), ("tariffs", ("2023",)), ("faq", ("fee",)),
    ("account", ("43",)), ("history", ("43",)), ("tariffs", ("2024",)),
    ("faq", ("commission",))))
_REPHRASES = (Move("kb_search", ("refund fee",), "1 article"),
              Move("kb_search", ("commission refund",), "2 articles"),
              Move("kb_search", ("fee returned March",), "fee rule found"),
              Move("file_refund", ("900.00",), "refund filed"))

#: Five illustrative scripted agents in the bank task: ``script``, and ``after_hint``
#: (what it does once hinted) and ``finishes`` where they apply.
LOOP_SCRIPTS = _frozen({
    N_("asks for one document again and again"): dict(script=_STUBBORN),
    N_("repeats, then takes the hint"): dict(script=_STUBBORN * 3, finishes=True,
                                             after_hint=_FOUND_IT),
    N_("opens and closes one form"): dict(script=_FORM * 6),
    N_("tries new tools, learns nothing"): dict(script=_NEW_TOOLS),
    N_("rephrases and finds (legitimate)"): dict(script=_REPHRASES, finishes=True),
})
