"""Chapter 7's live explorer: the share of a model task mix that hits a step limit, as
the page stores it, against TaskMix's closed form and its seeded simulation. The browser
side (the page shows these numbers, moved by keyboard) is in tests/test_browser.py.
What every explorer shares (bad input, defaults, page data) is in
tests/test_live_contract.py."""

from __future__ import annotations

import numpy as np
import pytest

from reliability.figures import budgets
from reliability.harness import TaskMix

RUNS, SEED, MEDIAN, SPREAD = 4000, 20261207, 6.0, 0.5


@pytest.fixture(scope="module")
def explorer():
    return budgets.live_step_limit(runs=RUNS, seed=SEED, median=MEDIAN, spread=SPREAD,
                                   stuck=0.03, limit=12)


def _series(data, label_start):
    return next(s for s in data["series"] if s["label"].startswith(label_start))


def test_it_starts_at_the_chapters_setting_and_snaps_to_offered_positions(explorer):
    assert explorer.sentence().startswith(
        "Model task mix (median 6 steps, spread 0.5): a step limit of 12 is hit by 11.0% "
        "of tasks (closed form)")
    snapped = budgets.live_step_limit(runs=10, seed=0, stuck=0.0349, limit=200)
    assert snapped.source[1]["stuck"] == 0.03 and snapped.source[1]["limit"] == 30


def test_simulated_dots_agree_with_the_closed_form(explorer):
    """Every simulated dot at every stuck share within 4.5 standard errors of h(L)
    (930 comparisons, strongly correlated: one sample per stuck share)."""
    data = explorer.data()
    dots = _series(data, "simulated")
    stuck_values = data["controls"][1]["values"]
    worst = 0.0
    for index, q in enumerate(stuck_values):
        x, rate, low, high = (np.array(col) for col in dots["frames"][str(index)])
        closed = np.array(TaskMix(median=MEDIAN, spread=SPREAD, stuck=q).hit_share(
            x.astype(int)))
        se = np.sqrt(closed * (1 - closed) / RUNS)
        worst = max(worst, (np.abs(rate - closed) / np.maximum(se, 1 / RUNS)).max())
        assert np.all((low <= rate + 1e-9) & (rate <= high + 1e-9))
    assert worst < 4.5, worst


def test_the_lines_are_the_closed_form_and_its_two_parts(explorer):
    data = explorer.data()
    q_index = data["controls"][1]["values"].index(0.1)
    mix = TaskMix(median=MEDIAN, spread=SPREAD, stuck=0.1)
    x, total = _series(data, "closed form")["frames"][str(q_index)]
    _, cut = _series(data, "sound tasks")["frames"][str(q_index)]
    limits = np.array(x, dtype=int)
    assert np.allclose(total, mix.hit_share(limits), rtol=1e-4)
    assert np.allclose(cut, mix.cut_short(limits), rtol=1e-4, atol=1e-9)
    assert _series(data, "stuck")["frames"][str(q_index)][1] == [0.1, 0.1]


@pytest.mark.parametrize("stuck, limit", [(0.03, 12), (0.0, 1), (0.3, 30), (0.12, 7)])
def test_the_sentence_states_the_package_numbers(explorer, stuck, limit):
    text = explorer.sentence(stuck=stuck, limit=limit)
    mix = TaskMix(median=MEDIAN, spread=SPREAD, stuck=stuck)
    hits = mix.simulate(RUNS, seed=SEED).hits(limit)
    assert f"a step limit of {limit} is hit by {mix.hit_share(limit):.1%} of tasks" in text
    assert f"the {stuck:.1%} that are stuck, plus {mix.cut_short(limit):.1%}" in text
    assert (f"{RUNS:,d} tasks, {hits['share']:.1%} hit it (95% Wilson interval "
            f"{hits['low']:.1%} to {hits['high']:.1%})") in text
