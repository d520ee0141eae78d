"""The whole book as one PDF, printed from the built site.

Every page of the table of contents (the root page, then each chapter and reference page
of _toc.yml, in order) is opened from the built HTML, served on 127.0.0.1, in Debian's
headless Chromium (Playwright drives it; it never downloads a browser of its own). Once
MathJax has typeset and every image has loaded, the page is printed to A4 with the print
rules of book/_static/print.css (no sidebars or buttons, exercise solutions open, the
animations' last frame, the live explorers' default chart without sliders, drawn again
across the column by book/_static/live.js when print media applies). Each chapter
figure, and each animation's last frame, is printed as drawn for the page
(:func:`page_figures`: the same function, the chapter's numbers,
reliability.figures._media's "page" medium) across the text column, in place of the
phone's figure the web page shows; the site itself is unchanged. Each
page is printed tagged (its structure, headings and figures' alt text, for a screen
reader). The pages are merged with pypdf into one PDF behind a cover and a printed table
of contents, with one bookmark per page and one structure tree (:class:`_Structure`);
every sheet but the cover is stamped with its page number and its page's title; links
between pages of the book become links inside the PDF.

    .venv/bin/python -m bookbuild.book_pdf [--html _build/html] [--out FILE] [--root ru]

The PDF goes to <html>/agent-reliability-by-the-numbers.pdf by default, inside the site,
so it is published with it and the landing page links to it.
"""

from __future__ import annotations

import argparse
import functools
import html as html_lib
import http.server
import io
import json
import re
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urldefrag, urlparse

import yaml

from .catalogs import translator

ROOT = Path(__file__).resolve().parent.parent
PDF_NAME = "agent-reliability-by-the-numbers.pdf"
CHROMIUM = Path("/usr/bin/chromium")
# The same as tests/test_browser.py: without the networking ones Chromium phones home at
# start-up, which a closed network refuses.
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
LOCAL_HOST = "127.0.0.1"
PRINT_WIDTH_PX = 687  # A4's 210 mm less both margins, in CSS pixels (96 per inch)
#: The height of a sheet's body (A4's 297 mm less both margins) in CSS pixels, and the
#: share of it above which a block that print.css keeps whole (code, printed output) may
#: break across sheets instead: moved whole, it would leave the sheet before it half
#: blank.
BODY_HEIGHT_PX = (297 - 2 * 16) / 25.4 * 96
LONG_BLOCK = 0.4
PAGE_OPTIONS = {
    "format": "A4",
    "print_background": True,
    # a tagged PDF: its headings, paragraphs, lists, tables and figures (with their alt
    # text) as a structure tree, which a screen reader reads; merge() keeps it, and puts
    # the page's outline of its headings under the page's bookmark
    "tagged": True,
    "outline": True,
    "margin": {"top": "16mm", "bottom": "16mm", "left": "14mm", "right": "14mm"},
    "prefer_css_page_size": False,
}

# Wait for what printing would otherwise catch half-done: lazy images (loaded now),
# MathJax's typesetting, and web fonts (MathJax's own among them).
_READY_JS = """async () => {
    for (const img of Array.from(document.images)) {
        img.loading = "eager";
        if (!img.complete || img.naturalWidth === 0) { try { await img.decode(); } catch (e) {} }
    }
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
        await MathJax.startup.promise;
    }
    if (document.fonts && document.fonts.ready) { await document.fonts.ready; }
    // Each animation (matplotlib's jshtml player, a global "anim<id>") on its last frame,
    // where the run has finished: the frame that tells the story on paper.
    for (const name of Object.keys(window).filter(k => /^anim[0-9a-f]+$/.test(k))) {
        const anim = window[name];
        if (anim && typeof anim.last_frame === "function") {
            anim.pause_animation && anim.pause_animation();
            anim.last_frame();
        }
    }
    for (const img of Array.from(document.querySelectorAll(".animation img"))) {
        try { await img.decode(); } catch (e) {}
    }
    // Open every dropdown (exercise solutions) so that its content prints.
    document.querySelectorAll(".toggle-hidden").forEach(el => el.classList.remove("toggle-hidden"));
    document.querySelectorAll("details").forEach(el => { el.open = true; });
    // Each line of code on paper a block of its own, so that print.css can indent the
    // rest of a line that wraps (a hanging indent) under its start.
    for (const pre of Array.from(document.querySelectorAll("div.highlight pre"))) {
        const lines = [document.createElement("span")];
        const piece = (node) => {
            if (node.nodeType === Node.TEXT_NODE || node.childNodes.length === 0) {
                return node.textContent.split("\\n").map(t => document.createTextNode(t));
            }
            return node.textContent.split("\\n").map(t => {
                const copy = node.cloneNode(false); copy.textContent = t; return copy;
            });
        };
        for (const node of Array.from(pre.childNodes)) {
            piece(node).forEach((part, i) => {
                if (i > 0) { lines.push(document.createElement("span")); }
                if (part.textContent) { lines[lines.length - 1].appendChild(part); }
            });
        }
        if (!lines[lines.length - 1].childNodes.length) { lines.pop(); }
        // The glue's bookkeeping (a glue_values(...) or glue(...) statement: it hands the
        // prose its numbers, which paper prints in the prose) is left off paper; a cell
        // of nothing else is left off whole.
        let depth = 0, glued = 0;
        for (const line of lines) {
            const text = line.textContent;
            if (depth === 0 && !/^\\s*glue(?:_values)?\\(/.test(text)) { continue; }
            for (const c of text.replace(/(["'])(?:\\\\.|(?!\\1).)*\\1|#.*$/g, "")) {
                depth += c === "(" ? 1 : c === ")" ? -1 : 0;
            }
            depth = Math.max(depth, 0);
            line.dataset.glue = "1"; glued += 1;
        }
        if (glued && glued === lines.filter(l => l.textContent.trim()).length) {
            const cell = pre.closest("div.cell");
            if (cell) { cell.classList.add("print-glue"); }
        }
        pre.replaceChildren(...lines.map(line => {
            // the rest of a wrapped line four characters in from where the line starts
            const hang = /^ */.exec(line.textContent)[0].length + 4;
            line.className = line.dataset.glue ? "print-line print-glue" : "print-line";
            line.style.paddingLeft = `${hang}ch`;
            line.style.textIndent = `-${hang}ch`;
            return line;
        }));
    }
    // A number in a table keeps its characters together on paper: print.css lets a
    // cell's long words wrap anywhere, which split «0,8» into «0,» and «8» (issue 41).
    // Each number (sign, digits, decimal sign, thousands' spaces, per cent) becomes a
    // .print-number, which print.css does not let wrap.
    const NUMBER = /[\u2212+-]?\\d(?:[\\d\u00a0\u202f.,]*\\d)?%?/g;
    for (const cell of Array.from(document.querySelectorAll("td, th"))) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        const texts = [];
        while (walker.nextNode()) { texts.push(walker.currentNode); }
        for (const node of texts) {
            const text = node.textContent;
            if (!/\\d/.test(text) || node.parentElement.closest(".print-number")) { continue; }
            const parts = document.createDocumentFragment();
            let last = 0;
            for (const found of text.matchAll(NUMBER)) {
                parts.append(text.slice(last, found.index));
                const number = document.createElement("span");
                number.className = "print-number";
                number.textContent = found[0];
                parts.append(number);
                last = found.index + found[0].length;
            }
            parts.append(text.slice(last));
            node.replaceWith(parts);
        }
    }
    const main = document.querySelector("main h1") || document.querySelector("h1");
    const title = main ? main.textContent.replace(/[#\\u00b6]\\s*$/, "").trim()
                       : document.title.split(" \\u2014 ")[0];
    return {
        title: title,
        broken: Array.from(document.images).filter(i => i.naturalWidth === 0)
                    .map(i => (i.getAttribute("src") || "").slice(0, 80)),
        maths: document.querySelectorAll(".math").length,
        typeset: document.querySelectorAll(".math mjx-container").length,
    };
}"""


# Mark each block print.css keeps whole that is too tall for it (class print-long): laid
# out for paper, at the sheet's width.
_LONG_BLOCKS_JS = """(most) => {
    const blocks = document.querySelectorAll(
        "div.cell_input, div.highlight, div.output, div.cell_output, .live-explorer");
    let marked = 0;
    for (const block of Array.from(blocks)) {
        if (block.getBoundingClientRect().height > most) {
            block.classList.add("print-long"); marked += 1;
        }
    }
    return marked;
}"""


def toc_pages(root: Path = ROOT) -> list[str]:
    """Every page of the table of contents, in order, as output paths without ``.html``."""
    toc = yaml.safe_load((root / "_toc.yml").read_text())
    pages = [toc["root"]]

    def walk(entries):
        for entry in entries or []:
            if "file" in entry:
                pages.append(entry["file"])
            walk(entry.get("sections"))

    for part in toc.get("parts", []):
        walk(part.get("chapters"))
    walk(toc.get("chapters"))
    return [str(Path(page).with_suffix("")) for page in pages]


#: The part of the web book the PDF leaves out, a page and the pages under it: the API
#: reference is the package's docstrings (some 47 sheets), for a reader at the code,
#: not on paper.
NOT_PRINTED = "book/api"


def _printed(page: str) -> bool:
    return page != NOT_PRINTED and not page.startswith(NOT_PRINTED + "/")


def printed_pages(root: Path = ROOT) -> list[str]:
    """The pages the PDF prints, in order: :func:`toc_pages` less :data:`NOT_PRINTED`."""
    return [page for page in toc_pages(root) if _printed(page)]


def toc_parts(root: Path = ROOT) -> list[tuple[str, list[str]]]:
    """The table of contents as (part caption, its pages); the root page's part is ""."""
    toc = yaml.safe_load((root / "_toc.yml").read_text())
    parts = [("", [toc["root"]])]

    def walk(entries, into):
        for entry in entries or []:
            if "file" in entry:
                into.append(entry["file"])
            walk(entry.get("sections"), into)

    for part in toc.get("parts", []):
        parts.append((part.get("caption", ""), []))
        walk(part.get("chapters"), parts[-1][1])
    if toc.get("chapters"):
        parts.append(("", []))
        walk(toc.get("chapters"), parts[-1][1])
    parts = [(caption, [str(Path(page).with_suffix("")) for page in pages])
             for caption, pages in parts]
    parts = [(caption, [page for page in pages if _printed(page)])
             for caption, pages in parts]
    return [(caption, pages) for caption, pages in parts if pages]


@contextmanager
def serve(html: Path):
    """The built site on 127.0.0.1, on a free port, for as long as the block runs."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(
        (LOCAL_HOST, 0), functools.partial(Quiet, directory=str(html)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{LOCAL_HOST}:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def browser(html: Path):
    """A Chromium context on the site served from ``html``, and the served address."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        sys.exit(f"book_pdf: {CHROMIUM} is missing; run scripts/ensure_browser.sh first")
    with serve(html) as base, sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            context = chromium.new_context(viewport={"width": 1280, "height": 900})
            # The site reads offline; nothing outside 127.0.0.1 is fetched for the PDF.
            context.route(lambda url: urlparse(url).hostname not in (LOCAL_HOST, None),
                          lambda route: route.abort())
            yield context, base
        finally:
            chromium.close()


def page_figures(html: Path, root: Path, pages: list[str]) -> dict[str, bytes]:
    """The chapters' figures drawn for the printed page, by the site's image file each
    one replaces (``_images/<name>`` as the built pages load it): each figure cell of a
    chapter of ``pages`` (one call of a figure function that takes ``medium``, with a
    stored PNG) run again at the chapter's numbers for the "page" medium
    (bookbuild/slides.py draws them, and keeps them between builds); and each
    animation's last frame, drawn the same way, by the name :data:`ANIMATION_FRAME`
    gives it (an animation cell stores a player, no PNG)."""
    import base64
    import hashlib

    from .slides import slide_figures

    wanted: dict[Path, list[int]] = {}
    stored: dict[tuple[Path, int], str] = {}
    players: dict[tuple[Path, int], str] = {}
    for path, printed in _chapters_printed(root, pages).items():
        for index, png, player in printed:
            if png is not None:
                stored[path, index] = hashlib.sha256(base64.b64decode(png)).hexdigest()
            else:   # an animation: its last frame, drawn for paper
                players[path, index] = ANIMATION_FRAME.format(player)
            wanted.setdefault(path, []).append(index)
    site = {hashlib.sha256(image.read_bytes()).hexdigest(): image.name
            for image in (html / "_images").glob("*.png")}
    drawn = slide_figures(wanted, medium=PAGE_MEDIUM)
    return ({site[digest]: drawn[key] for key, digest in stored.items()
             if digest in site}
            | {name: drawn[key] for key, name in players.items()})


def _chapters_printed(root: Path, pages: list[str]) -> dict[Path, list]:
    """:func:`_printed_figures` of each chapter among ``pages``, by its path."""
    found = {}
    for page in pages:
        path = root / f"{page}.ipynb"
        if page.startswith("chapters/") and path.is_file():
            found[path] = _printed_figures(path)
    return found


def page_figure_cells(root: Path = ROOT) -> dict[Path, list[int]]:
    """The figure cells :func:`page_figures` draws for the PDF of the edition at
    ``root``, by chapter path (the build draws them with the decks' figures first,
    bookbuild/site.py)."""
    return {path: [index for index, _png, _player in printed]
            for path, printed in _chapters_printed(root, printed_pages(root)).items()
            if printed}


def printed_figure_cells(path: Path) -> list[int]:
    """The figure cells of the chapter at ``path`` that the PDF draws again for the
    page (:func:`page_figures`): what tests/test_slides.py audits at the page's width."""
    return [index for index, _png, _player in _printed_figures(path)]


def _printed_figures(path: Path) -> list[tuple[int, str | None, str | None]]:
    """Each figure cell of the chapter at ``path`` the PDF prints drawn for the page:
    one call of a figure function that takes ``medium``, with its stored PNG (base64),
    or an animation's player id, as (index, png, None) or (index, None, player)."""
    import importlib
    import inspect

    import nbformat

    from .slides import figure_call

    found = []
    for index, cell in enumerate(nbformat.read(str(path), as_version=4).cells):
        call = figure_call(cell.source) if cell.cell_type == "code" else None
        if call is None:
            continue
        module = importlib.import_module(f"reliability.figures.{call[0]}")
        if "medium" not in inspect.signature(getattr(module, call[1])).parameters:
            continue
        pngs = [o["data"]["image/png"] for o in cell.get("outputs", [])
                if "image/png" in o.get("data", {})]
        player = _ANIMATION_PLAYER.search("".join(
            "".join(o["data"]["text/html"]) for o in cell.get("outputs", [])
            if "text/html" in o.get("data", {})))
        if len(pngs) == 1:
            png = "".join(pngs[0]) if isinstance(pngs[0], list) else pngs[0]
            found.append((index, png, None))
        elif player is not None:
            found.append((index, None, player.group(1)))
    return found


#: An animation's player in a chapter's stored output (matplotlib's jshtml, its id made
#: stable by reliability.notebook.animation_html), and the name its last frame drawn for
#: the page is served by: the printing browser shows it in the player's place.
_ANIMATION_PLAYER = re.compile(r'<img id="_anim_img([0-9a-f]+)"')
ANIMATION_FRAME = "page-animation-{}.png"


#: The medium (reliability.figures._media.MEDIA) the PDF's figures are drawn for.
PAGE_MEDIUM = "page"

# Each figure drawn for the page as wide as the text column (print.css's "width: auto"
# would print it at its pixels' CSS size); the web page's own image is never loaded.
_PAGE_FIGURES_JS = """(names) => {
    let swapped = 0;
    for (const img of Array.from(document.images)) {
        const name = (img.getAttribute("src") || "").split("/").pop();
        if (names.includes(name)) {
            img.removeAttribute("width"); img.removeAttribute("height");
            img.style.setProperty("height", "auto", "important");
            img.style.setProperty("width", "100%", "important");
            img.classList.add("page-figure"); swapped += 1;
        }
    }
    return swapped;
}"""


# Each animation's last frame (the player shows it: _READY_JS) swapped for the same frame
# drawn for the page, served by the route of its name (ANIMATION_FRAME), as wide as the
# text column; returns the names that did not load.
_PAGE_ANIMATIONS_JS = """async (names) => {
    const broken = [];
    for (const img of Array.from(document.querySelectorAll(".animation img"))) {
        const name = `page-animation-${img.id.replace(/^_anim_img/, "")}.png`;
        if (!names.includes(name)) { continue; }
        img.src = `${location.origin}/_images/${name}`;
        img.style.setProperty("width", "100%", "important");
        img.style.setProperty("height", "auto", "important");
        img.classList.add("page-figure");
        try { await img.decode(); } catch (e) { broken.push(name); }
    }
    return broken;
}"""


def print_pages(context, base: str, html: Path, pages: list[str],
                figures: dict[str, bytes] | None = None
                ) -> list[tuple[str, str, bytes]]:
    """Each page printed by Chromium as (page, title, PDF bytes), each image file named
    in ``figures`` served as its bytes there (a figure drawn for the page)."""
    printed, too_wide = [], []
    figures = figures or {}

    def page_figure(route):
        name = urlparse(route.request.url).path.rsplit("/", 1)[-1]
        route.fulfill(body=figures[name], content_type="image/png")

    for name in figures:
        context.route(f"**/_images/{name}", page_figure)
    for page in pages:
        if not (html / f"{page}.html").is_file():
            sys.exit(f"book_pdf: the build made no page {page}.html")
        tab = context.new_page()
        tab.goto(f"{base}/{page}.html", wait_until="load")
        tab.evaluate(_PAGE_FIGURES_JS, list(figures))
        ready = tab.evaluate(_READY_JS)
        broken = ready["broken"] + tab.evaluate(_PAGE_ANIMATIONS_JS, list(figures))
        if broken:
            sys.exit(f"book_pdf: {page}: images did not load: {broken}")
        if ready["typeset"] < ready["maths"]:
            sys.exit(f"book_pdf: {page}: MathJax typeset {ready['typeset']} of "
                     f"{ready['maths']} formulas")
        wider = wider_than_sheet(tab)
        tab.evaluate(_WHOLE_WORDS_JS)
        if wider > 1:
            too_wide.append(f"{page} is {wider}px wider than the sheet")
        tab.evaluate(_LONG_BLOCKS_JS, LONG_BLOCK * BODY_HEIGHT_PX)
        printed.append((page, ready["title"], tab.pdf(**PAGE_OPTIONS)))
        tab.close()
    if too_wide:
        # The article is centred: a page wider than the sheet loses letters at both
        # edges of every line, so the book is not printed.
        sys.exit("book_pdf: " + "; ".join(too_wide)
                 + " (book/_static/print.css must let it wrap or shrink)")
    return printed


# A table whose cells fit the sheet with their words whole keeps them whole (class
# print-whole-words, print.css): print.css lets a cell's words wrap anywhere so that a
# table of long Russian headers fits, which let a narrow column of a table that fitted
# anyway print "min" as "mi" over "n". Each table is tried whole-worded, laid out for
# paper at the sheet's width, and keeps it only if the page is no wider for it.
_WHOLE_WORDS_JS = """() => {
    const root = document.documentElement;
    const wider = () => Math.max(0, root.scrollWidth - root.clientWidth);
    let kept = 0;
    for (const table of Array.from(document.querySelectorAll("table"))) {
        const before = wider();
        const box = table.parentElement.getBoundingClientRect();
        table.classList.add("print-whole-words");
        if (wider() > before || table.getBoundingClientRect().right > box.right + 1) {
            table.classList.remove("print-whole-words");
        } else {
            kept += 1;
        }
    }
    return kept;
}"""


def wider_than_sheet(tab) -> int:
    """How many CSS pixels the page in ``tab`` is wider than the sheet when printed:
    laid out in print media at the width of the sheet's body (0 when it fits)."""
    tab.emulate_media(media="print")
    tab.set_viewport_size({"width": PRINT_WIDTH_PX, "height": 900})
    return tab.evaluate("() => Math.max(0, document.documentElement.scrollWidth - "
                        "document.documentElement.clientWidth)")


def print_html(context, document: str, **options) -> bytes:
    """An HTML document of our own (cover, contents, stamps) printed to A4."""
    tab = context.new_page()
    tab.set_content(document, wait_until="load")
    tab.evaluate("async () => { if (document.fonts) { await document.fonts.ready; } }")
    data = tab.pdf(**{**PAGE_OPTIONS, **options})
    tab.close()
    return data


def sheets(data: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(data)).pages)


# The front matter and the stamps are set in the fonts the site's print uses for text,
# which have Cyrillic letters as well as Latin ones.
_FRONT_STYLE = """
  body { font-family: "Lato", "DejaVu Sans", "Liberation Sans", sans-serif; color: #222;
         margin: 0; }
  a { color: inherit; text-decoration: none; }
"""


def cover_html(title: str, author: str, language: str) -> str:
    """The cover: the book's title and its authors, alone on the first sheet."""
    return f"""<!DOCTYPE html><html lang="{language}"><head><meta charset="utf-8">
<style>{_FRONT_STYLE}
  .cover {{ height: 250mm; display: flex; flex-direction: column;
            justify-content: center; text-align: center; }}
  h1 {{ font-size: 30pt; font-weight: 700; margin: 0 0 14mm; line-height: 1.25; }}
  .rule {{ width: 40mm; margin: 0 auto 14mm; border-top: 1.5pt solid #0072b2; }}
  .author {{ font-size: 13pt; color: #444; }}
</style></head><body><div class="cover">
<h1>{html_lib.escape(title)}</h1><div class="rule"></div>
<div class="author">{html_lib.escape(author)}</div></div></body></html>"""


def contents_html(heading: str, parts, titles: dict[str, str], numbers: dict[str, int],
                  base: str, language: str) -> str:
    """The printed table of contents: each part's caption, then its pages' titles with
    the page where each begins (a link to it)."""
    rows = []
    for caption, pages in parts:
        if caption:
            rows.append(f'<div class="part">{html_lib.escape(caption)}</div>')
        for page in pages:
            rows.append(
                f'<a class="entry" href="{base}/{page}.html">'
                f'<span class="title">{html_lib.escape(titles[page])}</span>'
                f'<span class="dots"></span><span class="number">{numbers[page]}</span></a>')
    return f"""<!DOCTYPE html><html lang="{language}"><head><meta charset="utf-8">
<style>{_FRONT_STYLE}
  h1 {{ font-size: 22pt; margin: 6mm 0 8mm; }}
  .part {{ font-weight: 700; font-size: 12pt; margin: 6mm 0 2mm; break-after: avoid; }}
  .entry {{ display: flex; align-items: baseline; font-size: 11pt; margin: 1.6mm 0 1.6mm 5mm; }}
  .dots {{ flex: 1; border-bottom: 1px dotted #999; margin: 0 2mm; }}
  .number {{ min-width: 8mm; text-align: right; }}
</style></head><body><h1>{html_lib.escape(heading)}</h1>
{"".join(rows)}</body></html>"""


def stamps_html(headers: list[str | None], language: str) -> str:
    """One A4 sheet per sheet of the book, transparent: the running title in the top
    margin and the page number in the bottom one (nothing where the header is None)."""
    sheets_html = []
    for number, header in enumerate(headers, start=1):
        inner = "" if header is None else (
            f'<div class="head">{html_lib.escape(header)}</div>'
            f'<div class="foot">{number}</div>')
        sheets_html.append(f'<div class="sheet">{inner}</div>')
    return f"""<!DOCTYPE html><html lang="{language}"><head><meta charset="utf-8">
<style>{_FRONT_STYLE}
  @page {{ size: A4; margin: 0; }}
  html, body {{ background: transparent; }}
  .sheet {{ position: relative; width: 210mm; height: 296mm; overflow: hidden;
            break-after: page; }}
  .sheet:last-child {{ break-after: auto; }}
  .head {{ position: absolute; top: 7mm; left: 14mm; right: 14mm; text-align: center;
           font-size: 8pt; color: #666; white-space: nowrap; overflow: hidden;
           text-overflow: ellipsis; padding-bottom: 1mm; border-bottom: 0.5pt solid #ccc; }}
  .foot {{ position: absolute; bottom: 7mm; left: 0; right: 0; text-align: center;
           font-size: 9pt; color: #444; }}
</style></head><body>{"".join(sheets_html)}</body></html>"""


def _link_target(uri: str, base: str) -> tuple[str, str] | None:
    """The book page and anchor a link of the served site points at, or None."""
    if not uri.startswith(base + "/"):
        return None
    path, fragment = urldefrag(uri[len(base) + 1:])
    if path in ("", "index.html"):
        return "index", fragment
    return (path[:-len(".html")], fragment) if path.endswith(".html") else None


def _headings(writer, reader, parent, first: int) -> None:
    """A printed page's own outline (Chromium's, of its headings) under its bookmark
    ``parent``, but for its top heading, the page's title, which the bookmark is; the
    page begins at sheet ``first`` of ``writer``."""
    from pypdf.generic import Fit

    def add(items, under):
        last = under
        for item in items:
            if isinstance(item, list):   # the headings under the one before
                add(item, last)
                continue
            last = writer.add_outline_item(
                str(item.title).rstrip("#\u00b6 "),
                first + reader.get_destination_page_number(item), parent=under,
                fit=Fit.xyz(left=float(item.left or 0), top=float(item.top or 0)),
                is_open=False)

    for item in reader.outline:
        if isinstance(item, list):
            add(item, parent)


def _artifact(stamp):
    """A stamp's sheet with its content marked as an artifact (running title and page
    number: pagination, which a screen reader skips rather than read on every sheet)."""
    from pypdf.generic import ContentStream, NameObject

    content = ContentStream(stamp.get_contents(), stamp.pdf)
    content.operations = [([NameObject("/Artifact")], b"BMC"), *content.operations,
                          ([], b"EMC")]
    stamp.replace_contents(content)
    return stamp


class _Structure:
    """The merged PDF's structure tree, made of each printed PDF's: Chromium tags each
    page it prints (tagged=True), but pypdf's append copies the sheets without their
    structure. Each printed page's /Document element becomes a /Sect of the book's one
    /Document; the numbers that tie marked content on a sheet (and a link annotation) to
    its element, /StructParents and /StructParent, are shifted past the pages before it,
    and so is the /ParentTree that maps them."""

    def __init__(self, writer):
        from pypdf.generic import ArrayObject, DictionaryObject, NameObject

        self.writer = writer
        self.kids = ArrayObject()
        self.nums = ArrayObject()
        self.next_key = 0
        self.document = writer._add_object(DictionaryObject({
            NameObject("/Type"): NameObject("/StructElem"),
            NameObject("/S"): NameObject("/Document"),
            NameObject("/K"): self.kids}))
        self.language = None

    def add(self, reader, first_sheet: int) -> None:
        from pypdf.generic import ArrayObject, NameObject, NumberObject

        root = reader.trailer["/Root"]
        tree = root.get("/StructTreeRoot")
        if tree is None:
            return
        tree = tree.get_object()
        self.language = self.language or root.get("/Lang")
        offset = self.next_key
        for index, page in enumerate(reader.pages):
            sheet = self.writer.pages[first_sheet + index]
            if "/StructParents" in page:
                sheet[NameObject("/StructParents")] = NumberObject(
                    offset + int(page["/StructParents"]))
            for source, annot in zip(page.get("/Annots") or [],
                                     sheet.get("/Annots") or []):
                source, annot = source.get_object(), annot.get_object()
                if "/StructParent" in source:
                    annot[NameObject("/StructParent")] = NumberObject(
                        offset + int(source["/StructParent"]))
        top = tree.raw_get("/K")
        if isinstance(top.get_object(), ArrayObject):
            top = list(top.get_object())
        else:
            top = [top]
        for element in top:
            # /P (each element's parent) is not copied: it would copy the printed page's
            # whole tree root; _parents() sets it again
            copy = element.clone(self.writer, ignore_fields=("/P",))
            if not hasattr(copy, "idnum"):
                copy = self.writer._add_object(copy)
            if copy.get_object().get("/S") == "/Document":
                copy.get_object()[NameObject("/S")] = NameObject("/Sect")
            self.kids.append(copy)
        keys = _number_tree(tree.get("/ParentTree"))
        for key, value in keys:
            self.nums += [NumberObject(offset + key),
                          value.clone(self.writer, ignore_fields=("/P",))]
        used = max([key + 1 for key, _ in keys], default=0)
        self.next_key = offset + max(int(tree.get("/ParentTreeNextKey", 0)), used)

    def finish(self, annotations: set[int]) -> None:
        """Write the tree into the PDF; ``annotations``: the object numbers of the link
        annotations the sheets kept (an element's reference to a dropped one goes)."""
        from pypdf.generic import (BooleanObject, DictionaryObject, NameObject,
                                   NumberObject)

        if not self.kids:
            return
        parent_tree = self.writer._add_object(DictionaryObject({
            NameObject("/Nums"): self.nums}))
        tree = self.writer._add_object(DictionaryObject({
            NameObject("/Type"): NameObject("/StructTreeRoot"),
            NameObject("/K"): self.document,
            NameObject("/ParentTree"): parent_tree,
            NameObject("/ParentTreeNextKey"): NumberObject(self.next_key)}))
        self.document.get_object()[NameObject("/P")] = tree
        _parents(self.document, annotations)
        root = self.writer.root_object
        root[NameObject("/StructTreeRoot")] = tree
        root[NameObject("/MarkInfo")] = DictionaryObject(
            {NameObject("/Marked"): BooleanObject(True)})
        if self.language is not None:
            root[NameObject("/Lang")] = self.language


def _number_tree(node) -> list:
    """A number tree's (key, value) pairs, from its /Nums and its /Kids."""
    if node is None:
        return []
    node = node.get_object()
    nums = node.get("/Nums") or []
    pairs = [(int(nums[i]), nums[i + 1]) for i in range(0, len(nums) - 1, 2)]
    for kid in node.get("/Kids") or []:
        pairs += _number_tree(kid)
    return pairs


def _parents(element, annotations: set[int]) -> None:
    """Set /P of every structure element under ``element`` (an indirect reference),
    dropping references to annotations not in ``annotations`` (object numbers)."""
    from pypdf.generic import ArrayObject, NameObject

    stack = [element]
    while stack:
        ref = stack.pop()
        kids = ref.get_object().get("/K")
        if isinstance(kids, list):
            kids = ArrayObject(
                kid for kid in kids
                if not (isinstance(kid.get_object(), dict)
                        and kid.get_object().get("/Type") == "/OBJR"
                        and kid.get_object().raw_get("/Obj").idnum not in annotations))
            ref.get_object()[NameObject("/K")] = kids
        for kid in (kids if isinstance(kids, list) else [kids]):
            if kid is None or not hasattr(kid, "get_object"):
                continue
            child = kid.get_object()
            if isinstance(child, dict) and child.get("/Type") != "/OBJR" and (
                    "/S" in child):
                child[NameObject("/P")] = ref
                if hasattr(kid, "idnum"):
                    stack.append(kid)


def metadata(title: str, author: str, language: str = "en") -> dict[str, str]:
    """The PDF's document information, in the edition's language (a PDF reader shows
    the subject beside the title): only what describes the book, no creation or
    modification time, so a rebuild of unchanged pages differs as little as Chromium
    allows."""
    _ = translator(language, "book_pdf")
    return {"/Title": title, "/Author": author,
            "/Subject": _("The book's pages, printed from its HTML"),
            "/Creator": "bookbuild/book_pdf.py (Chromium, pypdf)"}


def merge(printed, base: str, title: str, author: str, front=(),
          stamps: bytes | None = None, language: str = "en"):
    """One PDF: the front matter (cover, contents), then the pages in order, a bookmark per
    page (none for the cover), links inside the book kept inside, and each sheet stamped
    with its sheet of ``stamps`` (running title and page number)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, NameObject, NullObject, NumberObject

    def number(value) -> float:
        try:
            return float(value)
        except (TypeError, ValueError):
            return 0.0

    writer = PdfWriter()
    structure = _Structure(writer)
    starts: dict[str, int] = {}
    # Each printed page's anchors (Chromium names a destination after every element id):
    # (page, anchor) -> (sheet of the merged PDF, left, top).
    anchors: dict[tuple[str, str], tuple[int, float, float]] = {}
    sheet_page: list[str] = []
    for page, page_title, data in [*front, *printed]:
        reader = PdfReader(io.BytesIO(data))
        starts[page] = len(writer.pages)
        for name, dest in reader.named_destinations.items():
            anchors[(page, name.lstrip("/"))] = (
                starts[page] + reader.get_destination_page_number(dest),
                number(dest.left), number(dest.top))
        writer.append(reader, import_outline=False)
        if page_title is not None:
            _headings(writer, reader, writer.add_outline_item(
                page_title, starts[page], is_open=False), starts[page])
        structure.add(reader, starts[page])
        sheet_page += [page] * len(reader.pages)
    starts["index"] = starts[printed[0][0]]

    def destination(page: str, anchor: str) -> ArrayObject | None:
        if (page, anchor) in anchors:
            sheet, left, top = anchors[(page, anchor)]
            where = [NumberObject(round(left)), NumberObject(round(top))]
        elif page in starts:
            sheet, where = starts[page], [NullObject(), NullObject()]
        else:
            return None
        return ArrayObject([writer.pages[sheet].indirect_reference, NameObject("/XYZ"),
                            *where, NumberObject(0)])

    # Anchors are named per printed page ("overview" is in every chapter), so a link within
    # a page points at its own page's anchor, explicitly. Chromium writes links between
    # pages as URLs of the local server, which mean nothing once it has stopped: a link to
    # a page of the book jumps to that place in the PDF; any other link to the local server
    # (a notebook download, the index, the PDF itself) is dropped, its text kept.
    for index, sheet in enumerate(writer.pages):
        annotations = sheet.get("/Annots")
        if not annotations:
            continue
        kept = ArrayObject()
        for ref in annotations:
            annot = ref.get_object()
            target = None
            if isinstance(annot.get("/Dest"), str):
                target = destination(sheet_page[index], str(annot["/Dest"]).lstrip("/"))
                if target is None:
                    continue
            else:
                action = annot.get("/A")
                uri = action.get_object().get("/URI") if action is not None else None
                if uri is not None and str(uri).startswith(base):
                    link = _link_target(str(uri), base)
                    target = destination(*link) if link else None
                    if target is None:
                        continue
                    del annot[NameObject("/A")]
            if target is not None:
                annot[NameObject("/Dest")] = target
            kept.append(ref)
        sheet[NameObject("/Annots")] = kept
    # Every link now points at its sheet; the merged (and colliding) names are not needed.
    if "/Names" in writer.root_object:
        del writer.root_object[NameObject("/Names")]

    if stamps is not None:
        stamp_sheets = PdfWriter(clone_from=io.BytesIO(stamps)).pages
        if len(stamp_sheets) != len(writer.pages):
            sys.exit(f"book_pdf: {len(stamp_sheets)} stamp sheets for "
                     f"{len(writer.pages)} sheets of the book")
        for sheet, stamp in zip(writer.pages, stamp_sheets):
            sheet.merge_page(_artifact(stamp))

    structure.finish({ref.idnum for sheet in writer.pages
                      for ref in sheet.get("/Annots") or []})
    writer.page_mode = "/UseOutlines"
    writer.metadata = None
    writer.add_metadata(metadata(title, author, language))
    writer.compress_identical_objects(remove_duplicates=True, remove_unreferenced=True)
    return writer


def build_pdf(html: Path, out: Path, root: Path = ROOT) -> dict:
    """Print the book in ``html`` to ``out``; return what was made, for the log.

    Pages are numbered by their place in the PDF (the cover is page 1, unnumbered), so a
    printed number is the number a PDF reader shows. The contents are printed once to
    learn how many sheets they take, then again with the page numbers that follow."""
    started = time.monotonic()
    config = yaml.safe_load((root / "_config.yml").read_text())
    language = (config.get("sphinx", {}).get("config", {}) or {}).get("language", "en")
    _ = translator(language, "book_pdf")
    heading = _("Contents")
    title, author = config.get("title", "Book"), config.get("author", "")
    pages, parts = printed_pages(root), toc_parts(root)
    figures = page_figures(html, root, pages)
    with browser(html) as (context, base):
        printed = print_pages(context, base, html, pages, figures)
        titles = {page: page_title for page, page_title, _data in printed}
        lengths = [sheets(data) for _page, _title, data in printed]
        cover = print_html(context, cover_html(title, author, language))
        contents_sheets, contents = 1, b""
        for _attempt in range(3):
            first = sheets(cover) + contents_sheets + 1
            numbers = {}
            for page, length in zip(pages, lengths):
                numbers[page], first = first, first + length
            contents = print_html(context, contents_html(
                heading, parts, titles, numbers, base, language))
            if sheets(contents) == contents_sheets:
                break
            contents_sheets = sheets(contents)
        headers = ([None] * sheets(cover) + [heading] * contents_sheets
                   + [page_title for (_p, page_title, _d), length in zip(printed, lengths)
                      for _sheet in range(length)])
        # untagged: merge() marks the stamps as pagination (an artifact), outside the tree
        stamps = print_html(context, stamps_html(headers, language), print_background=False,
                            tagged=False,
                            margin={"top": "0", "bottom": "0", "left": "0", "right": "0"})
    front = [("_cover", None, cover), ("_contents", heading, contents)]
    writer = merge(printed, base, title, author, front=front, stamps=stamps,
                   language=language)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "wb") as handle:
        writer.write(handle)
    return {"pages": len(pages), "sheets": len(writer.pages), "bytes": out.stat().st_size,
            "figures": len(figures), "seconds": time.monotonic() - started}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=Path, default=ROOT / "_build" / "html",
                        help="the built site (default: _build/html)")
    parser.add_argument("--out", type=Path, default=None,
                        help=f"the PDF (default: <html>/{PDF_NAME})")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the book's source, for its _toc.yml and title (default: the "
                             "English book; ru for the Russian one)")
    parser.add_argument("--figure-cells", action="store_true",
                        help="print the medium the PDF draws its figures for and the "
                             "chapters' figure cells it draws, as JSON, and stop "
                             "(bookbuild/site.py draws them with the decks' first)")
    args = parser.parse_args(argv)
    if args.figure_cells:
        print(json.dumps({"medium": PAGE_MEDIUM, "cells": {
            str(path): indices
            for path, indices in page_figure_cells(args.root.resolve()).items()}}))
        return 0
    out = args.out or args.html / PDF_NAME
    made = build_pdf(args.html, out, args.root.resolve())
    print(f"book_pdf: {made['pages']} pages of the book ({made['figures']} figures drawn "
          f"for the page), {made['sheets']} A4 sheets, "
          f"{made['bytes'] / 1e6:.1f} MB in {made['seconds']:.0f} s -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
