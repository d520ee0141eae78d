"""Every published number in data/ carries its source: paper, locator, kind and confidence."""

from pathlib import Path

import pandas as pd
import pytest

DATA = Path(__file__).resolve().parent.parent / "data"
TABLES = sorted(DATA.glob("*.csv"))
REQUIRED = ("paper", "where", "value", "source_kind", "confidence")


def test_there_are_tables():
    assert len(TABLES) >= 10


@pytest.mark.parametrize("path", TABLES, ids=[p.stem for p in TABLES])
def test_every_row_names_its_source(path):
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in REQUIRED if c not in table.columns]
    assert not missing, f"{path.name} lacks columns {missing}"
    for column in REQUIRED:
        empty = table.index[table[column].str.strip() == ""].tolist()
        assert not empty, f"{path.name}: rows {empty} have no {column}"
    assert table["source_kind"].str.contains("primary|secondary|lesson").all(), \
        f"{path.name}: source_kind must say primary, secondary or lesson"


@pytest.mark.parametrize("path", TABLES, ids=[p.stem for p in TABLES])
def test_arxiv_ids_are_well_formed(path):
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    if "arxiv" in table.columns:
        ids = table["arxiv"].str.strip()
        assert ids[ids != ""].str.fullmatch(r"\d{4}\.\d{4,5}").all(), path.name
