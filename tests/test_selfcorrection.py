"""The self-correction chain: closed forms against seeded simulation, fits against the
published numbers they were fitted to, the data files' sources, and refused inputs."""

import math
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reliability.selfcorrection import (ORACLE, Arbiter, Revision, expected_revisions,
                                        fit_fates, fit_rounds, loop_accuracy, loop_limit,
                                        simulate_loop)
from reliability.stats import binomial_standard_error

DATA = pd.read_csv("data/huang2024_self_correction.csv")
FATES = pd.read_csv("data/huang2024_answer_fates.csv").set_index("fate")["value"] / 100
RUNS = 6000
CONFIGS = [  # (revision, initial, arbiter)
    (Revision(0.07, 0.18), 0.76, None),
    (Revision(0.3, 0.1), 0.9, None),
    (Revision(0.6, 0.5), 0.4, None),           # a + b > 1: accuracy oscillates
    (Revision(0.07, 0.18), 0.76, ORACLE),
    (Revision(0.1, 0.2), 0.5, Arbiter(0.6, 0.05)),
    (Revision(0.2, 0.3), 0.7, Arbiter(0.9, 0.3)),
]


@pytest.mark.parametrize("revision, initial, arbiter", CONFIGS)
def test_simulation_within_four_standard_errors_of_closed_form(revision, initial, arbiter):
    rounds = 5
    sim = simulate_loop(revision, initial, rounds, questions=RUNS, seed=7, arbiter=arbiter)
    closed = loop_accuracy(revision, initial, np.arange(rounds + 1), arbiter)
    se = binomial_standard_error(closed, RUNS)
    assert np.all(np.abs(sim.accuracy - closed) <= 4 * se + 1e-12)


@pytest.mark.parametrize("revision, initial, arbiter", CONFIGS)
def test_revision_calls_match_their_expectation(revision, initial, arbiter):
    sim = simulate_loop(revision, initial, 4, questions=RUNS, seed=3, arbiter=arbiter)
    expected = expected_revisions(revision, initial, 4, arbiter)
    # Calls per question lie in [0, 4], so their SD is at most 2: 4 SE <= 8 / sqrt(n).
    assert abs(sim.revisions / RUNS - expected) <= 8 / np.sqrt(RUNS)


@given(a=st.floats(0, 1), b=st.floats(0, 1), p0=st.floats(0, 1), k=st.integers(0, 30))
@settings(max_examples=200, deadline=None)
def test_closed_form_equals_matrix_power_and_intrinsic_equals_reject_everything(a, b, p0, k):
    rev = Revision(a, b)
    by_matrix = (np.array([p0, 1 - p0]) @ np.linalg.matrix_power(rev.matrix(), k))[0]
    assert rev.accuracy(p0, k) == pytest.approx(by_matrix, abs=1e-9)
    assert loop_accuracy(rev, p0, k, Arbiter(1.0, 1.0)) == pytest.approx(by_matrix, abs=1e-9)
    fates = rev.fates(p0, k)
    assert sum(fates.values()) == pytest.approx(1.0)
    assert fates["right_kept"] + fates["wrong_to_right"] == pytest.approx(by_matrix, abs=1e-9)


def test_accuracy_converges_to_the_fixed_point():
    rev = Revision(0.1, 0.3)
    assert rev.fixed_point == pytest.approx(0.75)
    assert rev.accuracy(0.95, 200) == pytest.approx(0.75)
    assert rev.accuracy(0.2, 200) == pytest.approx(0.75)
    assert loop_limit(rev, 0.95) == pytest.approx(0.75)


def test_oracle_never_breaks_a_right_answer_and_tends_to_one():
    rev = Revision(0.3, 0.2)
    acc = loop_accuracy(rev, 0.6, np.arange(40), ORACLE)
    assert np.all(np.diff(acc) >= -1e-15)
    assert np.allclose(acc, 1 - 0.4 * 0.8 ** np.arange(40))
    assert loop_limit(rev, 0.6, ORACLE) == pytest.approx(1.0)


def test_recall_limit_matches_its_formula():
    rev, d, p0 = Revision(0.3, 0.2), 0.7, 0.6
    formula = p0 + (1 - p0) * d * 0.2 / (1 - d + d * 0.2)
    assert loop_limit(rev, p0, Arbiter(d, 0.0)) == pytest.approx(formula)
    assert loop_accuracy(rev, p0, 400, Arbiter(d, 0.0)) == pytest.approx(formula)


def test_fit_to_fates_reproduces_the_published_fates():
    # The fates alone do not say how the unchanged share splits; the published starting
    # accuracy (Standard Prompting, GPT-3.5-Turbo, GSM8K) does.
    row = DATA.query("model == 'GPT-3.5-Turbo' and setting == 'GSM8K'").set_index("condition")
    initial = row.loc["Standard Prompting", "value"] / 100
    rev = fit_fates(initial, FATES["right_to_wrong"], FATES["wrong_to_right"], rounds=2)
    fates = rev.fates(initial, 2)
    assert fates["right_to_wrong"] == pytest.approx(FATES["right_to_wrong"])
    assert fates["wrong_to_right"] == pytest.approx(FATES["wrong_to_right"])
    # And so the chain lands on the published round-2 accuracy.
    assert rev.accuracy(initial, 2) == pytest.approx(row.loc["Self-Correct (round 2)", "value"] / 100)


@pytest.mark.parametrize("model, benchmark", [("GPT-3.5-Turbo", "GSM8K"), ("GPT-4", "GSM8K"),
                                              ("GPT-4", "CommonSenseQA")])
def test_fit_to_rounds_reproduces_the_published_trajectory(model, benchmark):
    row = DATA.query("model == @model and setting == @benchmark").set_index("round")["value"]
    p = [row[r] / 100 for r in (0.0, 1.0, 2.0)]
    rev = fit_rounds(*p)
    assert np.allclose(rev.accuracy(p[0], [0, 1, 2]), p)


def test_fit_rounds_refuses_a_trajectory_no_chain_can_follow():
    with pytest.raises(ValueError, match="round1 equals before"):
        fit_rounds(0.49, 0.49, 0.43)
    with pytest.raises(ValueError, match="lambda"):
        fit_rounds(0.5, 0.6, 0.8)


def test_same_seed_same_result_and_different_seed_differs():
    rev = Revision(0.1, 0.2)
    one = simulate_loop(rev, 0.7, 3, questions=500, seed=4, arbiter=Arbiter(0.5, 0.1))
    two = simulate_loop(rev, 0.7, 3, questions=500, seed=4, arbiter=Arbiter(0.5, 0.1))
    other = simulate_loop(rev, 0.7, 3, questions=500, seed=5, arbiter=Arbiter(0.5, 0.1))
    assert np.array_equal(one.right, two.right) and one.revisions == two.revisions
    assert not np.array_equal(one.right, other.right)
    gen = simulate_loop(rev, 0.7, 3, questions=500, seed=np.random.default_rng(4))
    assert np.array_equal(gen.right, simulate_loop(rev, 0.7, 3, questions=500, seed=4).right)


@pytest.mark.parametrize("call, name", [
    (lambda: Revision(1.2, 0.1), "break_rate"),
    (lambda: Revision(0.1, -0.1), "fix_rate"),
    (lambda: Arbiter(recall=2.0), "recall"),
    (lambda: Arbiter(false_reject=float("nan")), "false_reject"),
    (lambda: Revision(0.1, 0.1).accuracy(1.5, 2), "initial"),
    (lambda: Revision(0.1, 0.1).accuracy(0.5, -1), "rounds"),
    (lambda: simulate_loop(Revision(0.1, 0.1), 0.5, 2, questions=0), "questions"),
    (lambda: loop_accuracy("not a revision", 0.5, 2), "revision"),
    (lambda: loop_accuracy(Revision(0.1, 0.1), 0.5, 2, arbiter=0.9), "arbiter"),
    (lambda: fit_fates(0.0, 0.1, 0.1), "initial"),
    (lambda: fit_fates(0.5, 0.6, 0.1), "right_to_wrong"),
])
def test_bad_inputs_are_refused_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


DATA_FILES = ["huang2024_self_correction", "huang2024_answer_fates", "huang2024_benchmarks",
              "tsui2025_self_correction_bench", "self_refine_baseline",
              "huang2024_debate_vs_vote", "sinha2025_long_horizon"]


@pytest.mark.parametrize("stem", DATA_FILES)
def test_every_data_row_carries_its_source(stem):
    df = pd.read_csv(f"data/{stem}.csv", dtype=str, keep_default_na=False)
    for column in ("paper", "arxiv", "where", "metric", "value", "unit", "source_kind",
                   "confidence"):
        assert column in df.columns, column
        assert (df[column].str.strip() != "").all(), f"{stem}: empty {column}"
    assert df["arxiv"].str.fullmatch(r"\d{4}\.\d{5}").all()
    assert df["source_kind"].isin(["primary", "secondary", "lesson (secondary)"]).all()
    pd.to_numeric(df["value"])  # every value is a number the chapter can compute with


def test_published_fates_add_up_and_agree_with_the_round_two_accuracy():
    assert FATES.sum() == pytest.approx(1.0)
    row = DATA.query("model == 'GPT-3.5-Turbo' and setting == 'GSM8K'").set_index("condition")
    before, after = (row.loc[c, "value"] / 100 for c in ("Standard Prompting",
                                                         "Self-Correct (round 2)"))
    assert before - FATES["right_to_wrong"] + FATES["wrong_to_right"] == pytest.approx(after)


# --- the edges: very many rounds and the oscillating chain ---------------------------------

@pytest.mark.parametrize("rounds", [65, 10**6, 10**15, 10**18])
@pytest.mark.parametrize("rates", [(0.1, 0.2), (0.3, 0.9), (1.0, 1.0), (0.0, 0.0), (1.0, 0.0)])
def test_fates_stay_shares_at_any_round_count(rates, rounds):
    rev = Revision(*rates)
    fates = rev.fates(0.7, rounds)
    assert math.isclose(sum(fates.values()), 1.0, abs_tol=1e-12)
    assert all(0.0 <= v <= 1.0 for v in fates.values())
    assert math.isclose(fates["right_kept"] + fates["wrong_to_right"], rev.accuracy(0.7, rounds),
                        abs_tol=1e-12)


def test_an_oscillating_chain_has_no_limit():
    with pytest.raises(ValueError, match="no limit"):
        loop_limit(Revision(1, 1), 0.7)
    assert loop_limit(Revision(1, 1), 0.5) == 0.5  # it alternates between 0.5 and 0.5


# --- the chapter's tables and axis (reliability.figures.selfcorrection) --------------------

def test_fates_table_counts_and_wilson_intervals_hold_the_shares():
    from reliability.figures.selfcorrection import fates_table

    table = fates_table(FATES, 1319)
    assert list(table["questions"]) == [985, 116, 100, 117]
    assert np.all((table["95% low"] < table["share"]) & (table["share"] < table["95% high"]))
    assert table["fate after two rounds"].iloc[1] == "right, then wrong"


def test_trajectory_fits_match_fit_rounds_and_leave_a_gap_where_no_chain_fits():
    from reliability.figures.selfcorrection import round_table, trajectory_fits

    fits = trajectory_fits(round_table(DATA)).set_index(["model", "benchmark"])
    row = round_table(DATA).loc[("GPT-3.5-Turbo", "GSM8K")] / 100
    direct = fit_rounds(row["before"], row["round 1"], row["round 2"])
    assert fits.loc[("GPT-3.5-Turbo", "GSM8K"), "break rate a"] == pytest.approx(
        direct.break_rate)
    assert np.isnan(fits.loc[("GPT-4", "HotpotQA"), "break rate a"])


def test_the_two_fits_each_reproduce_what_they_were_fitted_to():
    from reliability.figures.selfcorrection import round_table, two_fits

    row = round_table(DATA).loc[("GPT-3.5-Turbo", "GSM8K")] / 100
    by_fates = fit_fates(row["before"], FATES["right_to_wrong"], FATES["wrong_to_right"])
    by_rounds = fit_rounds(row["before"], row["round 1"], row["round 2"])
    both = two_fits(by_fates, by_rounds, row["before"]).set_index("fit")
    assert both.loc["from the fates", "right, then wrong"] == pytest.approx(0.088)
    assert both.loc["from the trajectory", "round 1"] == pytest.approx(row["round 1"])
    # the trajectory fit churns more than the fates show: the disagreement the chapter explains
    assert both.loc["from the trajectory", "right, then wrong"] > 0.12


def test_loop_table_matches_the_closed_forms_and_the_simulation():
    from reliability.figures.selfcorrection import loop_table, rounds_frame

    chain, loops = Revision(0.07, 0.18), {"oracle": ORACLE, "intrinsic": None}
    frame = rounds_frame(chain, 0.76, 4, loops, questions=3000, seed=2)
    table = loop_table(chain, 0.76, 4, loops, frame).set_index("loop")
    assert table.loc["oracle", "closed form"] == pytest.approx(
        loop_accuracy(chain, 0.76, 4, ORACLE))
    assert table.loc["intrinsic", "revision calls"] == pytest.approx(4)
    assert np.all((table["95% low"] <= table["simulated"])
                  & (table["simulated"] <= table["95% high"]))


def test_even_percent_axis_ticks_are_evenly_spaced_and_labelled_once_each():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from reliability.figures.selfcorrection import even_percent_axis

    for low, high in [(0.79, 0.99), (0.0, 1.0), (0.975, 0.985)]:
        fig, ax = plt.subplots()
        ax.set_ylim(low, high)
        even_percent_axis(ax.yaxis)
        fig.canvas.draw()
        ticks = [t for t in ax.get_yticks() if low <= t <= high]
        labels = [ax.yaxis.get_major_formatter()(t, None) for t in ticks]
        assert np.allclose(np.diff(ticks), np.diff(ticks)[0])
        assert len(set(labels)) == len(labels), labels
        plt.close(fig)
