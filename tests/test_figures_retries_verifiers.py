"""Tables and figures of the retries and verifiers chapters: simulations against closed
forms (within four standard errors), the retry ceiling, the trade-off grid."""

import warnings
from dataclasses import replace

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reliability import Verifier, Workflow, i18n
from reliability.notebook import FIGURE_WIDTH_IN, figure_problems, setup
from reliability.figures import retries, verifiers
from reliability.stats import binomial_standard_error
from reliability.workflow import attempt_cost, ceiling

BASE = Workflow(steps=10, attempts=3)


def test_ceiling_without_verifier_is_c_over_c_plus_w_to_the_n():
    wf = Workflow(steps=10, error=0.05, silent=0.03, attempts=3)
    assert ceiling(wf) == pytest.approx((0.92 / 0.95) ** 10, rel=1e-12)


@settings(max_examples=40, deadline=None)
@given(error=st.floats(0.0, 0.6), silent=st.floats(0.0, 0.3), steps=st.integers(1, 40),
       recall=st.floats(0.0, 1.0), false_reject=st.floats(0.0, 0.6))
def test_success_climbs_towards_the_ceiling_and_never_passes_it(error, silent, steps,
                                                                recall, false_reject):
    wf = Workflow(steps=steps, error=error, silent=silent,
                  verifier=Verifier(recall, false_reject))
    top = ceiling(wf)
    rates = [replace(wf, attempts=a).success() for a in (1, 2, 5, 20)]
    assert all(x <= y + 1e-12 for x, y in zip(rates, rates[1:]))
    assert rates[-1] <= top + 1e-12
    if wf.r < 0.5:  # r^A vanishes fast enough for 400 attempts to reach the limit
        assert replace(wf, attempts=400).success() == pytest.approx(top, abs=1e-9)


def test_ceiling_is_zero_when_nothing_is_ever_accepted():
    wf = Workflow(error=1.0, silent=0.0, attempts=3)
    assert ceiling(wf) == 0.0


def test_simulated_attempts_per_run_match_the_closed_form_within_four_se():
    for wf in (BASE, replace(BASE, steps=30, error=0.3),
               replace(BASE, verifier=Verifier(0.8, 0.05))):
        cost = attempt_cost(wf, runs=6000, seed=5)
        assert abs(cost["simulated"] - cost["closed"]) < 4 * cost["se"]
        assert cost["low"] < cost["simulated"] < cost["high"]


def test_no_stop_cost_is_n_times_s_a_and_exceeds_the_closed_form():
    cost = attempt_cost(BASE, runs=100, seed=1)
    assert cost["no_stop"] == pytest.approx(10 * 1.0525)
    assert cost["no_stop"] > cost["closed"]


def test_sweep_rates_sit_within_four_se_of_their_closed_forms():
    workflows = [replace(BASE, attempts=a, error=0.2) for a in (1, 2, 4)]
    table = retries.sweep(workflows, runs=6000, seed=3)
    se = binomial_standard_error(table["closed"], 6000)
    assert np.all(np.abs(table["rate"] - table["closed"]) < 4 * se)
    assert np.all((table["low"] <= table["rate"]) & (table["rate"] <= table["high"]))
    assert np.all(table["attempts_low"] < table["mean_attempts"])


def test_same_seed_same_tables():
    wfs = [BASE, replace(BASE, attempts=1)]
    a, b = retries.sweep(wfs, runs=500, seed=9), retries.sweep(wfs, runs=500, seed=9)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    c = retries.sweep(wfs, runs=500, seed=10)
    assert not np.array_equal(a["rate"], c["rate"])


def test_outcomes_add_up_and_match_the_closed_forms():
    wf = replace(BASE, verifier=Verifier(0.8, 0.05), error=0.2)
    table = verifiers.outcomes(wf, runs=6000, seed=4)
    assert sum(v[1] for v in table.values()) == pytest.approx(1.0)
    for closed, simulated, low, high in table.values():
        assert abs(simulated - closed) < 4 * max(binomial_standard_error(closed, 6000), 1e-3)
        assert low <= simulated <= high


def test_tradeoff_grid_moves_the_right_way():
    grid = verifiers.tradeoff_grid(BASE, np.linspace(0, 1, 5), np.linspace(0, 0.4, 5))
    assert grid["success"].shape == grid["attempts"].shape == (5, 5)
    assert np.all(np.diff(grid["success"], axis=0) > 0)   # more recall, more success
    # Per step, more false rejection always costs more attempts; per run it need not,
    # because at high f more runs give up early and stop paying.
    step_cost = [[replace(BASE, verifier=Verifier(d, f)).S_A for f in grid["false_reject"]]
                 for d in grid["recall"]]
    assert np.all(np.diff(step_cost, axis=1) > 0)
    assert grid["attempts"][0, -1] < grid["attempts"][0, 2]
    page = replace(BASE, verifier=Verifier(1.0, 0.4))
    assert grid["success"][-1, -1] == pytest.approx(page.success())


def test_tradeoff_lines_simulations_sit_on_the_closed_forms():
    tables = verifiers.tradeoff_lines(BASE, [0.5, 0.9], [0.0, 0.2], runs=6000, seed=2)
    for table in tables.values():
        se = binomial_standard_error(table["closed"], 6000)
        assert np.all(np.abs(table["rate"] - table["closed"]) < 4 * se)


@pytest.mark.parametrize("call", [
    lambda: ceiling("wf"),
    lambda: attempt_cost(BASE, runs=1, seed=0),
    lambda: retries.sweep([], runs=10, seed=0),
    lambda: retries.sweep([BASE], runs=10, seed=-1),
    lambda: verifiers.tradeoff_grid(BASE, [1.2], [0.0]),
    lambda: verifiers.tradeoff_grid(BASE, [0.5], [float("nan")]),
    lambda: verifiers.tradeoff_lines(BASE, [0.5], [0.1], runs=0, seed=0),
    lambda: verifiers.outcomes(None, runs=10, seed=0),
])
def test_bad_inputs_are_refused(call):
    with pytest.raises(ValueError):
        call()


def test_figures_have_labelled_axes_and_titles():
    attempts = [1, 2, 3]
    table = retries.sweep([replace(BASE, attempts=a) for a in attempts], runs=200, seed=0)
    fig = retries.plot_attempts(attempts, table, ceiling_value=ceiling(BASE),
                                title="Retries climb to a ceiling")
    grid = verifiers.tradeoff_grid(BASE, [0, 0.5, 1], [0, 0.1, 0.2])
    fig2 = verifiers.plot_tradeoff(grid, mark=Verifier(), title="Trade-off")
    lines = verifiers.tradeoff_lines(BASE, [0.8], [0.0, 0.1], runs=200, seed=0)
    fig3 = verifiers.plot_tradeoff_lines(BASE, [0.0, 0.1], lines, title="Lines")
    for f in (fig, fig2, fig3):
        assert f._suptitle is not None and f._suptitle.get_text()
        for ax in f.axes:
            if ax.get_label() != "<colorbar>":
                assert ax.get_xlabel()
        plt.close(f)


@pytest.mark.parametrize(("error", "cost"), [(0.0, 10.0), (1.0, 3.0)])
def test_attempt_cost_when_every_run_costs_the_same(error, cost):
    # No attempt ever fails (10 attempts per run) or every one does (3, then stop): the
    # standard error is 0, so a gap is 0 when it agrees and infinite when it does not.
    result = attempt_cost(replace(BASE, error=error, silent=0.0), runs=50, seed=0)
    assert result["se"] == 0.0 and result["simulated"] == result["closed"] == cost
    assert result["gap_in_se"] == 0.0
    assert result["no_stop_gap_in_se"] == (0.0 if error == 0.0 else -np.inf)


def test_attempt_cost_measures_the_no_stop_gap_in_standard_errors():
    result = attempt_cost(replace(BASE, error=0.3), runs=500, seed=4)
    expected = (result["simulated"] - result["no_stop"]) / result["se"]
    assert result["no_stop_gap_in_se"] == pytest.approx(expected)
    assert result["no_stop_gap_in_se"] < -4  # many runs stop early: n S_A is too high


def test_tradeoff_map_when_every_verifier_costs_the_same():
    # error = 1: every attempt fails whatever the verifier, so the cost map is flat; it
    # gets one band around its value, and the mark at the corner is still named.
    base = Workflow(steps=10, error=1.0, silent=0.0, attempts=20)
    grid = verifiers.tradeoff_grid(base, [0.0, 0.5, 1.0], [0.0, 0.5, 1.0])
    assert np.all(grid["attempts"] == 20.0) and np.all(grid["success"] == 0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = verifiers.plot_tradeoff(grid, mark=Verifier(1.0, 1.0), title="Flat")
    colorbar = fig.axes[3]
    assert colorbar.get_ylim() == pytest.approx((19.5, 20.5))
    # The mark is named in each panel's title, where no contour label can cover it.
    assert all("d = 1, f = 1" in ax.get_title().replace("\n", " ") for ax in fig.axes[:2])
    plt.close(fig)


def test_cost_frame_shows_the_interval_and_the_gap_in_standard_errors():
    cost = attempt_cost(BASE, runs=2000, seed=3)
    frame = retries.cost_frame([cost])
    assert frame["closed form"].tolist() == [f"{cost['closed']:.4f}"]
    assert frame["95% interval"][0] == f"{cost['low']:.4f} to {cost['high']:.4f}"
    assert frame["gap (SE)"][0] == f"{cost['gap_in_se']:+.1f}"
    assert frame["runs"][0] == "2,000"


def test_sweep_frame_has_one_row_per_attempts_value_with_both_intervals():
    attempts = [1, 2, 3]
    table = retries.sweep([replace(BASE, attempts=a) for a in attempts], runs=300, seed=0)
    frame = retries.sweep_frame(attempts, table)
    assert frame[("", "attempts A")].tolist() == ["1", "2", "3"]
    assert frame[("success", "95% interval")][2] == \
        f"{table['low'][2]:.1%} to {table['high'][2]:.1%}"
    assert frame[("attempts per run", "95% interval")][0] == \
        f"{table['attempts_low'][0]:.2f} to {table['attempts_high'][0]:.2f}"


def test_explorer_lines_are_the_closed_forms_and_the_ceiling():
    fig = retries.plot_explorer(0.05, 0.03, 3, 30)
    ceiling_line, one, three = fig.axes[0].lines
    n = np.arange(1, 31)
    assert np.allclose(ceiling_line.get_ydata(), (0.92 / 0.95) ** n)
    assert np.allclose(one.get_ydata(), 0.92 ** n)
    assert np.allclose(three.get_ydata(), replace(BASE, steps=1).step_success ** n)
    assert "Model, 3 attempts per step" in fig.axes[0].get_title().replace("\n", " ")
    plt.close(fig)


def test_the_scrubber_frame_says_one_attempt_in_the_singular():
    lengths = [1, 10]
    one = replace(BASE, attempts=1)
    tables = {1: {"rate": np.array([0.9, 0.4]), "low": np.array([0.85, 0.35]),
                  "high": np.array([0.95, 0.45])}}
    fig = plt.figure()
    retries.draw_attempts_frame(fig, 1, base=one, lengths=lengths, table=tables)
    assert fig.axes[0].get_title().startswith("1 attempt per step")
    plt.close(fig)


def test_attempts_figure_is_stacked_to_fit_a_phone_column():
    attempts = [1, 2]
    table = retries.sweep([replace(BASE, attempts=a) for a in attempts], runs=100, seed=0)
    with matplotlib.rc_context(), i18n.language("ru"):
        setup(language="ru")   # the book's sizes, in the longer language
        fig = retries.plot_attempts(attempts, table, ceiling_value=0.7,
                                    title="Повторы быстро поднимают успех, а потом "
                                          "упираются в потолок тихих ошибок (модель)")
        assert fig.get_figwidth() == FIGURE_WIDTH_IN and len(fig.axes) == 2
        # its legend under the panels, its long title wrapped: nothing to fix on a phone
        assert figure_problems(fig) == []
    plt.close(fig)


@pytest.mark.parametrize("call", [
    lambda: retries.cost_frame([]),
    lambda: retries.sweep_frame([1, 2], {"closed": np.array([0.5])}),
    lambda: retries.sweep_frame([0], {"closed": np.array([0.5])}),
    lambda: retries.plot_explorer(0.05, 1.5, 3, 30),
    lambda: retries.plot_explorer(0.05, 0.03, 0, 30),
    lambda: retries.plot_explorer(0.05, 0.03, 3, 0),
])
def test_bad_table_and_explorer_inputs_are_refused(call):
    with pytest.raises(ValueError):
        call()
