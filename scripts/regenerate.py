"""Regenerate the stored outputs of the chapters, on purpose: ``make outputs``.

    make outputs                                  # every chapter, both editions
    make outputs CHAPTER=chapters/01_chain_decay.ipynb
    make outputs CHAPTER=ru/chapters/01_chain_decay.ipynb

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
import edition
from notebooks import ROOT, chapters, execute, strip_volatile


def run(targets: list[Path]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for path in targets:
            print(f"executing {path.relative_to(ROOT)} ...", flush=True)
            executed = execute(path, Path(tmp) / path.name)
            nbformat.write(strip_volatile(executed), str(path))


def main(argv: list[str]) -> int:
    if argv:
        run([Path(a).resolve() for a in argv])
        return 0
    # Every chapter: the English ones, then the Russian ones made from them (their code
    # is the English code with Russian words, so they are built after it and run again).
    run(chapters())
    if edition.build() != 0:
        return 1
    run([edition.EDITION / "chapters" / path.name for path in chapters()])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
