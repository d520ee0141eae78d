"""The teacher's slide decks: a reveal.js deck per plan of the teacher's guide, in each
edition.

    .venv/bin/python -m bookbuild.slides SITE    (make book runs it from bookbuild/site.py)

For the 90-minute plan and the two-class plan of ``book/teaching.md`` (the blocks and
minutes of ``teacher_page.PLANS``), each block gets slides made from what the book
shows, never written twice:

* a title slide with the block's objective and the question to ask before the cell runs
  (its answer appears on the next key press);
* the chapter's key figure: the PNG stored in the chapter (the Russian chapter's in the
  Russian deck), under the heading of the section it stands in;
* the chapter's formulas, typeset at build time by ``scripts/slides_maths.js`` (the npm
  MathJax, as the book's pages are), so a deck loads no MathJax;
* the printed output of the chapter's teaching cell, as stored in the chapter;
* the chapter's live explorer (its stored HTML, brought to life by ``_static/live.js``
  as on the chapter's page): it runs in the slide with no kernel and no network.

The speaker notes of every slide carry the block's talking points with the chapters'
glued numbers, filled in by ``teacher_page.fill_numbers`` from the same stored outputs
as the guide's plan, and the question's answer. The decks go to ``SITE/slides/`` and
``SITE/ru/slides/`` and reach reveal.js, live.js and the maths fonts through relative
paths into the site's ``_static`` (``scripts/vendor_assets.sh`` vendors reveal.js from
npm), so a deck works offline, from the static site or from the file system.
"""

from __future__ import annotations

import ast
import base64
import hashlib
import html
import io
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import nbformat

from bookbuild.catalogs import translator
from bookbuild.fonts import subset_font, unicode_ranges
from bookbuild.run import ROOT
from bookbuild.teacher_page import (IDEAS, PLANS, TEACHING, RU_TEACHING, chapter_number,
                          edition_chapters, fill_numbers, plan_numbers, teaching_cell)


@dataclass(frozen=True)
class Key:
    """What a block shows from its chapter: the first figure of the section headed
    ``figure`` and the display formulas ``(section, n)`` (the n-th formula of that
    section), sections named by their English headings."""

    chapter: int
    figure: str
    formulas: tuple[tuple[str, int], ...] = ()


_SELFCOND = "Self-conditioning: errors in the history invite more errors"
_REVISION = Key(5, "What an arbiter buys", (("A two-state model of revision", 0),))
#: Each block's chapter material (a block without one has its title slide only).
KEYS = {
    "chain": Key(1, "The horizon", (("One step, then many", 0), ("The horizon", 0))),
    "retries": Key(2, "More attempts, diminishing returns",
                   (("Why retries cannot touch silent errors", 0),)),
    "passk": Key(4, "Same pass^1, very different pass^8",
                 (("Two questions about the same runs", 0),)),
    "selfcond": Key(5, _SELFCOND, ((_SELFCOND, 0),)),
    "selfcorrection": _REVISION,
    "revision": _REVISION,
    "verifier": Key(3, "Recall against false rejection",
                    (("A second check on every answer", 0),)),
    "budgets": Key(7, "What limits address in the MAST failure shares",
                   (("Four budgets, counted per task", 0),)),
    "ladder": Key(8, "An outage, with and without a breaker",
                  (("Cascade is not fallback", 0),)),
    "format": Key(6, "Where the tax is paid: the prompt, not the decoder",
                  (("Form and content as two rates", 0),)),
    "lab": Key(9, "Four failures, each met by the right and by a wrong guardrail"),
    "reading": Key(10, "Paired columns: Relevance and Irrelevance",
                   (('"Tool hallucination" is several failures', 0),)),
}

#: The decks: file name and the plans (teacher_page.PLANS) each one runs through.
DECKS = {"one-class": ("one-class",), "two-class": ("class-1", "class-2")}
#: Where reveal.js, live.js and the maths fonts are, from a deck in SITE/slides/.
STATIC = "../_static"
MATHS_FONTS = f"{STATIC}/vendor/mathjax/output/chtml/fonts/woff-v2"
CSS = ROOT / "scripts" / "slides.css"
LIVE_JS = ROOT / "book" / "_static" / "live.js"

_HEADING = re.compile(r"^(#{2,3}) (.+)$", re.M)
_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.S)
_REGION = "<!-- plan-{plan}: begin -->"


def _source(cell) -> str:
    source = cell["source"]
    return source if isinstance(source, str) else "".join(source)


def _plain(markdown: str) -> str:
    """A heading's words without Markdown's backticks and emphasis."""
    return re.sub(r"[`*]", "", markdown).strip()


def plan_titles(teaching: str) -> dict[str, str]:
    """Each plan's heading in the teacher's guide (``## One class of 90 minutes``, ``###
    Class 1: ...``), and the deck's: a deck of several plans takes the heading above its
    first plan's (``## Two classes of 90 minutes``)."""
    titles = {}
    for plan in PLANS:
        before = teaching.split(_REGION.format(plan=plan), 1)[0]
        headings = _HEADING.findall(before)
        titles[plan] = _plain(headings[-1][1])
        if headings[-1][0] == "###":
            titles[f"deck:{plan}"] = _plain(next(h for level, h in reversed(headings)
                                                 if level == "##"))
    return titles


class Chapter:
    """One chapter of an edition, read for its slides, with the English chapter it was
    made from cell for cell (the English headings find a section in either edition)."""

    def __init__(self, number: int, language: str):
        self.path = next(p for p in edition_chapters(language)
                         if chapter_number(p) == number)
        self.nb = nbformat.read(str(self.path), as_version=4)
        self.english = nbformat.read(str(ROOT / "chapters" / self.path.name),
                                     as_version=4)
        self.language = language

    def _section_cells(self, heading: str) -> list[int]:
        """The indices of the cells of the section with this English heading."""
        inside, found = False, []
        for index, cell in enumerate(self.english.cells):
            if cell.cell_type == "markdown":
                headings = re.findall(r"^## (.+)$", _source(cell), re.M)
                if headings:
                    inside = headings[-1].strip() == heading
            if inside:
                found.append(index)
        if not found:
            raise ValueError(f"{self.path.name} has no section headed {heading!r}")
        return found

    def heading(self, index: int) -> str:
        """The edition's heading of the section that holds cell ``index``."""
        for cell in reversed(self.nb.cells[:index + 1]):
            if cell.cell_type == "markdown":
                headings = re.findall(r"^## (.+)$", _source(cell), re.M)
                if headings:
                    return _plain(headings[-1])
        raise ValueError(f"{self.path.name}: cell {index} is under no section")

    def title(self) -> str:
        return _plain(re.search(r"^# (.+)$", _source(self.nb.cells[0]), re.M)[1])

    def figure(self, heading: str) -> tuple[int, bytes, str]:
        """The first stored PNG of the section: its cell's index, its bytes and the alt
        text the chapter gives it (the cell's ``mystnb.image.alt``, in the edition's
        language), or "" when the cell has none."""
        for index in self._section_cells(heading):
            cell = self.nb.cells[index]
            for output in cell.get("outputs", []):
                png = output.get("data", {}).get("image/png")
                if png:
                    alt = cell.metadata.get("mystnb", {}).get("image", {}).get("alt", "")
                    return index, base64.b64decode(png), alt
        raise ValueError(f"{self.path.name}: no stored figure under {heading!r}")

    def formula(self, heading: str, n: int) -> tuple[int, str]:
        formulas = [(index, tex.strip()) for index in self._section_cells(heading)
                    if self.nb.cells[index].cell_type == "markdown"
                    for tex in _DISPLAY.findall(_source(self.nb.cells[index]))]
        if len(formulas) <= n:
            raise ValueError(f"{self.path.name}: no formula {n} under {heading!r}")
        return formulas[n]

    def teaching_output(self) -> str:
        """What the chapter's teaching cell printed, as stored."""
        english = None if self.language == "en" else self.english
        _, code = teaching_cell(self.nb, self.path.name, english)
        return "".join(_source({"source": o.get("text", "")}) for o in code.outputs
                       if o.output_type == "stream").rstrip()

    def explorer(self) -> str:
        """The chapter's live explorer, as its stored output (reliability.live)."""
        for cell in self.nb.cells:
            for output in cell.get("outputs", []):
                markup = output.get("data", {}).get("text/html", "")
                markup = markup if isinstance(markup, str) else "".join(markup)
                if 'class="live-explorer"' in markup:
                    return markup
        raise ValueError(f"{self.path.name} stores no live explorer")


#: Where a slide's figure is drawn for (reliability.figures._media.MEDIA).
SLIDE_MEDIUM = "slide"
#: Slide figures already drawn, by what they are drawn from (kept between builds).
FIGURE_CACHE = ROOT / "_build" / "slide-figures"


#: What a figure function's name starts with: a figure (``plot_``), or an animation
#: (``animate_``), whose last frame stands for it where nothing moves (the PDF).
FIGURE_FUNCTIONS = ("plot_", "animate_")


def _figure_calls(tree) -> list:
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id.startswith("fig_")
            and node.func.attr.startswith(FIGURE_FUNCTIONS)]


def figure_call(source: str) -> tuple[str, str] | None:
    """The module of reliability.figures and the function a figure cell's one call of a
    figure function (``fig_<topic>.plot_<what>(...)``, or ``animate_<what>`` for an
    animation) names, or None for any other cell."""
    try:
        calls = _figure_calls(ast.parse(source))
    except SyntaxError:   # a cell of IPython magics
        return None
    if len(calls) != 1:
        return None
    return calls[0].func.value.id[len("fig_"):], calls[0].func.attr


def with_medium(source: str, medium: str) -> str:
    """A figure cell's code with ``medium=`` added to its one call of a figure
    function (``fig_<topic>.plot_<what>(...)``): the chapter's own call, at the
    chapter's numbers, drawn for ``medium``."""
    tree = ast.parse(source)
    calls = _figure_calls(tree)
    if len(calls) != 1:
        raise ValueError(f"a slide's figure cell must make one call of a figure "
                         f"function (fig_<topic>.plot_<what>), found {len(calls)}:\n"
                         f"{source}")
    calls[0].keywords = [k for k in calls[0].keywords if k.arg != "medium"] + [
        ast.keyword("medium", ast.Constant(medium))]
    return ast.unparse(tree)


def legibility_problems(fig, medium: str) -> list[str]:
    """What would make ``fig``, drawn for ``medium``, hard to read where that medium
    shows it (text too small, text over text, a legend over data, text past an edge),
    measured by :func:`reliability.notebook.figure_problems` at the medium's width: the
    chapters' tests audit the phone's figures, this audits every other medium's."""
    from reliability.figures import _media
    from reliability.notebook import figure_problems

    shown = _media.medium(medium).shown_px
    return figure_problems(fig) if shown is None else figure_problems(fig,
                                                                       column_px=shown)


def _figures_for_media(path: Path, wanted: dict[str, list[int]], each) -> None:
    """Run the chapter at ``path`` once (its code cells, at its defaults, in this
    process) up to the last cell any medium wants; each figure cell in ``wanted[medium]``
    draws its figure for that medium (once per medium that wants it, in the order of
    ``wanted``) and hands it to ``each(medium, index, fig)``. A figure cell's call reads
    the chapter's numbers and draws: drawn twice, it leaves the chapter as drawn once
    (tests/test_slides.py checks the pictures are those drawn one medium a process)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from reliability import i18n

    nb = nbformat.read(str(path), as_version=4)
    namespace = {"__name__": "__main__"}
    last = max(index for indices in wanted.values() for index in indices)
    # the chapter's setup() sets the package's language and matplotlib's style for the
    # rest of the process: both are put back, so a Russian chapter drawn here leaves the
    # caller (a test, the build) in the language it was in
    with redirect_stdout(io.StringIO()), matplotlib.rc_context(), \
            i18n.language(i18n.get_language()):
        for index, cell in enumerate(nb.cells[:last + 1]):
            if cell.cell_type != "code":
                continue
            source = _source(cell)
            media = [medium for medium, indices in wanted.items() if index in indices]
            for medium in media:
                drawing = with_medium(source, medium)
                exec(compile(drawing, f"{path.name}, cell {index}", "exec"), namespace)
                each(medium, index, _drawn_figure(drawing, namespace))
                plt.close("all")
            if not media:
                exec(compile(source, f"{path.name}, cell {index}", "exec"), namespace)
                plt.close("all")


def _drawn_figure(source: str, namespace: dict):
    """The figure a figure cell drew (its ``fig``), or, for an animation (the cell's
    ``name = fig_<topic>.animate_<what>(...)``), the animation's figure at its last
    frame: where the runs have finished, the frame the PDF prints."""
    call = _figure_calls(ast.parse(source))[0]
    if not call.func.attr.startswith("animate_"):
        return namespace["fig"]
    names = [node.targets[0].id for node in ast.walk(ast.parse(source))
             if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
             and ast.dump(node.value) == ast.dump(call)]
    if len(names) != 1:
        raise ValueError(f"an animation's cell must keep its animation in one name "
                         f"(animation = fig_<topic>.animate_<what>(...)):\n{source}")
    animation = namespace[names[0]]
    # a figure's first draw (the legibility audit's, the PNG's) starts an animation
    # that has not started, which draws its first frame again: it never starts here
    animation._fig.canvas.mpl_disconnect(animation._first_draw_id)
    *_, last = animation.new_frame_seq()
    animation._draw_frame(last)   # as the player's last frame draws it
    return animation._fig


def draw_for_medium(path: Path, indices: list[int], medium: str) -> dict[int, bytes]:
    """Run the chapter at ``path`` (its code cells, at its defaults, in this process)
    up to the last of ``indices``, each of those figure cells drawing its figure for
    ``medium``; returns each one's PNG (at twice the pixels, as the book's figures,
    carrying its smallest text's height as they do). A figure that would be hard to
    read is drawn all the same, with a warning (tests/test_slides.py fails on it)."""
    drawn = draw_for_media(path, {medium: indices})[medium]
    return {index: png for index, (png, unused) in drawn.items()}


def draw_for_media(path: Path, wanted: dict[str, list[int]]
                   ) -> dict[str, dict[int, tuple[bytes, list[str]]]]:
    """:func:`draw_for_medium` for several media from one run of the chapter: each
    figure cell of ``wanted[medium]`` as its PNG and its :func:`legibility_problems`
    for that medium, by medium and cell index."""
    from IPython.core.pylabtools import print_figure

    drawn: dict[str, dict[int, tuple[bytes, list[str]]]] = {m: {} for m in wanted}

    def save(medium, index, fig):   # saved as the chapter's inline figures are
        problems = legibility_problems(fig, medium)
        for problem in problems:
            print(f"warning: {path.name}, cell {index}, drawn for medium {medium!r}: "
                  f"{problem}", file=sys.stderr)
        drawn[medium][index] = (print_figure(fig, "retina", bbox_inches="tight",
                                             metadata={"Software": None}), problems)

    _figures_for_media(path, wanted, save)
    return drawn


def _sources_digest() -> str:
    """What a figure depends on beside its chapter: the package and the data."""
    digest = hashlib.sha256()
    for path in sorted([*(ROOT / "reliability").rglob("*.py"),
                        *(ROOT / "reliability").rglob("*.po"),
                        *(ROOT / "data").glob("*.csv")]):
        digest.update(str(path.relative_to(ROOT)).encode() + path.read_bytes())
    return digest.hexdigest()


def slide_figures(wanted: dict[Path, list[int]], medium: str = SLIDE_MEDIUM
                  ) -> dict[tuple[Path, int], bytes]:
    """Each chapter's figure cells ``wanted[path]`` drawn for ``medium``, one chapter a
    process (two at a time), or from :data:`FIGURE_CACHE` when the chapter's code up to
    the cell, the package and the data are as they were."""
    return {key: png for key, (png, unused) in media_figures({medium: wanted})[medium].items()}


def figure_audits(wanted: dict[Path, list[int]], medium: str
                  ) -> dict[tuple[Path, int], list[str]]:
    """What the legibility audit found in each of the chapters' figure cells
    ``wanted[path]`` drawn for ``medium`` (:func:`legibility_problems`; an empty list: it
    reads): the audit the build made as it drew them (:data:`FIGURE_CACHE` keeps it
    beside the picture), or made now, drawing them, where the build has not."""
    return {key: problems
            for key, (unused, problems) in media_figures({medium: wanted})[medium].items()}


def media_figures(wanted: dict[str, dict[Path, list[int]]]
                  ) -> dict[str, dict[tuple[Path, int], tuple[bytes, list[str]]]]:
    """Each chapter's figure cells ``wanted[medium][path]``, as (PNG, legibility
    problems) by medium and (path, index): from :data:`FIGURE_CACHE` when the chapter's
    code up to the cell, the package and the data are as they were, otherwise drawn, one
    process a chapter for every medium it is wanted in (two chapters at a time), and
    kept there. The decks' slides and the PDF's pages draw the same chapters: asked for
    together (bookbuild/site.py's ``draw_figures``), each chapter runs once for both."""
    package = _sources_digest()
    found: dict[str, dict] = {medium: {} for medium in wanted}
    missing: dict[Path, dict[str, list[int]]] = {}
    keys = {}
    notebooks: dict[Path, list[str]] = {}
    for medium, chapters in wanted.items():
        for path, indices in chapters.items():
            if path not in notebooks:
                nb = nbformat.read(str(path), as_version=4)
                notebooks[path] = [_source(c) if c.cell_type == "code" else None
                                   for c in nb.cells]
            for index in indices:
                code = [c for c in notebooks[path][:index + 1] if c is not None]
                key = hashlib.sha256(
                    json.dumps([package, medium, path.name, code]).encode())
                keys[medium, path, index] = FIGURE_CACHE / f"{key.hexdigest()[:24]}.png"
                audit = keys[medium, path, index].with_suffix(".json")
                if keys[medium, path, index].is_file() and audit.is_file():
                    found[medium][path, index] = (keys[medium, path, index].read_bytes(),
                                                  json.loads(audit.read_text()))
                elif index not in missing.setdefault(path, {}).setdefault(medium, []):
                    missing[path][medium].append(index)

    def draw(path: Path) -> dict[str, dict[int, tuple[bytes, list[str]]]]:
        ran = subprocess.run([sys.executable, "-m", "bookbuild.slides", "--draw",
                              json.dumps(missing[path]), str(path)],
                             capture_output=True, text=True, cwd=ROOT)
        if ran.returncode != 0:
            raise RuntimeError(f"drawing {path.name}'s figures for "
                               f"{', '.join(missing[path])} failed: "
                               f"{ran.stderr.strip()[-2000:]}")
        for line in ran.stderr.splitlines():   # the legibility audit's warnings
            if line.startswith("warning: "):
                print(line, file=sys.stderr)
        return {medium: {int(i): (base64.b64decode(png), problems)
                         for i, (png, problems) in figures.items()}
                for medium, figures in json.loads(ran.stdout).items()}

    def keep(path: Path, data: bytes) -> None:
        # whole or not at all: another build (a test worker) may read it now
        part = path.with_suffix(f".{os.getpid()}.part")
        part.write_bytes(data)
        part.replace(path)

    with ThreadPoolExecutor(2) as pool:
        for path, drawn in zip(missing, pool.map(draw, missing)):
            for medium, figures in drawn.items():
                for index, (png, problems) in figures.items():
                    found[medium][path, index] = (png, problems)
                    FIGURE_CACHE.mkdir(parents=True, exist_ok=True)
                    keep(keys[medium, path, index], png)
                    keep(keys[medium, path, index].with_suffix(".json"),
                         json.dumps(problems).encode())
    return found


def typeset(formulas: list[str]) -> tuple[list[str], str]:
    """The formulas' CHTML markup and their stylesheet (scripts/slides_maths.js)."""
    script = ROOT / "scripts" / "slides_maths.js"
    ran = subprocess.run(["node", str(script), MATHS_FONTS], input=json.dumps(formulas),
                         capture_output=True, text=True, cwd=ROOT)
    if ran.returncode != 0:
        raise RuntimeError(f"slides_maths.js failed: {ran.stderr.strip()[-2000:]}; run "
                           "scripts/vendor_assets.sh (make book does) first")
    typeset = json.loads(ran.stdout)
    return typeset["html"], typeset["css"]


def _notes(lines: list[str]) -> str:
    body = "".join(f"<p>{line}</p>" for line in lines if line)
    return f'<aside class="notes">{body}</aside>'


def _slide(body: str, notes: list[str], kind: str) -> str:
    return f'<section class="slide-{kind}">\n{body}\n{_notes(notes)}\n</section>'


def _block_slides(block: str, text: dict, chapter: Chapter | None, material: dict,
                  labels) -> list[str]:
    """The slides of one block of a plan: its title slide, then (for a block with a
    chapter) the figure, the formulas, the teaching cell's output and the explorer.
    ``material`` gathers what the deck needs beside its HTML: figures, formulas and
    the chapters whose explorers it already shows."""
    _, plan_, esc = labels
    talking = [f"<strong>{esc(plan_('Talking points'))}:</strong> {text['points']}"]
    answer = f"<strong>{esc(plan_('Answer'))}:</strong> {text['answer']}"
    slides = [_slide(
        f"<h2>{text['number']}. {esc(plan_(IDEAS[block].title))}</h2>\n"
        f'<p class="block-minutes">{esc(text["minutes"])}</p>\n'
        f'<p class="objective"><strong>{esc(plan_("Objective"))}:</strong> '
        f"{text['objective']}</p>\n"
        f'<p class="question"><strong>{esc(plan_("Ask before the cell runs"))}:'
        f"</strong> {text['question']}</p>\n"
        f'<p class="answer fragment">{answer}</p>', talking + [answer], "block")]
    key = KEYS.get(block)
    if chapter is None or key is None:
        return slides
    source = '<p class="source">' + esc(_("Chapter {number}: {title}").format(
        number=key.chapter, title=chapter.title())) + "</p>"
    index, unused, alt = chapter.figure(key.figure)
    file = f"ch{key.chapter:02d}-cell{index:02d}.png"
    # the chapter's figure drawn again for the slide, by the same function and numbers
    material["figures"][file] = material["drawn"][chapter.path, index]
    heading = esc(chapter.heading(index))
    # data-src: reveal.js loads a figure a few slides ahead, not all with the deck
    # (eight figures took the bandwidth a phone needed for the first slide)
    slides.append(_slide(f'<h3>{heading}</h3>\n<img class="key-figure" data-src="{file}" '
                         f'alt="{esc(alt) or heading}">\n{source}', talking, "figure"))
    if key.formulas:
        shown, headings = [], []
        for section, n in key.formulas:
            cell, tex = chapter.formula(section, n)
            material["formulas"].append(tex)
            marker = f"<!--formula:{len(material['formulas']) - 1}-->"
            shown.append(f'<div class="formula">{marker}</div>')
            headings.append(esc(chapter.heading(cell)))
        title = " · ".join(dict.fromkeys(headings))
        slides.append(_slide(f"<h3>{title}</h3>\n" + "\n".join(shown) + f"\n{source}",
                             talking, "formulas"))
    output = esc(chapter.teaching_output())
    slides.append(_slide(f"<h3>{esc(_('The teaching cell prints'))}</h3>\n"
                         f'<pre class="cell-output">{output}</pre>\n{source}', talking,
                         "output"))
    if key.chapter not in material["explorers"]:  # a chapter's explorer once per deck
        material["explorers"].add(key.chapter)
        live = esc(_("Live: move the controls (no kernel, no network)"))
        slides.append(_slide(f"<h3>{live}</h3>\n{chapter.explorer()}\n{source}",
                             talking, "explorer"))
    return slides


def deck_figures(names, language: str) -> dict[tuple[Path, int], bytes]:
    """The key figures of the decks ``names`` in ``language``, drawn for a slide
    (:func:`slide_figures`), by chapter path and cell index."""
    return slide_figures(deck_figure_cells(names, language))


def deck_figure_cells(names, language: str) -> dict[Path, list[int]]:
    """The figure cells of each chapter whose figure the decks ``names`` in ``language``
    show, by chapter path."""
    wanted: dict[Path, list[int]] = {}
    for name in names:
        for plan in DECKS[name]:
            for unused, block in PLANS[plan]:
                key = KEYS.get(block)
                if key is None:
                    continue
                chapter = Chapter(key.chapter, language)
                index = chapter.figure(key.figure)[0]
                if index not in wanted.setdefault(chapter.path, []):
                    wanted[chapter.path].append(index)
    return wanted


def deck(name: str, language: str = "en", numbers: dict | None = None,
         drawn: dict | None = None) -> dict:
    """One deck: its HTML, the figures it shows (file name to PNG bytes, drawn for the
    slide: ``drawn`` as :func:`deck_figures` gives them, made here if None) and the TeX
    of its formulas, still to be typeset (``<!--formula:n-->`` marks where each
    goes)."""
    numbers = plan_numbers() if numbers is None else numbers
    drawn = deck_figures([name], language) if drawn is None else drawn
    _ = translator(language, "slides")
    plan_ = translator(language, "teacher_page")
    esc = html.escape
    guide = TEACHING if language == "en" else RU_TEACHING
    titles = plan_titles(guide.read_text(encoding="utf-8"))
    plans = DECKS[name]
    deck_title = titles.get(f"deck:{plans[0]}", titles[plans[0]])
    material = {"figures": {}, "formulas": [], "explorers": set(), "drawn": drawn}
    chapters: dict[int, Chapter] = {}
    minutes = plan_("{minutes} min").format(
        minutes=sum(m for plan in plans for m, _block in PLANS[plan]))
    lesson = _("Lesson 16: why agents fail, and which guardrail fixes which failure")
    speaker = _("Press s for the speaker view (these notes, the next slide and a "
                "timer); the live explorers need no kernel and no network.")
    slides = [_slide(f"<h1>{esc(deck_title)}</h1>\n<p>{esc(lesson)}</p>\n"
                     f'<p class="deck-minutes">{esc(minutes)}</p>', [esc(speaker)],
                     "title")]
    for plan in plans:
        if len(plans) > 1:
            slides.append(_slide(f"<h1>{esc(titles[plan])}</h1>", [], "part"))
        for number, (block_minutes, block) in enumerate(PLANS[plan], 1):
            text = {field: esc(fill_numbers(plan_(getattr(IDEAS[block], field)),
                                            numbers, language))
                    for field in ("objective", "points", "question", "answer")}
            text.update(number=number,
                        minutes=plan_("{minutes} min").format(minutes=block_minutes))
            key = KEYS.get(block)
            if key is not None and key.chapter not in chapters:
                chapters[key.chapter] = Chapter(key.chapter, language)
            chapter = chapters.get(key.chapter) if key is not None else None
            slides += _block_slides(block, text, chapter, material, (_, plan_, esc))
    page = TEMPLATE.format(language=language, title=esc(deck_title), static=STATIC,
                           slides="\n".join(slides))
    return {"html": page, "figures": material["figures"],
            "formulas": material["formulas"]}


TEMPLATE = """<!DOCTYPE html>
<html lang="{language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="{static}/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="{static}/vendor/reveal.js/dist/reveal.css">
<link rel="stylesheet" href="theme.css">
<link rel="stylesheet" href="{static}/live.css">
<link rel="stylesheet" href="mathjax-chtml.css">
<link rel="stylesheet" href="slides.css">
</head>
<body>
<div class="reveal"><div class="slides">
{slides}
</div></div>
<script src="{static}/vendor/reveal.js/dist/reveal.js"></script>
<script>
// the speaker view and the explorers load after the first slide is shown (defer, below)
Reveal.initialize({{width: 1280, height: 720, margin: 0.04, hash: true, center: false,
                   transition: "none"}});
// live.js sizes a chart to its slide; a slide hidden at load is measured when shown.
// Its own event, not a window resize: reveal.js lays every slide out again on a resize
// (half a second on a phone), and in its scroll view it announces a slide change from
// that handler, which called this again until the stack overflowed.
function measureCharts() {{ window.dispatchEvent(new Event("live:measure")); }}
Reveal.on("slidechanged", measureCharts);
Reveal.on("ready", measureCharts);
// On a phone the scroll view scrolls the viewport (the body), not the page: a keyboard
// reaches it only if it can take focus (axe-core's scrollable-region-focusable).
function focusableScroll() {{
  const viewport = Reveal.getViewportElement();
  if (Reveal.isScrollView()) viewport.tabIndex = 0;
  else viewport.removeAttribute("tabindex");
}}
Reveal.on("ready", focusableScroll);
Reveal.on("resize", focusableScroll);
</script>
<script defer src="speaker-view.js"
        onload="Reveal.registerPlugin(RevealNotes)"></script>
<script defer src="{static}/live.js"></script>
</body>
</html>
"""


_LIVE_DATA = re.compile(r'<script type="application/json" class="live-data">(.*?)'
                        r'</script>', re.S)


def data_apart(page: str) -> tuple[str, dict[str, str]]:
    """Move each explorer's stored positions out of a deck into a script of its own.

    Inline, they were nine tenths of a deck (680 KB of 750), and a phone showed no slide
    until all of it had arrived. Each file sets ``window.liveData[key]``; the holder
    names it in ``data-src``, and live.js adds it as a ``<script src>`` when the
    explorer's slide nears, so a deck fetches no explorer's data before its first slide
    shows (loaded with the page, the ten files took a phone's bandwidth from the first
    slide's words). A ``<script src>`` also works when the deck is opened as a file,
    where fetching JSON does not. Returns the page and its files (name to text)."""
    files = {}

    def apart(match) -> str:
        # named by content: both decks (and both visits) share an explorer's file
        key = "explorer-" + hashlib.sha256(match[1].encode()).hexdigest()[:12]
        files[f"{key}.js"] = ("(window.liveData = window.liveData || {})"
                              f"[{json.dumps(key)}] = {match[1].strip()};\n")
        return (f'<script type="application/json" class="live-data" data-key="{key}" '
                f'data-src="{key}.js"></script>')

    return _LIVE_DATA.sub(apart, page), files


NOTES_JS = (ROOT / "book" / "_static" / "vendor" / "reveal.js" / "plugin" / "notes"
            / "notes.js")
#: The clock of the speaker view: the edition's locale and its way of telling the time.
CLOCKS = {"en": "'en-US', { hour12: true,", "ru": "'ru-RU', { hour12: false,"}


def _js_text(text: str) -> str:
    """``text`` as it may stand inside a quoted string of notes.js (either quote)."""
    return json.dumps(text, ensure_ascii=False)[1:-1].replace("'", "\\'")


def speaker_view(language: str) -> str:
    """reveal.js's notes plugin (its speaker view is a page written into the pop-up)
    with the view's words in the edition's language: its labels, layouts, clock, and
    the messages it may show. Raises RuntimeError if reveal.js no longer spells one of
    them as below (a new reveal.js would bring English back into a Russian deck)."""
    _ = translator(language, "slides")
    script = NOTES_JS.read_text(encoding="utf-8")
    pacing = "Pacing \u2013 Time to finish current slide"
    popup = ("Speaker view popup failed to open. Please make sure popups are allowed "
             "and reopen the speaker view.")
    # as notes.js spells them, and where the edition's words go ({} in the second)
    words = [
        ("reveal.js - Speaker View", "{}", _("Speaker view")),
        ("Loading speaker view...", "{}", _("Loading the speaker view...")),
        (">Upcoming<", ">{}<", _("Upcoming")),
        (">Time <span", ">{} <span", _("Time")),
        ("Click to Reset", "{}", _("Click to Reset")),
        (pacing, "{}", _("Pacing: time to finish the current slide")),
        (">Notes<", ">{}<", _("Notes")),
        ("'Default'", "'{}'", _("Default")),
        ("'Wide'", "'{}'", _("Wide")),
        ("'Tall'", "'{}'", _("Tall")),
        ("'Notes only'", "'{}'", _("Notes only")),
        ("'Layout' +", "'{}' +", _("Layout")),
        (popup, "{}", _("The speaker view did not open: allow pop-ups for this page "
                        "and press s again.")),
        ('description:"Speaker notes view"', 'description:"{}"',
         _("Speaker notes view")),
    ]
    replacements = {english: where.format(_js_text(shown))
                    for english, where, shown in words}
    replacements['lang=\\"en\\"'] = f'lang=\\"{language}\\"'
    replacements["0:00 AM"] = "0:00 AM" if language == "en" else "0:00"
    replacements[CLOCKS["en"]] = CLOCKS[language]
    for english, shown in replacements.items():
        if script.count(english) != 1:
            raise RuntimeError(f"reveal.js's notes.js no longer says {english!r} once; "
                               "update speaker_view in bookbuild/slides.py")
        script = script.replace(english, shown)
    return script


#: reveal.js's text face (its white theme's), four styles of about 110 KB each.
FONTS = ROOT / "book" / "_static" / "vendor" / "reveal.js" / "dist" / "theme" / "fonts"
FACES = {"regular": ("normal", "normal"), "italic": ("normal", "italic"),
         "semibold": ("600", "normal"), "semibolditalic": ("600", "italic")}


def deck_theme(out: Path, texts: list[str]) -> str:
    """reveal.js's white theme with its text face cut to the characters of ``texts``
    (the edition's decks, their explorers' data and live.js) and printable ASCII; the
    cuts are written into ``out``, and the theme's text is returned.

    The theme's four Source Sans Pro faces are 430 KB that a phone fetched before the
    first slide's words, and a Russian deck fetched them all just to find they have no
    Cyrillic; the cuts are about 20 KB each. The theme itself no longer imports the
    full faces: what the face lacks (Cyrillic, most mathematics) comes from the next
    font in the theme's list, as it did before."""
    wanted = {ord(c) for text in texts for c in text} | set(range(0x20, 0x7F))
    rules = []
    for face, (weight, style) in FACES.items():
        data, kept = subset_font(FONTS / "source-sans-pro" /
                                 f"source-sans-pro-{face}.woff", wanted,
                                 every_feature=False)
        file = (f"source-sans-pro-{face}-"
                f"{hashlib.sha256(data).hexdigest()[:10]}.woff")
        (out / file).write_bytes(data)
        rules.append(f"@font-face{{font-family:'Source Sans Pro';src:url('{file}') "
                     f"format('woff');font-weight:{weight};font-style:{style};"
                     f"font-display:swap;unicode-range:{unicode_ranges(kept)}}}")
    theme = (FONTS.parent / "white.css").read_text(encoding="utf-8")
    without_faces = re.sub(r"@import url\(\./fonts/source-sans-pro/[^)]*\);\s*", "",
                           theme)
    if without_faces == theme:
        raise RuntimeError("reveal.js's white.css no longer imports Source Sans Pro; "
                           "update deck_theme in bookbuild/slides.py")
    return "\n".join(rules) + "\n" + without_faces


def write_decks(site: Path, languages: tuple[str, ...] = ("en", "ru")) -> dict:
    """Write every deck of both editions into ``site/slides`` and ``site/ru/slides``;
    return the step's exit code and log, as :func:`build_book.build` reports a step."""
    numbers = plan_numbers()
    log = []
    try:
        for language in languages:
            out = Path(site) / ("slides" if language == "en" else f"{language}/slides")
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir(parents=True)
            drawn = deck_figures(DECKS, language)
            made = {name: deck(name, language, numbers, drawn) for name in DECKS}
            every = [tex for one in made.values() for tex in one["formulas"]]
            markup, css = typeset(every)
            (out / "mathjax-chtml.css").write_text(css, encoding="utf-8")
            start, shown = 0, [LIVE_JS.read_text(encoding="utf-8")]
            for name, made_deck in made.items():
                page = made_deck["html"]
                for n in range(len(made_deck["formulas"])):
                    page = page.replace(f"<!--formula:{n}-->", markup[start + n])
                start += len(made_deck["formulas"])
                # what the deck can show: its text, and its explorers' words (English
                # data escapes its non-ASCII characters)
                shown += [html.unescape(page)] + [
                    json.dumps(json.loads(data), ensure_ascii=False)
                    for data in _LIVE_DATA.findall(page)]
                page, scripts = data_apart(page)
                (out / f"{name}.html").write_text(page, encoding="utf-8")
                for file, text in scripts.items():
                    (out / file).write_text(text, encoding="utf-8")
                for file, png in made_deck["figures"].items():
                    (out / file).write_bytes(png)
                log.append(f"{out.relative_to(site) / name}.html: "
                           f"{page.count('<section')} slides")
            shutil.copy(CSS, out / "slides.css")
            speaker = speaker_view(language)
            (out / "speaker-view.js").write_text(speaker, encoding="utf-8")
            (out / "theme.css").write_text(deck_theme(out, shown), encoding="utf-8")
    except (ValueError, RuntimeError, OSError) as error:
        return {"returncode": 1, "log": "\n".join(log + [f"slides: {error}"])}
    return {"returncode": 0, "log": "\n".join(log)}


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--draw"]:   # one chapter's figures (media_figures runs it)
        drawn = draw_for_media(Path(args[2]), json.loads(args[1]))
        print(json.dumps({medium: {i: [base64.b64encode(png).decode(), problems]
                                   for i, (png, problems) in figures.items()}
                          for medium, figures in drawn.items()}))
        return 0
    if len(args) != 1:
        print(__doc__.splitlines()[2].strip(), file=sys.stderr)
        return 2
    result = write_decks(Path(args[0]))
    print(result["log"])
    return result["returncode"]


if __name__ == "__main__":
    sys.exit(main())
