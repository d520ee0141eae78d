"""Argument checks shared by every public function.

Each check raises ``ValueError`` naming the parameter and the range it accepts, so a
reader who passes ``error=1.2`` learns what to change instead of meeting a NaN later.
"""

from __future__ import annotations

import math
import numbers

import numpy as np


def probability(name: str, value) -> float:
    """Return ``value`` as a float in [0, 1], or raise naming ``name``."""
    if not _is_real(value):
        raise ValueError(f"{name} must be a probability in [0, 1], got {value!r}")
    value = float(value)
    if math.isnan(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be a probability in [0, 1], got {value!r}")
    return value


def open_probability(name: str, value, *, example: str = "0.95") -> float:
    """Return ``value`` as a float strictly inside (0, 1), or raise naming ``name``."""
    if not _is_real(value) or math.isnan(float(value)) or not 0.0 < float(value) < 1.0:
        raise ValueError(
            f"{name} must lie strictly between 0 and 1 (e.g. {example}), got {value!r}")
    return float(value)


def _is_real(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def whole(name: str, value, *, minimum: int = 1, maximum: int | None = None) -> int:
    """Return ``value`` as an int >= ``minimum`` (and <= ``maximum``), or raise."""
    allowed = f"a whole number >= {minimum}" if maximum is None else (
        f"a whole number in [{minimum}, {maximum}]")
    if not _is_real(value):
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    if isinstance(value, numbers.Integral):
        number = int(value)
    else:
        as_float = float(value)
        if not math.isfinite(as_float) or not as_float.is_integer():
            raise ValueError(f"{name} must be {allowed}, got {value!r}")
        number = int(as_float)
    if number < minimum or (maximum is not None and number > maximum):
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    return number


def confidence(value) -> float:
    """Return a confidence level strictly inside (0, 1), or raise."""
    return open_probability("confidence", value, example="0.95")


def whole_array(name: str, values, *, minimum: int = 0) -> np.ndarray:
    """Return ``values`` as an int64 array of whole numbers >= ``minimum``, or raise."""
    array = np.asarray(values)
    if array.dtype == bool or not (np.issubdtype(array.dtype, np.integer)
                                   or np.issubdtype(array.dtype, np.floating)):
        raise ValueError(f"{name} must hold whole numbers >= {minimum}, got {values!r}")
    if np.issubdtype(array.dtype, np.floating):
        if not np.all(np.isfinite(array)) or not np.all(array == np.round(array)):
            raise ValueError(f"{name} must hold whole numbers >= {minimum}, got {values!r}")
    array = array.astype(np.int64)
    if np.any(array < minimum):
        raise ValueError(f"{name} must hold whole numbers >= {minimum}, got {values!r}")
    return array


def probability_array(name: str, values) -> np.ndarray:
    """Return ``values`` as a float array inside [0, 1], or raise."""
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must hold probabilities in [0, 1], got {values!r}") from None
    if np.any(np.isnan(array)) or np.any((array < 0) | (array > 1)):
        raise ValueError(f"{name} must hold probabilities in [0, 1], got {values!r}")
    return array


def generator(seed) -> np.random.Generator:
    """A ``numpy.random.Generator`` from a whole-number seed >= 0, or the generator itself.

    Every seeded function in the package takes its ``seed`` through here, so an int and a
    Generator are accepted everywhere and a bad seed is refused with the same message.
    """
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(whole("seed", seed, minimum=0))


def seed_integer(seed) -> int:
    """A whole-number seed >= 0; a Generator is turned into one by a single draw.

    For code that derives many paired streams from one seed (``SeedSequence([seed, i])``).
    """
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(0, 2**63))
    return whole("seed", seed, minimum=0)
