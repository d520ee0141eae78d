"""Chapter 5's live explorer (an arbiter in the revision loop): the simulated dots against
the closed form, the sentence against direct package calls, and where its
controls snap. The browser side is tests/test_browser.py's test_live_explorers_*.
What every explorer shares (bad input, defaults, page data) is in
tests/test_live_contract.py."""

from __future__ import annotations

import numpy as np
import pytest

from reliability.figures import selfcorrection as figs
from reliability.selfcorrection import (ORACLE, Arbiter, Revision, expected_revisions,
                                        loop_accuracy, simulate_loop)

BREAK, FIX, START, FR, QUESTIONS, SEED = 0.066, 0.18, 0.759, 0.05, 4000, 20261505
CHAIN = Revision(BREAK, FIX)


@pytest.fixture(scope="module")
def explorer():
    return figs.live_arbiter(break_rate=BREAK, fix_rate=FIX, initial=START,
                             false_reject=FR, questions=QUESTIONS, seed=SEED,
                             recall=0.6, rounds=6)


def _part(explorer, label_start):
    data = explorer.data()
    return data, next(s for s in data["series"] if s["label"].startswith(label_start))


def test_it_starts_at_the_chapters_setting_and_snaps_to_the_grid(explorer):
    assert explorer.source[1]["recall"] == 0.6 and explorer.source[1]["rounds"] == 6
    snapped = figs.live_arbiter(break_rate=BREAK, fix_rate=FIX, initial=START,
                                false_reject=FR, questions=2, seed=0, recall=0.62,
                                rounds=50)
    assert snapped.source[1]["recall"] == 0.6
    assert snapped.source[1]["rounds"] == max(figs.LIVE_ROUNDS)


def test_simulated_dots_agree_with_the_closed_form(explorer):
    """Every dot at every recall within 4.5 standard errors of the closed form (441
    comparisons), and every dot inside its own Wilson interval; round 0 is the start."""
    data, dots = _part(explorer, "arbiter, simulated")
    worst = 0.0
    for i, d in enumerate(data["controls"][0]["values"]):
        x, rate, low, high = (np.array(c) for c in dots["frames"][str(i)])
        closed = loop_accuracy(CHAIN, START, x.astype(int), Arbiter(d, FR))
        se = np.sqrt(closed * (1 - closed) / QUESTIONS)
        worst = max(worst, (np.abs(rate - closed) / np.maximum(se, 1 / QUESTIONS)).max())
        assert np.all((low <= rate + 1e-9) & (rate <= high + 1e-9))
    assert worst < 4.5, worst


def test_the_fixed_lines_are_intrinsic_revision_and_the_oracle(explorer):
    ks = np.arange(21)
    for label, arbiter in (("intrinsic", None), ("oracle", ORACLE)):
        _, line = _part(explorer, label)
        assert line["frames"][""][1] == pytest.approx(
            loop_accuracy(CHAIN, START, ks, arbiter), rel=1e-4)


@pytest.mark.parametrize("recall, rounds", [(0.6, 6), (0.0, 1), (1.0, 20), (0.35, 11)])
def test_the_sentence_states_the_packages_numbers(explorer, recall, rounds):
    text = explorer.sentence(recall=recall, rounds=rounds)
    arbiter = Arbiter(recall, FR)
    sim = simulate_loop(CHAIN, START, rounds, questions=QUESTIONS, seed=SEED + 1,
                        arbiter=arbiter)
    low, high = sim.interval()
    assert f"after {rounds} round{'' if rounds == 1 else 's'} an arbiter" in text
    assert f"sends back {recall:.0%} of wrong answers and {FR:.0%} of right" in text
    assert f"ends at {loop_accuracy(CHAIN, START, rounds, arbiter):.1%}" in text
    assert f"spending {expected_revisions(CHAIN, START, rounds, arbiter):.2f}" in text
    assert f"intrinsic revision ends at {loop_accuracy(CHAIN, START, rounds):.1%}" in text
    assert f"the oracle at {loop_accuracy(CHAIN, START, rounds, ORACLE):.1%}" in text
    assert (f"gives {sim.accuracy[-1]:.1%} (95% Wilson interval {low[-1]:.1%} to "
            f"{high[-1]:.1%})") in text
