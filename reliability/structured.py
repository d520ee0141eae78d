r"""Validating a structured answer in code: the schema checks the form, a rule checks the content.

A reply is accepted only if it passes two independent gates:

.. math::

    \text{accepted} = \underbrace{\text{parses and matches the schema}}_{\text{form}}
    \;\wedge\; \underbrace{\text{passes the content rule}}_{\text{content}} .

The schema is a pydantic model, :class:`Answer`, with the reasoning field declared before
the answer (declaration order is the order of the JSON schema's properties, and so the
order a decoder writes them). Validation is strict: ``"158"`` is not silently turned into
``158``, because a coercing parser hides exactly the drift a retry should report.

The content rule is the caller's own deterministic check (recompute the total, look the
value up, run the test). What a retry loop feeds back is built from both gates'
messages, never from the expected value itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from . import _validate
from .i18n import N_, NP_, _, pgettext
from .validation import _pydantic_message, _Shown

__all__ = ["Answer", "LaxAnswer", "Check", "check", "feedback", "retry", "Attempt",
           "field_order", "equals", "EXAMPLES"]


class Answer(BaseModel):
    """The structured answer: the reasoning first, then the integer answer."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    reasoning: str = Field(min_length=1, description="the working, written before the answer")
    answer: int = Field(description="the final integer answer")


class LaxAnswer(Answer):
    """The same fields with pydantic's default coercion, to show what strictness refuses."""

    model_config = ConfigDict(strict=False, extra="ignore", frozen=True)


#: Replies to a question whose right answer is 140 + 18 = 158, one per failure kind.
#: The names are keys that code looks up in English; printed or in a table, they read in
#: the page's language.
EXAMPLES = {
    _Shown(N_("right")): '{"reasoning": "140 + 18 = 158", "answer": 158}',
    _Shown(N_("valid form, wrong content")): '{"reasoning": "140 + 18 = 157", "answer": 157}',
    _Shown(N_("answer before reasoning")): '{"answer": 158, "reasoning": "140 + 18 = 158"}',
    _Shown(N_("number as a string")): '{"reasoning": "140 + 18 = 158", "answer": "158"}',
    _Shown(N_("broken JSON")): '{"reasoning": "140 + 18 = 158", "answer": 158',
    _Shown(N_("missing field")): '{"answer": 158}',
    _Shown(N_("extra field, empty reasoning")):
        '{"reasoning": "", "answer": 158, "confidence": 0.9}',
}


def field_order(model: type[BaseModel] = Answer) -> tuple[str, ...]:
    """The order of the properties in the model's JSON schema (what a decoder is given)."""
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        raise ValueError(f"model must be a pydantic BaseModel subclass, got {model!r}")
    return tuple(model.model_json_schema()["properties"])


@dataclass(frozen=True)
class Check:
    """What the two gates said about one reply."""

    text: str
    form_ok: bool
    content_ok: bool | None  # None: the content was never looked at (the form failed)
    value: Answer | None
    problems: tuple[str, ...]

    def __post_init__(self):
        _validate.text("text", self.text)
        _validate.flag("form_ok", self.form_ok)
        if self.content_ok is not None:
            _validate.flag("content_ok", self.content_ok)
        _validate.instance("value", self.value, Answer, optional=True)
        _validate.sequence("problems", self.problems, of=str, what="messages")

    @property
    def accepted(self) -> bool:
        return self.form_ok and bool(self.content_ok)


#: Where an error in no field of the schema is: the whole reply.
_WHOLE_REPLY = NP_("error location", "reply")


def _describe(error: dict) -> str:
    # an error in no field is in the whole reply: Russian says «весь ответ», since
    # «ответ:» would read as the schema's field "answer"
    where = ".".join(str(part) for part in error["loc"]) or pgettext(
        "error location", _WHOLE_REPLY)
    return f"{where}: {_pydantic_message(error)} [{error['type']}]"


def equals(expected: int) -> Callable[[Answer], str | None]:
    """A content rule: the answer must equal ``expected``, recomputed by the caller.

    The message says that the check failed, not what the right value is: feeding the
    expected value back would turn the retry into copying.
    """
    expected = _validate.whole("expected", expected, minimum=-(2 ** 63))

    def rule(value: Answer) -> str | None:
        if value.answer == expected:
            return None
        return _("answer: {value} fails the recomputation check "
                 "[content_check]").format(value=value.answer)

    return rule


def check(text: str, rule: Callable[[Answer], str | None] | None = None, *,
          strict: bool = True) -> Check:
    """Run the form gate (the schema) and then, if it passed, the content gate (``rule``).

    ``rule(answer)`` returns ``None`` to accept or a message to reject. Without a rule the
    content is unknown (``content_ok=None``) even when the form is perfect.
    """
    if not isinstance(text, str):
        raise ValueError(f"text must be a str holding the model's reply, got {text!r}")
    if rule is not None and not callable(rule):
        raise ValueError(f"rule must be a callable returning None or a message, got {rule!r}")
    strict = _validate.flag("strict", strict)
    model = Answer if strict else LaxAnswer
    try:
        value = model.model_validate_json(text)
    except ValidationError as error:
        problems = tuple(_describe(e) for e in error.errors(include_url=False))
        return Check(text, form_ok=False, content_ok=None, value=None, problems=problems)
    if rule is None:
        return Check(text, form_ok=True, content_ok=None, value=value, problems=())
    message = rule(value)
    return Check(text, form_ok=True, content_ok=message is None, value=value,
                 problems=() if message is None else (str(message),))


def feedback(result: Check) -> str | None:
    """The message a retry loop sends back after a rejected reply (``None`` if accepted)."""
    _validate.instance("result", result, Check)
    if result.accepted:
        return None
    if not result.form_ok:
        listed = "; ".join(result.problems)
        return _("Your reply did not match the schema ({problems}). Reply with one JSON "
                 "object: {schema}, reasoning first.").format(
                     problems=listed, schema='{"reasoning": string, "answer": integer}')
    if result.content_ok is None:
        return None  # no rule: nothing to say, and nothing was checked
    return _("Your reply has the right shape but failed the check ({problem}). "
             "Redo the working in reasoning, then give the answer.").format(
                 problem=result.problems[0])


@dataclass(frozen=True)
class Attempt:
    """One turn of :func:`retry`: the reply, the verdict and what was sent back."""

    number: int
    check: Check
    sent_back: str | None

    def __post_init__(self):
        _validate.whole("number", self.number, minimum=1)
        _validate.instance("check", self.check, Check)
        _validate.text("sent_back", self.sent_back, optional=True)


def retry(replies: Sequence[str], rule: Callable[[Answer], str | None], *,
          max_attempts: int = 3, strict: bool = True) -> tuple[Attempt, ...]:
    """Replay scripted ``replies`` through a bounded retry loop.

    It stops at the first accepted reply or after ``max_attempts`` turns; each rejected
    turn records the feedback the next turn would have been given.
    """
    max_attempts = _validate.whole("max_attempts", max_attempts, minimum=1)
    replies = list(_validate.sequence("replies", replies, of=str, what="replies (strings)"))
    if not replies:
        raise ValueError("replies must hold at least one reply")
    _validate.function("rule", rule)
    strict = _validate.flag("strict", strict)
    log = []
    for number, text in enumerate(replies[:max_attempts], start=1):
        result = check(text, rule, strict=strict)
        log.append(Attempt(number, result, feedback(result)))
        if result.accepted:
            break
    return tuple(log)
