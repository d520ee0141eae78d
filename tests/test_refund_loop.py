"""The validation loop: exact feedback goes back, retries are bounded, people get reasons."""

import json
from datetime import date
from decimal import Decimal

import numpy as np
import pytest

from reliability.refund_loop import (APPROVAL_REQUIRED, MAX_ATTEMPTS, VALIDATION_FAILED,
                                     DraftModel, LoopCounts, Outcome, Tariff,
                                     loop_probabilities, refund_check,
                                     refund_with_validation, simulate_loop,
                                     tariff_violations)
from reliability.stats import binomial_standard_error
from reliability.validation import Records, parse_refund

ACCOUNT = "40817-0042"
CHARGED = date(2026, 11, 3)
RECORDS = Records({ACCOUNT}, {(ACCOUNT, CHARGED): "900.00"}, today=date(2026, 12, 2))
TARIFF = Tariff({date(2023, 1, 1): "1200.00", date(2025, 7, 1): "900.00"})
CHECK = refund_check(RECORDS, TARIFF)


def draft(amount="900.00", fee="900.00", day=CHARGED):
    return json.dumps({"account": ACCOUNT, "amount": amount, "fee_charged": fee,
                       "charged_on": day.isoformat()})


RIGHT = draft()
OLD_TARIFF = draft(amount="1200.00", fee="1200.00")
TOO_MUCH = draft(amount="1450.00")


class Scripted:
    """A model that sends the given drafts in order and remembers the feedback it got."""

    def __init__(self, *drafts):
        self.drafts, self.feedback = list(drafts), []

    def __call__(self, feedback):
        self.feedback.append(feedback)
        return self.drafts.pop(0)


def test_the_tariff_in_force_on_the_charge_date_applies():
    assert TARIFF.in_force(date(2024, 5, 1)) == (date(2023, 1, 1), Decimal("1200.00"))
    assert TARIFF.in_force(CHARGED) == (date(2025, 7, 1), Decimal("900.00"))
    assert TARIFF.in_force(date(2022, 12, 31)) is None
    assert tariff_violations(parse_refund(RIGHT), TARIFF) == ()
    (message,) = tariff_violations(parse_refund(OLD_TARIFF), TARIFF)
    assert message == ("fee charged 1200.00 is not the tariff in force on the charge date "
                       "2026-11-03: that tariff is 900.00, in force since 2025-07-01")
    # The same 1200.00 was right for a charge made under the old tariff.
    old = parse_refund(draft(amount="1200.00", fee="1200.00", day=date(2024, 5, 1)))
    assert tariff_violations(old, TARIFF) == ()


def test_the_exact_error_goes_back_and_the_fixed_draft_is_accepted():
    model = Scripted(TOO_MUCH, RIGHT)
    outcome = refund_with_validation(model, CHECK)
    assert outcome.status == "accepted" and outcome.reason is None
    assert outcome.attempts_used == 2 and outcome.refund.amount == Decimal("900.00")
    assert model.feedback == [None, "refund amount 1450.00 exceeds the fee withheld "
                                    "900.00; allowed 0 to 900.00"]


def test_after_max_attempts_the_case_goes_to_a_person_with_a_reason():
    model = Scripted(*[OLD_TARIFF] * MAX_ATTEMPTS, RIGHT)
    outcome = refund_with_validation(model, CHECK)
    assert outcome.status == "escalated" and outcome.reason == VALIDATION_FAILED
    assert outcome.attempts_used == MAX_ATTEMPTS and outcome.refund is None
    assert len(model.drafts) == 1  # the loop stopped; the right draft was never asked for
    assert all("tariff in force" in a.feedback for a in outcome.attempts)


def test_an_amount_that_needs_approval_goes_to_a_person_not_back_to_the_model():
    model = Scripted(RIGHT, draft(amount="500.00"))
    outcome = refund_with_validation(model, CHECK, approval_limit="500.00")
    assert outcome.status == "escalated" and outcome.reason == APPROVAL_REQUIRED
    assert outcome.refund.amount == Decimal("900.00")  # the person sees the full refund
    assert model.feedback == [None]  # the model was never told about the limit
    small = refund_with_validation(Scripted(draft(amount="450.00")), CHECK,
                                   approval_limit="500.00")
    assert small.status == "accepted"


@pytest.mark.parametrize("q, s, a", [(0.3, 0.8, 3), (0.0, 0.0, 1), (1.0, 0.0, 5),
                                     (1.0, 1.0, 2), (0.6, 0.3, 20)])
def test_closed_form_shares_add_up_and_match_hand_values(q, s, a):
    shares = loop_probabilities(q, s, a)
    assert list(shares) == [*range(1, a + 1), "escalated"]
    assert sum(shares.values()) == pytest.approx(1.0)
    assert shares[1] == pytest.approx(1 - q)
    assert shares["escalated"] == pytest.approx(q * (1 - s) ** (a - 1))


@pytest.mark.parametrize("q, s, a", [(0.3, 0.8, 3), (0.6, 0.3, 4), (1.0, 0.5, 2)])
def test_the_simulated_loop_matches_its_closed_form(q, s, a):
    model = DraftModel(RIGHT, (OLD_TARIFF, TOO_MUCH), draft_wrong=q, fix_rate=s)
    runs = 6000
    counts = simulate_loop(model, CHECK, runs=runs, seed=7, max_attempts=a)
    closed = loop_probabilities(q, s, a)
    for row in counts.rows(closed):
        error = binomial_standard_error(row["closed"], runs)
        assert abs(row["simulated"] - row["closed"]) <= 4 * error + 1e-12
        assert row["low"] <= row["simulated"] <= row["high"]


def test_the_simulation_is_seeded():
    model = DraftModel(RIGHT, (OLD_TARIFF,), draft_wrong=0.5, fix_rate=0.5)
    first = simulate_loop(model, CHECK, runs=500, seed=3)
    assert first == simulate_loop(model, CHECK, runs=500, seed=3)
    assert first != simulate_loop(model, CHECK, runs=500, seed=4)
    again = simulate_loop(model, CHECK, runs=500, seed=np.random.default_rng(3))
    assert again == first


@pytest.mark.parametrize("call, words", [
    (lambda: loop_probabilities(1.5, 0.5), "draft_wrong"),
    (lambda: loop_probabilities(0.5, -0.1), "fix_rate"),
    (lambda: loop_probabilities(0.5, 0.5, 0), "max_attempts"),
    (lambda: refund_with_validation(Scripted(RIGHT), CHECK, max_attempts=0), "max_attempts"),
    (lambda: refund_with_validation(Scripted(RIGHT), CHECK, approval_limit="-1"),
     "approval_limit"),
    (lambda: Tariff({}), "changes"),
    (lambda: Tariff({"2025-07-01": "900.00"}), "changes"),
    (lambda: DraftModel(RIGHT, (), 0.5, 0.5), "wrong"),
    (lambda: simulate_loop(DraftModel(RIGHT, (TOO_MUCH,), 0.5, 0.5), CHECK, runs=0,
                           seed=1), "runs"),
    (lambda: Outcome("escalated", None, ()), "reason"),
    (lambda: LoopCounts({1: 2, "escalated": 1}, runs=4), "counts"),
])
def test_bad_input_names_the_parameter(call, words):
    with pytest.raises(ValueError, match=words):
        call()


def _chapter_loop():
    """The loop as chapter 3 shows it, executed from the chapter's own cell."""
    import nbformat
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "chapters" / "03_verifiers.ipynb"
    (source,) = [c.source for c in nbformat.read(path, 4).cells if c.cell_type == "code"
                 and "def refund_with_validation" in c.source]
    namespace = {}
    exec(source, namespace)
    return namespace["refund_with_validation"]


@pytest.mark.parametrize("drafts", [[RIGHT], [TOO_MUCH, RIGHT], [OLD_TARIFF, TOO_MUCH, RIGHT],
                                    [OLD_TARIFF] * 5, ["{", RIGHT]])
def test_the_loop_the_chapter_shows_is_the_loop_the_package_runs(drafts):
    shown, packaged = Scripted(*drafts), Scripted(*drafts)
    ours = _chapter_loop()(shown, CHECK)
    theirs = refund_with_validation(packaged, CHECK)
    assert ours == theirs
    assert shown.feedback == packaged.feedback
