"""The day-of-traffic simulator: reproducible, its counters add up, its rates match their
closed forms within four standard errors."""

import numpy as np
import pytest

from reliability.harness.breaker import BreakerConfig
from reliability.harness.ladder import RUNGS, Policy
from reliability.harness.traffic import (REASONS, Provider, Scenario, rung_alerts,
                                         simulate_day)

SMALL = dict(conversations=1500)


def test_same_seed_same_day_other_seed_other_day():
    a = simulate_day(Scenario(outage_hours=2), breaker=BreakerConfig(), seed=3, **SMALL)
    b = simulate_day(Scenario(outage_hours=2), breaker=BreakerConfig(), seed=3, **SMALL)
    c = simulate_day(Scenario(outage_hours=2), breaker=BreakerConfig(), seed=4, **SMALL)
    assert a.requests == b.requests and np.array_equal(a.counts, b.counts)
    assert np.array_equal(a.reasons, b.reasons) and np.array_equal(a.elapsed, b.elapsed)
    assert not np.array_equal(a.elapsed, c.elapsed)


@pytest.mark.parametrize("scenario, breaker", [
    (Scenario(), None), (Scenario(outage_hours=3), None),
    (Scenario(outage_hours=3), BreakerConfig(3, 30.0)),
    (Scenario(slow_hours=4, slow_factor=5), BreakerConfig()),
    (Scenario(quality_drop=0.6), None)])
def test_counters_add_up_to_the_traffic(scenario, breaker):
    day = simulate_day(scenario, breaker=breaker, seed=7, **SMALL)
    assert day.counts.sum() == day.requests == day.rung.size
    assert np.array_equal(np.bincount(day.rung, minlength=len(RUNGS)), day.counts)
    # Every request that reached a rung and was not answered there was passed over for
    # exactly one reason (the retry rung belongs to the primary and is never passed over).
    reached = day.requests
    for r, rung in enumerate(RUNGS[:-1]):
        if rung.kind == "retry":
            assert day.reasons[r].sum() == 0
            continue
        answered_here = day.counts[r] + (day.counts[r + 1] if RUNGS[r + 1].kind == "retry" else 0)
        assert day.reasons[r].sum() == reached - answered_here
        reached -= answered_here
    assert reached == day.counts[-1]
    assert sum(day.trigger_counts().values()) == day.reasons.sum()
    assert np.all(day.waited <= day.elapsed + 1e-9)


def test_traffic_volume_matches_conversations_times_turns():
    # Turns per conversation are 1 + Poisson(14): mean 15, variance 14.
    conversations = 4000
    day = simulate_day(conversations=conversations, seed=11)
    se = np.sqrt(conversations * 14.0)
    assert abs(day.requests - 15 * conversations) < 4 * se


def test_primary_error_rate_matches_its_closed_form():
    # With no deadline in reach, each call to the primary fails with error + rate_limited.
    provider = Provider()
    day = simulate_day(policy=Policy(time_budget=1e6), seed=5, **SMALL)
    p = provider.error + provider.rate_limited
    se = np.sqrt(p * (1 - p) / day.primary_calls)
    assert abs(day.error_rate - p) < 4 * se


def test_rules_answer_their_share_of_the_requests_that_reach_them():
    scenario = Scenario(quality_drop=1.0, rules_cover=0.35)  # every model answer invalid
    day = simulate_day(scenario, seed=9, **SMALL)
    assert day.counts[:4].sum() == 0
    share = day.counts[4] / day.requests
    se = np.sqrt(0.35 * 0.65 / day.requests)
    assert abs(share - 0.35) < 4 * se


def test_the_breaker_stops_hammering_a_dead_provider():
    outage = Scenario(outage_start=8, outage_hours=4)
    without = simulate_day(outage, seed=2, **SMALL)
    with_breaker = simulate_day(outage, breaker=BreakerConfig(5, 60.0), seed=2, **SMALL)
    assert with_breaker.breaker_opened >= 1 and without.breaker_opened == 0
    assert with_breaker.outage_calls < 0.2 * without.outage_calls
    assert with_breaker.waiting_hours < 0.5 * without.waiting_hours
    assert with_breaker.trigger_counts()["breaker_open"] > 0


def test_a_quality_slide_moves_traffic_to_the_rules_and_only_the_counters_see_it():
    base = simulate_day(seed=1, **SMALL)
    slid = simulate_day(Scenario(quality_drop=0.6), seed=1, **SMALL)
    alerts = rung_alerts(slid.counts, slid.requests, base.shares)
    assert alerts[4], "the rules rung's counter must alert"
    assert abs(slid.error_rate - base.error_rate) < 0.01, "the HTTP error rate barely moves"
    assert not rung_alerts(base.counts, base.requests, base.shares).any()


@pytest.mark.parametrize("kwargs, name", [
    (dict(conversations=0), "conversations"), (dict(turns=0.5), "turns"),
    (dict(scenario="outage"), "scenario"), (dict(policy=None), "policy"),
    (dict(breaker=5), "breaker"), (dict(providers=(Provider(),)), "providers")])
def test_bad_simulation_inputs_are_refused(kwargs, name):
    with pytest.raises(ValueError, match=name):
        simulate_day(**kwargs)


@pytest.mark.parametrize("kwargs, name", [
    (dict(outage_hours=25), "outage_hours"), (dict(slow_factor=0), "slow_factor"),
    (dict(quality_drop=1.5), "quality_drop"), (dict(rules_cover=-0.1), "rules_cover")])
def test_bad_scenarios_are_refused(kwargs, name):
    with pytest.raises(ValueError, match=name):
        Scenario(**kwargs)


def test_bad_providers_and_alert_inputs_are_refused():
    with pytest.raises(ValueError, match="error"):
        Provider(error=0.7, rate_limited=0.5)
    with pytest.raises(ValueError, match="median_latency"):
        Provider(median_latency=0)
    with pytest.raises(ValueError, match="baseline_shares"):
        rung_alerts([1, 2], 3, [0.5])
    assert len(REASONS) == 7


def words(text: str) -> str:
    """``text`` with its line breaks as spaces (figures wrap their text to fit)."""
    return " ".join(text.split())


def test_the_outage_figure_says_when_there_is_no_outage_and_no_traffic():
    # Chapter 8 at outage_hours=0 and conversations=1: the title must not claim an outage,
    # and a window with no request in it says so rather than showing two blank panels.
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from reliability.figures import ladder as figures

    calm = Scenario(outage_hours=0.0)
    one = simulate_day(calm, conversations=1, seed=0)
    fig = figures.plot_outage(one, one, start=8.0, end=14.0)
    # Titles are wrapped to a phone's width: their words, not their line breaks, count.
    assert words(fig._suptitle.get_text()).endswith(
        "no outage, so a breaker has nothing to do")
    in_window = np.any((one.time >= 8 * 3600) & (one.time < 14 * 3600))
    notes = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert notes == ([] if in_window else ["no requests in this window"] * 2)
    plt.close(fig)
    busy = simulate_day(Scenario(outage_hours=2.0), conversations=200, seed=0)
    fig = figures.plot_outage(busy, busy, start=8.0, end=16.0)
    assert "without a breaker the outage burns" in words(fig._suptitle.get_text())
    # The panel titles count what the chapter's table counts: calls while it was down.
    assert [words(ax.get_title()) for ax in fig.axes] == [
        f"{label}: {busy.waiting_hours:,.1f} worker-hours waiting, "
        f"{busy.outage_calls:,} calls while down"
        for label in ("retries only", "retries + circuit breaker")]
    assert not [t for ax in fig.axes for t in ax.texts]
    plt.close(fig)


def _reference_breaker_pass(time, book, config):
    """The breaker pass written with ``transition``, event by event."""
    from reliability.harness.breaker import BreakerState, transition
    allowed, state, opened = np.ones(time.size, dtype=bool), BreakerState(), 0
    for i, now in enumerate(time):
        state, ok = transition(state, "allow", float(now), config)
        if not ok:
            allowed[i] = False
            continue
        if book["responded"][i]:
            state, _ = transition(state, "success", float(now), config)
        for _ in range(int(book["trailing"][i])):
            was_open = state.state == "open"
            state, _ = transition(state, "failure", float(now), config)
            opened += state.state == "open" and not was_open
    return allowed, opened


@pytest.mark.parametrize("threshold, timeout, fail", [(1, 5.0, 0.9), (3, 30.0, 0.5),
                                                      (5, 60.0, 0.97), (2, 1.0, 0.2)])
def test_the_fast_breaker_pass_is_the_transition_state_machine(threshold, timeout, fail):
    from reliability.harness.traffic import _breaker_pass
    rng = np.random.default_rng(threshold)
    time = np.sort(rng.uniform(0, 3600, 4000))
    responded = rng.random(time.size) > fail
    trailing = np.where(responded, rng.integers(0, 2, time.size),
                        rng.integers(1, 4, time.size))
    book = dict(responded=responded, trailing=trailing)
    config = BreakerConfig(threshold, timeout)
    fast, fast_opened = _breaker_pass(time, book, config)
    slow, slow_opened = _reference_breaker_pass(time, book, config)
    assert np.array_equal(fast, slow) and fast_opened == slow_opened
    assert 0 < fast.sum() < time.size      # the case really opened and closed the breaker


def test_the_explorer_figure_is_one_panel_whose_legend_gives_both_days_costs():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from reliability.figures import ladder as figures

    outage = Scenario(outage_hours=2.0)
    without = simulate_day(outage, conversations=300, seed=1)
    with_breaker = simulate_day(outage, breaker=BreakerConfig(), conversations=300, seed=1)
    fig = figures.plot_outage_lines(without, with_breaker, start=8.0, end=16.0)
    assert len(fig.axes) == 1 and "model" in fig.axes[0].get_title()
    labels = [words(t.get_text()) for t in fig.axes[0].get_legend().get_texts()]
    assert labels == [f"retries only: {without.waiting_hours:,.1f} worker-hours waiting, "
                      f"{without.outage_calls:,} calls while down",
                      f"with breaker: {with_breaker.waiting_hours:,.1f} worker-hours "
                      f"waiting, {with_breaker.outage_calls:,} calls while down"]
    # Outside the outage nearly everything is answered by the primary on both days.
    for line in fig.axes[0].get_lines():
        hours, share = line.get_data()
        assert np.all(share[(hours < 10) | (hours >= 12.25)] > 0.9)
    plt.close(fig)
