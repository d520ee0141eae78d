"""Argument checks for the figure modules' own inputs: the tables one function builds and
the next one draws, data frames with named columns, and arrays of a given length.

Each raises ``ValueError`` naming the parameter, like :mod:`reliability._validate`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axis import Axis
from matplotlib.figure import Figure

from .. import _validate


def figure(name: str, value):
    """A matplotlib Figure to draw on."""
    return _validate.instance(name, value, Figure)


def axis(name: str, value):
    """A matplotlib Axis (``ax.xaxis`` or ``ax.yaxis``)."""
    return _validate.instance(name, value, Axis)


def keyed(name: str, value, *, what: str, minimum: int = 1) -> dict:
    """A dict with at least ``minimum`` entries."""
    if not isinstance(value, dict) or len(value) < minimum:
        raise ValueError(f"{name} must be a dict of {what}"
                         f"{' (at least one)' if minimum else ''}, got {value!r}")
    return value


def of_kind(name: str, value, kind, *, what: str, minimum: int = 1) -> dict:
    """A dict whose values are all instances of ``kind`` (``None`` too if it is in
    ``kind``, given as a tuple holding ``type(None)``)."""
    keyed(name, value, what=what, minimum=minimum)
    if not all(isinstance(v, kind) and not isinstance(v, bool) for v in value.values()):
        raise ValueError(f"{name} must be a dict of {what}, got {value!r}")
    return value


def table(name: str, value, keys, *, what: str) -> dict:
    """A dict of rows, each a dict holding ``keys`` (what a table-building function returns,
    e.g. ``{label: dict(length=..., closed=...)}``)."""
    keyed(name, value, what=what)
    if not all(isinstance(row, dict) and set(keys) <= set(row) for row in value.values()):
        raise ValueError(f"{name} must be {what}: a dict whose entries each hold "
                         f"{', '.join(keys)}, got {value!r}")
    return value


def columns(name: str, value, keys, *, what: str = "dict") -> dict:
    """A single dict holding ``keys``."""
    if not isinstance(value, dict) or not set(keys) <= set(value):
        raise ValueError(f"{name} must be a {what} holding {', '.join(keys)}, got {value!r}")
    return value


def frame(name: str, value, needed=()) -> pd.DataFrame:
    """A pandas DataFrame with the ``needed`` columns."""
    if not isinstance(value, pd.DataFrame) or not set(needed) <= set(value.columns):
        has = f" with columns {', '.join(needed)}" if needed else ""
        raise ValueError(f"{name} must be a pandas DataFrame{has}, got {value!r}")
    return value


def array(name: str, values, *, kind: str = "real", minimum: float | None = None,
          length: int | None = None, per: str = "rows") -> np.ndarray:
    """A 1-d array (list, tuple, range or numpy array) of ``kind`` numbers, of ``length``
    entries if given; returned unchanged."""
    _validate.numeric_array(name, values, kind=kind, ndim=1, minimum=minimum)
    if length is not None and len(values) != length:
        raise ValueError(f"{name} must have {length} entries (one per {per}), "
                         f"got {len(values)}")
    return values


def probabilities(name: str, values, *, length: int | None = None, per: str = "rows"):
    """A 1-d array of numbers in [0, 1]; returned unchanged."""
    array(name, values, minimum=0.0, length=length, per=per)
    if np.any(np.asarray(values, dtype=float) > 1.0):
        raise ValueError(f"{name} must hold probabilities in [0, 1], got {values!r}")
    return values


def iterable(name: str, value, *, what: str):
    """Anything a ``for`` loop can walk except a string, a dict or a scalar."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise ValueError(f"{name} must be a list of {what}, got {value!r}")
    return value
