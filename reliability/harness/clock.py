"""Clocks: the real one for production code, a manual one for tests and simulations."""

from __future__ import annotations

import time
from dataclasses import dataclass

__all__ = ["SystemClock", "ManualClock"]


class SystemClock:
    """Wall time from ``time.monotonic``; ``sleep`` really sleeps."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


@dataclass
class ManualClock:
    """A clock that moves only when told to: ``sleep`` and ``advance`` add to ``now``."""

    time: float = 0.0

    def now(self) -> float:
        return self.time

    def sleep(self, seconds: float) -> None:
        self.advance(seconds)

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError(f"seconds must be >= 0, got {seconds!r}")
        self.time += seconds
