"""The build's one entry point, which the Makefile calls:
``python -m bookbuild COMMAND``, COMMAND one of

    book [--out DIR] [--no-pdf]   stages 5 and 6: the site of both editions and their
                                  PDFs (make book)
    notebooks                     stages 2 to 4: the Russian book, the launch notebooks,
                                  the teacher pages (make notebooks)
    outputs [CHAPTER ...]         stage 1, then 2 to 4: the stored outputs of the
                                  chapters named (every chapter of both editions if
                                  none) (make outputs)
    pins                          re-resolve the pinned environments (make pins)
    status                        what the Russian catalogs lack (untranslated or
                                  outdated entries)
    update                        refresh the catalogs after the English pages changed
    edition                       the Russian book in ru/ from the catalogs
    grade | rerun | audit ARGS    grade homework, re-run a chapter with other
                                  parameters, list the figures that are hard to read
                                  on a phone

Each command's modules are imported when it runs, so ``pins`` needs no more than the
standard library.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def notebooks() -> int:
    """Stages 2 to 4, in the order data flows."""
    from . import edition, hub_links, launch_notebooks, teacher_page

    for step in (edition.build, lambda: launch_notebooks.main([]), teacher_page.main,
                 lambda: hub_links.main([])):
        if step() != 0:
            return 1
    return 0


def outputs(chapters: list[str]) -> int:
    """Stage 1 for ``chapters`` (every English chapter, then the Russian ones made from
    them, if none), then stages 2 to 4."""
    from . import edition, outputs as stored

    if chapters:
        stored.main(chapters)
    else:
        # the Russian chapters' code is the English code with Russian words: they are
        # written from it, then run again
        stored.main([])
        if edition.build() != 0:
            return 1
        stored.run([edition.EDITION / "chapters" / path.name
                    for path in stored.chapters()])
    return notebooks()


def main(argv: list[str]) -> int:
    command, rest = (argv[0], argv[1:]) if argv else ("", [])
    if command == "book":
        from . import site
        return site.main(rest)
    if command == "notebooks":
        return notebooks()
    if command == "outputs":
        return outputs(rest)
    if command == "pins":
        return subprocess.call(["bash", str(ROOT / "scripts" / "pin_environments.sh")])
    if command in ("status", "update"):
        from . import catalogs
        return catalogs.main([command])
    if command == "edition":
        from . import edition
        return edition.build()
    if command in ("grade", "rerun", "audit"):
        module = {"grade": "grade", "rerun": "rerun", "audit": "audit_figures"}[command]
        return importlib.import_module(f".{module}", __package__).main(rest)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
