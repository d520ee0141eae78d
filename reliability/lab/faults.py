r"""Fault injectors on the lab's lookup tools: seeded, disclosed, and nothing else.

* :class:`TransientFaults`: every call attempt independently returns a 503 with
  probability :math:`r`, whatever its arguments. A retry is a fresh draw, so a call retried
  :math:`A` more times still fails with probability :math:`r^{A+1}`.
* :class:`MalformedFaults`: with probability :math:`m` per run and per tool, the tool stops
  accepting its documented argument name and answers a 400 whose message names the one it
  wants. The fault is permanent (a plain retry repeats it) and sticky: only a call that
  uses the hinted name clears it.

Both draw from a ``numpy.random.Generator`` handed in by the harness, one stream per run,
so the same seed injects the same faults in every arm of an ablation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate
from .task import ORDER_KEY, ZONE_KEY, ToolResult

__all__ = ["TransientFaults", "MalformedFaults", "LOOKUPS", "HINTED_KEY"]

#: The lookup tools and the argument name each documents.
LOOKUPS = {"get_order": ORDER_KEY, "get_ship_rate": ZONE_KEY}
#: The name an armed malformed-call fault insists on instead.
HINTED_KEY = "id"
#: Every transient fault's reply (a frozen result, so one object serves every strike).
_UNAVAILABLE = ToolResult(503, error="503 Service Unavailable (transient; retry later)")


@dataclass(frozen=True)
class TransientFaults:
    """A 503 on each call attempt with probability ``rate``."""

    rate: float = 0.0

    def __post_init__(self):
        object.__setattr__(self, "rate", _validate.probability("fault_rate", self.rate))

    def strike(self, rng: np.random.Generator) -> ToolResult | None:
        """The 503 for this attempt, or ``None`` when the call goes through."""
        _validate.instance("rng", rng, np.random.Generator)
        if self.rate > 0 and rng.random() < self.rate:
            return _UNAVAILABLE
        return None


@dataclass(frozen=True)
class MalformedFaults:
    """Per run and tool, with probability ``rate``: reject the documented argument name."""

    rate: float = 0.0

    def __post_init__(self):
        object.__setattr__(self, "rate", _validate.probability("malformed_rate", self.rate))

    def arm(self, rng: np.random.Generator) -> dict[str, str]:
        """The argument name each lookup tool accepts in this run (drawn once per run)."""
        _validate.instance("rng", rng, np.random.Generator)
        draws = rng.random(len(LOOKUPS))
        return {tool: (HINTED_KEY if self.rate > 0 and u < self.rate else key)
                for (tool, key), u in zip(LOOKUPS.items(), draws)}


def check_arguments(tool: str, args: dict, accepted: str) -> ToolResult | None:
    """A 400 naming the accepted argument when ``args`` lacks it, else ``None``.

    The message carries the hint an agent needs to repair its own call, and nothing more.
    """
    if accepted in args:
        return None
    wrong = ", ".join(repr(k) for k in args) or "no arguments"
    return ToolResult(400, error=f"400 Bad Request: {tool} got {wrong}; use {accepted!r} instead")
