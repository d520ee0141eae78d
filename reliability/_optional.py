"""Optional dependencies, imported where they are needed, with the install that brings them.

The statistics install with numpy and scipy alone; tables (pandas) come with the extra
``book``. A function that returns a table says so when pandas is missing, rather than
failing with a bare ``No module named 'pandas'``."""

from __future__ import annotations


def pandas(needed_by: str):
    """The pandas module, or ModuleNotFoundError naming ``needed_by`` and the install."""
    try:
        import pandas as pd
    except ModuleNotFoundError as missing:
        raise ModuleNotFoundError(
            f"{needed_by} returns a pandas table, and pandas is not installed: "
            "pip install 'reliability[book]' (or pandas alone)", name="pandas") from missing
    return pd
