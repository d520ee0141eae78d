"""Build the teacher's pages from the chapters: ``make notebooks`` (and ``make outputs``).

    .venv/bin/python scripts/teacher_page.py

Two things are generated, never written by hand:

* ``book/teaching_snippets.ipynb``: every chapter's "Teach it from one cell" code cell,
  in chapter order, with the outputs stored in the chapter (the ones nbval checks there)
  and the sentence that introduces it. A chapter added to ``chapters/`` is picked up by
  running this again; the book renders the page from these stored outputs and never
  executes it (``execute_notebooks: "off"`` in ``_config.yml``).
* The table of chapter times on the landing page (``book/intro.md``), between the
  ``chapter-times`` markers, computed from each chapter's words, cells and exercises by
  :func:`chapter_minutes`, so a chapter that grows gets a longer estimate.

``tests/test_teacher_page.py`` fails when either is out of date with the chapters.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))
from launch_notebooks import ROLE, Bibliography, Chapter, glued_values  # noqa: E402
from notebooks import ROOT, chapters  # noqa: E402
from translate import EDITION, translator  # noqa: E402

PAGE = ROOT / "book" / "teaching_snippets.ipynb"
INTRO = ROOT / "book" / "intro.md"
#: The Russian edition's pages, made the same way from the Russian chapters.
RU_PAGE = EDITION / "book" / "teaching_snippets.ipynb"
RU_INTRO = EDITION / "book" / "intro.md"


def edition_chapters(language: str = "en") -> list[Path]:
    """The chapters of one edition, in reading order."""
    if language == "en":
        return chapters()
    return [EDITION / "chapters" / path.name for path in chapters()]
TEACH_HEADING = "## Teach it from one cell"
BEGIN, END = "<!-- chapter-times: begin -->", "<!-- chapter-times: end -->"

# How long a chapter takes, as the landing page states it. Technical prose with maths
# reads at about 150 words a minute; reading a short code cell and its output, or running
# it, takes about half a minute; an exercise with its check about five minutes.
WORDS_PER_MINUTE = 150
MINUTES_PER_CODE_CELL = 0.5
MINUTES_PER_EXERCISE = 5


def _source(cell) -> str:
    source = cell["source"]
    return source if isinstance(source, str) else "".join(source)


def chapter_number(path: Path) -> int:
    return int(Path(path).stem.split("_", 1)[0])


def chapter_title(nb) -> str:
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            match = re.search(r"^# (.+)$", _source(cell), re.M)
            if match:
                return match[1].strip()
    raise ValueError("the chapter has no '# Title' line")


def teaching_cell(nb, name: str = "chapter", english=None) -> tuple[str, dict]:
    """The prose under a chapter's "Teach it from one cell" heading and the code cell
    after it (with its stored outputs). A translated chapter (``english`` given: the
    chapter it was made from, cell for cell) has them where the English one has them."""
    cells = nb["cells"]
    for index, cell in enumerate(english["cells"] if english is not None else cells):
        text = _source(cell)
        if cell["cell_type"] != "markdown" or TEACH_HEADING not in text:
            continue
        if english is not None:
            heading = text.split(TEACH_HEADING, 1)[0].count("\n\n")
            # the translated cell: its text after the heading block in the same place
            blocks = _source(cells[index]).split("\n\n")
            prose = "\n\n".join(blocks[heading + 1:]).strip()
            code = next((c for c in cells[index + 1:] if c["cell_type"] == "code"), None)
            if code is None:
                break
            return prose, code
        prose = text.split(TEACH_HEADING, 1)[1].strip()
        code = next((c for c in cells[index + 1:] if c["cell_type"] == "code"), None)
        if code is None:
            break
        return prose, code
    raise ValueError(f"{name} has no code cell under '{TEACH_HEADING}'")


def _glue_only(chapter: Chapter, text: str) -> str:
    """Fill in the chapter's glued numbers (which another page cannot glue) and keep
    every other role, which resolves in the book wherever it stands."""
    def render(match: re.Match) -> str:
        if match["name"] in ("glue", "glue:", "glue:text"):
            return chapter.glue(match["body"])
        return match[0]

    return ROLE.sub(render, text)


def snippets_notebook(paths: list[Path] | None = None, language: str = "en"):
    """The teaching snippets page: one section per chapter, in chapter order."""
    _ = translator(language, "teacher_page")
    bibliography = Bibliography.load()
    cells = [nbformat.v4.new_markdown_cell(_(
        "# Every chapter in one cell\n\n"
        "Each chapter ends with one cell that states its idea, checks it and prints the "
        "numbers. Here they are in chapter order, each with the output stored in its "
        "chapter (the output the chapter's tests compare a fresh run against). Each cell "
        "imports only the `reliability` package and runs in a second or two: paste it "
        "into any notebook where the package is installed. The "
        "[teacher's guide](teaching.md) says where each one fits in a class."))]
    for path in edition_chapters(language) if paths is None else paths:
        nb = nbformat.read(str(path), as_version=4)
        english = None if language == "en" else nbformat.read(
            str(ROOT / "chapters" / path.name), as_version=4)
        prose, code = teaching_cell(nb, path.name, english)
        chapter = Chapter(path, glued_values(nb), bibliography)
        number = chapter_number(path)
        heading = (f"(teach-ch{number})=\n"
                   f"## {number}. {chapter_title(nb)}\n\n"
                   + _("From [chapter {number}](../chapters/{name}).").format(
                       number=number, name=path.name)
                   + f" {_glue_only(chapter, prose)}")
        cells.append(nbformat.v4.new_markdown_cell(heading))
        copied = nbformat.v4.new_code_cell(code.source)
        copied.metadata = copy.deepcopy(code.metadata)
        copied.outputs = copy.deepcopy(code.outputs)
        copied.execution_count = code.get("execution_count")
        cells.append(copied)
    cells.append(nbformat.v4.new_markdown_cell(_(
        "*Generated from the chapters by `scripts/teacher_page.py` (`make notebooks`); "
        "edit the chapter, not this page.*")))
    for index, cell in enumerate(cells):
        cell["id"] = f"teach-{index:03d}"  # stable ids: regenerating changes no byte
    return nbformat.v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
    })


# --- how long each chapter takes ----------------------------------------------------------

def chapter_minutes(path: Path) -> tuple[int, int]:
    """Minutes to read and run a chapter, and with its exercises, rounded to 5."""
    nb = json.loads(Path(path).read_text())
    words = code_cells = exercises = 0
    for cell in nb["cells"]:
        text = _source(cell)
        if cell["cell_type"] == "markdown":
            words += len(text.split())
            exercises += len(re.findall(r"^[`:]{3,}\{exercise\}", text, re.M))
        elif "remove-cell" not in cell.get("metadata", {}).get("tags", []):
            code_cells += 1  # a reader sees it (a removed cell is bookkeeping)
    reading = words / WORDS_PER_MINUTE + code_cells * MINUTES_PER_CODE_CELL
    with_exercises = reading + exercises * MINUTES_PER_EXERCISE
    return _nearest_five(reading), _nearest_five(with_exercises)


def _nearest_five(minutes: float) -> int:
    return max(5, 5 * round(minutes / 5))


def times_table(paths: list[Path] | None = None, language: str = "en",
                titles: dict[str, str] | None = None) -> str:
    """The landing page's times: the rule they follow, then one row per chapter. Both
    editions state the times of the English chapters (the same chapter, the same time),
    the Russian one with the Russian titles (``titles`` by file name, else read from
    ``ru/chapters``)."""
    _ = translator(language, "teacher_page")
    rule = _("Prose at {words} words a minute, {code:g} minutes for each code cell you read "
             "and run, {exercise} minutes for each exercise, rounded to 5 minutes:").format(
                 words=WORDS_PER_MINUTE, code=MINUTES_PER_CODE_CELL,
                 exercise=MINUTES_PER_EXERCISE)
    minute = _("{minutes} min")
    rows = [rule, "", _("| chapter | read and run | with its exercises |"),
            "| --- | --- | --- |"]
    total = [0, 0]
    for path in chapters() if paths is None else paths:
        titled = path if language == "en" else EDITION / "chapters" / path.name
        title = (titles or {}).get(path.name) or chapter_title(json.loads(titled.read_text()))
        reading, with_exercises = chapter_minutes(path)
        total = [total[0] + reading, total[1] + with_exercises]
        rows.append(f"| {chapter_number(path)}. {{doc}}`{title} "
                    f"<../chapters/{path.stem}>` | {minute.format(minutes=reading)} | "
                    f"{minute.format(minutes=with_exercises)} |")
    rows.append(_("| all chapters | {reading} | {exercises} |").format(
        reading=_hours(total[0], language), exercises=_hours(total[1], language)))
    return "\n".join(rows)


def _hours(minutes: int, language: str = "en") -> str:
    _ = translator(language, "teacher_page")
    hours, rest = divmod(minutes, 60)
    if hours:
        return _("{hours} h {minutes:02d} min").format(hours=hours, minutes=rest)
    return _("{minutes} min").format(minutes=rest)


def intro_with_times(text: str, table: str) -> str:
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        raise ValueError(f"book/intro.md needs one '{BEGIN}' and one '{END}' line")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{table}\n{END}{tail}"


def write(page: Path = PAGE, intro: Path = INTRO, language: str = "en") -> list[Path]:
    """Write the snippets page and refresh the landing page's times; return both paths."""
    page.write_text(nbformat.writes(snippets_notebook(language=language)) + "\n")
    intro.write_text(intro_with_times(intro.read_text(), times_table(language=language)))
    return [page, intro]


def write_all() -> list[Path]:
    """Both editions' pages (the Russian ones once ru/ has been built)."""
    written = write()
    if RU_INTRO.exists():
        written += write(RU_PAGE, RU_INTRO, language="ru")
    return written


if __name__ == "__main__":
    written = write_all()
    print("teacher page: " + ", ".join(str(p.relative_to(ROOT)) for p in written))
