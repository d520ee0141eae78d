r"""Loop detection: three signs that an agent is going round in circles, answered in two
stages.

A trace is a sequence of :class:`Move` (the tool called, its arguments, and a fingerprint of
the task's state after the call). The three signs, checked on the part of the trace being
watched:

* **repeat**: one tool with one set of arguments appears :math:`N` times;
* **no progress**: the state is the same for the last :math:`K` steps, i.e. the last
  :math:`K + 1` states (counting the one before the first of those steps) are equal;
* **oscillation**: the last :math:`2C` moves alternate between two different calls,
  :math:`m_{t} = m_{t-2}`, :math:`m_{t-1} = m_{t-3}`, ..., :math:`m_t \ne m_{t-1}`
  (A→B→A→B for :math:`C = 2`).

A loop and legitimate persistence look alike from outside, so the answer comes in two
stages: the first sign earns a hint ("this path is not working, try another") and the
watch restarts from that step; a sign in the steps after the hint means the hint did not
help, and the run is stopped. A retry that rephrases its query (new arguments) and learns
something (new state) shows none of the signs.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import _validate
from ..i18n import N_, NP_
from ..numbers import words_for

__all__ = ["Move", "LoopDetector", "Verdict", "SIGNS", "HINT"]

#: The three signs, as :meth:`LoopDetector.sign` names them.
SIGNS = (N_("repeat"), N_("no_progress"), N_("oscillation"))

#: What the agent is told at the first sign.
HINT = N_("This path is not working: try a different tool or different arguments.")

# The detector's actions as a printed line says them (reliability.numbers.said).
words_for({"continue": NP_("loop action", "continue"),
           "hint": NP_("loop action", "hint"),
           "stop": NP_("loop action", "stop")}, context="loop action")


@dataclass(frozen=True)
class Move:
    """One step of a trace: the call made and the state it left behind.

    ``args`` and ``state`` must be comparable with ``==`` (tuples, strings, frozensets, a
    hash of the real state). A tool that is legitimately called again with the same
    arguments, such as a status poll, should carry what changes (a cursor, an attempt
    number) in ``args`` or show its progress in ``state``.
    """

    tool: str
    args: tuple = ()
    state: object = None

    def __post_init__(self):
        _validate.text("tool", self.tool)
        _validate.instance("args", self.args, tuple)

    @property
    def call(self) -> tuple:
        return (self.tool, self.args)


@dataclass(frozen=True)
class Verdict:
    """What to do after the latest step: ``"continue"``, ``"hint"`` or ``"stop"``, and the
    sign that prompted it (``None`` when continuing)."""

    action: str
    sign: str | None = None

    def __post_init__(self):
        _validate.text("action", self.action, choices=("continue", "hint", "stop"))
        _validate.text("sign", self.sign, choices=SIGNS, optional=True)


@dataclass(frozen=True)
class LoopDetector:
    """The three signs with their thresholds.

    repeats : N, how many identical calls make a repeat (>= 2).
    stall : K, how many steps without a change of state make no progress (>= 1).
    cycles : C, how many A→B rounds make an oscillation (>= 2).
    """

    repeats: int = 3
    stall: int = 4
    cycles: int = 2

    def __post_init__(self):
        object.__setattr__(self, "repeats", _validate.whole("repeats", self.repeats, minimum=2))
        object.__setattr__(self, "stall", _validate.whole("stall", self.stall, minimum=1))
        object.__setattr__(self, "cycles", _validate.whole("cycles", self.cycles, minimum=2))

    def sign(self, moves, before=None) -> str | None:
        """The first sign (in the order of :data:`SIGNS`) shown by ``moves``, or ``None``.

        ``before`` is the state before the first move, if known; without it the first
        move's state is the earliest one compared.
        """
        moves = _moves(moves)
        if not moves:
            return None
        calls = [m.call for m in moves]
        if max(calls.count(c) for c in set(calls)) >= self.repeats:
            return "repeat"
        states = ([] if before is None else [before]) + [m.state for m in moves]
        tail = states[-(self.stall + 1):]
        if len(tail) == self.stall + 1 and all(s == tail[0] for s in tail):
            return "no_progress"
        span = calls[-2 * self.cycles:]
        if (len(span) == 2 * self.cycles and span[0] != span[1]
                and all(span[i] == span[i % 2] for i in range(len(span)))):
            return "oscillation"
        return None

    def respond(self, moves, *, hinted_at: int | None = None, before=None) -> Verdict:
        """Two-stage answer to the trace so far.

        Before any hint the whole trace is watched and a sign earns ``"hint"``. Once a hint
        was given after move ``hinted_at`` (the trace's length then), only the moves after
        it are watched, starting from the state the hint found, and a sign means
        ``"stop"``.
        """
        moves = _moves(moves)
        if hinted_at is None:
            found = self.sign(moves, before)
            return Verdict("hint", found) if found else Verdict("continue")
        hinted_at = _validate.whole("hinted_at", hinted_at, minimum=0, maximum=len(moves))
        start = moves[hinted_at - 1].state if hinted_at > 0 else before
        found = self.sign(moves[hinted_at:], start)
        return Verdict("stop", found) if found else Verdict("continue")

    def scan(self, moves, before=None) -> tuple[Verdict, ...]:
        """The verdict after each move of a finished trace, as a runner would have seen it
        (one hint at most; nothing is watched after a stop)."""
        moves = _moves(moves)
        verdicts, hinted_at = [], None
        for t in range(1, len(moves) + 1):
            verdict = self.respond(moves[:t], hinted_at=hinted_at, before=before)
            verdicts.append(verdict)
            if verdict.action == "hint":
                hinted_at = t
            elif verdict.action == "stop":
                break
        return tuple(verdicts)


def _moves(moves) -> list:
    if not isinstance(moves, (list, tuple)):
        raise ValueError(f"moves must be a list or tuple of Move objects, got {moves!r}")
    moves = list(moves)
    for i, m in enumerate(moves):
        if not isinstance(m, Move):
            raise ValueError(f"moves must hold Move objects, got {m!r} at position {i}")
    return moves
