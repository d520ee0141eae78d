"""The code's lint: ruff with pyproject.toml's rules over every Python file of the
project (the package, the scripts, the book's extensions, the tests, the benchmarks),
as `.venv/bin/ruff check` runs it. A planted undefined name shows the check can fail."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from bookbuild.run import ROOT

RUFF = Path(sys.executable).with_name("ruff")


def _ruff(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(RUFF), "check", "--no-cache", "--output-format", "concise",
                           "."], cwd=folder, capture_output=True, text=True)


def test_the_code_passes_its_lint():
    ran = _ruff(ROOT)
    assert ran.returncode == 0, ran.stdout[-4000:] + ran.stderr[-2000:]


def test_the_lint_finds_an_undefined_name_and_a_stale_noqa(tmp_path):
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    (tmp_path / "planted.py").write_text(
        "def table(rows) -> pd.DataFrame:  # noqa: N802\n    return rows\n")
    ran = _ruff(tmp_path)
    assert ran.returncode != 0
    assert "F821" in ran.stdout and "RUF100" in ran.stdout, ran.stdout
