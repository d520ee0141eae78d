"""Run chapters at their default parameters and list every figure that is hard to read
on a phone (reliability.notebook.figure_problems): text under MIN_TEXT_PX (13) CSS px
when the figure is shrunk to PHONE_COLUMN_PX (358) px wide, text over text, text past
the figure's edge, a legend over the data.

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

from reliability.notebook import AUDIT_VARIABLE, MIN_TEXT_PX, PHONE_COLUMN_PX

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
    print(f"Figures shown {PHONE_COLUMN_PX} px wide (a 390-px phone): text at least "
          f"{MIN_TEXT_PX} px high, none over other text or past the figure's edge, "
          "no legend over the data.")
    for path in [Path(p) for p in paths] or chapters():
        lines = audit(path)
        bad = [line for line in lines if line["problems"]]
        print(f"{path.name}: {len(lines)} figures drawn, {len(bad)} with problems")
        # an animation's frames, or a figure drawn twice, are listed once
        seen: dict[tuple, int] = {}
        for line in bad:
            key = (line["title"], tuple(dict.fromkeys(line["problems"])))
            seen[key] = seen.get(key, 0) + 1
        for (title, problems), times in seen.items():
            found = True
            print(f"  {title or '(untitled)'}" + (f" ({times} times)" if times > 1 else ""))
            for problem in problems:
                print(f"    - {problem}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
