"""Clocks: the real one for production code, a manual one for tests and simulations."""

from __future__ import annotations

import math
import numbers
import time
from dataclasses import dataclass

__all__ = ["SystemClock", "ManualClock"]


def _is_number(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _seconds(seconds):
    if not _is_number(seconds) or not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"seconds must be a finite number >= 0, got {seconds!r}")
    return seconds


class SystemClock:
    """Wall time from ``time.monotonic``; ``sleep`` really sleeps."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        time.sleep(_seconds(seconds))


@dataclass
class ManualClock:
    """A clock that moves only when told to: ``sleep`` and ``advance`` add to ``now``."""

    time: float = 0.0

    def __post_init__(self):
        if not _is_number(self.time) or not math.isfinite(self.time):
            raise ValueError(f"time must be a finite number of seconds, got {self.time!r}")

    def now(self) -> float:
        return self.time

    def sleep(self, seconds: float) -> None:
        self.advance(seconds)

    def advance(self, seconds: float) -> None:
        self.time += _seconds(seconds)
