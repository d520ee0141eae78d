"""Build the teacher's pages from the chapters: ``make notebooks`` (and ``make outputs``).

    .venv/bin/python -m bookbuild.teacher_page

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

The lesson plans in ``book/teaching.md`` (both editions) and the slide decks' speaker
notes are filled from :data:`IDEAS` with the chapters' glued numbers; the words of an
answer that compare numbers are checked against them (:data:`CLAIMS`) whenever a plan
is made.
"""

from __future__ import annotations

import copy
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

from reliability import claims, horizon, i18n
from reliability.numbers import glued_text, interval, number

from .catalogs import EDITION, translator
from .launch_notebooks import ROLE, Bibliography, Chapter, glued_values, sampled_keys
from .run import ROOT, chapters

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
        "*Generated from the chapters by `bookbuild/teacher_page.py` "
        "(`make notebooks`); edit the chapter, not this page.*")))
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
    with i18n.language(language):  # «0,5» in Russian: the book's one number formatter
        code_minutes = number(MINUTES_PER_CODE_CELL)
    rule = _("Prose at {words} words a minute, {code} minutes for each code cell you read "
             "and run, {exercise} minutes for each exercise, rounded to 5 minutes:").format(
                 words=WORDS_PER_MINUTE, code=code_minutes, exercise=MINUTES_PER_EXERCISE)
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


# --- the lesson plan, block by block ------------------------------------------------------

#: The teacher's guide (book/teaching.md) has one generated region per plan, after the
#: plan's timetable; the Russian edition regenerates it from the Russian catalog.
TEACHING = ROOT / "book" / "teaching.md"
RU_TEACHING = EDITION / "book" / "teaching.md"
PLAN_REGION = re.compile(r"<!-- plan-(?P<plan>[\w-]+): begin -->\n.*?<!-- plan-(?P=plan): end -->",
                         re.S)
#: A number in a block's words: ``[[ch5_rw:.1%]]`` is chapter 5's glued ``ch5_rw`` with
#: the format spec the chapter itself uses for it. Nothing else in a block is a number
#: except a lesson's or a chapter's own number. A number with a unit or a noun carries
#: it in the slot, in the language's plural forms, and the one formatter writes both
#: (:func:`reliability.numbers.glued_text`): ``[[ch8_wait_with:.1f|worker-hour|worker-hours]]``
#: reads "2.0 worker-hours", and the Russian catalog's
#: ``[[ch8_wait_with:.1f|воркер-час|воркер-часа|воркер-часов]]`` «2,0 воркер-часа»; a unit
#: typed after a slot fails ``tests/test_teaching_cells.py``. A block's numbers are the
#: ones its chapter's teaching cell prints (at the chapter's settings) or its chapter
#: glues, and the same test runs each cell alone to compare them.
#:
#: A sampled number (one its chapter glues as ``reliability.notebook.Sampled``) is
#: followed by its 95% interval, the slot of the same key with ``_ci`` after it:
#: ``[[ch7_hit:.1%]] [[ch7_hit_ci:.1%]]`` reads "11.1% [10.2%, 12.1%]", the bounds the
#: chapter glues as ``ch7_hit_low`` and ``ch7_hit_high``, written by the book's one
#: interval formatter («[10,2%; 12,1%]» in Russian). A plan is not made while a
#: sampled number stands without it (:func:`bare_sampled`).
SLOT = re.compile(r"\[\[(?P<key>ch(?P<chapter>\d+)_\w+)(?::(?P<spec>[^\]]*))?\]\]")
#: The suffix of an interval's slot.
CI = "_ci"


def N_(message: str) -> str:  # gettext's name: marked, translated later
    return message


@dataclass(frozen=True)
class Idea:
    """One block of a plan: what the class should be able to do after it, the points
    to make with their numbers, the question to ask before the cell runs, its answer."""

    title: str
    objective: str
    points: str
    question: str
    answer: str


IDEAS = {
    "dashboard": Idea(
        N_("The green dashboard"),
        N_("Tell availability from quality, and name the four layers of a harness."),
        N_("A health check sees whether an answer came back, never whether it can be "
           "relied on. Reliability is availability times quality; the harness's four "
           "layers (transport, limits, correction, degradation) and the measurement of "
           "what they do are what make the second visible."),
        N_("The bot answers every request within seconds all week. Is it reliable?"),
        N_("We cannot tell: that is availability. Quality needs checks of our own: "
           "pass^k on our cases, the validator's rejections, a counter on each rung.")),
    "chain": Idea(
        N_("A chain of steps"),
        N_("Compute a chain's success as the product of its steps, and read the horizon "
           "both ways."),
        N_("At [[ch1_p:.2f]] per step, ten steps succeed [[ch1_ten:.1%]] of the time "
           "and thirty steps [[ch1_thirty:.1%]]. The horizon (half of all chains fail) "
           "grows from [[ch1_h0:.1f|step|steps]] to [[ch1_h1:.0f]] and then "
           "[[ch1_h2:.0f]] as "
           "the error per step falls fivefold, then tenfold: near the top, each cut of "
           "the error buys as much length again."),
        N_("Guess the horizon for a step that succeeds ninety-nine times in a hundred."),
        N_("About [[ch1_h1:.0f|step|steps]]: near the top, halving the error rate doubles "
           "the horizon.")),
    "retries": Idea(
        N_("What a retry buys"),
        N_("Say what retries fix (visible errors) and what they cannot touch (silent "
           "ones)."),
        N_("With [[ch2_A:d|attempt|attempts]] per step, ten steps succeed "
           "[[ch2_success:.1%]] of "
           "the time; however many retries, the ceiling a silent error sets is "
           "[[ch2_ceiling:.1%]]."),
        N_("Many more retries per step: does a chain of [[ch2_n:d|step|steps]] reach "
           "certainty?"),
        N_("No: it stops at the ceiling of [[ch2_ceiling:.1%]], since a silent error "
           "looks like a success and is never retried.")),
    "passk": Idea(
        N_("Finding once is not repeating"),
        N_("Tell pass@k from pass^k, and say how many cases a measurement needs."),
        N_("Two agents with the same pass^1: on alike tasks pass^8 is "
           "[[ch4_alike8:.1%]], on split tasks [[ch4_split8:.1%]], "
           "[[ch4_ratio8:.0f|time|times]] more. On τ-bench retail the paper reports pass^1 "
           "of [[ch4_retail1:.2f]] and, for pass^8, under [[ch4_retail8:.0%]]: published "
           "numbers, the second a bound, not ones we measured."),
        N_("Over τ-bench's retail tasks an agent succeeds in [[ch4_retail1:.0%]] of its "
           "runs. How often does it solve a task eight times in a row?"),
        N_("Far less often: the paper puts pass^8 under [[ch4_retail8:.0%]], its bound, "
           "not a measurement of ours. Chapter 4 treats the runs of one task as "
           "independent and puts the fall on how the tasks differ: alike tasks would "
           "give [[ch4_alike8:.1%]], split tasks [[ch4_split8:.1%]].")),
    "selfcond": Idea(
        N_("Self-conditioning"),
        N_("Explain why the model's own errors in its history raise the error rate, and "
           "why a sliding window helps where a restart from the checkpoint does not."),
        N_("In the chapter's illustrative model, with the full history per-step "
           "accuracy falls to [[ch5_full_end:.1%]] by step [[ch5_steps]]; a window of the "
           "last [[ch5_window:d|step|steps]] holds it near "
           "[[ch5_win_floor:.1%]]. Resumed from the checkpoint, the simulated runs get "
           "[[ch5_resumed:.1%]] [[ch5_resumed_ci:.1%]] of first new steps right; "
           "rebuilt with a clean context, [[ch5_rebuilt:.1%]] [[ch5_rebuilt_ci:.1%]]. "
           "Lesson 14: trimming the history is a cure, not only a "
           "saving. Lesson 13: the checkpoint restart brings the errors back."),
        N_("The process crashed at step [[ch5_ck]]; we restart from the last checkpoint. "
           "Is the trajectory repaired?"),
        N_("No: the errors are in the saved history and come back into the context. A "
           "rebuilt clean context helps; the restart does not.")),
    "selfcorrection": Idea(
        N_("Revision without an arbiter"),
        N_("Read a self-correction table by the fates of the answers, and say what an "
           "outside arbiter changes."),
        N_("On GSM8K, revision turns [[ch5_rw:.1%]] of all questions from right to wrong "
           "and [[ch5_wr:.1%]] from wrong to right: accuracy goes from [[ch5_start:.1%]] to "
           "[[ch5_end:.1%]]. After [[ch5_rounds:d|round|rounds]] intrinsic revision sits at "
           "[[ch5_intr_k:.1%]]; an arbiter lifts it to [[ch5_arb_k:.1%]] for "
           "[[ch5_calls:.2f|revision call|revision calls]] a question. Lesson 15 left the "
           "number of self-check attempts open: without an outside arbiter it is zero."),
        N_("The model is asked to check its answers. Will accuracy rise?"),
        N_("Not without an outside signal: it moves from [[ch5_start:.1%]] to "
           "[[ch5_end:.1%]], and costs more calls.")),
    # the one-class plan has no block of its own for self-conditioning: one sentence here
    "revision": Idea(
        N_("Revision without an arbiter"),
        N_("Read a self-correction table by the fates of the answers, and say what an "
           "outside arbiter changes."),
        N_("On GSM8K, revision turns [[ch5_rw:.1%]] of all questions from right to wrong "
           "and [[ch5_wr:.1%]] from wrong to right: accuracy goes from [[ch5_start:.1%]] to "
           "[[ch5_end:.1%]]. Self-conditioning in one sentence: the model's own errors "
           "in its history invite more; a sliding window of the last "
           "[[ch5_window:d|step|steps]] helps (lesson 14), a restart from the checkpoint "
           "does not (lesson 13)."),
        N_("The model is asked to check its answers. Will accuracy rise?"),
        N_("Not without an outside signal: it moves from [[ch5_start:.1%]] to "
           "[[ch5_end:.1%]], and costs more calls.")),
    "verifier": Idea(
        N_("The arbiter in code"),
        N_("Weigh a verifier's recall against its false rejections, and write a "
           "validator message that says what to fix."),
        N_("A verifier with recall [[ch3_d:.0%]] and [[ch3_f:.0%]] false rejection "
           "lifts a ten-step chain from [[ch3_alone10:.1%]] to [[ch3_ten:.1%]]. In MAST, "
           "incorrect verification is [[ch3_mast_wrong:.1%]] of failures, missing "
           "verification [[ch3_mast_missing:.1%]]; the source gives no interval, so a "
           "wrong check is as common a failure as none, not a rare one. Lesson 15's "
           "validator takes a new role: the arbiter."),
        N_("Why not let a second model judge the refund?"),
        N_("It errs where the generator errs, and in MAST a wrong check "
           "([[ch3_mast_wrong:.1%]] of failures) is as common as no check "
           "([[ch3_mast_missing:.1%]]).")),
    "budgets": Idea(
        N_("Budgets and loops"),
        N_("Set four budgets per task, exit with a partial result, and tell a loop from "
           "persistence."),
        N_("In the MAST failure shares, step repetition is [[ch7_repetition:.1%]] and "
           "unaware termination [[ch7_termination:.1%]]: limits address "
           "[[ch7_limits_share:.1%]] of failures, verification [[ch7_verif_total:.1%]]. "
           "With a limit of [[ch7_limit:d|step|steps]], [[ch7_hit:.1%]] "
           "[[ch7_hit_ci:.1%]] of the chapter's simulated tasks hit it. "
           "Nobody has measured the right limit; lesson 13's recursion limit is a "
           "default, not a measurement."),
        N_("Which share of the MAST failures could step limits and a loop detector "
           "address at all?"),
        N_("About [[ch7_limits_share:.1%]]: repetition and unaware termination "
           "together.")),
    "ladder": Idea(
        N_("The degradation ladder"),
        N_("Place the rungs and triggers of a degradation ladder, show what a breaker "
           "does in an outage, and tell cascade from fallback."),
        N_("In the outage (one seeded day, and in brackets the interval of four seeded "
           "days' mean), the workers' waiting falls from "
           "[[ch8_wait_without:.1f|worker-hour|worker-hours]] "
           "[[ch8_wait_without_ci:.1f]] without a breaker to "
           "[[ch8_wait_with:.1f|worker-hour|worker-hours]] "
           "[[ch8_wait_with_ci:.1f]] with one, and calls to the dead model from "
           "[[ch8_calls_without:,d]] [[ch8_calls_without_ci:,.0f]] to "
           "[[ch8_calls_with:,d|call|calls]] [[ch8_calls_with_ci:,.0f]]. Cascade is "
           "not fallback: a cascade routes up by difficulty, and in RouteLLM's "
           "published results [[ch8_up_open:.1%]] of open-dialogue requests go up, "
           "[[ch8_up_knowledge:.1%]] of knowledge ones."),
        N_("The fallback works and availability is perfect. What could still be "
           "wrong?"),
        N_("Traffic can slide to a lower rung and stay there: in the simulated weeks "
           "the rules' share grew from [[ch8_rules_before:.2%]] "
           "[[ch8_rules_before_ci:.2%]] to [[ch8_rules_after:.1%]] "
           "[[ch8_rules_after_ci:.1%]] while every answer still came back. A health "
           "check sees nothing; the counter on each rung alerts on day "
           "[[ch8_alert_day:.0f]].")),
    "format": Idea(
        N_("The format tax"),
        N_("Say where the format tax is paid and how the two-turn cure works."),
        N_("Answers in free text are right [[ch6_a_free:.1%]] of the time, under the "
           "grammar [[ch6_a_grammar:.1%]]. Of the significant cells, "
           "[[ch6_share_prompt:.0%]] lose with the format in the prompt, only "
           "[[ch6_share_decoder:.0%]] with the decoder. The cure: solve in free text "
           "first, reformat in a second turn."),
        N_("Strict JSON mode is on. Are the answers more reliable?"),
        N_("Their form is, their content is not: accuracy falls from "
           "[[ch6_a_free:.1%]] to [[ch6_a_grammar:.1%]], and the loss is paid in the "
           "prompt.")),
    "lab": Idea(
        N_("The ablation lab"),
        N_("Match each failure with the guardrail that meets it, with an interval on "
           "every gap and a null reported as a null."),
        N_("Error recovery adds [[ch9_gap_transient:.1f|percentage point|percentage "
           "points]] (Newcombe interval [[ch9_gap_transient_low:.1f]] to "
           "[[ch9_gap_transient_high:.1f]]) on injected server errors, the retry nudge "
           "[[ch9_gap_malformed:.1f|percentage point|percentage points]] "
           "([[ch9_gap_malformed_low:.1f]] to [[ch9_gap_malformed_high:.1f]]) on "
           "malformed calls, in the lab's model; the mismatched guardrails give "
           "[[ch9_nulls:d|null|nulls]] out of four, reported as nulls."),
        N_("Error recovery (retrying a failed call) against a model that sends "
           "malformed calls: what gap do you expect?"),
        N_("None worth naming: a wrong guardrail gives a null, and the lab reports it "
           "with its interval.")),
    "reading": Idea(
        N_("Reading other people's numbers"),
        N_("Ask what a number counts, how many cases stand behind it and what it is "
           "compared with; name the kinds of tool hallucination."),
        N_("Tool hallucination is several failures (type, timing, usage), each with "
           "its own cure. The same trace gives [[ch10_rate_task:.1%]] averaged per "
           "task and [[ch10_rate_pooled:.1%]] pooled. On a column of "
           "[[ch10_rel_cases:d|case|cases]] one flipped case moves the score by "
           "[[ch10_step:.2f|percentage point|percentage points]]."),
        N_("A model never calls a tool it should not. What do you ask first?"),
        N_("The paired column: a model that never calls any tool scores perfectly on "
           "abstention and [[ch10_never_rel:.0%]] where a call is needed.")),
    "wrapup": Idea(
        N_("Discussion and homework"),
        N_("Connect a failure to its guardrail in the students' own words."),
        N_("One question from the list below, then the homework; remind the class that "
           "each chapter's exercises have their solutions behind a toggle."),
        N_("Which guardrail from today would you add first to an agent you know, and "
           "what number would show it works?"),
        N_("Any answer that names a failure, its guardrail and a counter beside it.")),
}

#: The words in a block that say how its numbers compare ("falls", "far less often",
#: "as common as"), each with the test the chapters' glued values must pass: a plan is
#: made only when every one holds (:func:`check_claims`, with reliability.claims), so an
#: answer cannot say more than the chapters' numbers at their defaults do. ``v(key)``
#: is a glued value as a number.
CLAIMS = {
    "chain": (
        ("the horizon grows as the error per step falls",
         lambda v: v("ch1_h0") < v("ch1_h1") < v("ch1_h2")),
        ("near the top, halving the error rate doubles the horizon",
         lambda v: abs(horizon(0.995) / horizon(0.99) - 2) < 0.05)),
    "retries": (
        ("however many retries, success stops at the ceiling a silent error sets",
         lambda v: v("ch2_success") <= v("ch2_ceiling") < 1),),
    "passk": (
        ("pass^8 is far less often than pass^1: under half of it",
         lambda v: v("ch4_retail8") < v("ch4_retail1") / 2),
        ("split tasks give a higher pass^8 than alike ones, by the stated ratio",
         lambda v: v("ch4_split8") > v("ch4_alike8") and abs(
             v("ch4_ratio8") - v("ch4_split8") / v("ch4_alike8")) < 0.01)),
    "selfcond": (
        ("a window holds per-step accuracy above the full history's",
         lambda v: v("ch5_win_floor") > v("ch5_full_end")),
        ("a clean context helps where the restart from the checkpoint does not "
         "(the two 95% intervals do not overlap)",
         lambda v: v("ch5_rebuilt_low") > v("ch5_resumed_high"))),
    "selfcorrection": (
        ("without an outside signal, revision does not raise accuracy",
         lambda v: v("ch5_end") <= v("ch5_start")),
        ("an arbiter lifts what intrinsic revision leaves",
         lambda v: v("ch5_arb_k") > v("ch5_intr_k"))),
    "revision": (
        ("without an outside signal, revision does not raise accuracy",
         lambda v: v("ch5_end") <= v("ch5_start")),),
    "verifier": (
        ("the verifier lifts the ten-step chain",
         lambda v: v("ch3_ten") > v("ch3_alone10")),
        # the source gives no interval: "as common" is what the two shares allow
        # (neither is half as large again as the other); "more common" is not
        ("a wrong check is as common as no check (MAST, no interval given)",
         lambda v: max(v("ch3_mast_wrong"), v("ch3_mast_missing"))
         <= 1.5 * min(v("ch3_mast_wrong"), v("ch3_mast_missing")))),
    "budgets": (
        ("limits address repetition and unaware termination together",
         lambda v: abs(v("ch7_limits_share") - v("ch7_repetition")
                       - v("ch7_termination")) < 0.0015),),
    "ladder": (
        ("waiting and calls to the dead model fall with a breaker (the four days' "
         "95% intervals do not overlap)",
         lambda v: v("ch8_wait_with_high") < v("ch8_wait_without_low")
         and v("ch8_calls_with_high") < v("ch8_calls_without_low")),
        ("the rules' share grew (the two weeks' 95% intervals do not overlap)",
         lambda v: v("ch8_rules_after_low") > v("ch8_rules_before_high")),
        ("the counter on each rung alerts (on a day of the four weeks)",
         lambda v: math.isfinite(v("ch8_alert_day")))),
    "format": (
        ("accuracy falls under the grammar",
         lambda v: v("ch6_a_grammar") < v("ch6_a_free")),
        ("the loss is paid in the prompt more than in the decoder",
         lambda v: v("ch6_share_prompt") > v("ch6_share_decoder"))),
    "lab": (
        ("each matched guardrail adds (its interval excludes zero), every mismatched "
         "one gives a null",
         lambda v: v("ch9_gap_transient_low") > 0 and v("ch9_gap_malformed_low") > 0
         and v("ch9_nulls") == 4),),
}


def check_claims(block: str, numbers: dict[int, dict]) -> None:
    """Raise :class:`reliability.claims.ClaimFailed` when the chapters' glued numbers
    contradict a comparing word of ``block`` (:data:`CLAIMS`)."""
    def value(key: str) -> float:
        chapter = int(re.match(r"ch(\d+)_", key)[1])
        text = numbers.get(chapter, {}).get(key)
        if text is None:
            raise ValueError(f"the lesson plan's claims cite {key!r}, which no stored "
                             "output of its chapter glues")
        return float(text)   # a glued number, as myst-nb stores it ("nan" too)

    for claim, holds in CLAIMS.get(block, ()):
        claims.check(f"{block}: {claim}", bool(holds(value)))


#: Each plan's blocks, in the order and with the minutes of its timetable.
PLANS = {
    "one-class": [(5, "dashboard"), (15, "chain"), (10, "passk"), (15, "revision"),
                  (10, "verifier"), (10, "budgets"), (10, "ladder"), (5, "format"),
                  (5, "reading"), (5, "wrapup")],
    "class-1": [(10, "dashboard"), (15, "chain"), (10, "retries"), (15, "passk"),
                (15, "selfcond"), (15, "selfcorrection"), (10, "wrapup")],
    "class-2": [(15, "verifier"), (15, "budgets"), (15, "ladder"), (10, "format"),
                (15, "lab"), (10, "reading"), (10, "wrapup")],
}


def sampled_numbers() -> frozenset[str]:
    """The glue keys every chapter marks as sampled (``reliability.notebook.Sampled``):
    the numbers a plan must quote with their interval."""
    return frozenset().union(*(sampled_keys(nbformat.read(str(path), as_version=4))
                               for path in chapters()))


def bare_sampled(text: str, sampled) -> list[str]:
    """The slots of ``text`` that quote a sampled number without its interval: each
    slot of a key in ``sampled`` must be followed, as the next slot, by its ``_ci``."""
    slots = list(SLOT.finditer(text))
    return [here[0] for here, after in zip(slots, slots[1:] + [None])
            if here["key"] in sampled
            and (after is None or after["key"] != here["key"] + CI)]


def plan_numbers() -> dict[int, dict]:
    """Every chapter's glued values, by chapter number. Both editions glue the same
    numbers (tests/test_translation.py checks it), so the English chapters serve both,
    and the Russian page can be made before ru/chapters is rewritten."""
    numbers = {}
    for path in chapters():
        numbers[chapter_number(path)] = glued_values(nbformat.read(str(path), as_version=4))
    return numbers


def fill_numbers(text: str, numbers: dict[int, dict], language: str = "en") -> str:
    """A block's words with each ``[[key:spec]]`` replaced by the chapter's glued value,
    formatted as the chapter formats it (a Russian decimal comma in Russian). A sentence
    that ends right after a slot whose unit ends with a full stop («6,25 п. п.») keeps
    that one stop, not two."""
    def render(match: re.Match) -> str:
        glued = numbers.get(int(match["chapter"]), {})
        key = match["key"]
        if key.endswith(CI) and key not in glued:   # an interval: its glued bounds
            bounds = [glued.get(key[:-len(CI)] + end) for end in ("_low", "_high")]
            if None in bounds:
                raise ValueError(f"the lesson plan cites the interval {key!r}, but its "
                                 f"chapter glues no {key[:-len(CI)]}_low and _high")
            with i18n.language(language):   # the book's one interval formatter
                return interval(*(float(b) for b in bounds), match["spec"] or ".1%")
        if key not in glued:
            raise ValueError(f"the lesson plan cites {key!r}, which no stored "
                             "output of its chapter glues")
        # the chapters' own formatter, so the plan writes a number as the page does
        with i18n.language(language):
            return glued_text(glued[key], match["spec"] or "s")
    out, end = [], 0
    for match in SLOT.finditer(text):
        value = render(match)
        out += [text[end:match.start()], value]
        end = match.end()
        if value.endswith(".") and text.startswith(".", end):
            end += 1
    return "".join(out + [text[end:]])


def plan_region(plan: str, numbers: dict[int, dict], language: str = "en",
                sampled=None) -> str:
    """The generated block-by-block text of one plan; ``sampled``, the keys of the
    sampled numbers (the chapters' marks unless given), each of which must stand with
    its interval."""
    _ = translator(language, "teacher_page")
    sampled = sampled_numbers() if sampled is None else sampled
    labels = (_("Objective"), _("Talking points"), _("Ask before the cell runs"),
              _("Answer"), _("Time"))
    out = []
    for index, (minutes, name) in enumerate(PLANS[plan], 1):
        idea = IDEAS[name]
        check_claims(name, numbers)
        fields = ("objective", "points", "question", "answer")
        bare = [slot for field in fields
                for slot in bare_sampled(_(getattr(idea, field)), sampled)]
        if bare:
            raise ValueError(f"the {language} plan's block {name!r} quotes sampled "
                             f"numbers without their interval ([[key_ci:spec]] next): "
                             f"{bare}")
        text = {field: fill_numbers(_(getattr(idea, field)), numbers, language)
                for field in fields}
        minute = _("{minutes} min").format(minutes=minutes)
        out += [f"**{index}. {_(idea.title)}** ({minute})", "",
                f"* *{labels[0]}:* {text['objective']}",
                f"* *{labels[1]}:* {text['points']}",
                f"* *{labels[2]}:* {text['question']}",
                f"* *{labels[4]}:* {minute}", "",
                f":::{{admonition}} {labels[3]}", ":class: dropdown",
                text["answer"], ":::", ""]
    return "\n".join(out).rstrip()


def teaching_with_plans(text: str, language: str = "en",
                        numbers: dict[int, dict] | None = None) -> str:
    numbers = plan_numbers() if numbers is None else numbers
    found = [m["plan"] for m in PLAN_REGION.finditer(text)]
    if sorted(found) != sorted(PLANS):
        raise ValueError(f"book/teaching.md needs one plan region for each of "
                         f"{sorted(PLANS)}, found {found}")

    def render(match: re.Match) -> str:
        plan = match["plan"]
        return (f"<!-- plan-{plan}: begin -->\n{plan_region(plan, numbers, language)}\n"
                f"<!-- plan-{plan}: end -->")
    return PLAN_REGION.sub(render, text)


def write(page: Path = PAGE, intro: Path = INTRO, language: str = "en") -> list[Path]:
    """Write the snippets page and refresh the landing page's times; return both paths."""
    page.write_text(nbformat.writes(snippets_notebook(language=language)) + "\n")
    intro.write_text(intro_with_times(intro.read_text(), times_table(language=language)))
    teaching = TEACHING if language == "en" else RU_TEACHING
    teaching.write_text(teaching_with_plans(teaching.read_text(), language))
    return [page, intro, teaching]


def write_all() -> list[Path]:
    """Both editions' pages (the Russian ones once ru/ has been built)."""
    written = write()
    if RU_INTRO.exists():
        written += write(RU_PAGE, RU_INTRO, language="ru")
    return written


def main(argv: list[str] | None = None) -> int:
    written = write_all()
    print("teacher page: " + ", ".join(str(p.relative_to(ROOT)) for p in written))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
