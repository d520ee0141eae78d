r"""The format tax: form and content are two rates, and a grammar moves only one of them.

A generator's reply has a *form* (does it match the schema a parser expects?) and a
*content* (is the answer right, read leniently whatever the form?). Model them as two
independent events: the form is valid with probability :math:`c` (compliance) and the
content is right with probability :math:`a` (accuracy), so

.. math::

    P(\text{valid}) = c, \qquad P(\text{right}) = a, \qquad
    P(\text{valid and right}) = c\,a, \qquad P(\text{right} \mid \text{valid}) = a .

Four ways to ask for structured output set :math:`(c, a)` differently. With free-text
accuracy :math:`a_0`, a lenient parser that extracts a free reply with probability
:math:`c_0`, a prompt-requested format met with :math:`c_p` at an accuracy cost
:math:`t_p` (the prompt's tax), a grammar on the decoder that raises compliance to
:math:`c_g` at a further cost :math:`t_g` (the decoder's tax), and a second turn that copies
a free answer into the schema faithfully with probability :math:`r`:

.. math::

    \begin{aligned}
    \text{free, then parse:}     &\quad c = c_0, & a &= a_0 \\
    \text{format in the prompt:} &\quad c = c_p, & a &= a_0 - t_p \\
    \text{constrained decoding:} &\quad c = c_g, & a &= a_0 - t_p - t_g \\
    \text{solve free, reformat:} &\quad c = c_g, & a &= a_0\, r
    \end{aligned}

Constrained decoding keeps the prompt's request, so its accuracy starts where the prompt
put it; only the two-turn regime solves without the request in view.

The second half is a toy for field order (:class:`FieldOrderToy`): an autoregressive
process in which a token can use only the tokens before it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _validate
from .i18n import N_
from .numbers import words_for
from .stats import Interval, wilson_interval

__all__ = ["REGIMES", "Regime", "Generator", "RegimeSimulation", "cell_partition", "split_tax",
           "FieldOrderToy", "OrderSimulation", "ORDERS"]

#: The four regimes, in the order the chapter draws them.
REGIMES = ("free", "prompt", "constrained", "two_turn")
# The regimes as a printed line names them (reliability.numbers.said).
words_for(dict(zip(REGIMES, (N_("free text, then parse"), N_("format in the prompt"),
                             N_("constrained decoding"),
                             N_("solve free, reformat after")))))

#: The groups of :func:`cell_partition` as a page names them (its keys, "_" read as " ").
_CELL_GROUPS = (N_("prompt only"), N_("prompt and decoder"), N_("decoder only"),
               N_("not significant"))

#: Field orders of the toy: the reasoning field before the answer, or after it.
ORDERS = ("reasoning_first", "answer_first")


@dataclass(frozen=True)
class Regime:
    """One way of asking for structure: compliance ``c`` and accuracy ``a``."""

    name: str
    compliance: float
    accuracy: float

    def __post_init__(self):
        _validate.text("name", self.name)
        object.__setattr__(self, "compliance",
                           _validate.probability("compliance", self.compliance))
        object.__setattr__(self, "accuracy", _validate.probability("accuracy", self.accuracy))

    @property
    def valid_and_right(self) -> float:
        """Replies a strict parser accepts *and* that are right: ``c a``."""
        return self.compliance * self.accuracy

    @property
    def right_given_valid(self) -> float:
        """Accuracy among the replies that met the form: ``a`` (form and content independent)."""
        return self.accuracy


@dataclass(frozen=True)
class Generator:
    """A generator described by its form and content rates under the four regimes.

    The defaults are round illustrative values, not measurements; the chapter builds a
    generator from the published table instead.
    """

    free_accuracy: float = 0.6
    parse_rate: float = 0.8
    prompt_compliance: float = 0.5
    prompt_tax: float = 0.05
    constrained_compliance: float = 0.95
    decoder_tax: float = 0.0
    reformat_fidelity: float = 0.98

    def __post_init__(self):
        for name in ("free_accuracy", "parse_rate", "prompt_compliance", "prompt_tax",
                     "constrained_compliance", "decoder_tax", "reformat_fidelity"):
            object.__setattr__(self, name, _validate.probability(name, getattr(self, name)))
        if self.prompt_tax + self.decoder_tax > self.free_accuracy + 1e-12:
            raise ValueError(
                "prompt_tax + decoder_tax must be at most free_accuracy (accuracy cannot fall "
                f"below 0), got {self.prompt_tax!r} + {self.decoder_tax!r} > "
                f"{self.free_accuracy!r}")

    def regime(self, name: str) -> Regime:
        """The closed-form ``(c, a)`` of one regime (see the module's table)."""
        if name not in REGIMES:
            raise ValueError(f"name must be one of {REGIMES}, got {name!r}")
        a0 = self.free_accuracy
        c, a = {
            "free": (self.parse_rate, a0),
            "prompt": (self.prompt_compliance, a0 - self.prompt_tax),
            "constrained": (self.constrained_compliance,
                            a0 - self.prompt_tax - self.decoder_tax),
            "two_turn": (self.constrained_compliance, a0 * self.reformat_fidelity),
        }[name]
        return Regime(name, float(c), float(max(0.0, a)))

    def regimes(self) -> dict[str, Regime]:
        """All four regimes, keyed by name."""
        return {name: self.regime(name) for name in REGIMES}

    def simulate(self, name: str, *, runs: int = 2000, seed=0) -> "RegimeSimulation":
        """Draw ``runs`` replies under one regime, content first and form second.

        The content is settled while solving; the form is settled while writing it down
        (by the decoder's mask, or by the second turn's copy). Neither draw looks at the
        other, which is the independence the closed forms assume.
        """
        regime = self.regime(name)
        runs = _validate.whole("runs", runs, minimum=1)
        rng = _validate.generator(seed)
        if name == "two_turn":
            # A wrong first answer stays wrong: the reformatting turn copies, it does not solve.
            solved = rng.random(runs) < self.free_accuracy
            right = solved & (rng.random(runs) < self.reformat_fidelity)
        else:
            right = rng.random(runs) < regime.accuracy
        valid = rng.random(runs) < regime.compliance
        return RegimeSimulation(
            regime=regime, runs=runs, valid=int(valid.sum()), right=int(right.sum()),
            valid_and_right=int((valid & right).sum()),
            invalid_and_right=int((~valid & right).sum()))


@dataclass(frozen=True)
class RegimeSimulation:
    """Counts from :meth:`Generator.simulate`; rates and Wilson intervals derive from them."""

    regime: Regime
    runs: int
    valid: int
    right: int
    valid_and_right: int
    invalid_and_right: int

    def __post_init__(self):
        _validate.instance("regime", self.regime, Regime)
        runs = _validate.whole("runs", self.runs, minimum=1)
        for name in ("valid", "right", "valid_and_right", "invalid_and_right"):
            _validate.whole(name, getattr(self, name), minimum=0, maximum=runs)

    def rate(self, what: str) -> float:
        """``what`` is ``"valid"``, ``"right"`` or ``"valid_and_right"`` (share of all runs)."""
        return self.count(what) / self.runs

    def count(self, what: str) -> int:
        if what not in ("valid", "right", "valid_and_right"):
            raise ValueError(
                f"what must be 'valid', 'right' or 'valid_and_right', got {what!r}")
        return int(getattr(self, what))

    def interval(self, what: str, confidence: float = 0.95) -> Interval:
        """Wilson interval for :meth:`rate`."""
        return wilson_interval(self.count(what), self.runs, confidence)

    @property
    def right_given_valid(self) -> float:
        """Accuracy among valid replies (NaN if none was valid)."""
        return self.valid_and_right / self.valid if self.valid else float("nan")

    @property
    def right_given_invalid(self) -> float:
        """Accuracy among broken replies (NaN if every reply was valid)."""
        invalid = self.runs - self.valid
        return self.invalid_and_right / invalid if invalid else float("nan")


def cell_partition(cells: int, significant: int, with_prompt: int,
                   with_decoder: int, decoder_only: int) -> dict[str, int]:
    r"""Split a grid of cells into the four groups a waffle chart draws.

    ``with_prompt`` significant cells show the tax when the format is only requested in
    the prompt; ``with_decoder`` involve the decoder; ``decoder_only`` show it only under
    the grammar. Every significant cell is in one of the first two sets, so

    .. math::  \text{both} = \text{with\_decoder} - \text{decoder\_only}, \quad
               \text{prompt only} = \text{with\_prompt} - \text{both},

    and the counts must add up: ``with_prompt + decoder_only = significant``.
    """
    cells = _validate.whole("cells", cells, minimum=1)
    significant = _validate.whole("significant", significant, minimum=0, maximum=cells)
    with_prompt = _validate.whole("with_prompt", with_prompt, minimum=0, maximum=significant)
    with_decoder = _validate.whole("with_decoder", with_decoder, minimum=0,
                                   maximum=significant)
    decoder_only = _validate.whole("decoder_only", decoder_only, minimum=0,
                                   maximum=with_decoder)
    if with_prompt + decoder_only != significant:
        raise ValueError(
            "with_prompt + decoder_only must equal significant (each significant cell shows "
            f"the tax with the prompt, or only under the decoder); got {with_prompt} + "
            f"{decoder_only} != {significant}")
    both = with_decoder - decoder_only
    return {"prompt_only": with_prompt - both, "prompt_and_decoder": both,
            "decoder_only": decoder_only, "not_significant": cells - significant}


def split_tax(table) -> tuple[float, float]:
    r"""The published accuracy gap split between the prompt and the decoder: returns
    ``(prompt_tax, decoder_tax)`` as shares of answers.

    ``table`` maps the rows of ``data/format_tax.csv`` to their values (its ``value``
    column indexed by ``id``): ``accuracy_free`` and ``accuracy_constrained`` in percent,
    ``drop_prompt`` and ``drop_decoder`` (the mean drops the study measures cell by
    cell) in percentage points. The gap goes to each in the proportion of its drop,

    .. math::  t_g = (a_0 - a_g)\,\frac{d_g}{d_p + d_g}, \qquad t_p = (a_0 - a_g) - t_g .
    """
    if not hasattr(table, "__getitem__"):
        raise ValueError(f"table must map format_tax ids to values, got {table!r}")
    values = {}
    for key in ("accuracy_free", "accuracy_constrained", "drop_prompt", "drop_decoder"):
        try:
            values[key] = table[key]
        except (KeyError, IndexError, TypeError):
            raise ValueError(f"table must have the row {key!r} (data/format_tax.csv)") \
                from None
    free = _validate.real("accuracy_free", float(values["accuracy_free"]), minimum=0.0,
                          maximum=100.0)
    constrained = _validate.real("accuracy_constrained",
                                 float(values["accuracy_constrained"]), minimum=0.0,
                                 maximum=free)
    prompt = _validate.real("drop_prompt", float(values["drop_prompt"]), minimum=0.0)
    decoder = _validate.real("drop_decoder", float(values["drop_decoder"]), minimum=0.0)
    if prompt + decoder == 0:
        raise ValueError("drop_prompt + drop_decoder must be > 0 to split the gap, got 0")
    gap = (free - constrained) / 100
    decoder_tax = gap * decoder / (prompt + decoder)
    return gap - decoder_tax, decoder_tax


# --- field order: a toy --------------------------------------------------------------------

@dataclass(frozen=True)
class FieldOrderToy:
    r"""A toy, not a language model: why the reasoning field goes before the answer.

    The task is the last digit of the sum of ``digits`` random digits. Tokens are written
    left to right and each may use only what is already written. One token can carry at
    most ``budget`` additions of hidden work; each addition goes wrong with probability
    ``step_error`` and then leaves a uniformly random digit (so it is right again by luck
    with probability 1/10).

    *Reasoning first*: the reasoning field writes the running sums, one addition per token,
    and the answer copies the last one. *Answer first*: the answer token must do all
    :math:`m = \text{digits} - 1` additions in its own budget and guesses the rest. With
    :math:`q = 1 - \text{step\_error}`,

    .. math::

        P_\text{reasoning first} = q^m + \frac{1 - q^m}{10}, \qquad
        P_\text{answer first} = \begin{cases} q^m + \frac{1 - q^m}{10} & m \le \text{budget}\\
        \frac{1}{10} & m > \text{budget.} \end{cases}

    The reasoning written after an early answer is just as good as before, but the answer
    cannot read it: it agrees with the answer only by chance.
    """

    digits: int = 6
    step_error: float = 0.02
    budget: int = 1

    def __post_init__(self):
        object.__setattr__(self, "digits", _validate.whole("digits", self.digits, minimum=2))
        object.__setattr__(self, "step_error",
                           _validate.probability("step_error", self.step_error))
        object.__setattr__(self, "budget", _validate.whole("budget", self.budget, minimum=0))

    @property
    def additions(self) -> int:
        return self.digits - 1

    @property
    def chain_accuracy(self) -> float:
        """The running sum is right after all additions: ``q^m + (1 - q^m) / 10``."""
        clean = (1.0 - self.step_error) ** self.additions
        return float(clean + (1.0 - clean) / 10.0)

    def accuracy(self, order: str) -> float:
        """Closed-form probability that the answer field is right under ``order``."""
        if order not in ORDERS:
            raise ValueError(f"order must be one of {ORDERS}, got {order!r}")
        if order == "reasoning_first" or self.additions <= self.budget:
            return self.chain_accuracy
        return 0.1

    def simulate(self, order: str, *, runs: int = 2000, seed=0) -> "OrderSimulation":
        """Generate ``runs`` replies token by token under ``order``."""
        if order not in ORDERS:
            raise ValueError(f"order must be one of {ORDERS}, got {order!r}")
        runs = _validate.whole("runs", runs, minimum=1)
        rng = _validate.generator(seed)
        numbers = rng.integers(0, 10, size=(runs, self.digits))
        truth = numbers.sum(axis=1) % 10

        def running_sum(additions: int) -> np.ndarray:
            # One addition per step; a slip replaces the state by a random digit.
            state = numbers[:, 0].copy()
            for j in range(1, additions + 1):
                slip = rng.random(runs) < self.step_error
                state = np.where(slip, rng.integers(0, 10, size=runs),
                                 (state + numbers[:, j]) % 10)
            return state

        if order == "reasoning_first":
            reasoning = running_sum(self.additions)
            answer = reasoning  # the answer token reads the last running sum
        else:
            if self.additions <= self.budget:
                answer = running_sum(self.additions)
            else:
                answer = rng.integers(0, 10, size=runs)  # the unseen digits decide: a guess
            reasoning = running_sum(self.additions)  # written afterwards, too late to help
        return OrderSimulation(
            order=order, runs=runs, answer_right=int((answer == truth).sum()),
            reasoning_right=int((reasoning == truth).sum()),
            agree=int((answer == reasoning).sum()))


@dataclass(frozen=True)
class OrderSimulation:
    """Counts from :meth:`FieldOrderToy.simulate`."""

    order: str
    runs: int
    answer_right: int
    reasoning_right: int
    agree: int

    def __post_init__(self):
        _validate.text("order", self.order, choices=ORDERS)
        runs = _validate.whole("runs", self.runs, minimum=1)
        for name in ("answer_right", "reasoning_right", "agree"):
            _validate.whole(name, getattr(self, name), minimum=0, maximum=runs)

    @property
    def accuracy(self) -> float:
        return self.answer_right / self.runs

    def interval(self, confidence: float = 0.95) -> Interval:
        """Wilson interval for :attr:`accuracy`."""
        return wilson_interval(self.answer_right, self.runs, confidence)
