"""The ablation lab: oracle, injectors, guardrails, verdicts and paired, seeded arms."""

import inspect
import json
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reliability import lab
from reliability.lab import (ALL, NONE, Guardrails, Profile, Scenario, compare,
                             make_cases, measure_own, run_arm, run_episode,
                             transient_success, write_jsonl)
from reliability.lab.arms import FAILURE_LADDER, classify, pass_k_over_cases, verdict
from reliability.lab.faults import MalformedFaults, TransientFaults
from reliability.lab.guardrails import GUARDRAILS, validate
from reliability.lab.task import Task, oracle
from reliability.lab.faults import HINTED_KEY, check_arguments
from reliability.stats import binomial_standard_error, newcombe_interval

RIG = pd.read_csv(__file__.rsplit("/", 2)[0] + "/data/forge_gap.csv")


# --- the task and its oracle -------------------------------------------------------------

def test_oracle_passes_only_the_right_total():
    task = Task()
    assert task.answer == 158
    assert oracle(task, 158) and oracle(task, 158.0) and oracle(task, 158.004)
    for wrong in (157.99, 140, 152, "158", None, True, math.nan, [158]):
        assert not oracle(task, wrong), wrong


def test_oracle_follows_the_task_not_a_constant():
    task = Task(item_total=100, zone="C", rates={"A": 1, "C": 7})
    assert oracle(task, 107) and not oracle(task, 158)


def test_bad_tasks_are_refused():
    with pytest.raises(ValueError, match="zone"):
        Task(zone="Z")
    with pytest.raises(ValueError, match="item_total"):
        Task(item_total=-1)
    with pytest.raises(ValueError, match="task"):
        oracle("not a task", 158)


def test_made_cases_are_distinct_priceable_orders():
    cases = make_cases(50, seed=4)
    assert len({c.order_id for c in cases}) == 50
    assert all(c.wrong_zone != c.zone and c.rates[c.wrong_zone] != c.rates[c.zone]
               for c in cases)
    assert cases == make_cases(50, seed=4)


# --- the injectors -----------------------------------------------------------------------

@pytest.mark.parametrize("rate", [0.1, 0.6])
def test_transient_faults_strike_at_their_rate(rate):
    rng, n = np.random.default_rng(5), 20000
    hits = sum(TransientFaults(rate).strike(rng) is not None for _ in range(n))
    assert abs(hits / n - rate) < 4 * binomial_standard_error(rate, n)


def test_a_transient_fault_is_a_503_and_rate_zero_never_strikes():
    rng = np.random.default_rng(1)
    assert TransientFaults(1.0).strike(rng).transient
    assert all(TransientFaults(0.0).strike(rng) is None for _ in range(100))
    with pytest.raises(ValueError, match="fault_rate"):
        TransientFaults(1.5)


def test_malformed_fault_is_a_sticky_400_with_a_hint():
    accepted = MalformedFaults(1.0).arm(np.random.default_rng(0))
    assert accepted == {"get_order": HINTED_KEY, "get_ship_rate": HINTED_KEY}
    first = check_arguments("get_order", {"order_id": "A-1001"}, accepted["get_order"])
    again = check_arguments("get_order", {"order_id": "A-1001"}, accepted["get_order"])
    assert first.status == again.status == 400 and not first.transient
    assert f"use '{HINTED_KEY}'" in first.error
    assert check_arguments("get_order", {HINTED_KEY: "A-1001"}, accepted["get_order"]) is None


def test_malformed_fault_is_cleared_only_by_a_corrected_call():
    never_heals = Profile(heal=0.0)
    stuck = run_episode(profile=never_heals, malformed_rate=1.0, seed=3)
    assert stuck.ending == "turn_limit" and not stuck.passed
    assert all(e.kind == "400" for e in stuck.events if e.source == "tool")
    healed = run_episode(profile=Profile(heal=1.0), malformed_rate=1.0, seed=3)
    assert healed.passed and healed.turns == 5  # two rejected calls, two corrected, submit


def test_malformed_arming_rate():
    n, rate = 10000, 0.3
    armed = sum(MalformedFaults(rate).arm(np.random.default_rng(i))["get_order"] == HINTED_KEY
                for i in range(n))
    assert abs(armed / n - rate) < 4 * binomial_standard_error(rate, n)


# --- closed forms against the simulation --------------------------------------------------

@pytest.mark.parametrize("rate,retries", [(0.3, 0), (0.6, 0), (0.6, 1), (0.8, 2)])
def test_transient_success_matches_its_closed_form(rate, retries):
    runs = 3000
    arm = run_arm(Scenario(fault_rate=rate),
                  Guardrails(error_recovery=retries > 0, recovery_retries=max(retries, 0)),
                  runs=runs, seed=21)
    expected = transient_success(rate, 6, retries)
    assert abs(arm.rate - expected) < 4 * binomial_standard_error(expected, runs)


def test_no_submit_rates_match_their_closed_forms():
    runs, q, h = 3000, 0.7, 0.8
    scenario = Scenario(profile=Profile(no_submit=q, heeds=h))
    base = run_arm(scenario, NONE, runs=runs, seed=8)
    assert abs(base.rate - (1 - q)) < 4 * binomial_standard_error(1 - q, runs)
    # Turns 3..6 are answer turns: the first one submits with 1 - q, each nudged one with h.
    nudged = run_arm(scenario, Guardrails(submit_nudge=True), runs=runs, seed=8)
    expected = (1 - q) + q * (1 - (1 - h) ** 3)
    assert abs(nudged.rate - expected) < 4 * binomial_standard_error(expected, runs)


# --- guardrails ----------------------------------------------------------------------------

@pytest.mark.parametrize("failure", list(FAILURE_LADDER))
def test_each_guardrail_fires_only_on_its_own_failure(failure):
    settings_, matched, _ = FAILURE_LADDER[failure]
    arm = run_arm(Scenario(**settings_), ALL, runs=150, seed=2)
    assert arm.fired[matched] > 0
    assert all(arm.fired[g] == 0 for g in GUARDRAILS if g != matched), arm.fired


@pytest.mark.parametrize("failure", list(FAILURE_LADDER))
def test_a_mismatched_guardrail_changes_no_run(failure):
    settings_, _, mismatched = FAILURE_LADDER[failure]
    scenario = Scenario(**settings_)
    base = run_arm(scenario, NONE, runs=100, seed=6, keep=100)
    miss = run_arm(scenario, Guardrails.only(mismatched), runs=100, seed=6, keep=100)
    assert miss.fired[mismatched] == 0
    assert [t.lines() for t in base.kept] == [t.lines() for t in miss.kept]


def test_error_recovery_spends_no_turn_and_keeps_503s_out_of_the_history():
    g = Guardrails(error_recovery=True, recovery_retries=60)
    for i in range(30):
        t = run_episode(fault_rate=0.6, guardrails=g, seed=4, index=i)
        assert t.turns == 3 and t.passed
        assert not any(e.source == "tool" and e.kind == "503" for e in t.events)


def test_validation_signature_cannot_see_the_answer_key():
    assert list(inspect.signature(validate).parameters) == ["submitted", "retrieved"]


def test_a_self_consistent_wrong_record_passes_validation_and_fails_the_oracle():
    task = Task()
    retrieved = {"get_order": {"item_total_usd": 140.0, "zone": "B"},
                 "get_ship_rate": {"zone": "A", "rate_usd": 12.0}}
    assert validate(152.0, retrieved).accepted and not oracle(task, 152.0)
    assert not validate(158.0, retrieved).accepted  # the true answer contradicts this evidence
    t = run_episode(task, Profile(wrong_record=1.0), Guardrails(validation=True), seed=1)
    assert t.fired["validation"] == 0 and t.submitted == 152.0 and not t.passed
    assert classify(task, t) == "wrong_record"


def test_validation_accepts_what_it_cannot_check():
    only_order = {"get_order": {"item_total_usd": 140.0, "zone": "B"}}
    assert validate(140.0, only_order).accepted  # never retrieved: nothing to recompute from
    full = {**only_order, "get_ship_rate": {"zone": "B", "rate_usd": 18.0}}
    assert validate("item_total_usd + ship_rate", full).accepted
    assert not validate(140.0, full).accepted and validate(140.0, full).parts == (140.0, 18.0)


@settings(max_examples=60, deadline=None)
@given(st.floats(0, 500), st.floats(0, 50), st.floats(0, 600))
def test_validation_is_consistency_with_the_retrieved_parts(item, rate, value):
    retrieved = {"get_order": {"item_total_usd": item, "zone": "B"},
                 "get_ship_rate": {"zone": "B", "rate_usd": rate}}
    # the same arithmetic as the check: the total of the parts, then the difference
    assert validate(value, retrieved).accepted == (abs(value - (item + rate)) < 0.005)


def test_bad_guardrail_and_profile_inputs_are_refused():
    with pytest.raises(ValueError, match="guardrail names"):
        Guardrails.only("prayer")
    with pytest.raises(ValueError, match="validation"):
        Guardrails(validation="yes")
    with pytest.raises(ValueError, match="no_submit"):
        Profile(no_submit=1.2)
    with pytest.raises(ValueError, match="non_numeric"):
        Profile(non_numeric=0.5, made_up=0.4, slip=0.2)
    with pytest.raises(ValueError, match="fault_rate"):
        Scenario(fault_rate=-0.1)
    with pytest.raises(ValueError, match="profile"):
        Scenario(profile="genius")
    with pytest.raises(ValueError, match="runs"):
        run_arm(Scenario(), NONE, runs=0)
    with pytest.raises(ValueError, match="max_turns"):
        run_episode(max_turns=0)


# --- verdicts and the rig's published intervals ----------------------------------------------

@pytest.mark.parametrize("low,high,expected", [
    (0.0, 0.3, "null"), (-0.3, 0.0, "null"),     # touching zero contains it
    (-0.1, 0.2, "null"), (-0.161, 0.161, "null"),  # straddling
    (0.001, 0.3, "result"), (-0.4, -0.02, "result")])  # clearing it, either side
def test_verdict(low, high, expected):
    assert verdict(low, high) == expected


def test_verdict_refuses_an_inverted_interval():
    with pytest.raises(ValueError, match="low"):
        verdict(0.2, 0.1)


def test_the_rigs_published_gaps_follow_from_its_counts():
    rates = RIG[RIG.metric == "success rate"].set_index(["stage", "condition"])
    gaps = RIG[RIG.metric == "gap closed"].set_index("stage")
    pairs = {"S4": ("baseline", "+error_recovery"), "S8": ("baseline", "+submit_nudge"),
             "S9": ("+submit_nudge", "+submit_nudge +validation"),
             "S10": ("baseline", "+validation")}
    for stage, (a, b) in pairs.items():
        ra, rb = rates.loc[(stage, a)], rates.loc[(stage, b)]
        low, high = newcombe_interval(int(rb.successes), int(rb.trials),
                                      int(ra.successes), int(ra.trials))
        assert abs(100 * low - gaps.loc[stage, "low"]) < 0.06
        assert abs(100 * high - gaps.loc[stage, "high"]) < 0.06
        assert verdict(low, high) == "result"
    assert verdict(gaps.loc["S6", "low"], gaps.loc["S6", "high"]) == "null"


# --- arms: paired, reproducible, classified -------------------------------------------------

def test_arms_are_reproducible_per_seed():
    scenario = Scenario(profile="weak", fault_rate=0.3)
    a = run_arm(scenario, ALL, runs=60, seed=9, keep=5)
    b = run_arm(scenario, ALL, runs=60, seed=9, keep=5)
    c = run_arm(scenario, ALL, runs=60, seed=10)
    assert np.array_equal(a.outcomes, b.outcomes) and a.fired == b.fired
    assert [t.lines() for t in a.kept] == [t.lines() for t in b.kept]
    assert (a.fired, a.classes) != (c.fired, c.classes)
    gen = run_arm(scenario, ALL, runs=20, seed=np.random.default_rng(3))
    again = run_arm(scenario, ALL, runs=20, seed=np.random.default_rng(3))
    assert gen.classes == again.classes


def test_every_run_is_classified_once():
    arm = run_arm(Scenario(profile="weak"), Guardrails(validation=True), runs=200, seed=5)
    assert sum(arm.classes.values()) == arm.runs
    assert arm.classes.get("success", 0) == arm.successes


def test_compare_gap_and_sentence():
    scenario = Scenario(fault_rate=0.6)
    base = run_arm(scenario, NONE, runs=100, seed=1)
    fixed = run_arm(scenario, Guardrails(error_recovery=True), runs=100, seed=1)
    gap = compare(base, fixed)
    assert gap.delta == fixed.rate - base.rate and gap.low < gap.delta < gap.high
    assert ("a result" in gap.sentence()) == (gap.verdict == "result")
    null = compare(base, base)
    assert null.verdict == "null" and "a null" in null.sentence()
    assert " pp [" in gap.sentence() and "%" not in gap.sentence()
    assert gap.reference in gap.sentence()  # English: the arm's label as it is
    from reliability import i18n
    with i18n.language("ru"):
        russian, base_name = gap.sentence(), i18n.pgettext("arm", "baseline")
    # the Russian sentence names both arms in Russian, and parts the bounds with «;»
    assert gap.reference == "baseline" and "baseline" not in russian
    assert base_name != "baseline" and base_name in russian.split(":")[0]
    assert "п. п. [" in russian and "; " in russian.split("[")[1]


def test_trajectories_write_as_jsonl(tmp_path):
    runs = [run_episode(profile=Profile(no_submit=0.5), guardrails=ALL, seed=1, index=i)
            for i in range(5)]
    path = tmp_path / "runs.jsonl"
    lines = write_jsonl(runs, path)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines == len(records) == sum(len(t.events) for t in runs)
    assert {r["run"] for r in records} == set(range(5))
    assert all(r["source"] in {"model", "tool", "harness", "grader"} for r in records)


# --- measure your own ------------------------------------------------------------------------

def test_pass_k_over_cases_is_the_share_of_cases_that_never_fail():
    counts = np.array([8, 8, 7, 0, 3, 8])
    assert pass_k_over_cases(counts, 8, 8) == pytest.approx(np.mean(counts == 8))
    assert pass_k_over_cases(counts, 8, 1) == pytest.approx(counts.mean() / 8)
    assert pass_k_over_cases(counts, 8, 2) == pytest.approx(
        np.mean([math.comb(c, 2) / math.comb(8, 2) for c in counts]))
    with pytest.raises(ValueError, match="k"):
        pass_k_over_cases(counts, 8, 9)
    with pytest.raises(ValueError, match="successes"):
        pass_k_over_cases([9], 8, 1)


def test_dashboard_counts_add_up():
    dash = measure_own(Scenario(profile="weak", fault_rate=0.3), ALL, cases=10,
                       runs_per_case=4, seed=2)
    assert dash.runs == 40 and dash.per_case.max() <= 4
    assert 0 <= dash.rejected <= dash.answers
    assert dash.rejected == dash.fired["validation"]  # each rejection is one firing
    assert dash.turn_limit_share == dash.turn_limited / 40
    assert dash.pass_k[1] == pytest.approx(dash.per_case.sum() / 40)
    assert dash.pass_k[4] == pytest.approx(np.mean(dash.per_case == 4))


# --- the optional chat adapter, with canned replies (no network) ---------------------------

def _canned(replies):
    sent = []

    def post(url, payload, headers):
        sent.append(json.loads(json.dumps(payload)))
        return {"choices": [{"message": replies[len(sent) - 1]}]}
    return post, sent


def _tool_call(name, arguments, call_id):
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}]}


def test_chat_adapter_drives_the_same_harness():
    from reliability.lab.chat_adapter import ChatAgent
    post, sent = _canned([
        _tool_call("get_order", '{"order_id": "A-1001"}', "c1"),
        _tool_call("get_ship_rate", '{"zone": "B"}', "c2"),
        {"role": "assistant", "content": "The total is 158."},
        _tool_call("submit_answer", '{"value": 140}', "c3"),
        _tool_call("submit_answer", '{"value": 158}', "c4")])
    agent = ChatAgent(url="http://unused.invalid", model="canned", post=post)
    t = run_episode(guardrails=ALL, agent=agent, seed=1)
    assert t.passed and t.fired["submit_nudge"] == 1 and t.fired["validation"] == 1
    roles = [m["role"] for m in sent[-1]["messages"]]
    assert roles.count("tool") == 3 and "submit_answer" in json.dumps(sent[0]["tools"])


def test_chat_adapter_turns_an_array_of_arguments_into_a_malformed_call():
    from reliability.lab.chat_adapter import ChatAgent
    post, _ = _canned([_tool_call("get_order", '["A-1001"]', "c1")] * 2)
    t = run_episode(agent=ChatAgent(url="x", model="m", post=post), max_turns=2, seed=1)
    assert [e.kind for e in t.events if e.source == "tool"] == ["400", "400"]
    with pytest.raises(ValueError, match="agent"):
        run_episode(agent=object())


def test_dashboard_figure_draws_runs_that_never_answer():
    # Chapter 9 at max_turns=1: no run reaches submit_answer, so the validator sees no
    # answer; the panel says so instead of asking for a Wilson interval of 0 trials.
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from reliability.figures import lab as figs

    dash = measure_own(Scenario(profile="weak", max_turns=1), ALL, cases=3, runs_per_case=2,
                       seed=1)
    assert dash.answers == 0 and dash.rejected_share == 0.0
    fig = figs.plot_dashboard(dash, title="one turn a run")
    assert fig.axes[1].get_title() == "rejected by validation:\n0 of 0"
    assert "no answers to count" in [t.get_text() for t in fig.axes[1].texts]
    plt.close(fig)


def test_failure_ladder_runs_at_the_chapters_turn_limit():
    # Chapter 9 sets max_turns for the whole chapter; the ladder used to keep 6 turns while
    # the closed form beside it used the chapter's limit.
    from reliability.lab import failure_ladder

    assert failure_ladder(runs=30, seed=4, max_turns=6)["transient 503"]["baseline"] == \
        failure_ladder(runs=30, seed=4)["transient 503"]["baseline"]
    runs = 600
    row = failure_ladder(runs=runs, seed=5, fault_rate=0.6, max_turns=10)["transient 503"]
    expected = transient_success(0.6, 10)
    assert abs(row["baseline"].rate - expected) < 4 * binomial_standard_error(expected, runs)
    short = failure_ladder(runs=20, seed=5, max_turns=1)
    assert all(row["baseline"].successes == 0 for row in short.values())


def test_lab_namespace_is_the_chapter_api():
    """The package namespace names only what a chapter calls; each name is importable."""
    assert len(lab.__all__) == len(set(lab.__all__)) <= 16
    for name in lab.__all__:
        assert getattr(lab, name) is not None
    assert "pass_k_over_cases" not in lab.__all__


def test_dashboard_curves_match_pass_k_and_bracket_it():
    dash = measure_own(Scenario(profile="medium", fault_rate=0.2), ALL, cases=20,
                       runs_per_case=4, seed=5)
    from reliability.figures.lab import pass_k_band

    band = pass_k_band(dash, seed=1)
    assert list(band.k) == sorted(dash.pass_k)
    assert np.allclose(band.pass_hat, [dash.pass_k[k] for k in band.k])
    assert np.all(band.pass_hat_low <= band.pass_hat + 1e-12)
    assert np.all(band.pass_hat + 1e-12 >= band.pass_hat_low)
    assert np.all(band.pass_hat_high >= band.pass_hat - 1e-12)
    with pytest.raises(ValueError, match="confidence"):
        pass_k_band(dash, confidence=1.5)


def test_measure_own_with_a_difficulty_mix_spreads_the_cases():
    """A split mix of case difficulty leaves the run seeds alone, makes some cases pass
    every run, and lifts pass^8 above (pass^1)^8, as chapter 4's mixes do."""
    from reliability.passk import TaskMix

    scenario = Scenario(profile="weak", fault_rate=0.2)
    alike = measure_own(scenario, ALL, cases=40, runs_per_case=8, seed=3)
    same = measure_own(scenario, ALL, cases=40, runs_per_case=8, seed=3,
                       difficulty=TaskMix.constant(1.0))
    assert np.array_equal(alike.per_case, same.per_case)
    split = measure_own(scenario, ALL, cases=40, runs_per_case=8, seed=3,
                        difficulty=TaskMix.beta(0.5, 1.0))
    assert np.sum(split.per_case == 8) > 0
    assert split.pass_k[8] > split.pass_k[1] ** 8
    easy = measure_own(scenario, ALL, cases=5, runs_per_case=4, seed=3,
                       difficulty=TaskMix.constant(0.0))
    assert easy.pass_k[4] == 1.0
    with pytest.raises(ValueError, match="difficulty"):
        measure_own(scenario, ALL, cases=2, runs_per_case=2, difficulty=0.5)


@pytest.mark.parametrize("profile", list(lab.PROFILES))
def test_a_run_without_its_events_has_the_same_draws_and_outcome(profile):
    """``record=False`` (an arm's runs it does not keep) leaves only the events out:
    every ending, answer, firing and retrieval is the run's with its events, at no
    fault, a high fault rate and sticky malformed calls, each guardrail on and off."""
    from dataclasses import replace

    for fault, malformed, switches in ((0.0, 0.0, ALL), (0.9, 0.0, ALL),
                                       (0.5, 0.6, NONE), (0.3, 0.4, ALL)):
        for index in range(25):
            kwargs = dict(guardrails=switches, fault_rate=fault, malformed_rate=malformed,
                          max_turns=12, seed=3, index=index)
            full = lab.run_episode(profile=lab.PROFILES[profile], **kwargs)
            bare = lab.run_episode(profile=lab.PROFILES[profile], record=False, **kwargs)
            assert full.events and bare.events == ()
            assert replace(full, events=()) == bare
    with pytest.raises(ValueError, match="record"):
        lab.run_episode(record="no")


def test_an_arm_keeps_the_events_of_the_runs_it_keeps_and_counts_the_same():
    scenario = Scenario(profile="weak", fault_rate=0.4, malformed_rate=0.3, max_turns=8)
    kept = lab.run_arm(scenario, ALL, runs=60, seed=5, keep=60)
    some = lab.run_arm(scenario, ALL, runs=60, seed=5, keep=3)
    assert some.kept == kept.kept[:3] and all(t.events for t in some.kept)
    for name in ("successes", "fired", "classes", "endings", "answers", "rejected"):
        assert getattr(some, name) == getattr(kept, name), name
    assert np.array_equal(some.outcomes, kept.outcomes)


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1, 2**32, 2**63 - 1, 2**64 + 5])
def test_an_arms_streams_are_each_runs_own(seed):
    """An arm derives its runs' two streams together (reliability.lab.agent._arm_streams,
    numpy's SeedSequence written over arrays): each run's pair must be the one
    ``episode_streams(seed, index)`` gives, bit generator state for state, for one-word
    and many-word seeds, from index 0 and across the index that needs a second word."""
    from reliability.lab.agent import _arm_streams, episode_streams

    for first, runs in ((0, 40), (123_456, 5), (2**32 - 3, 6)):
        for offset, pair in enumerate(_arm_streams(seed, first, runs)):
            expected = episode_streams(seed, first + offset)
            for ours, theirs in zip(pair, expected):
                assert ours.bit_generator.state == theirs.bit_generator.state, \
                    (seed, first + offset)
                assert ours.random(3).tolist() == theirs.random(3).tolist()


def test_an_arm_runs_what_its_episodes_run_one_at_a_time():
    """run_arm checks its arguments once and derives its streams together; every run
    must still be ``run_episode``'s, near the index that takes a second word too."""
    scenario = Scenario(profile="weak", fault_rate=0.3, malformed_rate=0.4, max_turns=9)
    for first in (0, 2**32 - 4):
        arm = lab.run_arm(scenario, ALL, runs=8, seed=2**40 + 7, keep=8, first=first)
        for offset, kept in enumerate(arm.kept):
            alone = lab.run_episode(scenario.task, scenario.profile, ALL, fault_rate=0.3,
                                    malformed_rate=0.4, max_turns=9, seed=2**40 + 7,
                                    index=first + offset)
            assert kept == alone
