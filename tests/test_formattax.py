"""The format-tax model: closed forms against seeded simulation, the cell arithmetic
against the published counts, the field-order toy, the data tables and bad input."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reliability.formattax import (ORDERS, REGIMES, FieldOrderToy, Generator,
                                   cell_partition, split_tax)
from reliability.stats import binomial_standard_error

DATA = Path(__file__).resolve().parents[1] / "data"
RUNS = 20000
TOLERANCE_SE = 4.0  # every simulated rate within four standard errors of its closed form

GENERATORS = [
    Generator(),
    Generator(free_accuracy=0.615, parse_rate=0.7, prompt_compliance=0.557,
              prompt_tax=0.058, constrained_compliance=0.922, decoder_tax=0.0),
    Generator(free_accuracy=0.9, parse_rate=0.99, prompt_compliance=0.2, prompt_tax=0.3,
              constrained_compliance=1.0, decoder_tax=0.1, reformat_fidelity=0.8),
    Generator(free_accuracy=0.3, parse_rate=0.5, prompt_compliance=0.9, prompt_tax=0.0,
              constrained_compliance=0.99, decoder_tax=0.02, reformat_fidelity=1.0),
]


def _within(observed, expected, runs):
    se = max(binomial_standard_error(expected, runs), 1e-12)
    return abs(observed - expected) <= TOLERANCE_SE * se + 1e-12


@pytest.mark.parametrize("index", range(len(GENERATORS)))
@pytest.mark.parametrize("name", REGIMES)
def test_simulated_rates_match_closed_forms(index, name):
    generator = GENERATORS[index]
    regime = generator.regime(name)
    sim = generator.simulate(name, runs=RUNS, seed=100 + index)
    assert _within(sim.rate("valid"), regime.compliance, RUNS)
    assert _within(sim.rate("right"), regime.accuracy, RUNS)
    assert _within(sim.rate("valid_and_right"), regime.valid_and_right, RUNS)


@pytest.mark.parametrize("name", ["prompt", "constrained", "two_turn"])
def test_content_is_as_good_in_valid_and_broken_replies(name):
    # The lesson's claim: replies that met the format lose as much as those that did not.
    generator = Generator(prompt_compliance=0.5, constrained_compliance=0.6)
    sim = generator.simulate(name, runs=RUNS, seed=7)
    accuracy = generator.regime(name).accuracy
    assert _within(sim.right_given_valid, accuracy, sim.valid)
    assert _within(sim.right_given_invalid, accuracy, sim.runs - sim.valid)


def test_closed_forms_follow_the_table():
    g = Generator(free_accuracy=0.7, parse_rate=0.6, prompt_compliance=0.5, prompt_tax=0.1,
                  constrained_compliance=0.9, decoder_tax=0.05, reformat_fidelity=0.9)
    r = g.regimes()
    assert r["free"].compliance == 0.6 and r["free"].accuracy == pytest.approx(0.7)
    assert r["prompt"].accuracy == pytest.approx(0.6)
    assert r["constrained"].accuracy == pytest.approx(0.55)
    assert r["two_turn"].accuracy == pytest.approx(0.63)
    assert r["two_turn"].compliance == r["constrained"].compliance == 0.9
    assert r["constrained"].valid_and_right == pytest.approx(0.9 * 0.55)


@settings(max_examples=60, deadline=None)
@given(st.floats(0.1, 1.0), st.floats(0, 1), st.floats(0, 1), st.floats(0, 1))
def test_grammar_lifts_form_and_leaves_content_where_the_prompt_put_it(a0, tax, cp, cg):
    tax = tax * a0
    g = Generator(free_accuracy=a0, prompt_tax=tax, prompt_compliance=cp,
                  constrained_compliance=cg, decoder_tax=0.0)
    assert g.regime("constrained").accuracy == pytest.approx(g.regime("prompt").accuracy)
    assert g.regime("constrained").compliance == cg
    # The two-turn cure does not see the prompt's request, so its tax cannot reach it.
    untaxed = Generator(free_accuracy=a0, prompt_tax=0.0, prompt_compliance=cp,
                        constrained_compliance=cg)
    assert g.regime("two_turn") == untaxed.regime("two_turn")


def test_same_seed_same_result_and_generators_accepted():
    g = Generator()
    assert g.simulate("two_turn", runs=500, seed=3) == g.simulate("two_turn", runs=500, seed=3)
    assert g.simulate("free", runs=500, seed=3) != g.simulate("free", runs=500, seed=4)
    a = g.simulate("prompt", runs=500, seed=np.random.default_rng(9))
    b = g.simulate("prompt", runs=500, seed=np.random.default_rng(9))
    assert a == b
    toy = FieldOrderToy()
    assert toy.simulate("answer_first", runs=300, seed=5) == toy.simulate(
        "answer_first", runs=300, seed=5)


@pytest.mark.parametrize("kwargs", [
    {"free_accuracy": 1.2}, {"parse_rate": -0.1}, {"prompt_compliance": float("nan")},
    {"constrained_compliance": "0.9"}, {"reformat_fidelity": True},
    {"free_accuracy": 0.3, "prompt_tax": 0.2, "decoder_tax": 0.2},
])
def test_bad_generators_are_refused(kwargs):
    with pytest.raises(ValueError, match=next(iter(kwargs)) if len(kwargs) == 1 else "tax"):
        Generator(**kwargs)


def test_bad_calls_are_refused():
    g = Generator()
    with pytest.raises(ValueError, match="name must be one of"):
        g.regime("json")
    with pytest.raises(ValueError, match="runs"):
        g.simulate("free", runs=0)
    with pytest.raises(ValueError, match="seed"):
        g.simulate("free", seed=-1)
    with pytest.raises(ValueError, match="what must be"):
        g.simulate("free", runs=10).rate("both")
    with pytest.raises(ValueError, match="order must be one of"):
        FieldOrderToy().accuracy("json_first")
    with pytest.raises(ValueError, match="digits"):
        FieldOrderToy(digits=1)
    with pytest.raises(ValueError, match="step_error"):
        FieldOrderToy(step_error=2)
    with pytest.raises(ValueError, match="budget"):
        FieldOrderToy(budget=-1)


# --- the cell arithmetic, on the published counts --------------------------------------

def _tax():
    return pd.read_csv(DATA / "format_tax.csv").set_index("id")["value"]


def test_published_cell_counts_partition_the_grid_and_match_the_stated_shares():
    v = _tax()
    parts = cell_partition(int(v.cells_total), int(v.cells_significant),
                           int(v.cells_with_prompt), int(v.cells_with_decoder),
                           int(v.cells_decoder_only))
    assert sum(parts.values()) == v.cells_total
    assert all(n >= 0 for n in parts.values())
    assert parts["prompt_only"] + parts["prompt_and_decoder"] == v.cells_with_prompt
    assert parts["prompt_and_decoder"] + parts["decoder_only"] == v.cells_with_decoder
    # The lesson's rounded shares must be the counts' shares, to the stated precision.
    assert round(100 * v.cells_with_prompt / v.cells_significant) == v.share_with_prompt
    assert round(100 * v.cells_with_decoder / v.cells_significant) == v.share_with_decoder
    assert v.math500_toward_tax <= v.math500_significant <= v.math500_cells
    assert v.qwen3_significant <= v.qwen3_cells


def test_cell_partition_refuses_counts_that_do_not_add_up():
    with pytest.raises(ValueError, match="with_prompt \\+ decoder_only"):
        cell_partition(72, 39, 30, 15, 3)
    with pytest.raises(ValueError, match="significant"):
        cell_partition(10, 11, 5, 5, 1)
    with pytest.raises(ValueError, match="decoder_only"):
        cell_partition(72, 39, 36, 2, 3)


def test_the_published_gap_splits_in_the_proportion_of_the_cell_drops():
    v = _tax()
    prompt_tax, decoder_tax = split_tax(v)
    # the two shares add up to the whole gap, and stand to each other as the drops do
    assert prompt_tax + decoder_tax == pytest.approx(
        (v.accuracy_free - v.accuracy_constrained) / 100)
    assert decoder_tax / prompt_tax == pytest.approx(v.drop_decoder / v.drop_prompt)
    assert 0 < decoder_tax < prompt_tax
    # by hand: a 10 pp gap with drops of 3 and 1 pp is 7.5 pp for the prompt, 2.5 for
    # the decoder
    assert split_tax({"accuracy_free": 60, "accuracy_constrained": 50, "drop_prompt": 3,
                      "drop_decoder": 1}) == pytest.approx((0.075, 0.025))


def test_split_tax_refuses_a_table_it_cannot_split():
    good = {"accuracy_free": 60, "accuracy_constrained": 50, "drop_prompt": 3,
            "drop_decoder": 1}
    with pytest.raises(ValueError, match="row 'drop_decoder'"):
        split_tax({k: v for k, v in good.items() if k != "drop_decoder"})
    with pytest.raises(ValueError, match="accuracy_constrained"):
        split_tax({**good, "accuracy_constrained": 70})
    with pytest.raises(ValueError, match="drop_prompt \\+ drop_decoder"):
        split_tax({**good, "drop_prompt": 0, "drop_decoder": 0})
    with pytest.raises(ValueError, match="table must map"):
        split_tax(42)


# --- the field-order toy -----------------------------------------------------------------

TOYS = [FieldOrderToy(), FieldOrderToy(digits=2, step_error=0.1),
        FieldOrderToy(digits=12, step_error=0.05, budget=3),
        FieldOrderToy(digits=4, step_error=0.2, budget=3),
        FieldOrderToy(digits=3, step_error=0.0, budget=0)]


@pytest.mark.parametrize("index", range(len(TOYS)))
@pytest.mark.parametrize("order", ORDERS)
def test_toy_accuracy_matches_its_closed_form(index, order):
    toy = TOYS[index]
    sim = toy.simulate(order, runs=RUNS, seed=40 + index)
    assert _within(sim.accuracy, toy.accuracy(order), RUNS)
    # Reasoning is equally good wherever it is written; only the answer's access changes.
    assert _within(sim.reasoning_right / RUNS, toy.chain_accuracy, RUNS)


def test_an_early_answer_agrees_with_later_reasoning_only_by_chance():
    toy = FieldOrderToy(digits=8, step_error=0.01, budget=1)
    late = toy.simulate("answer_first", runs=RUNS, seed=2)
    assert _within(late.agree / RUNS, 0.1, RUNS)
    early = toy.simulate("reasoning_first", runs=RUNS, seed=2)
    assert early.agree == RUNS


def test_toy_closed_form_by_hand():
    toy = FieldOrderToy(digits=4, step_error=0.1, budget=1)
    clean = 0.9 ** 3
    assert toy.accuracy("reasoning_first") == pytest.approx(clean + (1 - clean) / 10)
    assert toy.accuracy("answer_first") == pytest.approx(0.1)
    assert FieldOrderToy(digits=2, step_error=0.1).accuracy("answer_first") == pytest.approx(
        0.9 + 0.1 / 10)


# --- the data tables ---------------------------------------------------------------------

REQUIRED = ["paper", "arxiv", "where", "model", "setting", "condition", "metric", "value",
            "unit", "source_kind", "confidence"]


@pytest.mark.parametrize("name,arxiv", [("format_tax.csv", "2604.03616"),
                                        ("speak_freely.csv", "2408.02442")])
def test_every_published_number_carries_its_source(name, arxiv):
    frame = pd.read_csv(DATA / name, dtype={"arxiv": str})
    assert set(REQUIRED) <= set(frame.columns)
    assert frame[REQUIRED].notna().all().all()
    assert (frame["arxiv"] == arxiv).all()
    assert frame["source_kind"].isin(["secondary", "lesson (secondary)"]).all()
    assert pd.to_numeric(frame["value"]).notna().all()
    assert (frame[frame["unit"] == "%"]["value"].abs() <= 100).all()


def test_the_two_equal_numbers_are_different_quantities():
    frame = pd.read_csv(DATA / "format_tax.csv").set_index("id")
    a, b = frame.loc["compliance_prompt"], frame.loc["accuracy_constrained"]
    assert a.value == b.value
    assert a.metric != b.metric and a.condition != b.condition


def test_speak_freely_rows_are_the_reference_rows():
    source = Path(__file__).resolve().parents[2] / "shared" / "reference-numbers.csv"
    if not source.exists():  # the shared sources sit beside the repository, not in it
        pytest.skip("no reference table beside the repository")
    reference = pd.read_csv(source, dtype={"arxiv": str})
    ours = pd.read_csv(DATA / "speak_freely.csv", dtype={"arxiv": str})
    ours = ours[ours["study"] != "field_order"]
    theirs = reference[reference["arxiv"] == "2408.02442"]
    key = ["model", "setting", "condition"]
    merged = ours.merge(theirs, on=key, suffixes=("", "_ref"))
    assert len(merged) == len(theirs) == len(ours)
    assert np.allclose(merged["value"], pd.to_numeric(merged["value_ref"]))


# --- the chapter's tables (reliability.figures.formattax) ----------------------------------

def test_regime_frame_holds_every_regime_and_measure_with_its_interval():
    from reliability.figures.formattax import MEASURES, regime_frame, regime_table

    gen = Generator()
    frame = regime_frame(regime_table(gen, runs=3000, seed=4))
    assert len(frame) == len(REGIMES) * len(MEASURES)
    assert np.all((frame["95% low"] <= frame["simulated"])
                  & (frame["simulated"] <= frame["95% high"]))
    two_turn = frame[(frame["regime"] == "solve free, reformat after")
                     & (frame["measure"] == "content right")]
    assert two_turn["closed form"].iloc[0] == pytest.approx(
        gen.free_accuracy * gen.reformat_fidelity)


def test_cure_table_constrained_falls_with_the_tax_and_two_turn_does_not_move():
    from reliability.figures.formattax import cure_table, tax_frames

    taxes = [0.0, 0.1, 0.2]
    table = cure_table(tax_frames(Generator(), taxes, runs=2000, seed=1), taxes)
    two_turn = table["solve free, reformat after"]
    assert two_turn.nunique() == 1   # same seed, and the second turn never sees the tax
    constrained = [float(text.split("%")[0]) for text in table["constrained decoding"]]
    assert constrained[0] > constrained[1] > constrained[2]


def test_order_frame_and_verdict_table_read_as_text():
    from reliability.figures.formattax import order_frame, order_table, verdict_table
    from reliability.structured import EXAMPLES, check, equals

    frame = order_frame(order_table([2, 5], step_error=0.02, budget=1, runs=500, seed=0))
    # (the rows count additions, the m of the toy's formula: a sum of 2 digits is one)
    assert list(frame["additions m"]) == [1, 4]
    assert frame["answer first: closed form"].iloc[1] == "10.0%"
    checked = {k: check(text, equals(158)) for k, text in EXAMPLES.items()}
    verdicts = verdict_table(EXAMPLES, checked).set_index("example")
    assert verdicts.loc["valid form, wrong content", "content ok"] == "no"
    assert verdicts.loc["broken JSON", "content ok"] == "not checked"
    assert verdicts.loc["right", "what the validator says"] == "accepted"


def test_field_order_figure_counts_additions_as_its_formula_does():
    """Issue 41 (ch06): the table and figure counted digits while the formula beside
    them counts additions m (a sum of m + 1 digits); both now show m."""
    import matplotlib.pyplot as plt

    from reliability.figures.formattax import order_table, plot_order

    table = order_table([2, 5, 12], step_error=0.02, budget=1, runs=200, seed=0)
    fig = plot_order(table, title="Field order")
    ax = fig.axes[0]
    assert list(ax.lines[0].get_xdata()) == [1, 4, 11]   # a closed-form line
    assert all(set(line.get_xdata()) <= {1, 4, 11} for line in ax.lines)   # and bars
    assert ax.get_xlabel().startswith("additions m")
    plt.close(fig)


def test_spread_table_shows_each_tally_against_its_own_cells():
    from reliability.datasets import load
    from reliability.figures.formattax import spread_table

    values = load("format_tax").set_index("id")["value"]
    table = spread_table(values).set_index("tally")
    assert table.loc["MATH-500, all models and formats", "toward the tax"] == "40"
    assert table.loc["qwen3-8b, all tasks and formats", "mean change (pp)"] == "\u22129.9"
