"""The teaching layer agrees with the chapters (issue 40, items 1 to 4).

* Each chapter's "Teach it from one cell" cell runs alone, as printed on the page, in a
  fresh Python process with nothing set first, in both editions, and prints exactly
  the output stored in its chapter; a Russian cell prints Russian (a decimal comma,
  Russian words), since the cell itself sets the edition's language.
* Every number in a lesson block's talking points, question and answer is one the
  block's teaching cell prints (run afresh here) or one its chapter glues, and where
  the cell prints numbers with a unit (percentage points, calls, worker-hours) the
  block's numbers with that unit are among them: the notes and the cell on the next
  slide cannot disagree.
* A unit or noun is never typed after a glued number: the slot carries it
  (``[[ch8_calls_with:,d|call|calls]]``) and the one formatter writes both, with the
  Russian plural forms.
* Every answer whose words compare numbers has its claims checked against the
  chapters' glued values (``teacher_page.CLAIMS``), and a contradicted claim stops the
  plan from being made.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import nbformat
import pytest

from bookbuild import catalogs, teacher_page
from bookbuild.catalogs import translator
from bookbuild.run import ROOT
from bookbuild.slides import KEYS
from reliability.claims import ClaimFailed

LANGUAGES = ("en", "ru")
PATHS = {language: teacher_page.edition_chapters(language) for language in LANGUAGES}
CELLS = [(language, path) for language in LANGUAGES for path in PATHS[language]]
BLOCKS = sorted(name for name in teacher_page.IDEAS if name in KEYS)


def _cell(language: str, path):
    nb = nbformat.read(str(path), as_version=4)
    english = None if language == "en" else nbformat.read(
        str(ROOT / "chapters" / path.name), as_version=4)
    return teacher_page.teaching_cell(nb, path.name, english)[1]


def _stored(cell) -> str:
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream"
                   and o.name == "stdout")


def _run_alone(source: str, folder: str) -> subprocess.CompletedProcess:
    """The cell's source, exactly as printed, in a new Python process in an empty
    folder: no kernel state, no language set, only the package importable."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("RELIABILITY", "JPY", "PYDEVD"))}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT),
                                                      os.environ.get("PYTHONPATH")]))
    env["MPLBACKEND"] = "Agg"
    return subprocess.run([sys.executable, "-c", source], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def fresh_runs(tmp_path_factory):
    """Every teaching cell of both editions, each run alone (two at a time)."""
    folder = tmp_path_factory.mktemp("alone")
    sources = {(language, path.name): _cell(language, path).source
               for language, path in CELLS}
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = dict(zip(sources, pool.map(lambda s: _run_alone(s, str(folder)),
                                          sources.values())))
    return done


def _id(item):
    language, path = item
    return f"{language}-{path.stem}"


# --- item 4: each cell alone, as printed ----------------------------------------------------

@pytest.mark.parametrize("language,path", CELLS, ids=[_id(c) for c in CELLS])
def test_each_teaching_cell_runs_alone_and_prints_what_its_chapter_stored(
        fresh_runs, language, path):
    ran = fresh_runs[(language, path.name)]
    assert ran.returncode == 0, (
        f"{language}/{path.name}: the teaching cell fails alone in a fresh process:\n"
        f"{ran.stderr[-1500:]}")
    stored = _stored(_cell(language, path))
    assert stored, f"{path.name}: the teaching cell stores no printed output"
    assert ran.stdout == stored, (
        f"{language}/{path.name}: run alone, the cell prints something else than the "
        f"output stored in the chapter:\n--- alone\n{ran.stdout}\n--- stored\n{stored}")


@pytest.mark.parametrize("path", PATHS["ru"], ids=[p.stem for p in PATHS["ru"]])
def test_a_russian_teaching_cell_prints_russian_with_nothing_set_first(fresh_runs, path):
    printed = fresh_runs[("ru", path.name)].stdout
    assert printed and re.search(r"[а-яё]", printed), printed
    assert not re.search(r"\d\.\d", printed), (
        f"{path.name}: a number with a decimal point in the Russian cell's output:\n"
        f"{printed}")
    english = catalogs.english_phrases(printed) + re.findall(
        r"\b(?:yes|no|pp|vs|calls?|steps?)\b", printed)
    assert not english, f"{path.name}: English in the Russian cell's output: {english}"


def test_a_cell_that_needs_a_name_it_never_defines_fails_alone(tmp_path):
    """The check above can fail: chapter 3's cell as it was (``counted`` never
    imported) raises NameError in a fresh process."""
    ran = _run_alone("from reliability.numbers import fmt\nprint(counted(3, 'step', "
                     "'steps'))", str(tmp_path))
    assert ran.returncode != 0 and "NameError" in ran.stderr


# --- item 1: the blocks' numbers are the cell's or the chapter's ----------------------------

#: A number in running text: digits with the language's groups and decimal sign, and
#: a per cent sign if it has one. Not part of a name (GSM8K, pass^8, τ-bench's 503s).
_NUMBER = {
    "en": re.compile(r"(?<![\w^.,])([+\-−]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[+\-−]?\d+(?:\.\d+)?)"
                     r"(\s?%)?(?![\w^])"),
    "ru": re.compile(r"(?<![\w^.,])([+\-−]?\d{1,3}(?:[\u00a0\u202f ]\d{3})+(?:,\d+)?"
                     r"|[+\-−]?\d+(?:,\d+)?)(\s?%)?(?![\w^])"),
}
#: A lesson's or a chapter's own number, which no chapter prints.
_REFERENCE = re.compile(r"(?:[Ll]esson|[Cc]hapter|[Уу]рок\w*|[Гг]лав\w*)\s+$")
#: The units a number can carry, each with its words in both languages.
UNITS = {
    "percentage points": r"pp\b|percentage points?\b|п\.\s?п\.|процентн\w* пункт\w*",
    "calls": r"calls?\b|вызов\w*",
    "worker-hours": r"worker-hours?\b|воркер-час\w*",
}


def numbers_in(text: str, language: str) -> list[tuple[str, float, float, str | None]]:
    """Each number in ``text``: as written, its value (a percentage as a share), half a
    unit of its last digit (how far a rounded value may lie from it) and its unit."""
    found = []
    for match in _NUMBER[language].finditer(text):
        if _REFERENCE.search(text[:match.start()]):
            continue
        written = match[1].replace("−", "-")
        written = re.sub(r"[\u00a0\u202f ]", "", written)
        written = written.replace(",", "") if language == "en" else written.replace(",", ".")
        digits = len(written.partition(".")[2])
        value, slack = float(written), 0.5 * 10 ** -digits
        if match[2]:
            value, slack = value / 100, slack / 100
        after = text[match.end():match.end() + 40].lstrip()
        unit = next((name for name, words in UNITS.items()
                     if re.match(words, after)), None)
        found.append((match[0].strip(), value, slack, unit))
    return found


def _agrees(value, slack, others) -> bool:
    return any(abs(value - other) <= max(slack, other_slack) + 1e-9
               for _written, other, other_slack, _unit in others)


@cache
def _glued(chapter: int) -> tuple:
    """A chapter's glued numbers (a share as a share: 43.4% is 0.434)."""
    values = []
    for text in teacher_page.plan_numbers()[chapter].values():
        try:
            values.append(("glued", float(text), 0.0, None))
        except ValueError:
            continue   # a glued sentence, not a number
    return tuple(values)


def _block_text(block: str, language: str) -> str:
    _ = translator(language, "teacher_page")
    idea = teacher_page.IDEAS[block]
    numbers = teacher_page.plan_numbers()
    return "\n".join(teacher_page.fill_numbers(_(getattr(idea, field)), numbers, language)
                     for field in ("points", "question", "answer"))


def _printed(fresh_runs, block: str, language: str) -> str:
    path = next(p for p in PATHS[language]
                if teacher_page.chapter_number(p) == KEYS[block].chapter)
    return fresh_runs[(language, path.name)].stdout


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("block", BLOCKS)
def test_every_number_in_a_block_is_printed_by_its_cell_or_glued_by_its_chapter(
        fresh_runs, block, language):
    printed = numbers_in(_printed(fresh_runs, block, language), language)
    glued = _glued(KEYS[block].chapter)
    text = _block_text(block, language)
    stray = [written for written, value, slack, _unit in numbers_in(text, language)
             if not _agrees(value, slack, printed) and not _agrees(value, slack, glued)]
    assert not stray, (f"{block} ({language}): numbers neither the teaching cell prints "
                       f"nor chapter {KEYS[block].chapter} glues: {stray}\n{text}")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("block", BLOCKS)
def test_a_block_quotes_the_cells_numbers_of_a_unit_the_cell_prints(
        fresh_runs, block, language):
    """Chapter 9's notes said 39 percentage points while the cell on the next slide
    printed +34.0 pp; chapter 8's said 360 calls where the cell printed 345."""
    printed = numbers_in(_printed(fresh_runs, block, language), language)
    # a share of a score the cell prints as a percentage moves the score by as many
    # percentage points ("one case of 16 is 6.25%": 6.25 points)
    as_points = [(w, 100 * v, 100 * s, "percentage points") for w, v, s, _unit in printed
                 if "%" in w]
    text = _block_text(block, language)
    for written, value, slack, unit in numbers_in(text, language):
        same_unit = [n for n in printed if unit is not None and n[3] == unit]
        if same_unit and unit == "percentage points":
            same_unit += as_points
        assert not same_unit or _agrees(value, slack, same_unit), (
            f"{block} ({language}): the notes say {written} {unit}, the teaching cell "
            f"prints {[n[0] for n in same_unit]} {unit}")


#: The quantities a block's notes and its teaching cell both show, by glue key: the
#: cell must print each at the value the chapter glues (the cell computes it at the
#: chapter's settings), so the notes and the next slide cannot differ (chapter 5's cell
#: once ran five rounds where the notes quoted six; chapter 7's used another seed).
SHARED = {
    "chain": ("ch1_p", "ch1_ten", "ch1_thirty", "ch1_h0", "ch1_h1", "ch1_h2"),
    "retries": ("ch2_success", "ch2_ceiling"),
    "passk": ("ch4_retail1", "ch4_split8"),
    "selfcorrection": ("ch5_intr_k", "ch5_arb_k"),
    "verifier": ("ch3_alone10", "ch3_ten"),
    "budgets": ("ch7_hit",),
    "ladder": ("ch8_wait_without", "ch8_wait_with", "ch8_calls_without",
               "ch8_calls_with"),
    "format": ("ch6_a_free", "ch6_a_grammar"),
    "lab": ("ch9_gap_transient", "ch9_gap_malformed"),
    "reading": ("ch10_rel_cases", "ch10_never_rel"),
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("block", sorted(SHARED))
def test_the_cell_prints_the_chapters_value_of_each_shared_quantity(
        fresh_runs, block, language):
    printed = numbers_in(_printed(fresh_runs, block, language), language)
    glued = teacher_page.plan_numbers()[KEYS[block].chapter]
    wrong = [f"{key} = {glued[key]}" for key in SHARED[block]
             if not _agrees(float(glued[key]), 0.0, printed)]
    assert not wrong, (f"{block} ({language}): the teaching cell does not print the "
                       f"chapter's {wrong}; it prints {[n[0] for n in printed]}")


def test_the_unit_check_can_fail():
    cell = numbers_in("error recovery vs baseline: +34.0 pp [+27.5, +40.8]", "en")
    notes = numbers_in("Error recovery adds 39 percentage points", "en")
    assert notes[0][3] == "percentage points" == cell[0][3]
    assert not _agrees(notes[0][1], notes[0][2], [n for n in cell if n[3]])
    ru = numbers_in("ожидание за день 29,4 воркер-часа, 30 114 вызовов", "ru")
    assert [(n[1], n[3]) for n in ru] == [(29.4, "worker-hours"), (30114.0, "calls")]


# --- item 2: a unit travels with its number ---------------------------------------------------

#: Nouns and units that must come from a slot's plural forms, not be typed after it.
TYPED_UNIT = re.compile(
    r"\]\]\s+(?:s|sec|seconds?|pp|percentage points?|points?|calls?|steps?|attempts?|"
    r"rounds?|cases?|nulls?|times|hours?|worker-hours?|minutes?|min|tasks?|requests?|"
    r"USD|с|сек\w*|п\.\s?п\.|процентн\w*|пункт\w*|вызов\w*|шаг\w*|попыт\w*|раунд\w*|"
    r"кейс\w*|нулев\w*|раз|раза|час\w*|воркер[\w-]*|минут\w*|задач\w*|запрос\w*)(?!\w)")
_SLOT_WITHOUT_FORMS = re.compile(r"\[\[(?P<key>ch\d+_\w+)(?::(?P<spec>[^\]|]*))?\]\]")


def typed_units(template: str) -> list[str]:
    """Slots (not per cents: "%" is their unit) followed by a typed unit or noun."""
    found = []
    for match in _SLOT_WITHOUT_FORMS.finditer(template):
        if (match["spec"] or "").endswith("%"):
            continue
        after = TYPED_UNIT.match(template, match.end() - 2)
        if after:
            found.append(template[match.start():after.end()])
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_unit_is_typed_after_a_glued_number_in_the_guide_or_the_notes(language):
    """The guide's plans and the decks' speaker notes are both made from these
    templates (``teacher_page.plan_region``, ``slides.deck``)."""
    _ = translator(language, "teacher_page")
    typed = [(block, hit) for block, idea in teacher_page.IDEAS.items()
             for field in ("objective", "points", "question", "answer")
             for hit in typed_units(_(getattr(idea, field)))]
    assert not typed, (f"units typed after a glued number ({language}); give the slot "
                       f"its noun's forms, [[key:spec|one|many]]: {typed}")


def test_the_typed_unit_check_can_fail():
    assert typed_units("falls from [[ch8_wait_without:.1f]] s without") == [
        "[[ch8_wait_without:.1f]] s"]
    assert typed_units("ожидание [[ch8_wait_with:.1f]] воркер-часа") != []
    assert typed_units("[[ch8_wait_with:.1f|worker-hour|worker-hours]] with one") == []
    assert typed_units("[[ch7_hit:.1%]] задач") == []


def test_a_slot_writes_its_unit_in_the_editions_grammar():
    numbers = {8: {"ch8_wait_without": "29.37597", "ch8_calls_with": "360"}}
    en = teacher_page.fill_numbers(
        "[[ch8_wait_without:.1f|worker-hour|worker-hours]], "
        "[[ch8_calls_with:,d|call|calls]]", numbers, "en")
    ru = teacher_page.fill_numbers(
        "[[ch8_wait_without:.1f|воркер-час|воркер-часа|воркер-часов]], "
        "[[ch8_calls_with:,d|вызов|вызова|вызовов]]", numbers, "ru")
    assert en == "29.4 worker-hours, 360 calls"
    assert ru == "29,4 воркер-часа, 360 вызовов"


# --- item 3: answers are checked claims -------------------------------------------------------

#: Words that compare numbers; an answer using one must have its claims checked.
COMPARING = re.compile(r"\b(?:more|less|fewer|falls?|rises?|grew|grows|lifts?|adds?|"
                       r"common|far|higher|lower|stops?|doubles?|none worth)\b", re.I)


@pytest.mark.parametrize("block", sorted(teacher_page.IDEAS))
def test_an_answer_that_compares_numbers_has_its_claims_checked(block):
    idea = teacher_page.IDEAS[block]
    if COMPARING.search(idea.answer) and "[[" in idea.answer + idea.points:
        assert teacher_page.CLAIMS.get(block), (
            f"{block}: the answer compares numbers ({COMPARING.findall(idea.answer)}) "
            "but no claim in teacher_page.CLAIMS checks them")
    teacher_page.check_claims(block, teacher_page.plan_numbers())   # true at the defaults


def test_a_claim_the_numbers_contradict_stops_the_plan():
    numbers = {k: dict(v) for k, v in teacher_page.plan_numbers().items()}
    numbers[3]["ch3_mast_wrong"] = "0.2"          # "as common" would be false
    with pytest.raises(ClaimFailed, match="as common"):
        teacher_page.check_claims("verifier", numbers)
    with pytest.raises(ClaimFailed):
        teacher_page.plan_region("class-2", numbers)
    numbers = {k: dict(v) for k, v in teacher_page.plan_numbers().items()}
    numbers[8]["ch8_alert_day"] = "nan"            # no day alerted
    with pytest.raises(ClaimFailed, match="alerts"):
        teacher_page.check_claims("ladder", numbers)
