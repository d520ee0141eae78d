"""Figures and tables of the chain-decay chapter: the animation's grid, legend and first
frame, the tables a reader sees, the explorer's figure."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

from reliability import Workflow
from reliability.figures import chain
from reliability.notebook import figure_problems, setup

# An animation a test builds but never plays warns when it is collected.
pytestmark = pytest.mark.filterwarnings("ignore:Animation was deleted")

LOG = Workflow(steps=10, error=0.05, silent=0.03).simulate(runs=48, seed=1, log_runs=48).log
ONE_ATTEMPT = {"ok": "right", "wrong": "silently wrong", "gave_up": "stops",
               "pending": "not run"}


def test_run_grid_colours_a_stopped_run_black_then_grey():
    grid = chain.run_grid([(("ok",), ("error", "gave_up")), (("error", "ok"), ("wrong",))],
                          steps=3)
    codes = {name: i for i, name in enumerate(chain._EVENT_ORDER)}
    assert grid.tolist() == [[codes["ok"], codes["gave_up"], codes["pending"]],
                             [codes["error"], codes["wrong"], codes["pending"]]]


def test_animation_opens_on_step_one_and_shows_only_the_states_asked_for():
    with matplotlib.rc_context():
        setup()  # the book's type sizes, which the readability audit assumes
        animation = chain.animate_runs(LOG, steps=10, title="t", states=ONE_ATTEMPT)
    frames = list(animation.new_frame_seq())
    assert frames[0] == 1 and frames[-1] == 10
    fig = animation._fig
    shown = fig.axes[0].images[0].get_array()
    assert np.any(shown[:, 0] != 0), "the first frame must show the first step"
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels == list(ONE_ATTEMPT.values())
    with matplotlib.rc_context():
        setup()  # the book's sizes and margins, which the audit assumes
        assert figure_problems(fig) == []  # the closed figure can still be drawn
    plt.close(fig)


def test_default_legend_lists_every_retry_and_verifier_state():
    animation = chain.animate_runs(LOG, steps=10, title="t")
    labels = [t.get_text() for t in animation._fig.legends[0].get_texts()]
    assert labels == list(chain.ALL_STATES.values())
    plt.close(animation._fig)


@pytest.mark.parametrize("call", [
    lambda: chain.animate_runs(LOG, steps=10, title="t", states={"retried": "x"}),
    lambda: chain.animate_runs(LOG, steps=10, title="t", states={}),
    lambda: chain.run_grid(LOG, steps=0),
    lambda: chain.decay_frame({}),
    lambda: chain.plot_explorer(1.5, 0.0, 30),
    lambda: chain.plot_explorer(0.05, 0.03, 0),
])
def test_bad_inputs_are_refused(call):
    with pytest.raises(ValueError):
        call()


def test_decay_frame_shows_closed_form_simulation_and_interval_as_percentages():
    wf = Workflow(steps=10, error=0.05, silent=0.03)
    table = chain.decay_table({"one attempt": wf}, [1, 10], runs=500, seed=2)
    frame = chain.decay_frame(table)
    assert list(frame.columns) == ["steps", "closed form", "simulated", "95% interval"]
    assert frame["closed form"].tolist() == ["92.0%", "43.4%"]
    low, high = table["one attempt"]["low"][1], table["one attempt"]["high"][1]
    assert frame["95% interval"][1] == f"{low:.1%} to {high:.1%}"
    two = chain.decay_frame(table | {"again": table["one attempt"]})
    assert [c[0] for c in two.columns] == ["", *["one attempt"] * 3, *["again"] * 3]


def test_explorer_draws_the_closed_form_and_names_the_horizon():
    fig = chain.plot_explorer(0.05, 0.03, 30)
    ax = fig.axes[0]
    assert np.allclose(ax.lines[0].get_ydata(), 0.92 ** np.arange(1, 31))
    assert "Model" in ax.get_title() and "step 8" in ax.get_title()
    plt.close(fig)
    fig = chain.plot_explorer(0.0, 0.0, 5)  # p = 1: no horizon to name
    assert fig.axes[0].get_title() == "Model, p = 1.000"
    plt.close(fig)
