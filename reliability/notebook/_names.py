"""The ``name`` a stored output's element ids are derived from (tables, animations)."""

from __future__ import annotations

def _name(name) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"name must be a non-empty string (it makes the output's ids "
                         f"stable), got {name!r}")
    return name
