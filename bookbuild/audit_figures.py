"""Run chapters at their default parameters and list every figure that is hard to read
on a phone (text too small at 360 px wide, or text overlapping text).

    python -m bookbuild audit                      # every chapter
    python -m bookbuild audit chapters/04_pass_k.ipynb

Exit status 1 if any figure has a problem. The tests run the same check at the ends of
every chapter's parameter ranges (tests/test_notebooks.py). Reads the chapters; writes
nothing (each runs into a temporary folder).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from reliability.notebook import AUDIT_VARIABLE

from .run import chapters, execute


def audit(path: Path, parameters: dict | None = None) -> list[dict]:
    """The audit lines (title, problems) of every figure ``path`` draws."""
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "figures.jsonl"
        log.touch()
        execute(path, Path(folder) / path.name, parameters,
                environment={AUDIT_VARIABLE: str(log)})
        return [json.loads(line) for line in log.read_text().splitlines()]


def main(paths: list[str]) -> int:
    found = False
    for path in [Path(p) for p in paths] or chapters():
        lines = audit(path)
        bad = [line for line in lines if line["problems"]]
        print(f"{path.name}: {len(lines)} figures drawn, {len(bad)} with problems")
        for line in bad:
            found = True
            print(f"  {line['title'] or '(untitled)'}")
            for problem in dict.fromkeys(line["problems"]):
                print(f"    - {problem}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
