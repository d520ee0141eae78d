"""Chapter 10's live explorer: the threshold model's paired leaderboard columns, as the
page stores them, against reliability.reading's closed forms and its seeded run. The
browser side (the page shows these numbers, moved by keyboard) is in tests/test_browser.py.
What every explorer shares (bad input, defaults, page data) is in
tests/test_live_contract.py."""

from __future__ import annotations

import numpy as np
import pytest

from reliability import reading
from reliability.figures import reading as figs

SEED, RELEVANCE, IRRELEVANCE = 20261210, 16, 240


@pytest.fixture(scope="module")
def explorer():
    return figs.live_threshold(seed=SEED, relevance_cases=RELEVANCE,
                               irrelevance_cases=IRRELEVANCE, threshold=1.0,
                               separation=2.0)


def _run(threshold, separation):
    return reading.simulate_columns(*reading.threshold_model(threshold, separation),
                                    relevance_cases=RELEVANCE,
                                    irrelevance_cases=IRRELEVANCE, seed=SEED)


def test_it_starts_at_the_chapters_setting_and_snaps_to_offered_positions(explorer):
    assert explorer.sentence().startswith(
        "Model agent with separation 2.0, calling when its need signal passes +1.00: the "
        "closed forms give Relevance 84.1% and Irrelevance 84.1%.")
    snapped = figs.live_threshold(seed=0, threshold=1.1, separation=2.2)
    assert snapped.source[1]["threshold"] == 1.0 and snapped.source[1]["separation"] == 2.0
    assert figs.live_threshold(seed=0, threshold=-9.0).source[1]["threshold"] == -4.0


def test_seeded_dots_agree_with_the_closed_forms(explorer):
    """Every dot of every separation within 4.5 standard errors of its closed form (two
    columns, 33 thresholds, 13 separations: one seeded run, moved by the sliders)."""
    data = explorer.data()
    separations = data["controls"][1]["values"]
    for label, column, cases in (("Relevance, one", 0, RELEVANCE),
                                 ("Irrelevance, the", 1, IRRELEVANCE)):
        dots = next(s for s in data["series"] if s["label"].startswith(label))
        worst = 0.0
        for index, d in enumerate(separations):
            x, share, low, high = (np.array(col) for col in dots["frames"][str(index)])
            closed = reading.column_scores(*reading.threshold_model(x, d))[column]
            se = np.sqrt(closed * (1 - closed) / cases)
            worst = max(worst, (np.abs(share - closed) / np.maximum(se, 1 / cases)).max())
            assert np.all((low <= share + 1e-9) & (share <= high + 1e-9))
        assert worst < 4.5, (label, worst)


def test_the_lines_are_the_closed_forms(explorer):
    data = explorer.data()
    index = data["controls"][1]["values"].index(3.0)
    x, relevance = data["series"][0]["frames"][str(index)]
    _, irrelevance = data["series"][1]["frames"][""]
    expected = reading.column_scores(*reading.threshold_model(np.array(x), 3.0))
    assert np.allclose(relevance, expected[0], rtol=1e-4, atol=1e-9)
    assert np.allclose(irrelevance, expected[1], rtol=1e-4, atol=1e-9)


@pytest.mark.parametrize("threshold, separation", [
    (1.0, 2.0), (-4.0, 0.0), (4.0, 6.0), (0.25, 1.5), (-1.75, 4.5)])
def test_the_sentence_states_the_package_numbers(explorer, threshold, separation):
    text = explorer.sentence(threshold=threshold, separation=separation)
    run = _run(threshold, separation)
    relevance, irrelevance = run.expected
    assert (f"the closed forms give Relevance {relevance:.1%} and Irrelevance "
            f"{irrelevance:.1%}") in text
    low, high = run.interval("relevance")
    assert (f"scores Relevance {run.relevance:.1%} on {RELEVANCE} cases (95% Wilson "
            f"interval {low:.1%} to {high:.1%})") in text
    low, high = run.interval("irrelevance")
    assert (f"Irrelevance {run.irrelevance:.1%} on {IRRELEVANCE} cases ({low:.1%} to "
            f"{high:.1%})") in text
