"""A number a page calls simulated shows its interval (issue 41, check 4).

The landing page promises that every simulated number comes with its interval. A reader
meets such a number in two places: a line a cell prints ("simulated: 0.137") and a
sentence of the prose with its glued numbers filled in ("69.4% simulated"). Where a
value sits next to the word "simulated" (or «симуляция», «смоделированный» ... in the
Russian edition), the text that follows it, up to the next value, must give its
uncertainty: a bracketed interval, the word interval (a Wilson or a 95% interval, a CI),
or a standard error. A count of simulated things ("2,000 simulated runs") is not a
value, and a confidence level ("simulated [95%]") is not one either.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from test_numbers import ENGLISH, RUSSIAN, _prose, _shown

#: The words that call a number simulated, in both editions.
SIMULATED = r"(?:simulat\w*|смоделир\w*|симуляц\w*|симулир\w*)"
#: A value (a decimal or a percentage, not a count) in each edition's writing.
VALUE = {"en": r"[-+−]?\d+\.\d+\s?%?|(?<![\d,.])\d+\s?%",
         "ru": r"[-+−]?\d+,\d+\s?%?|(?<![\d,.])\d+\s?%"}
#: What shows a value's uncertainty.
UNCERTAINTY = re.compile(r"(?i)\[|interval|интервал|\bCI\b|\bДИ\b|standard error|"
                         r"стандартн\w* ошибк|±")
#: A confidence level that opens an interval ("95% Wilson interval", «95%-й интервал»).
LEVEL = re.compile(r"(?i)\W{0,4}9[059]\s?%\S*\s+(?:\w+\s+){0,2}?"
                   r"(?:interval|интервал|CI|ДИ|Wilson|Уилсон)")


def without_interval(text: str, language: str) -> list[str]:
    """Each value ``text`` calls simulated with no interval after it, in its context."""
    value = VALUE[language]
    called = re.compile(rf"(?i)\b{SIMULATED}\W{{0,3}}(?:в\s+)?({value})"
                        rf"|({value})\s*(?:в\s+)?{SIMULATED}")
    found = []
    for match in called.finditer(text):
        number = (match.group(1) or match.group(2)).replace(" ", "")
        if re.fullmatch(r"9[059]%", number):        # a confidence level, not a value
            continue
        rest = text[match.end():]
        following = re.search(value, rest)
        segment = rest[:following.start()] if following else rest
        if UNCERTAINTY.search(segment) or LEVEL.match(rest[max(0, len(segment) - 4):]):
            continue
        found.append(text[max(0, match.start() - 60):match.end() + 40])
    return found


def _printed(path: Path) -> list[str]:
    nb = nbformat.read(str(path), as_version=4)
    return [line for cell in nb.cells if cell.cell_type == "code"
            for output in cell.get("outputs", [])
            for text in _shown(output, between_tags="\n")
            for line in text.splitlines()]


def test_the_check_tells_a_bare_simulated_value_from_one_with_its_interval():
    bare = ["closed form: 0.140 of conversations have a bad turn; simulated: 0.137",
            "accepted on the first draft in closed form (69.4% simulated), and 1.2% reach"]
    shown = ["10 steps: closed form 0.434, simulated 0.424 [0.403, 0.446]",
             "79.4% simulated (95% Wilson interval 77.6% to 81.1%)",
             "(simulated 2.1%, 95% Wilson interval 1.6% to 2.9%)",
             "the simulated mean, 10.5162, then sits 2.4 standard errors from it",
             "Each dot is 2,000 simulated runs; the closed form falls inside",
             "reasoning first: simulated [95%]"]
    assert [len(without_interval(text, "en")) for text in bare] == [1, 1]
    assert [without_interval(text, "en") for text in shown] == [[]] * len(shown)
    assert without_interval("доля диалогов с неудачным ходом 0,140; симуляция: 0,137",
                            "ru")
    assert not without_interval("в симуляции 0,724 [0,710; 0,737]", "ru")
    assert not without_interval("(в симуляции 2,1%, 95%-й интервал Уилсона от 1,6% до "
                                "2,9%)", "ru")


EDITIONS = [(p, "en") for p in ENGLISH] + [(p, "ru") for p in RUSSIAN]
IDS = [("ru-" if language == "ru" else "") + p.stem for p, language in EDITIONS]


@pytest.mark.parametrize("path, language", EDITIONS, ids=IDS)
def test_a_value_a_chapter_prints_as_simulated_shows_its_interval(path, language):
    found = [f for line in _printed(path) for f in without_interval(line, language)]
    assert not found, f"{path.name} prints simulated values bare:\n" + "\n".join(found)


@pytest.mark.parametrize("path, language", EDITIONS, ids=IDS)
def test_a_value_a_chapters_prose_calls_simulated_shows_its_interval(path, language):
    found = without_interval(" ".join(_prose(path, language).split()), language)
    assert not found, f"{path.name}'s prose calls values simulated bare:\n" + "\n".join(
        found)
