"""MAST's method as the lesson states it: in data/, with locators, and glued into ch. 7."""

import re
from pathlib import Path

import nbformat
import pytest

from reliability.datasets import load

CHAPTER = Path(__file__).resolve().parent.parent / "chapters" / "07_budgets_and_loops.ipynb"


def _value(metric):
    mast = load("mast")
    row = mast[mast.metric.eq(metric)]
    assert len(row) == 1, f"one row for {metric!r}, found {len(row)}"
    row = row.iloc[0]
    assert isinstance(row["where"], str) and row["where"].strip()
    assert "lesson-16-ru.txt section 5" in row["source"]
    return row["value"]


@pytest.mark.parametrize("metric, value", [
    ("traces analysed to build the taxonomy", 150),   # the lesson: 150+, Grounded Theory
    ("annotators who built the taxonomy", 6),
    ("annotators in the agreement study", 3),
    ("traces in the agreement study", 15),
    ("inter-annotator Cohen kappa", 0.88),
    ("traces", 1642),
    ("human-annotated traces", 210),
    ("Cohen kappa", 0.77),                            # the o1 judge against people
])
def test_the_method_numbers_are_the_lessons(metric, value):
    assert _value(metric) == pytest.approx(value)


def test_the_judge_labelled_most_traces_and_people_few():
    people, everything = _value("human-annotated traces"), _value("traces")
    assert everything - people > 5 * people
    assert _value("traces in the agreement study") < people


def _prose():
    return "\n".join(c.source for c in nbformat.read(CHAPTER, 4).cells
                     if c.cell_type == "markdown")


def test_chapter_7_states_each_part_of_the_method_from_the_data():
    prose = _prose()
    for name in ("ch7_builders", "ch7_built_on", "ch7_agree_n", "ch7_agree_traces",
                 "ch7_kappa_humans", "ch7_human", "ch7_judged", "ch7_kappa_judge"):
        assert f"`{name}:" in prose, f"chapter 7 does not state {name}"
    assert "Grounded Theory" in prose and "tuned on experts" in prose


def test_chapter_7_does_not_put_the_agreement_on_the_210_traces():
    # The misreading the lesson corrects: kappa 0.88 belongs to 3 annotators on 15 traces,
    # not to the people who labelled the 210.
    sentence = re.search(r"[^.]*`ch7_kappa_humans[^.]*\.", _prose())[0]
    assert "ch7_agree_traces" in sentence and "ch7_human:" not in sentence
