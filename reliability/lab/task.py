r"""The lab's task: look an order up, look its zone's shipping rate up, add, submit.

Two lookup tools and one terminal tool, all pure functions of the task record:

* ``get_order(order_id)`` returns the order's item total and shipping zone;
* ``get_ship_rate(zone)`` returns that zone's shipping rate;
* ``submit_answer(value)`` ends the run with a claimed total.

The right answer is :math:`\text{item total} + \text{rate}(\text{zone})`, with the defaults
:math:`140 + 18 = 158`. The :func:`oracle` grades a submission against that number and
nothing else: a deterministic comparison, never a model acting as judge.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np

from .. import _validate

__all__ = ["Task", "ToolResult", "ORDER_KEY", "ZONE_KEY", "oracle", "make_cases"]

#: The argument names the tools document; a call that uses another name is malformed.
ORDER_KEY = "order_id"
ZONE_KEY = "zone"


@dataclass(frozen=True)
class ToolResult:
    """What a tool call returned: HTTP-like ``status`` (200, 400, 503), data or an error.

    ``transient`` marks an error that a plain retry can clear (a 503); a 400 is permanent:
    repeating the same call repeats the error.
    """

    status: int
    data: dict | None = None
    error: str | None = None

    def __post_init__(self):
        _validate.whole("status", self.status, minimum=100, maximum=599)
        if self.data is not None:
            _validate.mapping("data", self.data, what="fields")
        _validate.text("error", self.error, optional=True)

    @property
    def ok(self) -> bool:
        return self.status == 200

    @property
    def transient(self) -> bool:
        return self.status == 503


@dataclass(frozen=True)
class Task:
    """One order to price. ``rates`` maps every zone to its shipping rate; the order's own
    zone must be among them, and the other zones are the records a careless agent fetches."""

    order_id: str = "A-1001"
    item_total: float = 140.0
    zone: str = "B"
    rates: dict = field(default_factory=lambda: {"A": 12.0, "B": 18.0, "C": 25.0})

    def __post_init__(self):
        _validate.text("order_id", self.order_id)
        if not isinstance(self.item_total, numbers.Real) or isinstance(self.item_total, bool) \
                or not math.isfinite(self.item_total) or self.item_total < 0:
            raise ValueError(f"item_total must be a finite number >= 0, got {self.item_total!r}")
        if not isinstance(self.rates, dict) or len(self.rates) < 2:
            raise ValueError(f"rates must be a dict of at least two zones, got {self.rates!r}")
        for zone, rate in self.rates.items():
            _validate.text("rates' zones", zone)
            _validate.real(f"rates[{zone!r}]", rate, minimum=0.0)
        if not isinstance(self.zone, str) or self.zone not in self.rates:
            raise ValueError(f"zone must be one of {sorted(self.rates)}, got {self.zone!r}")
        object.__setattr__(self, "item_total", float(self.item_total))
        object.__setattr__(self, "rates", {z: float(r) for z, r in self.rates.items()})

    @property
    def answer(self) -> float:
        """The ground truth, ``item_total + rates[zone]``. Only the oracle reads it."""
        return self.item_total + self.rates[self.zone]

    @property
    def wrong_zone(self) -> str:
        """The record a wrong-record lookup fetches: the first zone that is not the order's."""
        return next(z for z in sorted(self.rates) if z != self.zone)

    # The tools. Each takes the call's argument dict, so a malformed call can be expressed.
    def get_order(self, args: dict) -> ToolResult:
        _validate.mapping("args", args, what="argument names to values")
        if args.get(ORDER_KEY) != self.order_id:
            return ToolResult(404, error=f"no order {args.get(ORDER_KEY)!r}")
        return ToolResult(200, {"item_total_usd": self.item_total, "zone": self.zone})

    def get_ship_rate(self, args: dict) -> ToolResult:
        _validate.mapping("args", args, what="argument names to values")
        zone = args.get(ZONE_KEY)
        if zone not in self.rates:
            return ToolResult(404, error=f"no zone {zone!r}")
        return ToolResult(200, {"zone": zone, "rate_usd": self.rates[zone]})


def oracle(task: Task, submitted) -> bool:
    """PASS when ``submitted`` is a number within one cent of ``task.answer``.

    Anything else fails: no submission (``None``), a string, a bool, NaN.
    """
    if not isinstance(task, Task):
        raise ValueError(f"task must be a Task, got {task!r}")
    if isinstance(submitted, bool) or not isinstance(submitted, numbers.Real):
        return False
    return bool(math.isfinite(submitted) and abs(float(submitted) - task.answer) < 0.005)


def make_cases(cases: int, seed=0) -> tuple[Task, ...]:
    """``cases`` orders with different totals and rates, for measuring pass^k on a set.

    Item totals are whole dollars in [40, 300]; each case has three zones with distinct
    whole-dollar rates in [5, 40], one of them the order's.
    """
    cases = _validate.whole("cases", cases, minimum=1, maximum=1_000_000)
    rng = _validate.generator(seed)
    totals = rng.integers(40, 301, size=cases)
    zone_index = rng.integers(0, 3, size=cases)
    tasks = []
    for i in range(cases):
        rates = rng.choice(np.arange(5, 41), size=3, replace=False)
        zones = dict(zip("ABC", (float(r) for r in rates)))
        tasks.append(Task(order_id=f"C-{i + 1:03d}", item_total=float(totals[i]),
                          zone="ABC"[int(zone_index[i])], rates=zones))
    return tuple(tasks)
