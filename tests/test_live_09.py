"""Chapter 9's live explorer: the transient-fault scenario against the fault rate, with
error recovery and the submit nudge switched on and off, as the page stores it, against
the lab's closed form and its seeded arms; and the switches' labels. The browser side is
in tests/test_browser.py.
What every explorer shares (bad input, defaults, page data) is in
tests/test_live_contract.py."""

from __future__ import annotations

import re

import numpy as np
import pytest

from reliability import lab, numbers
from reliability.figures import lab as figs
from reliability.live import Control


def test_a_switch_shows_its_labels_not_its_values():
    switch = Control("on", "a switch", (0, 1), 1, "d", labels=("off", "on"))
    assert (switch.shown(0), switch.shown(1)) == ("off", "on")
    assert Control("a", "a", (0, 1), 0, "d").shown(1) == "1"
    with pytest.raises(ValueError, match="labels"):
        Control("on", "a switch", (0, 1), 1, "d", labels=("off",))
    with pytest.raises(ValueError, match="labels"):
        Control("on", "a switch", (0, 1), 1, "d", labels=("off", 1))


# --- chapter 9 ---------------------------------------------------------------------------

RUNS, SEED, TURNS = 200, 20261209, 6


@pytest.fixture(scope="module")
def explorer():
    return figs.live_fault_rate(runs=RUNS, seed=SEED, max_turns=TURNS, fault_rate=0.6)


def _arm(rate, recovery=False, nudge=False):
    return lab.run_arm(lab.Scenario(fault_rate=rate, max_turns=TURNS),
                       lab.Guardrails(error_recovery=recovery, submit_nudge=nudge),
                       runs=RUNS, seed=SEED)


def test_chapter_9_explorer_starts_at_the_chapters_setting(explorer):
    text = explorer.sentence()
    assert "at a fault rate of 60%: the baseline passes 61.0%" in text
    assert "With error recovery the arm passes" in text and text.endswith("a result.")
    snapped = figs.live_fault_rate(runs=2, seed=0, fault_rate=0.64, error_recovery=False)
    assert snapped.source[1]["fault_rate"] == 0.6
    assert snapped.sentence().count("no guardrail on") == 1


def test_chapter_9_simulated_arms_agree_with_their_closed_forms(explorer):
    """Every seeded arm's pass rate within 4.5 standard errors of the transient closed
    form, for the baseline and for error recovery (20 comparisons)."""
    data = explorer.data()
    retries = lab.Guardrails().recovery_retries
    base = next(s for s in data["series"] if s["label"].startswith("baseline,") and
                s["kind"] == "points")
    arm = next(s for s in data["series"] if s["label"].startswith("guardrail arm, same"))
    for frame, recovery in ((base["frames"][""], 0), (arm["frames"]["1_0"], retries)):
        x, rate, low, high = (np.array(col) for col in frame)
        closed = np.array([lab.transient_success(r, TURNS, recovery) for r in x])
        se = np.sqrt(closed * (1 - closed) / RUNS)
        z = np.abs(rate - closed) / np.maximum(se, 1 / RUNS)
        assert z.max() < 4.5, (recovery, z.max())
        assert np.all((low <= rate + 1e-9) & (rate <= high + 1e-9))


def test_chapter_9_mismatched_nudge_replays_the_baseline(explorer):
    data = explorer.data()
    arm = next(s for s in data["series"] if s["label"].startswith("guardrail arm, same"))
    assert arm["frames"]["0_1"] == arm["frames"]["0_0"]
    assert arm["frames"]["1_1"] == arm["frames"]["1_0"]
    assert "the submit nudge fired 0 times" in explorer.sentence(recovery=0, nudge=1)


@pytest.mark.parametrize("fault, recovery, nudge", [
    (0.6, 1, 0), (0.0, 0, 0), (0.9, 1, 1), (0.4, 0, 1), (0.3, 1, 0)])
def test_chapter_9_sentence_states_the_package_numbers(explorer, fault, recovery, nudge):
    text = explorer.sentence(fault=fault, recovery=recovery, nudge=nudge)
    base, treated = _arm(fault), _arm(fault, bool(recovery), bool(nudge))
    low, high = base.interval()
    closed = lab.transient_success(fault, TURNS)
    assert (f"the baseline passes {base.rate:.1%} (95% Wilson interval {low:.1%} to "
            f"{high:.1%}; closed form {closed:.1%})") in text
    low, high = treated.interval()
    closed = lab.transient_success(fault, TURNS, 5 if recovery else 0)
    assert f"passes {treated.rate:.1%} ({low:.1%} to {high:.1%}; closed form {closed:.1%})" \
        in text
    gap = lab.compare(base, treated)
    def signed(share):   # with the minus sign, −1.9
        return numbers.fmt(100 * share, "+.1f")

    assert (f"The gap is {signed(gap.delta)} pp (95% Newcombe interval "
            f"{signed(gap.low)} to {signed(gap.high)}): a {gap.verdict}.") in text
    if recovery:
        assert f"error recovery fired {treated.fired['error_recovery']:,d} times" in text


def test_chapter_9_russian_sentence_reads_as_russian():
    """The Russian sentence once ended «(…от +32,2 до +45,9): результат.» and said
    «восстановление после ошибок — срабатываний: 643», a bare counter: the count now
    takes its noun's form and the verdict closes a clause (issue 41)."""
    from reliability.i18n import language

    with language("ru"):
        small = figs.live_fault_rate(runs=20, seed=SEED, max_turns=TURNS, fault_rate=0.6)
        texts = [small.sentence(fault=f, recovery=r, nudge=n)
                 for f in (0.0, 0.6) for r in (0, 1) for n in (0, 1)]
    for text in texts:
        assert "срабатываний:" not in text and "): " not in text, text
        assert text.endswith(("и это результат.", "и это нулевой результат.")), text
    fired = [t for t in texts if "механизм «восстановление после ошибок» сработал" in t]
    assert fired and all(re.search(r"сработал \d+ раза?\b", t) for t in fired), fired


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_kernel_explorer_draws_with_every_switch_off(language):
    """The launch notebook's explorer (its ``explore``, as the chapter defines it) with
    all four guardrails off: the guarded arm is then the baseline, and the dict of arms
    holds one entry, which a two-arm comparison once failed on with a TypeError after a
    student unticked the last box in JupyterLab."""
    import json

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from bookbuild.run import ROOT
    from reliability import i18n

    folder = ROOT / ("ru/chapters" if language == "ru" else "chapters")
    cells = json.loads((folder / "09_ablation_lab.ipynb").read_text())["cells"]
    source = next("".join(c["source"]) for c in cells
                  if "def explore(" in "".join(c["source"]))
    namespace = {"lab": lab, "fig_lab": figs, "plt": plt, "max_turns": 6, "runs": 40,
                 "seed": 1}
    with i18n.language(language):
        exec(compile(source, "explore", "exec"), namespace)
        namespace["explore"](error_recovery=False, retry_nudge=False, submit_nudge=False,
                             validation=False)
        title = plt.gcf().axes[0].get_title()
    plt.close("all")
    assert "+0" in title or "+0,0" in title, title
