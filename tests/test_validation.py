"""The refund validator: form errors from pydantic, business rules with exact messages."""

import json
from datetime import date, timedelta
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from reliability.validation import (VAGUE_FEEDBACK, Records, RefundRequest, RuleViolation,
                                    check_business_rules, parse_refund, rule_violations,
                                    validate_refund)

ACCOUNT = "40817-0042"
CHARGED = date(2026, 11, 3)
RECORDS = Records(customer_accounts={ACCOUNT, "40817-0007"},
                  fees={(ACCOUNT, CHARGED): "900.00"}, today=date(2026, 12, 2),
                  appeal_days=90)


def answer(**changes):
    fields = {"account": ACCOUNT, "amount": "900.00", "fee_charged": "900.00",
              "charged_on": CHARGED.isoformat()}
    fields.update(changes)
    return json.dumps({k: v for k, v in fields.items() if v is not None})


def test_a_valid_refund_is_accepted_with_no_feedback():
    verdict = validate_refund(answer(amount="250.50"), RECORDS)
    assert verdict.accepted and verdict.problems == () and verdict.feedback == ""
    assert verdict.refund.amount == Decimal("250.50")
    assert verdict.refund.charged_on == CHARGED


def test_the_lessons_rule_violation_message_is_exact():
    verdict = validate_refund(answer(amount="1450.00"), RECORDS)
    assert not verdict.accepted
    assert verdict.feedback == ("refund amount 1450.00 exceeds the fee withheld 900.00; "
                                "allowed 0 to 900.00")


def test_broken_json_is_a_form_error_that_says_where():
    verdict = validate_refund(answer()[:-1], RECORDS)
    assert not verdict.accepted and verdict.refund is None
    assert len(verdict.problems) == 1 and "Invalid JSON" in verdict.problems[0]
    assert "column" in verdict.problems[0]


def test_a_missing_field_is_named():
    verdict = validate_refund(answer(fee_charged=None), RECORDS)
    assert verdict.problems == ("fee_charged: Field required",)


def test_every_bad_field_is_reported_with_what_was_received():
    verdict = validate_refund(answer(amount="12.345", charged_on="03.11.2026"), RECORDS)
    fields = [p.split(":")[0] for p in verdict.problems]
    assert fields == ["amount", "charged_on"]
    assert "'12.345'" in verdict.problems[0] and "'03.11.2026'" in verdict.problems[1]


def test_extra_fields_are_refused():
    text = json.dumps({**json.loads(answer()), "approved_by": "model"})
    assert not validate_refund(text, RECORDS).accepted


def test_someone_elses_account_stops_the_checks_and_lists_the_allowed_accounts():
    verdict = validate_refund(answer(account="40817-0099"), RECORDS)
    assert verdict.problems == ("account 40817-0099 does not belong to this customer; "
                                "allowed: 40817-0007, 40817-0042",)


def test_a_charge_not_on_record_lists_the_charges_that_are():
    verdict = validate_refund(answer(charged_on="2026-11-04"), RECORDS)
    assert verdict.problems == ("no fee was withheld on account 40817-0042 on 2026-11-04; "
                                "fees on record: 2026-11-03 (900.00)",)


def test_a_fee_that_does_not_match_the_record_is_named():
    verdict = validate_refund(answer(fee_charged="950.00", amount="100.00"), RECORDS)
    assert verdict.problems == ("fee charged 950.00 does not match the fee on record 900.00 "
                                "for account 40817-0042 on 2026-11-03",)


def test_the_appeal_window_gives_its_allowed_dates():
    old = CHARGED - timedelta(days=80)
    records = Records(customer_accounts={ACCOUNT}, fees={(ACCOUNT, old): 900},
                      today=date(2026, 12, 2))
    verdict = validate_refund(answer(charged_on=old.isoformat()), records)
    age = (records.today - old).days
    assert age > 90
    assert verdict.problems == (
        f"the charge on {old.isoformat()} is {age} days old; refunds are allowed up to 90 "
        f"days after the charge, i.e. charges from 2026-09-03 to 2026-12-02",)


@pytest.mark.parametrize("days, said", [(121, "прошёл 121 день"), (122, "прошло 122 дня"),
                                        (125, "прошло 125 дней"), (111, "прошло 111 дней")])
def test_the_russian_age_of_a_charge_agrees_with_its_count(days, said):
    # the reviewer met «прошло 121 дн.» (issue 41): the sentence takes the count's form
    from reliability import i18n

    old = date(2026, 12, 2) - timedelta(days=days)
    records = Records(customer_accounts={ACCOUNT}, fees={(ACCOUNT, old): 900},
                      today=date(2026, 12, 2))
    with i18n.language("ru"):
        (problem,) = validate_refund(answer(charged_on=old.isoformat()), records).problems
    assert said in problem and "дн.;" not in problem


@pytest.mark.parametrize("age, accepted", [(0, True), (90, True), (91, False)])
def test_the_appeal_window_includes_its_last_day(age, accepted):
    today = date(2026, 12, 2)
    charged = today - timedelta(days=age)
    records = Records(customer_accounts={ACCOUNT}, fees={(ACCOUNT, charged): 900}, today=today)
    assert validate_refund(answer(charged_on=charged.isoformat()), records).accepted == accepted


def test_a_future_charge_is_refused():
    future = date(2026, 12, 10)
    records = Records(customer_accounts={ACCOUNT}, fees={(ACCOUNT, future): 900},
                      today=date(2026, 12, 2))
    verdict = validate_refund(answer(charged_on=future.isoformat()), records)
    assert len(verdict.problems) == 1 and "in the future" in verdict.problems[0]


def test_several_broken_rules_are_all_reported():
    verdict = validate_refund(answer(fee_charged="950.00", amount="1450.00"), RECORDS)
    assert len(verdict.problems) == 2
    with pytest.raises(RuleViolation) as caught:
        check_business_rules(verdict.refund, RECORDS)
    assert caught.value.problems == verdict.problems
    assert str(caught.value) == verdict.feedback


def test_check_business_rules_passes_a_good_refund():
    assert check_business_rules(parse_refund(answer()), RECORDS) is None


def test_parse_refund_raises_pydantic_errors_for_bad_forms():
    with pytest.raises(ValidationError):
        parse_refund('{"account": "40817-0042"}')


def test_the_vague_feedback_names_nothing_the_model_could_fix():
    specific = validate_refund(answer(amount="1450.00"), RECORDS).feedback
    assert "900.00" in specific and "1450.00" in specific
    assert not any(ch.isdigit() for ch in VAGUE_FEEDBACK)
    assert "amount" not in VAGUE_FEEDBACK.lower()


@settings(max_examples=60, deadline=None)
@given(cents=st.integers(min_value=0, max_value=200_000))
def test_amount_rule_holds_for_any_amount(cents):
    amount = Decimal(cents) / 100
    verdict = validate_refund(answer(amount=f"{amount:.2f}"), RECORDS)
    assert verdict.accepted == (amount <= Decimal("900.00"))
    if not verdict.accepted:
        assert verdict.feedback.endswith("allowed 0 to 900.00")
        assert f"{amount:.2f}" in verdict.feedback


def test_same_answer_same_verdict():
    text = answer(amount="1450.00", charged_on="2026-01-01")
    assert validate_refund(text, RECORDS) == validate_refund(text, RECORDS)


def test_records_are_read_only():
    with pytest.raises(TypeError):
        RECORDS.fees[(ACCOUNT, CHARGED)] = Decimal("1")


@pytest.mark.parametrize("bad, name", [
    (dict(appeal_days=0), "appeal_days"), (dict(appeal_days=1.5), "appeal_days"),
    (dict(today="2026-12-02"), "today"), (dict(fees={ACCOUNT: 900}), "fees"),
])
def test_bad_records_are_refused(bad, name):
    kwargs = dict(customer_accounts={ACCOUNT}, fees={}, today=date(2026, 12, 2))
    kwargs.update(bad)
    with pytest.raises(ValueError, match=name):
        Records(**kwargs)


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="text"):
        parse_refund({"account": ACCOUNT})
    with pytest.raises(ValueError, match="records"):
        validate_refund(answer(), {"today": date(2026, 12, 2)})
    with pytest.raises(ValueError, match="refund"):
        rule_violations(json.loads(answer()), RECORDS)


def test_refund_request_is_frozen():
    refund = RefundRequest.model_validate_json(answer())
    with pytest.raises(ValidationError):
        refund.amount = Decimal("1")
