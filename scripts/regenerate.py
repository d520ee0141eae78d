"""Regenerate the stored outputs of the chapters, on purpose: ``make outputs``.

    make outputs                                  # every chapter
    make outputs CHAPTER=chapters/01_chain_decay.ipynb

Each chapter runs with its default parameters, in its own folder, and is written back
with papermill's volatile metadata stripped, so a chapter whose numbers did not change
produces no diff.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))
from notebooks import chapters, execute, strip_volatile  # noqa: E402


def main(argv: list[str]) -> int:
    targets = [Path(a).resolve() for a in argv] or chapters()
    with tempfile.TemporaryDirectory() as tmp:
        for path in targets:
            print(f"executing {path.name} ...", flush=True)
            executed = execute(path, Path(tmp) / path.name)
            nbformat.write(strip_volatile(executed), str(path))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
