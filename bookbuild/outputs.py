"""Stage 1, the chapters' sources: regenerate the stored outputs of chapters, on purpose
(``make outputs``, which then runs the later stages: ``python -m bookbuild outputs``).

    make outputs                                  # every chapter, both editions
    make outputs CHAPTER=chapters/01_chain_decay.ipynb
    make outputs CHAPTER=ru/chapters/01_chain_decay.ipynb

Reads each chapter (``chapters/NN_name.ipynb`` or ``ru/chapters/NN_name.ipynb``), with
the package ``reliability/`` and ``data/`` it calls; writes the same file back, run with
its default parameters in its own folder, papermill's volatile metadata stripped, so a
chapter whose numbers did not change produces no diff.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import nbformat

from .run import ROOT, chapters, execute, strip_volatile


def run(targets: list[Path]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for path in targets:
            print(f"executing {path.relative_to(ROOT)} ...", flush=True)
            executed = execute(path, Path(tmp) / path.name)
            nbformat.write(strip_volatile(executed), str(path))


def main(argv: list[str]) -> int:
    """Run the chapters named in ``argv`` (every English chapter if none)."""
    run([Path(a).resolve() for a in argv] or chapters())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
