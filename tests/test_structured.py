"""The structured-answer validator accepts and rejects what the chapter says it does."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reliability.structured import (EXAMPLES, Answer, LaxAnswer, check, equals, feedback,
                                    field_order, retry)

RIGHT = 140 + 18  # the examples' question; the rule recomputes it, nobody types the answer


# name -> (form accepted, content accepted or None when never looked at), as the prose says
CLAIMS = {
    "right": (True, True),
    "valid form, wrong content": (True, False),
    "answer before reasoning": (True, True),      # JSON keys are unordered once parsed
    "number as a string": (False, None),          # strict: no silent coercion
    "broken JSON": (False, None),
    "missing field": (False, None),
    "extra field, empty reasoning": (False, None),
}


def test_every_example_has_a_claim():
    assert set(CLAIMS) == set(EXAMPLES)


@pytest.mark.parametrize("name", list(CLAIMS))
def test_examples_are_accepted_and_rejected_as_claimed(name):
    result = check(EXAMPLES[name], equals(RIGHT))
    form_ok, content_ok = CLAIMS[name]
    assert result.form_ok is form_ok
    assert result.content_ok is content_ok
    assert result.accepted is (form_ok and bool(content_ok))
    assert bool(result.problems) is not result.accepted


def test_the_errors_name_the_field_and_the_kind():
    assert check(EXAMPLES["missing field"]).problems == (
        "reasoning: Field required [missing]",)
    assert check(EXAMPLES["number as a string"]).problems[0].startswith("answer:")
    assert "[json_invalid]" in check(EXAMPLES["broken JSON"]).problems[0]
    kinds = " ".join(check(EXAMPLES["extra field, empty reasoning"]).problems)
    assert "[string_too_short]" in kinds and "[extra_forbidden]" in kinds


def test_lax_parsing_coerces_what_strict_parsing_refuses():
    text = EXAMPLES["number as a string"]
    lax = check(text, equals(RIGHT), strict=False)
    assert lax.accepted and lax.value.answer == RIGHT and isinstance(lax.value.answer, int)
    assert not check(text, equals(RIGHT)).form_ok


def test_a_valid_form_is_not_a_checked_content():
    result = check(EXAMPLES["valid form, wrong content"])  # no rule given
    assert result.form_ok and result.content_ok is None and not result.accepted
    assert feedback(result) is None


def test_feedback_reports_the_problem_without_leaking_the_answer():
    for name in CLAIMS:
        result = check(EXAMPLES[name], equals(RIGHT))
        message = feedback(result)
        if result.accepted:
            assert message is None
        else:
            assert message and str(RIGHT) not in message
    wrong = feedback(check(EXAMPLES["valid form, wrong content"], equals(RIGHT)))
    assert "right shape" in wrong and "157" in wrong and "158" not in wrong
    broken = feedback(check(EXAMPLES["missing field"], equals(RIGHT)))
    assert "did not match the schema" in broken and "reasoning" in broken


def test_the_schema_puts_reasoning_first():
    assert field_order(Answer) == ("reasoning", "answer")
    assert field_order(LaxAnswer) == ("reasoning", "answer")


def test_retry_stops_at_the_first_accepted_reply_and_records_feedback():
    replies = [EXAMPLES["broken JSON"], EXAMPLES["valid form, wrong content"],
               EXAMPLES["right"], EXAMPLES["right"]]
    log = retry(replies, equals(RIGHT), max_attempts=5)
    assert [a.number for a in log] == [1, 2, 3]
    assert [a.check.accepted for a in log] == [False, False, True]
    assert log[0].sent_back and log[1].sent_back and log[2].sent_back is None
    capped = retry(replies, equals(RIGHT), max_attempts=2)
    assert len(capped) == 2 and not capped[-1].check.accepted


@settings(max_examples=50, deadline=None)
@given(st.text(min_size=1), st.integers(-10**6, 10**6), st.integers(-10**6, 10**6))
def test_any_well_formed_reply_passes_the_form_and_content_is_judged_by_the_rule(
        reasoning, answer, expected):
    text = json.dumps({"reasoning": reasoning, "answer": answer})
    result = check(text, equals(expected))
    assert result.form_ok and result.value == Answer(reasoning=reasoning, answer=answer)
    assert result.content_ok is (answer == expected)


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError, match="text must be a str"):
        check({"answer": 1})
    with pytest.raises(ValueError, match="rule must be a callable"):
        check(EXAMPLES["right"], 158)
    with pytest.raises(ValueError, match="max_attempts"):
        retry([EXAMPLES["right"]], equals(RIGHT), max_attempts=0)
    with pytest.raises(ValueError, match="replies must hold"):
        retry([], equals(RIGHT))
    with pytest.raises(ValueError, match="expected"):
        equals(1.5)
    with pytest.raises(ValueError, match="model must be"):
        field_order(dict)
