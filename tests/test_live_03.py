"""Chapter 3's live explorer (verifiers): the simulated dots against the closed form, the
sentence against direct package calls, where its controls snap. The browser side
is tests/test_browser.py's test_live_explorers_*.
What every explorer shares (bad input, defaults, page data) is in
tests/test_live_contract.py."""

from __future__ import annotations

import numpy as np
import pytest

from reliability import Verifier, Workflow, numbers
from reliability.figures import verifiers

RUNS, SEED, STEPS = 2000, 20261303, 10


@pytest.fixture(scope="module")
def explorer():
    return verifiers.live_verifier(runs=RUNS, seed=SEED, steps=STEPS, error=0.05,
                                   silent=0.03, recall=0.8, false_reject=0.05, attempts=3)


def _part(explorer, label_start):
    data = explorer.data()
    return data, next(s for s in data["series"] if s["label"].startswith(label_start))


def test_it_starts_at_the_chapters_setting_and_snaps_to_the_grid(explorer):
    assert explorer.source[1] == {"runs": RUNS, "seed": SEED, "steps": STEPS,
                                  "error": 0.05, "silent": 0.03, "recall": 0.8,
                                  "false_reject": 0.05, "attempts": 3}
    snapped = verifiers.live_verifier(runs=2, seed=0, recall=0.83, false_reject=0.9,
                                      attempts=20)
    assert snapped.source[1]["recall"] == 0.8
    assert snapped.source[1]["false_reject"] == max(verifiers.LIVE_FALSE_REJECTS)
    assert snapped.source[1]["attempts"] == max(verifiers.LIVE_ATTEMPTS)


def test_simulated_dots_agree_with_the_closed_form(explorer):
    """Every dot at every (f, A) within 4.5 standard errors of (a S_A)^n (726
    comparisons; 4.5 SE keeps a false alarm under one in a hundred runs of the suite),
    and every dot inside its own Wilson interval."""
    data, dots = _part(explorer, "simulated")
    false_rejects, attempts = (data["controls"][i]["values"] for i in (1, 2))
    worst = 0.0
    for i, f in enumerate(false_rejects):
        for j, a in enumerate(attempts):
            x, rate, low, high = (np.array(c) for c in dots["frames"][f"{i}_{j}"])
            closed = np.array([Workflow(steps=STEPS, error=0.05, silent=0.03, attempts=a,
                                        verifier=Verifier(d, f)).success() for d in x])
            se = np.sqrt(closed * (1 - closed) / RUNS)
            worst = max(worst, (np.abs(rate - closed) / np.maximum(se, 1 / RUNS)).max())
            assert np.all((low <= rate + 1e-9) & (rate <= high + 1e-9))
    assert worst < 4.5, worst


def test_the_dashed_line_is_retries_alone(explorer):
    data, line = _part(explorer, "retries alone")
    alone = Workflow(steps=STEPS, error=0.05, silent=0.03, attempts=4).success()
    assert line["frames"]["3"][1] == pytest.approx([alone, alone], rel=1e-4)


@pytest.mark.parametrize("recall, false_reject, attempts", [
    (0.8, 0.05, 3), (0.0, 0.0, 1), (1.0, 0.5, 6), (0.3, 0.25, 2)])
def test_the_sentence_states_the_packages_numbers(explorer, recall, false_reject,
                                                  attempts):
    text = explorer.sentence(recall=recall, false_reject=false_reject, attempts=attempts)
    alone = Workflow(steps=STEPS, error=0.05, silent=0.03, attempts=attempts)
    wf = Workflow(steps=STEPS, error=0.05, silent=0.03, attempts=attempts,
                  verifier=Verifier(recall, false_reject))
    sim = wf.simulate(runs=RUNS, seed=SEED)
    low, high = sim.interval(0.95)
    assert f"recall {recall:.1f} and false rejection {false_reject:.2f}" in text
    assert f"A = {attempts} as the limit" in text
    assert f"succeeds {wf.success():.1%} of the time" in text
    assert numbers.fmt(100 * (wf.success() - alone.success()), "+.1f") + " pp" in text
    assert f"against {alone.success():.1%} without a verifier" in text
    assert f"at {wf.expected_attempts():.2f} attempts per run" in text
    assert f"give {sim.rate:.1%} (95% Wilson interval {low:.1%} to {high:.1%})" in text
