"""Chapter 2's live explorer (retries): the simulated dots against the closed form, the
sentence against direct package calls, where its controls snap. The browser side
is tests/test_browser.py's test_live_explorers_*.
What every explorer shares (bad input, defaults, page data) is in
tests/test_live_contract.py."""

from __future__ import annotations

import numpy as np
import pytest

from reliability import Workflow
from reliability.figures import retries
from reliability.workflow import ceiling

RUNS, SEED, STEPS = 2000, 20261302, 10


@pytest.fixture(scope="module")
def explorer():
    return retries.live_retries(runs=RUNS, seed=SEED, steps=STEPS, error=0.05,
                                silent=0.03, attempts=3)


def _frames(explorer, label_start):
    data = explorer.data()
    part = next(s for s in data["series"] if s["label"].startswith(label_start))
    return data, part


def test_it_starts_at_the_chapters_setting_and_snaps_to_the_grid(explorer):
    assert explorer.source[1] == {"runs": RUNS, "seed": SEED, "steps": STEPS,
                                  "error": 0.05, "silent": 0.03, "attempts": 3}
    snapped = retries.live_retries(runs=2, seed=0, error=0.061, silent=0.5, attempts=20)
    assert snapped.source[1]["error"] == 0.05
    assert snapped.source[1]["silent"] == max(retries.LIVE_SILENT)
    assert snapped.source[1]["attempts"] == max(retries.LIVE_ATTEMPTS)


def test_simulated_dots_agree_with_the_closed_form(explorer):
    """Every dot at every error mix within 4.5 standard errors of (c S_A)^n (1,014
    comparisons; 4.5 SE keeps a false alarm under one in a hundred runs of the suite),
    and every dot inside its own Wilson interval."""
    data, dots = _frames(explorer, "simulated")
    errors, silents = (data["controls"][i]["values"] for i in (0, 1))
    worst = 0.0
    for i, e in enumerate(errors):
        for j, w in enumerate(silents):
            x, rate, low, high = (np.array(c) for c in dots["frames"][f"{i}_{j}"])
            closed = np.array([Workflow(steps=STEPS, error=e, silent=w,
                                        attempts=int(a)).success() for a in x])
            se = np.sqrt(closed * (1 - closed) / RUNS)
            worst = max(worst, (np.abs(rate - closed) / np.maximum(se, 1 / RUNS)).max())
            assert np.all((low <= rate + 1e-9) & (rate <= high + 1e-9))
    assert worst < 4.5, worst


def test_the_ceiling_line_is_the_unlimited_attempts_limit(explorer):
    data, line = _frames(explorer, "ceiling")
    e, w = data["controls"][0]["values"][4], data["controls"][1]["values"][6]
    top = ceiling(Workflow(steps=STEPS, error=e, silent=w))
    assert line["frames"]["4_6"][1] == pytest.approx([top, top], rel=1e-4)
    assert top == pytest.approx(((1 - e - w) / (1 - e)) ** STEPS)


@pytest.mark.parametrize("error, silent, attempts", [
    (0.05, 0.03, 3), (0.0, 0.0, 1), (0.3, 0.12, 6), (0.2, 0.01, 2)])
def test_the_sentence_states_the_packages_numbers(explorer, error, silent, attempts):
    text = explorer.sentence(error=error, silent=silent, attempts=attempts)
    wf = Workflow(steps=STEPS, error=error, silent=silent, attempts=attempts)
    sim = wf.simulate(runs=RUNS, seed=SEED + attempts - 1)
    low, high = sim.interval(0.95)
    assert f"A = {attempts} as its limit" in text
    assert f"fail visibly {error:.1%} and silently {silent:.1%}" in text
    assert f"succeeds {wf.success():.1%} of the time" in text
    assert f"spends {wf.expected_attempts():.2f} attempts" in text
    assert f"give {sim.rate:.1%} (95% Wilson interval {low:.1%} to {high:.1%})" in text
    assert f"ceiling of {ceiling(wf):.1%}" in text
