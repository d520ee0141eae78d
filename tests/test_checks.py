"""reliability.checks: a student's answer is right, close or not yet, with a hint that
never gives the answer away, in both languages."""

import math
import re

import pytest

from reliability import checks, i18n
from reliability.checks import check
from reliability.passk import pass_at_k, pass_hat_k
from reliability.workflow import horizon

#: The answers by hand, from each exercise's wording (not from the module's functions).
BY_HAND = {
    "ch1-ex1": 1 - 0.99 ** 15,
    "ch1-ex2": 0.9 ** (1 / 100),
    "ch1-ex3": math.log(0.5) / math.log(0.98),
    "ch2-ex1-ceiling": (0.79 / 0.80) ** 10,
    "ch4-ex1": math.comb(5, 3) / math.comb(10, 3),
    "ch4-ex1-at": 1 - math.comb(5, 3) / math.comb(10, 3),
}


def test_every_exercise_is_checked_against_its_hand_computed_answer():
    assert set(BY_HAND) | {"ch2-ex1"} == set(checks.EXERCISES)
    for name, value in BY_HAND.items():
        assert check(name, value, quiet=True).verdict == "right", name
    assert horizon(0.98) == pytest.approx(BY_HAND["ch1-ex3"])
    assert float(pass_hat_k(10, 5, 3)) == pytest.approx(BY_HAND["ch4-ex1"])
    assert float(pass_at_k(10, 5, 3)) == pytest.approx(BY_HAND["ch4-ex1-at"])


def test_the_attempts_answer_is_the_first_count_that_reaches_the_target():
    from reliability import Workflow
    attempts = checks.EXERCISES["ch2-ex1"].answer()
    assert Workflow(error=0.2, silent=0.01, attempts=attempts).success() >= 0.85
    assert Workflow(error=0.2, silent=0.01, attempts=attempts - 1).success() < 0.85
    assert check("ch2-ex1", attempts, quiet=True).verdict == "right"
    assert check("ch2-ex1", attempts + 1, quiet=True).verdict == "close"
    assert check("ch2-ex1", attempts + 3, quiet=True).verdict == "wrong"


@pytest.mark.parametrize("name", sorted(BY_HAND))
def test_right_close_wrong_and_units(name):
    answer = BY_HAND[name]
    assert check(name, round(answer, 4), quiet=True).verdict == "right"
    tolerance = checks.EXERCISES[name].tolerance
    near = answer + (3 * tolerance if tolerance else answer * 0.02)
    assert check(name, near, quiet=True).verdict == "close"
    assert check(name, answer * 3 + 1, quiet=True).verdict == "wrong"
    if tolerance is None and answer < 1:
        said = check(name, answer * 100, quiet=True)
        assert said.verdict == "close" and "units" in said.message


@pytest.mark.parametrize("name", sorted(checks.EXERCISES))
@pytest.mark.parametrize("language", ["en", "ru"])
def test_no_message_gives_the_answer_away(name, language, capsys):
    answer = checks.EXERCISES[name].answer()
    digits = {f"{answer:.{n}f}" for n in range(1, 5)} | {f"{answer:.{n}f}".replace(".", ",")
                                                        for n in range(1, 5)}
    with i18n.language(language):
        for given in (answer * 3 + 1, answer * 1.02, answer * 100, ...):
            said = check(name, given)
            printed = capsys.readouterr().out
            assert printed.strip() == said.message
            assert not any(d in printed for d in digits if d not in ("0.0", "1.0")), \
                (name, printed)
            if language == "ru":
                assert re.search("[а-я]", printed), printed


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="exercise must be one of"):
        check("ch9-ex9", 1)
    with pytest.raises(ValueError, match="answer must be a finite number"):
        check("ch1-ex1", "a lot")
    assert check("ch1-ex1", ..., quiet=True).verdict == "missing"


def _check_cells(language):
    import json

    from bookbuild import launch_notebooks
    folder = launch_notebooks.NOTEBOOKS if language == "en" else launch_notebooks.RU_NOTEBOOKS
    found = {}
    for path in sorted(folder.glob("*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        for index, cell in enumerate(cells):
            if launch_notebooks.CHECK_TAG in cell["metadata"].get("tags", []):
                found[(path.name, index)] = ("".join(cells[index - 1]["source"]),
                                             "".join(cell["source"]))
    return found


@pytest.mark.parametrize("language", ["en", "ru"])
def test_each_checkable_exercise_has_a_check_cell_that_runs(language, capsys):
    """A student meets the check right under the exercise, runs it as it stands (told to
    put their answer in), then with their answer (told it is right)."""
    cells = _check_cells(language)
    named = [re.findall(r'^check\("([\w-]+)", \.\.\.\)', source, re.M)
             for _, source in cells.values()]
    assert sorted(n for names in named for n in names) == sorted(checks.EXERCISES)
    for (name, _), (before, source) in cells.items():
        assert re.search(r"\*\*(Exercise|Упражнение) \d+\*\*", before), name
        with i18n.language(language):
            exec(compile(source, name, "exec"), {})  # the cell, as is
            missing = check("ch1-ex1", ..., quiet=True).message
            assert capsys.readouterr().out.splitlines() == [missing] * source.count(
                "check(")
            right = re.sub(r'check\("([\w-]+)", \.\.\.\)',
                           lambda m: f'check("{m[1]}", {checks.EXERCISES[m[1]].answer()!r})',
                           source)
            exec(compile(right, name, "exec"), {})
            lines = capsys.readouterr().out.splitlines()
        assert lines and set(lines) == {i18n.catalog("ru").get("Right.", "Right.")
                                        if language == "ru" else "Right."}, lines
