"""Argument checks shared by every public function.

Each check raises ``ValueError`` naming the parameter and the range it accepts, so a
reader who passes ``error=1.2`` learns what to change instead of meeting a NaN later.
"""

from __future__ import annotations

import math
import numbers

import numpy as np


#: Most cells (runs x steps x attempts, ...) a simulation may draw or hold in one call:
#: about a second per ten million, and under a gigabyte where the cells are held at once.
MAX_CELLS = 10**8

#: Most iterations of a step-by-step Python loop (a recursion over steps or rounds).
MAX_LOOP = 10**7


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
    # Plain ints and floats first: the lab checks millions of them, and the ABC check
    # below costs ten times as much.
    kind = type(value)
    if kind is int or kind is float:
        return True
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def whole(name: str, value, *, minimum: int = 1, maximum: int | None = None) -> int:
    """Return ``value`` as an int >= ``minimum`` (and <= ``maximum``), or raise."""
    if type(value) is int and value >= minimum and (maximum is None or value <= maximum):
        return value
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


def _rectangular(values):
    """``np.asarray(values)``, or ``None`` for ragged nesting (rows of different lengths),
    which numpy refuses with its own shape message."""
    try:
        return np.asarray(values)
    except (ValueError, TypeError):
        return None


def whole_array(name: str, values, *, minimum: int = 0) -> np.ndarray:
    """Return ``values`` as an int64 array of whole numbers >= ``minimum``, or raise."""
    array = _rectangular(values) if values is not None else np.asarray("")
    if array is None:
        raise ValueError(f"{name} must hold whole numbers >= {minimum} in one flat or "
                         f"rectangular array (rows of one length), got {values!r}")
    if array.dtype == bool or not (np.issubdtype(array.dtype, np.integer)
                                   or np.issubdtype(array.dtype, np.floating)):
        raise ValueError(f"{name} must hold whole numbers >= {minimum}, got {values!r}")
    if np.issubdtype(array.dtype, np.floating):
        if (not np.all(np.isfinite(array)) or not np.all(array == np.round(array))
                or np.any(np.abs(array) > 2.0 ** 62)):
            raise ValueError(f"{name} must hold whole numbers >= {minimum}, got {values!r}")
    array = array.astype(np.int64)
    if np.any(array < minimum):
        raise ValueError(f"{name} must hold whole numbers >= {minimum}, got {values!r}")
    return array


def probability_array(name: str, values) -> np.ndarray:
    """Return ``values`` as a float array inside [0, 1], or raise."""
    raw = _rectangular(values) if not isinstance(values, (str, bytes)) else None
    if raw is None or raw.dtype == bool or not (np.issubdtype(raw.dtype, np.integer)
                                                or np.issubdtype(raw.dtype, np.floating)):
        raise ValueError(f"{name} must hold probabilities in [0, 1], got {values!r}")
    array = raw.astype(float)
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


# --- kinds other than probabilities and counts ---------------------------------------------

def real(name: str, value, *, minimum: float = -math.inf, maximum: float = math.inf,
         above: float | None = None, finite: bool = True) -> float:
    """Return ``value`` as a float in [minimum, maximum] (> ``above`` if given), or raise.

    Infinities are refused unless ``finite=False``; NaN, strings, booleans and ``None`` always.
    """
    low = f"> {above:g}" if above is not None else (
        f">= {minimum:g}" if minimum > -math.inf else "")
    high = f"<= {maximum:g}" if maximum < math.inf else ""
    bounds = " and ".join(b for b in (low, high) if b)
    allowed = ("a finite number" if finite else "a number") + (f" {bounds}" if bounds else "")
    if not _is_real(value):
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    number = float(value)
    if (math.isnan(number) or (finite and math.isinf(number)) or number < minimum
            or number > maximum or (above is not None and number <= above)):
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    return number


def flag(name: str, value) -> bool:
    """Return ``value`` if it is ``True`` or ``False`` (numpy's too), or raise."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def text(name: str, value, *, choices=None, optional: bool = False):
    """Return ``value`` if it is a string (one of ``choices`` if given; ``None`` if
    ``optional``), or raise."""
    if type(value) is str and choices is None:
        return value
    if value is None and optional:
        return None
    if not isinstance(value, str) or (choices is not None and value not in choices):
        allowed = f"one of {tuple(choices)}" if choices is not None else "a string"
        if optional:
            allowed += " or None"
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    return value


def instance(name: str, value, kind, *, optional: bool = False):
    """Return ``value`` if it is an instance of ``kind`` (or ``None`` if ``optional``)."""
    if value is None and optional:
        return None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise ValueError(f"{name} must be a {names}{' or None' if optional else ''}, "
                         f"got {value!r}")
    return value


def function(name: str, value, *, optional: bool = False):
    """Return ``value`` if it is callable (and not a class standing in for data)."""
    if value is None and optional:
        return None
    if not callable(value) or isinstance(value, type):
        raise ValueError(f"{name} must be a function{' or None' if optional else ''}, "
                         f"got {value!r}")
    return value


def sequence(name: str, value, *, of=None, what: str = "items", minimum: int = 0) -> tuple:
    """Return ``value`` as a tuple if it is a list or tuple (of ``of`` instances if given)
    with at least ``minimum`` entries, or raise. Strings are not sequences here."""
    allowed = f"a list or tuple of {what}" + (f" (at least {minimum})" if minimum else "")
    if not isinstance(value, (list, tuple)) or len(value) < minimum:
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    if of is not None and not all(isinstance(v, of) and not isinstance(v, bool) or
                                  (of is bool and isinstance(v, bool)) for v in value):
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    return tuple(value)


def mapping(name: str, value, *, what: str = "entries") -> dict:
    """Return ``value`` if it is a dict, or raise."""
    if not isinstance(value, dict):
        raise ValueError(f"{name} must be a dict of {what}, got {value!r}")
    return value


def clock(name: str, value, *, sleeps: bool = False):
    """Return ``value`` if it has ``now()`` (and ``sleep(seconds)`` if ``sleeps``)."""
    needed = ("now", "sleep") if sleeps else ("now",)
    if not all(callable(getattr(value, m, None)) for m in needed) or isinstance(value, type):
        raise ValueError(f"{name} must be a clock with {' and '.join(needed)}(), got {value!r}")
    return value


def numeric_array(name: str, values, *, kind: str = "real", ndim: int | None = None,
                  minimum: float | None = None) -> np.ndarray:
    """Check that ``values`` is an array of ``kind`` (``real``: finite numbers, ``whole``:
    whole numbers, ``bool``: booleans) with ``ndim`` dimensions; return it unchanged."""
    what = {"real": "finite numbers", "whole": "whole numbers", "bool": "booleans"}[kind]
    if minimum is not None:
        what += f" >= {minimum:g}"
    shape = f"a {ndim}-d array of " if ndim is not None else "an array of "
    if isinstance(values, (str, bytes)) or values is None:
        raise ValueError(f"{name} must be {shape}{what}, got {values!r}")
    array = _rectangular(values)
    if array is None:
        raise ValueError(f"{name} must be {shape}{what} (rows of one length), "
                         f"got {values!r}")
    ok = (array.dtype == bool) if kind == "bool" else (
        array.dtype != bool and (np.issubdtype(array.dtype, np.integer)
                                 or np.issubdtype(array.dtype, np.floating)))
    if ok and kind != "bool":
        # integers are finite and whole already: only floats need looking at
        if np.issubdtype(array.dtype, np.floating):
            ok = bool(np.all(np.isfinite(array)))
            if ok and kind == "whole":
                ok = bool(np.all(array == np.round(array)))
        if ok and minimum is not None and array.size:
            ok = bool(array.min() >= minimum)
    if not ok or (ndim is not None and array.ndim != ndim):
        raise ValueError(f"{name} must be {shape}{what}, got {values!r}")
    return values


def size(name: str, value, *, limit: int) -> int:
    """Refuse a workload ``value`` (e.g. runs x steps) above ``limit`` before it is
    allocated: it would hang or exhaust memory."""
    if value > limit:
        raise ValueError(f"{name} must be at most {limit:,} (larger sizes would exhaust "
                         f"memory or time), got {value:,}")
    return value


def seed(value):
    """Check a seed (a whole number >= 0 or a Generator) and return it unchanged, for
    functions that hand it on: a Generator must keep being drawn from where it is."""
    if not isinstance(value, np.random.Generator):
        whole("seed", value, minimum=0)
    return value


def broadcast(names: str, *arrays) -> None:
    """Refuse arrays that do not broadcast together, naming them (``"successes and trials"``)."""
    try:
        np.broadcast_shapes(*(np.shape(a) for a in arrays))
    except ValueError:
        raise ValueError(f"{names} must have matching lengths (shapes that broadcast), got "
                         f"shapes {', '.join(str(np.shape(a)) for a in arrays)}") from None
