"""The gate before irreversible actions: a passing dry run or a named person releases the
action, a failed dry run always stops it, and a model judge's approval never decides."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reliability.harness import DryRun, GateDecision, irreversible_gate

PASSED = DryRun(checks=("schema", "amount <= fee held"))
FAILED = DryRun(checks=("schema", "amount <= fee held"),
                problems=("amount 1450.00 exceeds the fee held, 900.00",))


def test_a_reversible_action_needs_no_evidence():
    decision = irreversible_gate("draft reply", irreversible=False)
    assert decision == GateDecision("draft reply", True, "reversible: can be undone, no gate")


def test_an_irreversible_action_with_nothing_behind_it_is_refused():
    assert not irreversible_gate("pay refund", irreversible=True).allowed


def test_a_judge_alone_never_releases_an_irreversible_action():
    decision = irreversible_gate("pay refund", irreversible=True, judge_approved=True)
    assert not decision.allowed
    assert "judge" in decision.reason


def test_a_passing_dry_run_or_a_named_person_releases_it():
    by_run = irreversible_gate("pay refund", irreversible=True, dry_run=PASSED)
    by_person = irreversible_gate("pay refund", irreversible=True, confirmed_by="duty officer")
    assert by_run.allowed and "schema" in by_run.reason
    assert by_person.allowed and "duty officer" in by_person.reason


def test_a_failed_dry_run_stops_the_action_even_when_someone_confirmed():
    decision = irreversible_gate("pay refund", irreversible=True, dry_run=FAILED,
                                 confirmed_by="duty officer", judge_approved=True)
    assert not decision.allowed
    assert "1450.00" in decision.reason


@given(irreversible=st.booleans(),
       dry_run=st.sampled_from([None, PASSED, FAILED]),
       confirmed_by=st.sampled_from([None, "duty officer"]),
       judge=st.sampled_from([None, False, True]))
def test_the_rule_holds_for_every_combination_and_the_judge_never_changes_it(
        irreversible, dry_run, confirmed_by, judge):
    decision = irreversible_gate("act", irreversible=irreversible, dry_run=dry_run,
                                 confirmed_by=confirmed_by, judge_approved=judge)
    if not irreversible:
        expected = True
    elif dry_run is not None:
        expected = dry_run.passed
    else:
        expected = confirmed_by is not None
    assert decision.allowed is expected
    without_judge = irreversible_gate("act", irreversible=irreversible, dry_run=dry_run,
                                      confirmed_by=confirmed_by)
    assert decision.allowed is without_judge.allowed


@pytest.mark.parametrize("bad", ["", "   ", 3, True])
def test_a_confirmation_must_name_someone(bad):
    with pytest.raises(ValueError, match="confirmed_by"):
        irreversible_gate("act", irreversible=True, confirmed_by=bad)


def test_a_dry_run_that_checked_nothing_is_refused():
    with pytest.raises(ValueError, match="checks"):
        DryRun(checks=())
