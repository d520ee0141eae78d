"""Exit quizzes: ``:::{quiz} N`` puts the quiz of lesson section N on a page.

Each question is plain HTML made at build time (a fieldset of radio buttons, or a
labelled text field for a number, and a real button), so it reads and works from the
keyboard; ``book/_static/quiz.js`` checks an answer in the browser with no kernel and no
network and shows the feedback written here, with a link to the section that explains
it. The numeric answers are computed from the ``reliability`` package while the book
builds, so they follow the package. Words come from locale/<language>/code/quiz.po.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import Directive, directives

ROOT = Path(__file__).resolve().parents[2]


def N_(message: str) -> str:  # gettext's name: marked, translated later
    return message


@dataclass(frozen=True)
class Question:
    """One question. ``answer`` is the index of the right choice, or a function of
    no arguments that computes the number from the package; ``tolerance`` is how far a
    typed number may be from it and still be right (the rounding the prompt asks for),
    and within ``close`` times that it is "close"."""

    prompt: str
    explanation: str
    link: str
    link_text: str
    choices: tuple[str, ...] = ()
    answer: object = 0
    values: object = dict  # the prompt's {slots}, from the same package call
    tolerance: float = 0.0
    close: float = 4.0


# The questions' own inputs (the others are the package's defaults, as the chapters use).
HORIZON_P = 0.95
PASS_N, PASS_C, PASS_K = 8, 4, 2
CASES = 16


def _horizon():
    from reliability import horizon
    return horizon(HORIZON_P)


def _pass_hat():
    from reliability.passk import pass_hat_k
    return 100 * float(pass_hat_k(PASS_N, PASS_C, PASS_K))


def _ceiling():
    from reliability import Workflow
    from reliability.workflow import ceiling
    return 100 * ceiling(Workflow())


def _resolution():
    from reliability.reading import resolution
    return 100 * resolution(CASES)


def _chain():
    from reliability import Workflow
    return 100 * Workflow().success()


def _workflow_values():
    from reliability import Workflow
    workflow = Workflow()
    return {"p": round(workflow.c, 6), "a": round(workflow.a, 6),
            "b": round(workflow.b, 6), "n": workflow.steps}


CH = "../chapters/"
#: The quizzes, by lesson section (1 to 9), in the order of the lesson.
QUIZZES: dict[int, list[Question]] = {
    1: [Question(
        N_("The dashboard shows that every request got an answer all week. What does that "
           "say about the answers' quality?"),
        N_("Availability counts answers that came back; a right answer and a wrong one "
           "look the same to a health check."),
        CH + "08_degradation_ladder.html#the-silent-slide", N_("The silent slide"),
        (N_("That quality is high as well"),
         N_("Nothing: it counts answers, right or wrong"),
         N_("That quality is at least as high as availability")), 1)],
    2: [Question(
        N_("{n} steps succeed with probability {p} each, independently. What is the "
           "chance, in percent, that the whole chain succeeds? One decimal place."),
        N_("A chain succeeds when every step does: the product of the steps, "
           "p to the power n."),
        CH + "01_chain_decay.html#the-closed-form-against-a-simulation",
        N_("The closed form against a simulation"), (), _chain, _workflow_values, 0.05),
        Question(
        N_("A step succeeds with probability {p}. How many steps long is the chain that "
           "fails half of the time (the horizon)? One decimal place."),
        N_("The horizon is ln 0.5 / ln p: the length at which the product of the steps "
           "reaches one half."),
        CH + "01_chain_decay.html#the-horizon", N_("The horizon"), (), _horizon,
        lambda: {"p": HORIZON_P}, 0.05),
        Question(
        N_("A task ran {n} times and succeeded {c} times. What is the unbiased pass^{k}, in "
           "percent? One decimal place."),
        N_("pass^k is the chance that k runs drawn from the n all succeeded: "
           "C(c, k) / C(n, k)."),
        CH + "04_pass_k.html#same-pass-1-very-different-pass-8",
        N_("Same pass^1, very different pass^8"), (), _pass_hat,
        lambda: {"n": PASS_N, "c": PASS_C, "k": PASS_K}, 0.05)],
    3: [Question(
        N_("An agent's process crashed; it is restarted from the last checkpoint. What "
           "happens to the model's own earlier errors?"),
        N_("The errors are in the saved history, so the restart brings them back into "
           "the context; a clean, rebuilt context or a sliding window takes them out."),
        CH + "05_self_correction.html#why-a-restart-from-the-checkpoint-does-not-cure-it",
        N_("Why a restart from the checkpoint does not cure it"),
        (N_("The restart erases them"),
         N_("They do not matter once the process is up again"),
         N_("They come back into the context with the saved history")), 2)],
    4: [Question(
        N_("A model revises its own answers with no outside signal. What happens to "
           "accuracy?"),
        N_("Without an arbiter, revision breaks more right answers than it fixes wrong "
           "ones, so accuracy falls: the model checks itself with the knowledge that "
           "failed it."),
        CH + "05_self_correction.html#where-the-answers-went", N_("Where the answers went"),
        (N_("It stays where it was: the breaks and the fixes cancel out"),
         N_("It falls: more right answers break than wrong ones are fixed"),
         N_("It rises a few points every round")), 1)],
    5: [Question(
        N_("Before an irreversible refund, who should decide whether the answer stands?"),
        N_("A model judge errs where the generator errs; the arbiter before an "
           "irreversible action is code written before the run."),
        CH + "03_verifiers.html#a-verifier-in-code", N_("A verifier in code"),
        (N_("The same model, asked to check itself"),
         N_("Deterministic code written before the run"),
         N_("A second model, asked to judge")), 1),
        Question(
        N_("{n} steps with unlimited retries; each attempt is right {a}, silently wrong "
           "{b}, else a visible error. What is the ceiling on success, in percent? One "
           "decimal place."),
        N_("Retries stop on an accepted answer, right with probability a / (a + b); the "
           "ceiling is that to the power n."),
        CH + "02_retries.html#why-retries-cannot-touch-silent-errors",
        N_("Why retries cannot touch silent errors"), (), _ceiling, _workflow_values, 0.05)],
    6: [Question(
        N_("An agent calls the same tool with the same arguments again and again. What "
           "should the harness do first?"),
        N_("From outside, a loop and persistence look alike: first a hint that names the "
           "repetition, then a stop with a managed exit and a partial result."),
        CH + "07_budgets_and_loops.html#loop-detection", N_("Loop detection"),
        (N_("Stop at once and throw the work away"),
         N_("Nothing: the step budget will catch it"),
         N_("Hint that it repeats itself, then stop with a managed exit")), 2)],
    7: [Question(
        N_("What tells a cascade from a fallback?"),
        N_("A cascade routes by the request's difficulty; a fallback steps down the "
           "ladder when a rung fails."),
        CH + "08_degradation_ladder.html#cascade-is-not-fallback",
        N_("Cascade is not fallback"),
        (N_("A cascade sends hard requests up to a stronger model; a fallback steps down "
            "when a rung fails"),
         N_("Nothing: they are two names for one thing"),
         N_("A cascade reacts to outages, a fallback to difficulty")), 0)],
    8: [Question(
        N_("Where is most of the format tax paid?"),
        N_("Most significant losses are already there when the format is only asked for "
           "in the prompt; the decoder adds little."),
        CH + "06_format_tax.html#where-the-tax-is-paid-the-prompt-not-the-decoder",
        N_("Where the tax is paid"),
        (N_("In the constrained decoder"),
         N_("In the prompt that asks for the format"),
         N_("In the JSON parser")), 1)],
    9: [Question(
        N_("A leaderboard column has {n} cases. By how many percentage points does one "
           "flipped case move the score? Two decimal places."),
        N_("One case is 1 / n of the column: the column's resolution."),
        CH + "10_reading_numbers.html#resolution-what-one-case-is-worth",
        N_("Resolution: what one case is worth"), (), _resolution,
        lambda: {"n": CASES}, 0.005),
        Question(
        N_("An agent calls the right tool with a wrong parameter. Which kind of tool "
           "hallucination is it?"),
        N_("Type is the wrong tool, timing the right tool at the wrong moment, usage the "
           "right tool with wrong parameters: each has its own cure."),
        CH + "10_reading_numbers.html#tool-hallucination-is-several-failures",
        N_("\"Tool hallucination\" is several failures"),
        (N_("Type"), N_("Timing"), N_("Usage")), 2)],
}


def translator(language: str):
    if language == "en":
        return lambda message: message
    from reliability.i18n import read_po

    path = ROOT / "locale" / language / "code" / "quiz.po"
    entries = read_po(path) if path.exists() else {}
    return lambda message: entries.get(message, message)


def number(value: float, language: str = "en") -> str:
    """A number as the page writes it: a decimal comma in Russian."""
    text = f"{value:g}"
    return text.replace(".", ",") if language == "ru" else text


def numeric_answer(question: Question) -> float:
    value = float(question.answer())
    if not math.isfinite(value):
        raise ValueError(f"a quiz answer must be finite, got {value}")
    return value


def question_html(section: int, index: int, question: Question, language: str) -> str:
    _ = translator(language)
    qid = f"quiz-{section}-{index}"
    prompt = _(question.prompt)
    for name, value in question.values().items():
        prompt = prompt.replace("{" + name + "}", number(value, language))
    if re.search(r"\{\w+\}", prompt):
        raise ValueError(f"{qid}: the prompt has a slot with no value: {prompt}")
    link = (f'<a class="quiz-link" href="{html.escape(question.link)}">'
            f"{html.escape(_(question.link_text))}</a>")
    more = _("Read more: {link}.").format(link=link)
    explanation = html.escape(_(question.explanation))
    says = {
        "right": f"<strong>{_('Right.')}</strong> {explanation} {more}",
        "wrong": f"<strong>{_('Not quite.')}</strong> {explanation} {more}",
    }
    if question.choices:
        inputs = "".join(
            f'<div class="quiz-choice"><input type="radio" name="{qid}" id="{qid}-{i}" '
            f'value="{i}"><label for="{qid}-{i}">{html.escape(_(choice))}</label></div>'
            for i, choice in enumerate(question.choices))
        body = (f'<fieldset><legend>{html.escape(prompt)}</legend>{inputs}</fieldset>')
        data = f'data-kind="choice" data-answer="{int(question.answer)}"'
    else:
        body = (f'<label for="{qid}-value">{html.escape(prompt)}</label> '
                f'<input type="text" inputmode="decimal" autocomplete="off" '
                f'id="{qid}-value" class="quiz-value">')
        data = (f'data-kind="number" data-answer="{numeric_answer(question)!r}" '
                f'data-tolerance="{question.tolerance!r}" '
                f'data-close="{question.tolerance * question.close!r}"')
        says["close"] = (f"<strong>{_('Close.')}</strong> "
                         f"{_('Check the rounding and the units.')} {more}")
        says["empty"] = _("Type a number first.")
    if question.choices:
        says["empty"] = _("Choose an answer first.")
    feedback = "".join(f'<div class="quiz-says" data-verdict="{verdict}" hidden>{text}</div>'
                       for verdict, text in says.items())
    return (f'<div class="quiz-question" id="{qid}" {data}>{body}'
            f'<button type="button" class="quiz-check">{_("Check")}</button>'
            f'<div class="quiz-feedback" role="status" aria-live="polite">{feedback}</div>'
            f"</div>")


def quiz_html(section: int, language: str = "en") -> str:
    if section not in QUIZZES:
        raise ValueError(f"section must be a lesson section from 1 to 9, got {section}")
    questions = "".join(question_html(section, i, q, language)
                        for i, q in enumerate(QUIZZES[section], 1))
    return f'<div class="quiz" data-section="{section}">{questions}</div>'


class QuizDirective(Directive):
    required_arguments = 1
    has_content = False
    option_spec = {"class": directives.class_option}

    def run(self):
        env = self.state.document.settings.env
        language = env.app.config.language or "en"
        try:
            section = int(self.arguments[0])
            text = quiz_html(section, language)
        except ValueError as error:
            raise self.error(str(error)) from error
        return [nodes.raw("", text, format="html")]


def setup(app):
    app.add_directive("quiz", QuizDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
