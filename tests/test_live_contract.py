"""The contract every chapter's live explorer keeps, checked once for all of them: it
refuses bad input by the parameter's name, the sentence it shows with no control moved is
the sentence at its controls' defaults, the source it writes into the page rebuilds it,
and its page data holds every position of every control, no NaN, every dot inside its
own interval, and stays light. What is particular to one chapter (its closed forms, its
sentence against direct package calls, where its controls snap) stays in
tests/test_live.py (chapter 1) and tests/test_live_02.py ... test_live_10.py; the
browser side is tests/test_browser.py's test_live_explorers_*.

Each explorer is built here at a small valid setting (few runs), which stores the same
positions and frames as the chapter's: the number of runs changes the numbers, not how
many there are.
"""

from __future__ import annotations

import html
import importlib
import json
from dataclasses import dataclass

import numpy as np
import pytest

from reliability.figures import budgets, chain, formattax, lab, ladder, reading, retries
from reliability.figures import passk as passk_figures
from reliability.figures import selfcorrection, verifiers
from reliability.live import MAX_FRAMES, Explorer


@dataclass(frozen=True)
class Spec:
    """A chapter's explorer: the function that builds it, a small valid setting, and
    bad settings with the parameter each must be refused by."""

    make: object
    small: dict
    bad: tuple


EXPLORERS = {
    "01": Spec(chain.live_decay, dict(runs=10, seed=0), (
        (dict(runs=0), "runs"), (dict(runs=10**6), "runs"), (dict(seed=-1), "seed"),
        (dict(p=1.5), "p"), (dict(p="0.9"), "p"), (dict(n=0), "n"), (dict(n=2.5), "n"))),
    "02": Spec(retries.live_retries, dict(runs=2, seed=0), (
        (dict(runs=1), "runs"), (dict(runs=10**6), "runs"), (dict(seed=-1), "seed"),
        (dict(steps=0), "steps"), (dict(steps=201), "steps"), (dict(error=1.5), "error"),
        (dict(silent="0.03"), "silent"), (dict(attempts=0), "attempts"),
        (dict(attempts=2.5), "attempts"))),
    "03": Spec(verifiers.live_verifier, dict(runs=2, seed=0), (
        (dict(runs=1), "runs"), (dict(runs=10**6), "runs"), (dict(seed=-1), "seed"),
        (dict(steps=0), "steps"), (dict(steps=201), "steps"), (dict(error=1.5), "error"),
        (dict(silent="0.03"), "silent"), (dict(error=0.8, silent=0.3), "silent"),
        (dict(recall=-0.1), "recall"), (dict(false_reject=2), "false_reject"),
        (dict(attempts=0), "attempts"), (dict(attempts=2.5), "attempts"))),
    "04": Spec(passk_figures.live_mixes, dict(cases=5, runs=3, seed=0, resamples=10), (
        (dict(cases=0), "cases"), (dict(cases=1001), "cases"), (dict(runs=0), "runs"),
        (dict(runs=51), "runs"), (dict(seed=-1), "seed"), (dict(pass1=1.5), "pass1"),
        (dict(pass1="0.6"), "pass1"), (dict(concentration=0.0), "concentration"),
        (dict(concentration=float("inf")), "concentration"), (dict(k=0), "k"),
        (dict(k=2.5), "k"), (dict(resamples=0), "resamples"))),
    "05": Spec(selfcorrection.live_arbiter, dict(break_rate=0.066, fix_rate=0.18,
                                                 initial=0.759, false_reject=0.05,
                                                 questions=2, seed=0), (
        (dict(break_rate=1.2), "break_rate"), (dict(fix_rate=-0.1), "fix_rate"),
        (dict(initial="0.7"), "initial"), (dict(false_reject=2), "false_reject"),
        (dict(questions=0), "questions"), (dict(questions=10**6), "questions"),
        (dict(seed=-1), "seed"), (dict(recall=1.5), "recall"), (dict(rounds=-1), "rounds"),
        (dict(rounds=2.5), "rounds"))),
    "06": Spec(formattax.live_cure, dict(runs=2, seed=0, free_accuracy=0.6,
                                         prompt_tax=0.05, reformat_fidelity=0.9), (
        (dict(runs=0), "runs"), (dict(seed=-1), "seed"),
        (dict(free_accuracy=1.2), "free_accuracy"), (dict(prompt_tax="0.05"), "prompt_tax"),
        (dict(prompt_tax=0.7), "prompt_tax"),
        (dict(reformat_fidelity=-0.1), "reformat_fidelity"),
        (dict(decoder_tax=1.5), "decoder_tax"),
        (dict(decoder_tax=0.58), "prompt_tax"))),
    "07": Spec(budgets.live_step_limit, dict(runs=10, seed=0), (
        (dict(runs=0), "runs"), (dict(runs=10**6), "runs"), (dict(seed=-1), "seed"),
        (dict(median=0.0), "median"), (dict(median="6"), "median"),
        (dict(spread=-0.1), "spread"), (dict(stuck=1.5), "stuck"),
        (dict(stuck=None), "stuck"), (dict(limit=0), "limit"), (dict(limit=2.5), "limit"))),
    "08": Spec(ladder.live_outage, dict(conversations=1, seed=0), (
        (dict(conversations=0), "conversations"),
        (dict(conversations=2001), "conversations"), (dict(seed=-1), "seed"),
        (dict(outage_hours=-1.0), "outage_hours"), (dict(outage_hours=15.0), "outage_hours"),
        (dict(outage_hours="2"), "outage_hours"),
        (dict(failure_threshold=0), "failure_threshold"),
        (dict(failure_threshold=2.5), "failure_threshold"),
        (dict(reset_timeout=0.0), "reset_timeout"),
        (dict(reset_timeout=float("nan")), "reset_timeout"),
        (dict(chapter_conversations=0), "chapter_conversations"))),
    "09": Spec(lab.live_fault_rate, dict(runs=2, seed=0), (
        (dict(runs=0), "runs"), (dict(runs=10**6), "runs"), (dict(seed=-1), "seed"),
        (dict(max_turns=0), "max_turns"), (dict(fault_rate=1.5), "fault_rate"),
        (dict(fault_rate="0.6"), "fault_rate"), (dict(error_recovery=1), "error_recovery"),
        (dict(submit_nudge=None), "submit_nudge"))),
    "10": Spec(reading.live_threshold, dict(seed=0), (
        (dict(seed=-1), "seed"), (dict(seed=1.5), "seed"),
        (dict(relevance_cases=0), "relevance_cases"),
        (dict(irrelevance_cases=10**8), "irrelevance_cases"),
        (dict(threshold=11.0), "threshold"), (dict(threshold="1"), "threshold"),
        (dict(separation=-0.5), "separation"), (dict(separation=None), "separation"))),
}

CHAPTERS = sorted(EXPLORERS)
#: What one explorer may add to a page (test_live.py checks the stored pages' too).
LIGHT = 150_000


@pytest.fixture(scope="module")
def built():
    """Each chapter's explorer at its small setting, built once for the module."""
    return {chapter: spec.make(**spec.small) for chapter, spec in EXPLORERS.items()}


def test_every_chapter_with_an_explorer_is_in_the_contract():
    """A new chapter's explorer cannot skip the contract: every ``live_*`` builder of
    the figure modules is listed, and every chapter has one."""
    from bookbuild.run import chapters

    modules = (budgets, chain, formattax, lab, ladder, reading, retries, passk_figures,
               selfcorrection, verifiers)
    builders = {getattr(m, n) for m in modules for n in dir(m) if n.startswith("live_")}
    assert builders == {spec.make for spec in EXPLORERS.values()}
    assert {p.stem[:2] for p in chapters()} == set(CHAPTERS)


@pytest.mark.parametrize("chapter, kwargs, message", [
    pytest.param(chapter, kwargs, message, id=f"{chapter}-{'-'.join(kwargs)}-{i}")
    for chapter in CHAPTERS for i, (kwargs, message) in enumerate(EXPLORERS[chapter].bad)])
def test_the_explorer_refuses_bad_input(chapter, kwargs, message):
    spec = EXPLORERS[chapter]
    with pytest.raises(ValueError, match=message):
        spec.make(**{**spec.small, **kwargs})


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_explorer_starts_at_its_controls_defaults(built, chapter):
    explorer = built[chapter]
    assert isinstance(explorer, Explorer)
    defaults = {c.name: c.default for c in explorer.controls}
    assert all(c.default in c.values for c in explorer.controls)
    assert explorer.sentence() == explorer.sentence(**defaults)
    data = explorer.data()
    assert [c["values"][c["default"]] for c in data["controls"]] == \
        [pytest.approx(v) for v in defaults.values()]
    # The sentence a reader without JavaScript sees is the one at the defaults.
    assert html.escape(explorer.sentence(), quote=False) in explorer.html()


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_source_in_the_page_rebuilds_the_explorer(built, chapter):
    explorer = built[chapter]
    where, kwargs = explorer.source
    module, _, name = where.rpartition(".")
    make = getattr(importlib.import_module(module), name)
    assert make is EXPLORERS[chapter].make
    assert set(EXPLORERS[chapter].small) <= set(kwargs)
    assert make(**kwargs).data() == explorer.data()


def _positions(explorer, depends) -> int:
    sizes = {c.name: len(c.values) for c in explorer.controls}
    return int(np.prod([sizes[d] for d in depends])) if depends else 1


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_page_data_holds_every_position_and_stays_light(built, chapter):
    explorer = built[chapter]
    data = explorer.data()
    names = [c.name for c in explorer.controls]
    # strict JSON: a NaN or an infinity would not parse in the browser
    text = json.dumps(data, allow_nan=False)
    assert len(explorer.html().encode()) < LIGHT, len(text)
    for part, stored in zip(explorer.series, data["series"]):
        assert len(stored["frames"]) == _positions(explorer, part.depends) <= MAX_FRAMES
        assert set(part.depends) <= set(names)
    words = data["words"]["frames"]
    assert len(words) == _positions(explorer, explorer.words.depends)
    assert all(all(isinstance(s, str) and s for s in frame) for frame in words.values())


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_dot_sits_inside_its_own_interval(built, chapter):
    dots = [s for s in built[chapter].data()["series"] if s["kind"] == "points"]
    for series in dots:
        for key, frame in series["frames"].items():
            if len(frame) < 4:
                continue  # dots without an interval
            _, y, low, high = (np.array(col, dtype=float) for col in frame[:4])
            shown = ~np.isnan(y)
            assert np.all(low[shown] <= y[shown] + 1e-9), (series["label"], key)
            assert np.all(y[shown] <= high[shown] + 1e-9), (series["label"], key)
