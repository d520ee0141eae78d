"""Loop detection: each sign on a crafted trace, none on a retry that makes progress, and
the two-stage answer (hint, then stop)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reliability.harness.clock import ManualClock
from reliability.harness.budget import Step, TaskBudget, run_task
from reliability.harness.loops import HINT, LoopDetector, Move

DETECTOR = LoopDetector(repeats=3, stall=4, cycles=2)


def test_repeat_is_detected_at_the_nth_identical_call_and_not_before():
    same = Move("kb_search", ("refund fee",), "s")
    other = Move("account", ("42",), "t")
    assert DETECTOR.sign([same, other, same]) is None
    assert DETECTOR.sign([same, other, same, Move("kb_search", ("refund fee",), "u")]) == "repeat"


def test_no_progress_is_detected_after_k_unchanged_steps_and_not_before():
    # Different calls every time, so neither repeat nor oscillation; only the state is stuck.
    moves = [Move(f"tool_{i}", (i,), "same") for i in range(4)]
    assert DETECTOR.sign(moves[:3], before="same") is None
    assert DETECTOR.sign(moves, before="same") == "no_progress"
    # Without the state before the first step, four moves are only three unchanged steps.
    assert DETECTOR.sign(moves) is None
    assert DETECTOR.sign(moves + [Move("tool_9", (9,), "same")]) == "no_progress"


def test_oscillation_is_detected_on_abab_and_not_on_aba():
    a = Move("open_ticket", (7,), 1)
    b = Move("close_ticket", (7,), 2)
    assert DETECTOR.sign([a, b, a]) is None
    # States change every step (1, 2, 1, 2...), so only the oscillation sign can fire.
    assert DETECTOR.sign([a, b, a, b]) == "oscillation"


def test_a_legitimate_retry_that_makes_progress_shows_no_sign():
    # Same tool, rephrased queries, and each one teaches something new: persistence, not a loop.
    moves = [Move("kb_search", (query,), frozenset(range(i + 1)))
             for i, query in enumerate(["refund fee", "commission refund", "fee returned March",
                                        "card fee reversal", "fee dispute window", "tariff 2023"])]
    assert all(DETECTOR.sign(moves[:t], before=frozenset()) is None
               for t in range(1, len(moves) + 1))
    # Paging back and forth between two tools with a moving cursor is not an oscillation.
    paging = [Move("list", (page,), page) if i % 2 == 0 else Move("read", (page,), -page)
              for i, page in enumerate([1, 1, 2, 2, 3, 3])]
    assert DETECTOR.sign(paging) is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["search", "account", "refund"]), min_size=1, max_size=30))
def test_calls_with_fresh_arguments_and_new_state_never_trip(tools):
    moves = [Move(tool, (i,), i) for i, tool in enumerate(tools)]
    assert DETECTOR.sign(moves, before=-1) is None


def test_the_answer_is_a_hint_first_and_a_stop_if_the_hint_did_not_help():
    stubborn = [Move("kb_search", ("refund fee",), "s")] * 6
    actions = [v.action for v in DETECTOR.scan(stubborn, before="s0")]
    # The third identical call earns the hint; three more after it mean the hint failed.
    assert actions == ["continue", "continue", "hint", "continue", "continue", "stop"]


def test_a_hint_that_helps_is_followed_by_no_stop():
    moves = [Move("kb_search", ("refund fee",), "s")] * 3 + [
        Move("kb_search", ("commission refund",), "found"),
        Move("refund", ("900.00",), "refunded")]
    actions = [v.action for v in DETECTOR.scan(moves, before="s0")]
    assert actions == ["continue", "continue", "hint", "continue", "continue"]


def test_the_runner_passes_the_hint_once_and_stops_a_stubborn_agent():
    clock, hints = ManualClock(), []

    def stubborn(state, hint):
        hints.append(hint)
        clock.advance(1.0)
        return Step(state="nothing new", tool="kb_search", args=("refund fee",),
                    best="what we know so far")

    outcome = run_task(stubborn, "start", TaskBudget(max_steps=50), clock=clock,
                       detector=DETECTOR)
    assert outcome.status == "loop_stopped" and outcome.limit == "loop"
    assert outcome.result == "what we know so far"
    assert outcome.steps_used == 6
    assert hints == [None] * 3 + [HINT] + [None] * 2


def test_the_runner_lets_an_agent_that_takes_the_hint_finish():
    clock = ManualClock()

    def learner(state, hint):
        if hint is not None:
            return Step(state="found", tool="kb_search", args=("commission refund",),
                        done=True, best="refund 900.00")
        return Step(state=state, tool="kb_search", args=("refund fee",))

    outcome = run_task(learner, "start", clock=clock, detector=DETECTOR)
    assert (outcome.status, outcome.result, outcome.steps_used) == ("done", "refund 900.00", 4)
    assert [v.action for v in outcome.verdicts] == ["continue", "continue", "hint", "continue"]


@pytest.mark.parametrize("kwargs", [{"repeats": 1}, {"stall": 0}, {"cycles": 1},
                                    {"repeats": 2.5}, {"stall": "4"}])
def test_bad_thresholds_are_refused(kwargs):
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        LoopDetector(**kwargs)


def test_bad_traces_are_refused():
    with pytest.raises(ValueError, match="moves"):
        DETECTOR.sign([("kb_search", ("q",))])
    with pytest.raises(ValueError, match="hinted_at"):
        DETECTOR.respond([Move("a")], hinted_at=5)


def test_the_chapter_fixtures_do_what_their_labels_say():
    from reliability.harness import (BUDGET_AGENTS, LOOP_SCRIPTS, LOOP_START, ManualClock,
                                     TaskBudget, fake_agent, run_task, scripted_agent)

    tripped = []
    for agent in BUDGET_AGENTS.values():
        clock = ManualClock()
        tripped.append(run_task(fake_agent(clock=clock, **agent), 0, TaskBudget(),
                                clock=clock).limit)
    assert tripped == ["steps", "cost", "time", "retries"]   # one limit each
    ends = {}
    for label, script in LOOP_SCRIPTS.items():
        clock = ManualClock()
        out = run_task(scripted_agent(clock=clock, **script), LOOP_START, TaskBudget(),
                       clock=clock, detector=LoopDetector(repeats=3, stall=4, cycles=2))
        ends[label] = (out.status, out.first_sign, out.hint_step)
    assert ends["rephrases and finds (legitimate)"] == ("done", None, None)
    assert ends["repeats, then takes the hint"] == ("done", "repeat", 3)
    assert ends["asks for one document again and again"] == ("loop_stopped", "repeat", 3)
    assert ends["opens and closes one form"][:2] == ("loop_stopped", "oscillation")
    assert ends["tries new tools, learns nothing"][:2] == ("loop_stopped", "no_progress")
    with pytest.raises(TypeError):       # read-only: a chapter cannot change them for the next
        LOOP_SCRIPTS["opens and closes one form"]["script"] = ()


def test_the_harness_package_names_every_public_name_of_its_modules():
    import importlib

    import reliability.harness as harness

    for module in ("breaker", "budget", "clock", "ladder", "loops", "traces", "traffic"):
        names = importlib.import_module(f"reliability.harness.{module}").__all__
        missing = set(names) - set(harness.__all__)
        assert not missing, f"{module}: {sorted(missing)} not in reliability.harness"
        assert all(getattr(harness, n) is getattr(
            importlib.import_module(f"reliability.harness.{module}"), n) for n in names)
