"""The teacher's pages: the snippets page and the landing page's times are generated from the
chapters and up to date with them, the plans add up, and every link points somewhere."""

import json
import re

import nbformat
import pytest
import yaml
from docutils.nodes import make_id

from bookbuild import teacher_page
from bookbuild.run import ROOT, chapters

CHAPTERS = chapters()
TEACHING = ROOT / "book" / "teaching.md"
INTRO = ROOT / "book" / "intro.md"
SECTION_LINK = re.compile(r'href="\.\./chapters/(\w+)\.html#([\w-]+)"')
REF = re.compile(r"\{ref\}`(?:[^`<]*<)?([\w-]+)>?`")


def _source(cell):
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def _hand_written_intro() -> str:
    """The landing page without its generated block of times."""
    head, rest = INTRO.read_text().split(teacher_page.BEGIN, 1)
    return head + rest.split(teacher_page.END, 1)[1]


def test_snippets_page_is_up_to_date():
    fresh = nbformat.writes(teacher_page.snippets_notebook()) + "\n"
    assert teacher_page.PAGE.read_text() == fresh, \
        "book/teaching_snippets.ipynb is out of date with chapters/: run `make notebooks`"


def test_landing_page_times_are_up_to_date():
    text = INTRO.read_text()
    assert teacher_page.intro_with_times(text, teacher_page.times_table()) == text, \
        "book/intro.md's chapter times are out of date: run `make notebooks`"


def test_the_russian_pages_are_up_to_date():
    """ru/book/teaching_snippets.ipynb from the Russian chapters, and the Russian landing
    page's times (the English chapters' times, the Russian titles)."""
    fresh = nbformat.writes(teacher_page.snippets_notebook(language="ru")) + "\n"
    assert teacher_page.RU_PAGE.read_text() == fresh, \
        "ru/book/teaching_snippets.ipynb is out of date: run `make notebooks`"
    text = teacher_page.RU_INTRO.read_text()
    assert teacher_page.intro_with_times(text, teacher_page.times_table(language="ru")) == text
    assert teacher_page.times_table(language="ru").count(" мин |") == \
        teacher_page.times_table().count(" min |")


def test_every_teaching_cell_is_copied_with_its_stored_outputs():
    page = json.loads(teacher_page.PAGE.read_text())
    copied = [c for c in page["cells"] if c["cell_type"] == "code"]
    assert len(copied) == len(CHAPTERS)
    for path, cell in zip(CHAPTERS, copied):
        _, original = teacher_page.teaching_cell(json.loads(path.read_text()), path.name)
        assert _source(cell) == _source(original), path.name
        assert cell["outputs"] == original["outputs"] and cell["outputs"], path.name
    headings = [re.search(r"^## (\d+)\. ", _source(c), re.M)
                for c in page["cells"] if c["cell_type"] == "markdown"][1:-1]
    assert [int(h[1]) for h in headings] == [teacher_page.chapter_number(p) for p in CHAPTERS]


def test_the_copied_prose_has_its_numbers_filled_in():
    page = json.loads(teacher_page.PAGE.read_text())
    prose = "".join(_source(c) for c in page["cells"] if c["cell_type"] == "markdown")
    assert "{glue" not in prose, "another page cannot glue a chapter's numbers"


def test_a_chapter_without_a_teaching_cell_is_refused():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# T\n\n## Exercises")])
    with pytest.raises(ValueError, match="99_x.ipynb has no code cell under"):
        teacher_page.teaching_cell(nb, "99_x.ipynb")
    with pytest.raises(ValueError, match="chapter-times"):
        teacher_page.intro_with_times("no markers here", "| table |")


def test_chapter_minutes_follow_the_stated_rule(tmp_path):
    words = " ".join(["word"] * 3 * teacher_page.WORDS_PER_MINUTE)  # three minutes
    cells = [nbformat.v4.new_markdown_cell(f"# T\n\n{words}\n\n```{{exercise}}\nx\n```"),
             nbformat.v4.new_code_cell("1"), nbformat.v4.new_code_cell("2"),
             nbformat.v4.new_code_cell("3", metadata={"tags": ["remove-cell"]})]
    path = tmp_path / "99_x.ipynb"
    path.write_text(nbformat.writes(nbformat.v4.new_notebook(cells=cells)))
    reading = 3 + 5 / teacher_page.WORDS_PER_MINUTE + 2 * teacher_page.MINUTES_PER_CODE_CELL
    exercises = teacher_page.MINUTES_PER_EXERCISE
    assert teacher_page.chapter_minutes(path) == (
        5 * round(reading / 5), 5 * round((reading + exercises) / 5))


def _plan_minutes(text: str, heading: str) -> list[int]:
    section = text.split(heading, 1)[1].split("\n#", 1)[0]
    return [int(m) for m in re.findall(r"^\| (\d+) \|", section, re.M)]


@pytest.mark.parametrize("heading", ["## One class of 90 minutes", "### Class 1",
                                     "### Class 2"])
def test_each_class_plan_adds_up_to_90_minutes(heading):
    minutes = _plan_minutes(TEACHING.read_text(), heading)
    assert minutes and sum(minutes) == 90, (heading, minutes)


def test_plans_cover_every_lesson_section_and_use_every_teaching_cell():
    text = TEACHING.read_text()
    two_classes = text.split("## Two classes", 1)[1].split("(teaching-questions)=", 1)[0]
    sections = {int(n) for row in re.findall(r"^\| \d+ \| ([\d, ]+) \|", two_classes, re.M)
                for n in row.split(",")}
    assert sections == set(range(1, 10)), sections
    used = set(REF.findall(text))
    missing = [p.name for p in CHAPTERS if f"teach-ch{teacher_page.chapter_number(p)}"
               not in used]
    assert not missing, f"no plan step uses the teaching cell of {missing}"


def _heading_ids(path) -> set[str]:
    text = "\n".join(_source(c) for c in json.loads(path.read_text())["cells"]
                     if c["cell_type"] == "markdown")
    return {make_id(h.replace("`", "")) for h in re.findall(r"^#{1,4} (.+)$", text, re.M)}


@pytest.mark.parametrize("page", [INTRO, TEACHING], ids=["intro", "teaching"])
def test_section_links_open_headings_that_exist(page):
    """The build cannot check a link to a chapter's section (its headings carry no labels),
    so this does: each points at a heading of that chapter, by the id Sphinx gives it."""
    links = SECTION_LINK.findall(page.read_text())
    assert links
    for stem, anchor in links:
        path = ROOT / "chapters" / f"{stem}.ipynb"
        assert path.exists(), f"{page.name} links a missing chapter {stem}"
        assert anchor in _heading_ids(path), f"{page.name}: {stem} has no heading #{anchor}"


def test_refs_name_labels_that_exist():
    labels = set()
    for path in CHAPTERS + [teacher_page.PAGE]:
        text = "\n".join(_source(c) for c in json.loads(path.read_text())["cells"])
        labels |= set(re.findall(r"^:label: ([\w-]+)$", text, re.M))
        labels |= set(re.findall(r"^\(([\w-]+)\)=$", text, re.M))
    labels |= set(re.findall(r"^\(([\w-]+)\)=$", TEACHING.read_text(), re.M))
    refs = set(REF.findall(TEACHING.read_text()))
    assert refs and refs <= labels, refs - labels


def test_every_chapter_is_on_the_lesson_map():
    text = _hand_written_intro()
    missing = [p.stem for p in CHAPTERS if f"../chapters/{p.stem}" not in text]
    assert not missing, f"book/intro.md's lesson map does not name {missing}"
    lesson_map = text.split("## The lesson, section by section")[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (\d)\. ", lesson_map, re.M)
    assert [int(n) for n in rows] == list(range(1, 10))


def test_the_pages_are_in_the_toc_and_never_executed():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [c["file"] for part in toc["parts"] for c in part["chapters"]]
    assert "book/teaching" in files and "book/teaching_snippets" in files
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert config["execute"]["execute_notebooks"] == "off"
    # `make test` runs no notebook under book/: the copied cells are checked once, in
    # their chapters (and their outputs are the chapter's, test_the_snippets_...)
    test_target = (ROOT / "Makefile").read_text().split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert "book" not in test_target.split("pytest", 1)[1]
    page = json.loads(teacher_page.PAGE.read_text())
    assert not any("parameters" in c["metadata"].get("tags", []) for c in page["cells"])


def test_regenerating_a_chapter_refreshes_the_pages():
    import inspect

    import bookbuild.__main__ as entry

    makefile = (ROOT / "Makefile").read_text()
    for target in ("outputs", "notebooks"):
        recipe = makefile.split(f"\n{target}:", 1)[1].split("\n\n", 1)[0]
        assert f"-m bookbuild {target}" in recipe, target
    # both commands end with stages 2 to 4, the teacher pages among them
    assert "notebooks()" in inspect.getsource(entry.outputs)
    assert "teacher_page.main" in inspect.getsource(entry.notebooks)


# --- the lesson plan, block by block ------------------------------------------------------

PLAN_TABLES = {"one-class": "## One class of 90 minutes", "class-1": "### Class 1",
               "class-2": "### Class 2"}
BLOCK = re.compile(r"^\*\*(\d+)\. (.+?)\*\* \((\d+) (?:min|мин)\)\n\n(.*?)(?=^\*\*\d+\. |\Z)",
                   re.S | re.M)


def _region(text: str, plan: str) -> str:
    return text.split(f"<!-- plan-{plan}: begin -->", 1)[1].split(
        f"<!-- plan-{plan}: end -->", 1)[0]


def _blocks(text: str, plan: str) -> list[tuple]:
    return BLOCK.findall(_region(text, plan))


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_lesson_plans_are_up_to_date(language):
    page = teacher_page.TEACHING if language == "en" else teacher_page.RU_TEACHING
    text = page.read_text()
    assert teacher_page.teaching_with_plans(text, language) == text, \
        f"{page.relative_to(ROOT)}'s plans are out of date: run `make notebooks`"


@pytest.mark.parametrize("plan", sorted(PLAN_TABLES))
def test_each_block_has_objective_points_question_answer_and_time(plan):
    """A teacher can run every block: what it is for, what to say (with numbers), what
    to ask before the cell runs and the answer behind a toggle; the block's minutes are
    its timetable row's, and they add up to the class."""
    text = TEACHING.read_text()
    blocks = _blocks(text, plan)
    assert [int(b[0]) for b in blocks] == list(range(1, len(blocks) + 1))
    for number, title, minutes, body in blocks:
        for label in ("*Objective:*", "*Talking points:*", "*Ask before the cell runs:*",
                      f"*Time:* {minutes} min"):
            assert label in body, (plan, title, label)
        answer = body.split(":::{admonition} Answer\n:class: dropdown\n", 1)
        assert len(answer) == 2 and answer[1].split(":::", 1)[0].strip(), (plan, title)
    minutes = [int(b[2]) for b in blocks]
    assert minutes == _plan_minutes(text, PLAN_TABLES[plan]), plan
    assert sum(minutes) == 90


def _expected(key: str, spec: str | None) -> str:
    """A glued value formatted by hand from the chapter's stored output (not through
    the page's own formatter)."""
    number = int(re.match(r"ch(\d+)_", key)[1])
    path = next(p for p in CHAPTERS if teacher_page.chapter_number(p) == number)
    glued = teacher_page.glued_values(nbformat.read(str(path), as_version=4))
    if key.endswith("_ci") and key not in glued:   # a sampled number's 95% interval
        low, high = (float(glued[key[:-3] + end]) for end in ("_low", "_high"))
        return f"[{format(low, spec)}, {format(high, spec)}]"
    value = glued[key]
    spec, *forms = (spec or "").split("|")
    if spec:
        value = format(float(value) if not spec.endswith("d") else int(value), spec)
    if forms:   # the noun the slot carries: English's singular for 1, else its plural
        value += " " + (forms[0] if value == "1" else forms[1])
    return value


def test_the_plans_numbers_are_the_chapters_glued_values():
    """Every number a block stresses comes from a chapter's stored output, and no block
    types a number of its own (a lesson's or chapter's number aside)."""
    text = TEACHING.read_text()
    slots = 0
    for plan, steps in teacher_page.PLANS.items():
        for (_, name), (_, _, _, body) in zip(steps, _blocks(text, plan)):
            idea = teacher_page.IDEAS[name]
            for field in ("objective", "points", "question", "answer"):
                template = getattr(idea, field)
                typed = re.sub(r"[Ll]esson \d+|[Cc]hapter \d+|pass[\^@]\w+|GSM8K", "",
                               teacher_page.SLOT.sub("", template))
                assert not re.search(r"\d", typed), (name, field, typed)
                rendered = template
                for match in teacher_page.SLOT.finditer(template):
                    rendered = rendered.replace(match[0],
                                                _expected(match["key"], match["spec"]))
                    slots += 1
                assert rendered in body, (plan, name, field)
    assert slots > 50


def test_the_russian_plans_write_numbers_the_russian_way():
    text = teacher_page.RU_TEACHING.read_text()
    region = "".join(_region(text, plan) for plan in teacher_page.PLANS)
    assert "Цель" in region and not re.search(r"\d\.\d", region)
    assert re.search(r"\d,\d%", region)
    ninety_two = {1: {"ch1_p": "0.924", "ch1_n": "30114"}}
    assert teacher_page.fill_numbers("[[ch1_p:.1%]] [[ch1_n:,d]]", ninety_two, "ru") \
        == "92,4% 30\u00a0114"
    assert teacher_page.fill_numbers("[[ch1_p:.1%]] [[ch1_n:,d]]", ninety_two) \
        == "92.4% 30,114"
    # a unit that ends with a full stop ends the sentence once: «6,25 п. п.», not «п. п..»
    step = {10: {"ch10_step": "6.25"}}
    points = "[[ch10_step:.2f|п. п.|п. п.|п. п.]]"
    alone = teacher_page.fill_numbers(points, step, "ru")
    assert alone.startswith("6,25") and alone.endswith("п. п.")
    assert teacher_page.fill_numbers(f"На {points}. Дальше.", step, "ru") == (
        f"На {alone} Дальше.")
    assert teacher_page.fill_numbers(f"На {points}, не {points}", step, "ru") == (
        f"На {alone}, не {alone}")
    assert teacher_page.fill_numbers("[[ch1_p:.1%]].", ninety_two, "ru") == "92,4%."
    assert ".." not in region


def test_a_plan_citing_a_missing_number_or_region_is_refused():
    with pytest.raises(ValueError, match="ch1_nothing"):
        teacher_page.fill_numbers("[[ch1_nothing:.1%]]", {1: {"ch1_p": "0.92"}})
    with pytest.raises(ValueError, match="one plan region"):
        teacher_page.teaching_with_plans("no regions", numbers={})


def test_the_plans_place_the_lessons_ideas_and_link_lessons_13_to_15():
    text = TEACHING.read_text()
    one_class = _region(text, "one-class")
    two_classes = _region(text, "class-1") + _region(text, "class-2")
    for plan in (one_class, two_classes):
        for idea in ("self-conditioning", "MAST", "Cascade is not fallback",
                     "Tool hallucination"):
            assert idea.lower() in plan.lower(), idea
    ties = text.split("## How the lesson ties to lessons 13 to 15", 1)[1].split("\n## ", 1)[0]
    for lesson in (13, 14, 15):
        assert f"**Lesson {lesson}" in ties
    assert len(SECTION_LINK.findall(ties)) >= 3


# --- a sampled number stands with its interval (issue 41) -----------------------------------

@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_sampled_number_in_the_plans_stands_with_its_interval(language):
    """A number its chapter glues as sampled (``reliability.notebook.Sampled``: a
    seeded simulation's) is followed in every block, in both editions, by its interval's
    slot; the guide once said "11.1% of tasks hit it" and "29.4 worker-hours" bare."""
    from bookbuild.catalogs import translator

    _ = translator(language, "teacher_page")
    sampled = teacher_page.sampled_numbers()
    assert {"ch5_resumed", "ch7_hit", "ch8_wait_without", "ch8_calls_with",
            "ch8_rules_after"} <= sampled
    bare = [(name, field, slot) for name, idea in teacher_page.IDEAS.items()
            for field in ("objective", "points", "question", "answer")
            for slot in teacher_page.bare_sampled(_(getattr(idea, field)), sampled)]
    assert not bare, f"sampled numbers without their interval ({language}): {bare}"


def test_a_bare_sampled_number_stops_the_plan_and_an_interval_reads_as_the_book_writes():
    said = "With a limit of [[ch7_limit:d|step|steps]], [[ch7_hit:.1%]] of tasks hit it."
    assert teacher_page.bare_sampled(said, {"ch7_hit"}) == ["[[ch7_hit:.1%]]"]
    fixed = said.replace("[[ch7_hit:.1%]]", "[[ch7_hit:.1%]] [[ch7_hit_ci:.1%]]")
    assert teacher_page.bare_sampled(fixed, {"ch7_hit"}) == []
    numbers = teacher_page.plan_numbers()
    with pytest.raises(ValueError, match="ch8_up_open"):   # were it sampled, it is bare
        teacher_page.plan_region("class-2", numbers, sampled={"ch8_up_open"})
    hit = {7: {"ch7_hit": "0.111", "ch7_hit_low": "0.1017", "ch7_hit_high": "0.1210"}}
    assert teacher_page.fill_numbers("[[ch7_hit:.1%]] [[ch7_hit_ci:.1%]]", hit) == (
        "11.1% [10.2%, 12.1%]")
    assert teacher_page.fill_numbers("[[ch7_hit:.1%]] [[ch7_hit_ci:.1%]]", hit, "ru") == (
        "11,1% [10,2%; 12,1%]")
    with pytest.raises(ValueError, match="ch7_cut_low"):
        teacher_page.fill_numbers("[[ch7_cut_ci:.1%]]", hit)
