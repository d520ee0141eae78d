"""Build both editions of the book from the stored outputs, and print each to a PDF.

    .venv/bin/python scripts/build_book.py [--out DIR] [--no-pdf]

The English book is built from the repository's root into ``DIR/_build/html`` (``DIR``
is the repository itself by default, as ``make book`` wants), the Russian one from
``ru/`` into ``DIR/_build/html/ru``: one site, the Russian book at its ``/ru/`` path. Both
are built with every warning an error, at the same time (one per core), then each is
printed to ``agent-reliability-by-the-numbers.pdf`` inside its own site by
``scripts/book_pdf.py``. The tests build through :func:`build` too, once per run.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = {"en": ROOT, "ru": ROOT / "ru"}
PDF_NAME = "agent-reliability-by-the-numbers.pdf"


def _jupyter_book() -> str:
    return str(Path(sys.executable).parent / "jupyter-book")


def site(out: Path) -> Path:
    """Where :func:`build` puts the site for ``out``."""
    return Path(out) / "_build" / "html"


def build(out: Path = ROOT, *, pdf: bool = True) -> dict:
    """Build both editions into ``site(out)`` (and their PDFs); return each step's return
    code and the tail of its log."""
    out = Path(out)
    html = site(out)
    staging = out / "_build" / "ru-book"
    started = time.monotonic()
    runs = {
        "en": subprocess.Popen([_jupyter_book(), "build", str(ROOT), "-W", "-n", "--keep-going",
                                "--path-output", str(out)], cwd=ROOT, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT),
        "ru": subprocess.Popen([_jupyter_book(), "build", str(LANGUAGES["ru"]), "-W", "-n",
                                "--keep-going", "--path-output", str(staging)], cwd=ROOT,
                               text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT),
    }
    result = {}
    for language, process in runs.items():
        log, _ = process.communicate()
        result[language] = {"returncode": process.returncode, "log": log[-6000:]}
    if result["ru"]["returncode"] == 0:
        target = html / "ru"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(staging / "_build" / "html", target)
    result["seconds_html"] = round(time.monotonic() - started)
    if pdf and all(result[lang]["returncode"] == 0 for lang in LANGUAGES):
        printers = {lang: subprocess.Popen(
            [sys.executable, str(ROOT / "scripts" / "book_pdf.py"), "--html",
             str(html if lang == "en" else html / lang), "--root", str(root)],
            cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            for lang, root in LANGUAGES.items()}
        for language, process in printers.items():
            log, _ = process.communicate()
            result[f"pdf_{language}"] = {"returncode": process.returncode, "log": log[-6000:]}
    result["seconds"] = round(time.monotonic() - started)
    return result


def failed(result: dict) -> list[str]:
    """The steps of a :func:`build` that failed, with their logs."""
    return [f"{step}:\n{value['log']}" for step, value in result.items()
            if isinstance(value, dict) and value["returncode"] != 0]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT)
    parser.add_argument("--no-pdf", action="store_true")
    args = parser.parse_args(argv)
    result = build(args.out, pdf=not args.no_pdf)
    for step, value in result.items():
        if isinstance(value, dict):
            print(f"--- {step}: exit {value['returncode']}\n{value['log'][-1500:]}")
    problems = failed(result)
    print(f"build_book: {'failed' if problems else 'done'} in {result['seconds']} s; "
          f"open {site(args.out) / 'index.html'} (Russian: ru/index.html)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
