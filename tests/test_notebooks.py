"""Every chapter's shape, and its parameters: checked up front, refused when bad, and run
by papermill at both ends of every range (tests/test_real_widgets.py runs the defaults against the stored
outputs), into a temporary folder, never over the stored copy."""

import json
import subprocess
import sys

import pytest
from papermill.exceptions import PapermillExecutionError

from bookbuild.run import (ROOT, chapters, declared_parameters, execute,
                           parameter_defaults, text_outputs)
from reliability.notebook import AUDIT_VARIABLE, PHONE_COLUMN_PX
from reliability.parameters import CHAPTERS as SPECS
from reliability.parameters import check_parameters, extreme_cases
from test_numbers import figure_problems, reader_problems

CHAPTERS = chapters()
EXTREMES = [(path, i) for path in CHAPTERS for i in range(len(extreme_cases(path.stem)))]


def _ids(paths):
    return [p.stem for p in paths]


def _code(path):
    return [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]


@pytest.mark.parametrize("path", CHAPTERS, ids=_ids(CHAPTERS))
def test_chapter_shape(path):
    nb = json.loads(path.read_text())
    code = _code(path)
    assert "parameters" in code[0]["metadata"].get("tags", []), \
        "the first code cell must be tagged 'parameters' so papermill can inject values"
    assert nb["cells"][0]["cell_type"] == "markdown" and \
        nb["cells"][0]["source"][0].startswith("# "), "a chapter opens with its title"
    assert declared_parameters(path), "declare metadata.reliability.test_parameters"
    for cell in code:
        assert cell.get("execution_count") or not cell.get("outputs"), \
            "stored outputs need execution counts (regenerate with `make outputs`)"
    for cell in code:
        if "interact(" in "".join(cell["source"]):
            tags = set(cell["metadata"].get("tags", []))
            assert {"remove-output", "nbval-ignore-output"} <= tags, \
                "tag the explorer remove-output (no kernel on the page) and nbval-ignore-output"
    text = "".join("".join(c["source"]) for c in nb["cells"])
    for required in ("Teach it from one cell", "{exercise}", "{solution", "interact"):
        assert required in text, f"the chapter's ending lacks {required!r}"


@pytest.mark.parametrize("path", CHAPTERS, ids=_ids(CHAPTERS))
def test_chapter_checks_its_parameters_right_after_them(path):
    defaults = parameter_defaults(path)
    assert path.stem in SPECS, f"add {path.stem} to reliability.parameters.CHAPTERS"
    assert list(defaults) == list(SPECS[path.stem].ranges), \
        "reliability.parameters must give a range to every parameter, in the cell's order"
    check_parameters(path.stem, **defaults)
    check_parameters(path.stem, **(defaults | declared_parameters(path)))
    second = "".join(_code(path)[1]["source"])
    call = f'check_parameters("{path.stem}", ' + ", ".join(f"{n}={n}" for n in defaults)
    assert " ".join(call.split()) in " ".join(second.split()).replace("( ", "("), \
        f"the cell after the parameters must call {call})"


@pytest.mark.parametrize("path", CHAPTERS, ids=_ids(CHAPTERS))
def test_extreme_cases_reach_both_ends_of_every_range(path):
    defaults = parameter_defaults(path)
    cases = [defaults | case for case in extreme_cases(path.stem)]
    for case in cases:
        check_parameters(path.stem, **case)
    for name, number in SPECS[path.stem].ranges.items():
        reached = {case[name] for case in cases}
        assert number.low in reached and number.high in reached, \
            f"no extreme case runs {name} at {number.low} and at {number.high}"


@pytest.mark.parametrize("path", CHAPTERS, ids=_ids(CHAPTERS))
def test_chapters_read_data_through_the_package(path):
    for cell in _code(path):
        assert "../data" not in "".join(cell["source"]), \
            "read tables with reliability.datasets.load, which works outside a clone too"


def _audited_run(path, parameters, tmp_path):
    """Run a chapter with ``parameters`` and check every figure it draws as a phone would
    show it (reliability.notebook); return the run and the figures' audit records."""
    audit = tmp_path / "figures.jsonl"
    audit.touch()
    ran = execute(path, tmp_path / path.name, parameters, widgets=False,
                  environment={AUDIT_VARIABLE: str(audit)})
    figures = [json.loads(line) for line in audit.read_text().splitlines()]
    assert figures, "no figure was audited: does the chapter call setup()?"
    unreadable = {f["title"] or "(untitled)": f["problems"][:3]
                  for f in figures if f["problems"]}
    assert not unreadable, \
        f"figures hard to read at {PHONE_COLUMN_PX} px wide, {parameters}: {unreadable}"
    return ran, figures


@pytest.mark.parametrize(("path", "case"), EXTREMES,
                         ids=[f"{p.stem}-{i}" for p, i in EXTREMES])
def test_chapter_runs_at_the_ends_of_its_ranges(path, case, tmp_path):
    parameters = extreme_cases(path.stem)[case]
    ran, figures = _audited_run(path, parameters, tmp_path)
    # what the reader sees at this extreme: no template, nan, repr or wrong plural
    wrong = reader_problems(ran, "en") + figure_problems(
        [t for f in figures for t in f["texts"]], "en")
    assert not wrong, f"at {parameters}:\n" + "\n".join(wrong[:10])
    injected = [c for c in ran.cells if "injected-parameters" in c.metadata.get("tags", [])]
    assert injected, "papermill found no parameters cell to inject after"
    stored = __import__("nbformat").read(str(path), as_version=4)
    assert text_outputs(ran) != text_outputs(stored), \
        f"running with {parameters} changed no output: is every parameter used?"


@pytest.mark.parametrize("path", CHAPTERS, ids=_ids(CHAPTERS))
def test_the_russian_chapter_runs_at_an_end_of_its_ranges_and_draws_in_russian(path,
                                                                             tmp_path):
    """The Russian chapter is the English code with Russian words: one run at the first of
    its extreme cases (the English chapter runs them all, with the same numbers) checks
    that the words fit its figures at a phone's width and that no figure says anything
    in English. The first case is the low ends (one run, one step): where the Russian
    forms for one and two («1 прогон», «2 прогона») are met, and the cheapest to run."""
    from bookbuild import catalogs

    russian = ROOT / "ru" / "chapters" / path.name
    case = extreme_cases(path.stem)[0]
    ran, figures = _audited_run(russian, case, tmp_path)
    wrong = reader_problems(ran, "ru") + figure_problems(
        [t for f in figures for t in f["texts"]], "ru")
    assert not wrong, f"ru, at {case}:\n" + "\n".join(wrong[:10])
    from test_translation import _FIELD_NAMES, _package_words, _untranslated_words

    # two English words in a row, or one word the package would have translated
    # (a legend's "baseline", an axis's "trials")
    words = _package_words() - _FIELD_NAMES
    english = {f["title"] or "(untitled)": [t for t in f["texts"]
                                            if catalogs.english_label(t)
                                            or _untranslated_words(t, words)]
               for f in figures}
    assert not {title: texts for title, texts in english.items() if texts}, \
        f"English on the Russian chapter's figures: {english}"


@pytest.mark.parametrize("path", CHAPTERS, ids=_ids(CHAPTERS))
def test_a_bad_parameter_stops_the_chapter_with_its_name_and_range(path, tmp_path):
    name, number = next(iter(SPECS[path.stem].ranges.items()))
    with pytest.raises(PapermillExecutionError) as raised:
        execute(path, tmp_path / path.name, {name: number.high + 1})
    message = str(raised.value)
    assert "ValueError" in message and name in message and number.describe() in message


def test_rerun_refuses_a_parameter_the_chapter_does_not_have(tmp_path):
    chapter = CHAPTERS[0]
    result = subprocess.run(
        [sys.executable, "-m", "bookbuild", "rerun", str(chapter),
         str(tmp_path / "out.ipynb"),
         "-p", "eror", "0.2"], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 2 and "has no parameter eror" in result.stderr
    assert not (tmp_path / "out.ipynb").exists(), "nothing runs when a name is wrong"


def test_rerun_refuses_a_value_outside_its_range(tmp_path):
    chapter = CHAPTERS[0]
    name, number = next(iter(SPECS[chapter.stem].ranges.items()))
    result = subprocess.run(
        [sys.executable, "-m", "bookbuild", "rerun", str(chapter),
         str(tmp_path / "out.ipynb"),
         "-p", name, str(number.high + 1)], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 2 and number.describe() in result.stderr


def test_a_hung_run_is_killed_and_tried_again_then_fails(tmp_path):
    """nbclient can deadlock after a widget cell (jupyter/nbclient#312); a run past its
    wall-clock limit must end, not hang the test session."""
    import time

    import nbformat

    stuck = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "import time\ntime.sleep(60)")])
    stuck.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                    "language": "python"}
    path = tmp_path / "stuck.ipynb"
    nbformat.write(stuck, str(path))
    started = time.monotonic()
    with pytest.raises(TimeoutError, match="2 times"):
        execute(path, tmp_path / "out.ipynb", wall=3, tries=2)
    assert time.monotonic() - started < 30
