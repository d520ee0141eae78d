"""Build both editions of the book from the stored outputs, and print each to a PDF.

    .venv/bin/python -m bookbuild book [--out DIR] [--no-pdf]

The English book is built from the repository's root into ``DIR/_build/html`` (``DIR``
is the repository itself by default, as ``make book`` wants), the Russian one from
``ru/`` into ``DIR/_build/html/ru``: one site, the Russian book at its ``/ru/`` path. Both
are built with every warning an error, at the same time (one per core), then each is
printed to ``agent-reliability-by-the-numbers.pdf`` inside its own site by
``bookbuild/book_pdf.py``. The tests build through :func:`build` too, once per run.

Reads ``_config.yml``, ``_toc.yml``, ``book/``, ``chapters/``, ``ru/``, ``notebooks/``
and the assets ``scripts/vendor_assets.sh`` copies; writes ``DIR/_build/`` only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bookbuild import fast_pages, slides, wheel

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = {"en": ROOT, "ru": ROOT / "ru"}
PDF_NAME = "agent-reliability-by-the-numbers.pdf"
#: What a finished build leaves beside its site: the digest of the files it read and its
#: result, so that the tests can reuse a site built from exactly these files.
RECORD_NAME = "book.json"
#: Folders the book never reads (and the build's own output): a change there leaves a
#: built site current.
NOT_READ = ("tests", "benchmarks", ".ci", "_build")


def _jupyter_book() -> str:
    return str(Path(sys.executable).parent / "jupyter-book")


def site(out: Path) -> Path:
    """Where :func:`build` puts the site for ``out``."""
    return Path(out) / "_build" / "html"


def inputs_digest(root: Path = ROOT) -> str | None:
    """A digest of what a build reads: every file of the checkout that git tracks or would
    track (ignored ones left out), by name and content, outside :data:`NOT_READ`, with the
    Python that runs the build. ``None`` outside a git checkout (a download), where no
    built site is ever reused."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                                 "--exclude-standard"], cwd=root, capture_output=True)
    except OSError:  # no git on PATH
        return None
    if listed.returncode != 0:
        return None
    digest = hashlib.sha256(sys.version.encode())
    for name in sorted(set(listed.stdout.decode().split("\0")) - {""}):
        path = Path(root) / name
        if name.split("/", 1)[0] in NOT_READ or not path.is_file():
            continue  # a test, or a file deleted but not yet staged
        digest.update(f"{name}\0{hashlib.sha256(path.read_bytes()).hexdigest()}\0".encode())
    return digest.hexdigest()


def reuse(out: Path, built: Path = ROOT) -> dict | None:
    """Copy the site that ``make book`` built into ``built`` to ``site(out)`` and return
    that build's result, if it finished with every step passing (both PDFs included)
    from files identical to the checkout's now; otherwise ``None`` and nothing copied.
    The tests call this before building, so the README's two commands build the book
    once, while a clean clone that only runs the tests (CI) still builds it."""
    record = site(built).parent / RECORD_NAME
    try:
        stored = json.loads(record.read_text())
    except (OSError, ValueError):
        return None
    result = stored.get("result", {})
    digest = inputs_digest(built)
    if digest is None or stored.get("inputs") != digest or failed(result) \
            or not all(step in result for language in LANGUAGES
                       for step in (language, f"pdf_{language}")):
        return None
    shutil.copytree(site(built), site(out))
    return {**result, "reused_from": str(site(built))}


def build(out: Path = ROOT, *, pdf: bool = True) -> dict:
    """Build both editions into ``site(out)`` (and their PDFs); return each step's return
    code and the tail of its log. A build that passes every step leaves
    :data:`RECORD_NAME` beside the site for :func:`reuse`; any other build removes it."""
    out = Path(out)
    html = site(out)
    record = html.parent / RECORD_NAME
    record.unlink(missing_ok=True)  # a site half rebuilt is never reused
    digest = inputs_digest() if out.resolve() == ROOT else None  # as this build reads them
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
        if result["en"]["returncode"] == 0:
            english_anchors(html, target)
    if all(result[lang]["returncode"] == 0 for lang in LANGUAGES):
        fast_pages.optimise(html)  # light on a phone: bookbuild/fast_pages.py
        result["figures"] = draw_figures(pdf=pdf)  # the decks' and the PDFs', together
        result["slides"] = slides.write_decks(html)  # the teacher's reveal.js decks
        result["wheel"] = wheel.publish(html)  # the package for installs without git
    result["seconds_html"] = round(time.monotonic() - started)
    if pdf and all(result[lang]["returncode"] == 0 for lang in LANGUAGES):
        printers = {lang: subprocess.Popen(
            [sys.executable, "-m", "bookbuild.book_pdf", "--html",
             str(html if lang == "en" else html / lang), "--root", str(root)],
            cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            for lang, root in LANGUAGES.items()}
        for language, process in printers.items():
            log, _ = process.communicate()
            result[f"pdf_{language}"] = {"returncode": process.returncode, "log": log[-6000:]}
    result["seconds"] = round(time.monotonic() - started)
    if digest is not None and pdf and not failed(result):
        written = record.with_suffix(f".{os.getpid()}")
        written.write_text(json.dumps({"inputs": digest, "result": result}))
        written.replace(record)
    return result


def draw_figures(*, pdf: bool = True) -> dict:
    """Draw the figures the decks (a slide's) and the PDFs (a page's) show, both
    editions, into slides.FIGURE_CACHE, where the decks and the PDFs' printers find
    them: each chapter runs once for both media, not once for each (slides.media_figures).
    """
    started = time.monotonic()
    wanted: dict[str, dict[Path, list[int]]] = {slides.SLIDE_MEDIUM: {}}
    try:
        for language, root in LANGUAGES.items():
            wanted[slides.SLIDE_MEDIUM].update(slides.deck_figure_cells(slides.DECKS,
                                                                        language))
            if pdf:   # the PDF's stage comes after this one: asked, not imported
                listed = json.loads(subprocess.run(
                    [sys.executable, "-m", "bookbuild.book_pdf", "--root", str(root),
                     "--figure-cells"],
                    cwd=ROOT, capture_output=True, text=True, check=True).stdout)
                wanted.setdefault(listed["medium"], {}).update(
                    {Path(path): indices for path, indices in listed["cells"].items()})
        drawn = slides.media_figures(wanted)
    except subprocess.CalledProcessError as error:
        return {"returncode": 1, "log": f"figures: book_pdf --figure-cells: {error.stderr}"}
    except (ValueError, RuntimeError, OSError) as error:
        return {"returncode": 1, "log": f"figures: {error}"}
    count = sum(len(figures) for figures in drawn.values())
    return {"returncode": 0, "log": f"figures: {count} for the decks and the PDFs, "
                                    f"{time.monotonic() - started:.0f} s"}


_SECTION = re.compile(r'<section id="([^"]+)"[^>]*>')


def english_anchors(english: Path, russian: Path) -> int:
    """Give each section of a Russian page the id of the same section of the English
    page too, so that a link to ``page.html#section`` works in both editions.

    A Russian heading's own id is Sphinx's fallback (``id3``): docutils makes ids from
    Latin letters only. The editions have the same sections in the same order (one is
    built from the other, block for block), so the n-th section of a page is paired with
    the n-th. Returns the number of ids added."""
    added = 0
    for page in russian.rglob("*.html"):
        relative = page.relative_to(russian)
        twin = english / relative
        if relative.parts[0].startswith("_") or not twin.is_file():
            continue
        theirs = [m[1] for m in _SECTION.finditer(twin.read_text(encoding="utf-8"))]
        text = page.read_text(encoding="utf-8")
        ours = [m[1] for m in _SECTION.finditer(text)]
        if len(theirs) != len(ours):
            raise RuntimeError(f"{relative}: {len(ours)} sections in Russian, "
                               f"{len(theirs)} in English")
        wanted = iter(theirs)

        def tagged(match):
            nonlocal added
            english_id = next(wanted)
            if match[1] == english_id:
                return match[0]
            added += 1
            return f'{match[0]}<span id="{english_id}"></span>'

        updated = _SECTION.sub(tagged, text)
        if updated != text:
            page.write_text(updated, encoding="utf-8")
    return added


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
    print(f"bookbuild book: {'failed' if problems else 'done'} in {result['seconds']} s; "
          f"open {site(args.out) / 'index.html'} (Russian: ru/index.html)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
