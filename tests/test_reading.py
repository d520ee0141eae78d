"""reliability.reading: the hallucination taxonomy and rates, paired columns against their
closed forms, and resolution."""

import math

import matplotlib
import numpy as np
import pytest
from scipy.stats import norm

from reliability import reading
from reliability.notebook import figure_problems, setup
from reliability.stats import binomial_standard_error

matplotlib.use("Agg")

TOOLS = {"find_order": ("order_id",), "refund": ("order_id", "amount")}


def test_each_call_gets_the_kind_it_is():
    calls = [("find_order", {"order_id": 1}, "o"),
             ("find_order", {"order_id": 1}, "o"),          # exact repeat: timing
             ("find_order", {"order_id": 1}, "other"),      # new output: not a repeat
             ("weather", {}, "sun"),                        # not a task tool: type
             ("weather", {}, "sun"),                        # type wins over timing
             ("refund", {"order_id": 1}, "err"),            # missing amount: usage
             ("refund", {"amount": 2, "order_id": 1}, "ok")]  # argument order is free
    assert reading.classify_calls(calls, TOOLS) == (
        "ok", "timing", "ok", "type", "type", "usage", "ok")
    assert reading.classify_calls([], TOOLS) == ()
    assert set(reading.HALLUCINATION_KINDS) == {"type", "timing", "usage"}


def test_the_two_rates_weigh_tasks_differently():
    hallucinated, calls = [0, 1, 0, 12], [3, 4, 2, 20]
    assert reading.hallucination_rate(hallucinated, calls) == pytest.approx(
        (0 + 1 / 4 + 0 + 12 / 20) / 4)
    assert reading.pooled_rate(hallucinated, calls) == pytest.approx(13 / 29)
    # equal-sized tasks: the two averages agree
    assert reading.hallucination_rate([1, 2], [4, 4]) == reading.pooled_rate([1, 2], [4, 4])
    # a task without calls has no share and does not drag the average to zero
    assert reading.hallucination_rate([1, 0], [2, 0]) == 0.5


@pytest.mark.parametrize("hallucinated, calls", [([3], [2]), ([0, 0], [0, 0]), ([1], [1, 2])])
def test_rates_refuse_impossible_counts(hallucinated, calls):
    with pytest.raises(ValueError, match="hallucinated|calls"):
        reading.hallucination_rate(hallucinated, calls)


def test_never_and_always_calling_take_one_column_each():
    assert reading.column_scores(0.0, 0.0) == (0.0, 1.0)
    assert reading.column_scores(1.0, 1.0) == (1.0, 0.0)
    never = reading.simulate_columns(0.0, 0.0, seed=1)
    always = reading.simulate_columns(1.0, 1.0, seed=1)
    assert (never.relevance, never.irrelevance) == (0.0, 1.0)
    assert (always.relevance, always.irrelevance) == (1.0, 0.0)
    assert never.interval("relevance")[0] == 0.0 and never.interval("irrelevance")[1] == 1.0


def test_threshold_model_matches_its_closed_form_and_its_ends():
    a, b = reading.threshold_model(1.0, 2.0)
    assert a == pytest.approx(norm.cdf(1.0)) and b == pytest.approx(norm.sf(1.0))
    grid = np.linspace(-4, 4, 9)
    needed, unneeded = reading.threshold_model(grid, 2.0)
    assert np.all(np.diff(needed) < 0) and np.all(np.diff(unneeded) < 0)
    # with no separation the model cannot tell the cases apart: the columns sum to one
    relevance, irrelevance = reading.column_scores(*reading.threshold_model(grid, 0.0))
    assert np.allclose(relevance + irrelevance, 1.0)
    # best sum at t = d/2, where both columns score Phi(d/2)
    fine = np.linspace(-3, 5, 8001)
    relevance, irrelevance = reading.column_scores(*reading.threshold_model(fine, 2.0))
    assert fine[np.argmax(relevance + irrelevance)] == pytest.approx(1.0, abs=1e-3)


@pytest.mark.parametrize("threshold, separation", [(1.0, 2.0), (-1.0, 0.5), (2.5, 3.0)])
def test_simulated_columns_sit_within_four_standard_errors(threshold, separation):
    a, b = reading.threshold_model(threshold, separation)
    run = reading.simulate_columns(a, b, relevance_cases=20_000,
                                   irrelevance_cases=30_000, seed=7)
    relevance, irrelevance = run.expected
    for observed, expected, n in ((run.relevance, relevance, 20_000),
                                  (run.irrelevance, irrelevance, 30_000)):
        se = binomial_standard_error(expected, n)
        assert abs(observed - expected) <= 4 * se + 1e-12


def test_simulation_is_seeded():
    one = reading.simulate_columns(0.7, 0.2, seed=3)
    assert one == reading.simulate_columns(0.7, 0.2, seed=3)
    assert one == reading.simulate_columns(0.7, 0.2, seed=np.random.default_rng(3))


def test_wilson_interval_covers_a_sixteen_case_column_about_as_promised():
    # 2,000 seeded leaderboards of 16 cases at a true Relevance of 0.8
    hits = sum(reading.simulate_columns(0.8, 0.1, seed=s).interval("relevance")[0] <= 0.8
               <= reading.simulate_columns(0.8, 0.1, seed=s).interval("relevance")[1]
               for s in range(2000))
    assert 0.90 <= hits / 2000 <= 0.99


def test_resolution_and_the_case_count_a_column_gives_away():
    assert reading.resolution(16) == 0.0625
    grid = 100 * np.arange(17) / 16
    assert reading.smallest_case_count(np.round(grid[[16, 14, 13, 11]], 2)) == 16
    assert reading.smallest_case_count([70.0, 85.0, 95.0, 100.0]) == 20
    assert reading.smallest_case_count([50.0]) == 2
    assert reading.smallest_case_count([33.33]) == 3
    assert reading.smallest_case_count([12.34], decimals=2, largest=5) is None
    with pytest.raises(ValueError, match="scores"):
        reading.smallest_case_count([101.0])


def test_column_run_refuses_more_hits_than_cases():
    with pytest.raises(ValueError, match="relevance_hits"):
        reading.ColumnRun(0.5, 0.5, 16, 17, 10, 5)


def test_figures_read_on_a_phone():
    import matplotlib.pyplot as plt
    from reliability.figures import reading as fig_reading

    setup()                     # the chapters' figure style: font sizes a phone can read
    runs = {"never": reading.simulate_columns(0, 0, seed=1),
            "threshold": reading.simulate_columns(*reading.threshold_model(1, 2), seed=2)}
    figures = [fig_reading.plot_columns(runs, title="Model run"),
               fig_reading.plot_baselines({"a": (44.0, 67.0), "b": (81.8, 75.1)},
                                          title="Published scores")]
    frame = plt.figure(figsize=fig_reading.THRESHOLD_FIGSIZE)
    drawn = fig_reading.draw_threshold_frame(frame, 4.0, separation=6.0, seed=1)
    assert math.isclose(drawn.call_needed, norm.sf(-2.0))
    for fig in figures + [frame]:
        assert figure_problems(fig) == []
        plt.close(fig)


def test_a_closed_form_outside_its_runs_interval_is_said_so():
    """Chapter 10's teaching cell: the threshold model's Irrelevance at seed 1 misses
    its closed form, and the sentence beside it says the run is the one in twenty."""
    from reliability.reading import simulate_columns, threshold_model

    run = simulate_columns(*threshold_model(1.0, 2.0), relevance_cases=16,
                           irrelevance_cases=240, seed=1)
    low, high = run.interval("irrelevance")
    assert run.expected[1] > high
    assert "above this run's 95% interval" in run.beside_closed_form("irrelevance")
    assert "one run in 20" in run.beside_closed_form("irrelevance")
    assert run.beside_closed_form("relevance").endswith("inside this run's 95% interval")
