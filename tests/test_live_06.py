"""Chapter 6's live explorer (the format tax's cure): simulated accuracy against the
closed forms, the sentence against direct package calls, and where its
controls snap. The browser side is tests/test_browser.py's test_live_explorers_*.
What every explorer shares (bad input, defaults, page data) is in
tests/test_live_contract.py."""

from __future__ import annotations

import re

import numpy as np
import pytest

from reliability.datasets import load
from reliability.formattax import Generator, split_tax
from reliability.figures import formattax as figs

RUNS, SEED, A0, FIDELITY = 4000, 20261206, 0.615, 0.98
# The chapter's split of the published gap (61.5% free, 55.7% constrained) between the
# prompt and the decoder, in the proportion of the cell-level drops (reliability.formattax)
TAX, DECODER = split_tax(load("format_tax").set_index("id")["value"])


@pytest.fixture(scope="module")
def explorer():
    return figs.live_cure(runs=RUNS, seed=SEED, free_accuracy=A0, prompt_tax=TAX,
                          decoder_tax=DECODER, reformat_fidelity=FIDELITY)


def _part(data, label_start):
    return next(s for s in data["series"] if s["label"].startswith(label_start))


def test_it_starts_at_the_chapters_setting(explorer):
    taxes = explorer.controls[0].values
    # in percentage points, with the chapter's prompt tax (its share of the gap) among
    # them; the decoder's share is not on the slider but in every constrained number
    assert round(100 * TAX, 10) in taxes and 4 not in taxes and taxes[-1] == 20
    assert len(taxes) == 21 and 0 < DECODER < TAX
    assert explorer.source[1]["decoder_tax"] == DECODER
    assert f"prompt tax of {100 * TAX:.1f} pp and a decoder tax of {100 * DECODER:.1f} pp, constrained" in \
        explorer.sentence()
    # At the chapter's setting the numbers are the chapter's regime table.
    table = figs.regime_table(Generator(free_accuracy=A0, prompt_tax=TAX,
                                        decoder_tax=DECODER, reformat_fidelity=FIDELITY),
                              runs=RUNS, seed=SEED)
    closed, rate, low, high = table["constrained"]["right"]
    assert (f"constrained decoding is right {closed:.1%} (simulated, n = {RUNS:,d}: "
            f"{rate:.1%}, 95% Wilson interval {low:.1%} to {high:.1%})"
            in explorer.sentence())
    closed, rate, low, high = table["two_turn"]["right"]
    assert f"is right {closed:.1%} ({rate:.1%}, {low:.1%} to {high:.1%})" in \
        explorer.sentence()


def test_simulated_accuracy_agrees_with_the_closed_forms(explorer):
    """Every dot (constrained decoding at each tax, the cure at each fidelity) within
    4.5 standard errors of its closed form, and inside its own Wilson interval."""
    data = explorer.data()
    taxes, fidelities = (data["controls"][i]["values"] for i in (0, 1))
    x, rate, low, high = (np.array(c) for c in _part(data, "constrained: sim")["frames"][""])
    expected = [A0 - t / 100 - DECODER for t in taxes]
    cure = _part(data, "two turns: sim")["frames"]
    for j, r in enumerate(fidelities):
        _, y, lo, hi = cure[f"0_{j}"]
        rate, low, high = (np.append(v, w) for v, w in ((rate, y), (low, lo), (high, hi)))
        expected.append(A0 * r)
    expected = np.array(expected)
    se = np.sqrt(expected * (1 - expected) / RUNS)
    assert (np.abs(rate - expected) / se).max() < 4.5
    assert np.all((low <= rate + 1e-9) & (rate <= high + 1e-9))


@pytest.mark.parametrize("tax, fidelity", [(0.0, 1.0), (20.0, 0.8), (10.0, 0.9)])
def test_the_sentence_states_the_packages_numbers(explorer, tax, fidelity):
    text = explorer.sentence(prompt_tax=tax, fidelity=fidelity)
    g = Generator(free_accuracy=A0, prompt_tax=tax / 100, decoder_tax=DECODER,
                  reformat_fidelity=fidelity)
    grammar = g.simulate("constrained", runs=RUNS, seed=SEED + 2)
    cure = g.simulate("two_turn", runs=RUNS, seed=SEED + 3)
    right = {name: g.regime(name).accuracy for name in ("constrained", "two_turn")}
    assert f"prompt tax of {tax:.1f} pp and a decoder tax of {100 * DECODER:.1f} pp, " \
           f"constrained decoding is right {right['constrained']:.1%}" in text
    low, high = grammar.interval("right")
    assert f"{grammar.rate('right'):.1%}, 95% Wilson interval {low:.1%} to {high:.1%}" \
        in text
    low, high = cure.interval("right")
    assert f"fidelity {fidelity:.0%} is right {right['two_turn']:.1%} " \
           f"({cure.rate('right'):.1%}, {low:.1%} to {high:.1%})" in text
    gap = 100 * (right["two_turn"] - right["constrained"])
    assert text.endswith(f"The cure minus constrained decoding: {gap:+.1f} pp.")


def test_taxes_above_the_free_accuracy_are_not_offered():
    e = figs.live_cure(runs=2, seed=0, free_accuracy=0.1, prompt_tax=0.05,
                       reformat_fidelity=0.9)
    assert max(e.controls[0].values) <= 10


@pytest.mark.parametrize("tax, fidelity", [(None, None), (0.0, 0.8), (20.0, 1.0)])
def test_the_russian_sentence_reads_naturally_at_the_default_and_the_ends(tax, fidelity):
    """Issue 41 (ch06): the Russian sentence said «верен в 61,5%.» (of what?) and
    «Разница в пользу лечения: −10,6 п. п.» (a gain that is a loss). It now says how
    often, names the simulation's size without a count noun to agree, and subtracts."""
    from reliability.i18n import language

    with language("ru"):
        explorer = figs.live_cure(runs=RUNS, seed=SEED, free_accuracy=A0, prompt_tax=TAX,
                                  decoder_tax=DECODER, reformat_fidelity=FIDELITY)
        text = explorer.sentence() if tax is None else explorer.sentence(
            prompt_tax=tax, fidelity=fidelity)
    assert text.startswith("Модель: в свободном тексте ответ верен в 61,5% случаев. ")
    assert f"налоге декодера {100 * DECODER:.1f} п. п.".replace(".", ",", 1) in text
    assert "ограниченное декодирование даёт верный ответ в " in text
    assert "(симуляция, n = 4\u00a0000: " in text or "(симуляция, n = 4 000: " in text
    assert "в пользу" not in text and "верны в" not in text
    assert re.search(r"Два хода минус ограниченное декодирование: [+−]\d+,\d п\. п\.$",
                     text), text
