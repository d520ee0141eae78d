"""Reading other people's reliability numbers: what a single score hides.

Four tools for the chapter "Reading other people's reliability numbers":

* the tool-hallucination taxonomy of Xu et al. (arXiv 2412.04141) as a classifier of tool
  calls, and their rate (the share of hallucinated calls in a task, averaged over tasks)
  beside the pooled share, which weighs tasks by how many calls they make;
* paired columns: a leaderboard's Relevance (a tool call is needed; did the model call?)
  and Irrelevance (no tool fits; did it abstain?) in closed form and simulated, for a model
  that calls a tool when an internal "need" signal passes a threshold;
* resolution: the step one flipped case moves a score, and the smallest case count that
  explains a column of printed percentages.

Everything is a small pure function; simulations are seeded.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special

from . import _validate
from .i18n import N_, _
from .stats import Interval, wilson_interval

__all__ = ["HALLUCINATION_KINDS", "classify_calls", "hallucination_rate", "pooled_rate",
           "column_scores", "threshold_model", "ColumnRun", "simulate_columns",
           "resolution", "smallest_case_count"]

#: Xu et al.'s taxonomy of tool hallucination: label -> (branch, what the call did).
#: "ok" is the label for a call that is none of them.
#: The labels and descriptions are marked (N_) so that a table of them shows in the
#: page's language; the labels themselves stay the English keys the code compares.
HALLUCINATION_KINDS = {
    N_("type"): (N_("selection"),
                 N_("calls a tool that is irrelevant to the task or does not exist")),
    N_("timing"): (N_("selection"),
                   N_("repeats an earlier call: same tool, same inputs, same output")),
    N_("usage"): (N_("usage"), N_("picks the right tool but passes wrong parameters")),
}

# The label of a call that is none of the kinds, marked so that a page shows it in words.
_OK_CALL = N_("ok")

#: Labels the chapter's tables show from data/self_refine_baseline.csv (headers and text
#: cells), marked here so that they reach the catalog.
DATA_LABELS = (N_("paper"), N_("condition"), N_("calls"), N_("value"), N_("source_kind"),
               N_("confidence"), N_("weak base prompt"), N_("weak base prompt + Self-Refine"),
               N_("fuller initial prompt"), N_("fuller initial prompt + self-correction"),
               N_("lesson (secondary)"), N_("medium"))

#: The most cases a simulated column may hold (each is one draw).
MAX_CASES = 10**7


def _calls(calls) -> tuple:
    calls = _validate.sequence("calls", calls, what="(tool, arguments, output) triples")
    for i, call in enumerate(calls):
        if (not isinstance(call, tuple) or len(call) != 3 or not isinstance(call[0], str)
                or not isinstance(call[1], dict)):
            raise ValueError(f"calls must hold (tool name, arguments dict, output) triples; "
                             f"calls[{i}] is {call!r}")
    return calls


def classify_calls(calls, tools) -> tuple:
    """Label each call of one task ``"type"``, ``"timing"``, ``"usage"`` or ``"ok"``.

    ``calls`` is a list of ``(tool, arguments, output)`` triples in the order made, with
    ``arguments`` a dict; ``tools`` maps each tool relevant to the task to the tuple of
    parameter names it takes. A call to a tool outside ``tools`` is a type hallucination;
    a call whose tool, arguments and output all equal an earlier call's is a timing
    hallucination; a relevant tool called with other parameter names is a usage
    hallucination. The checks run in that order, so each call gets one label.
    """
    calls = _calls(calls)
    tools = _validate.mapping("tools", tools, what="tool name -> parameter names")
    for name, params in tools.items():
        if (not isinstance(name, str) or not isinstance(params, tuple)
                or not all(isinstance(p, str) for p in params)):
            raise ValueError(f"tools must map tool names to tuples of parameter names, "
                             f"got {name!r}: {params!r}")
    seen, labels = [], []
    for tool, args, output in calls:
        key = (tool, sorted(args.items(), key=lambda kv: kv[0]), output)
        if tool not in tools:
            labels.append("type")
        elif any(key == earlier for earlier in seen):
            labels.append("timing")
        elif set(args) != set(tools[tool]):
            labels.append("usage")
        else:
            labels.append(_OK_CALL)
        seen.append(key)
    return tuple(labels)


def _per_task(hallucinated, calls):
    hallucinated = _validate.whole_array("hallucinated", hallucinated)
    calls = _validate.whole_array("calls", calls)
    if hallucinated.ndim != 1 or calls.shape != hallucinated.shape or not calls.size:
        raise ValueError(f"hallucinated and calls must be two lists of one count per task, "
                         f"of the same length, got {hallucinated.shape} and {calls.shape}")
    if np.any(hallucinated > calls):
        raise ValueError("hallucinated must be at most calls in every task, got "
                         f"{hallucinated.tolist()} and {calls.tolist()}")
    if not np.any(calls > 0):
        raise ValueError(f"calls must be positive in at least one task, got {calls.tolist()}")
    return hallucinated, calls


def hallucination_rate(hallucinated, calls) -> float:
    r"""Xu et al.'s rate: in each task the share of its calls that were hallucinated,
    averaged over the tasks that made a call,
    :math:`\frac{1}{T}\sum_t h_t / c_t`. A task with no calls has no share and is left out.
    """
    hallucinated, calls = _per_task(hallucinated, calls)
    made = calls > 0
    return float(np.mean(hallucinated[made] / calls[made]))


def pooled_rate(hallucinated, calls) -> float:
    r"""The share of all calls that were hallucinated, :math:`\sum_t h_t / \sum_t c_t`:
    a task with many calls weighs more than one with few."""
    hallucinated, calls = _per_task(hallucinated, calls)
    return float(hallucinated.sum() / calls.sum())


def column_scores(call_needed, call_unneeded):
    """Closed-form (Relevance, Irrelevance) of a model that calls a tool with probability
    ``call_needed`` when a call is needed and ``call_unneeded`` when no tool fits.

    Relevance counts the needed cases where it called, Irrelevance the unneeded cases where
    it abstained: ``(call_needed, 1 - call_unneeded)``. Arrays broadcast."""
    needed = _validate.probability_array("call_needed", call_needed)
    unneeded = _validate.probability_array("call_unneeded", call_unneeded)
    _validate.broadcast("call_needed and call_unneeded", needed, unneeded)
    relevance, irrelevance = np.broadcast_arrays(needed, 1.0 - unneeded)
    if relevance.ndim == 0:
        return float(relevance), float(irrelevance)
    return relevance.copy(), irrelevance.copy()


def threshold_model(threshold, separation):
    r"""Call probabilities of a model that calls a tool when a noisy "need" signal passes
    ``threshold``: the signal is :math:`N(d, 1)` when a call is needed and :math:`N(0, 1)`
    when no tool fits, with :math:`d` = ``separation``. Returns
    ``(call_needed, call_unneeded)`` = :math:`(1 - \Phi(t - d),\ 1 - \Phi(t))`.

    A high threshold approaches the model that never calls, a low one the model that
    always calls; ``separation`` is how well the model tells the two kinds of case apart.
    """
    t = _validate.numeric_array("threshold", threshold, kind="real")
    t = np.asarray(t, dtype=float)
    if np.any(np.abs(t) > 10):
        raise ValueError(f"threshold must lie in [-10, 10] (the signal's units), "
                         f"got {threshold!r}")
    d = _validate.real("separation", separation, minimum=0, maximum=10)
    # the normal tail, 1 - Phi(x) = Phi(-x) (scipy.stats' norm.sf)
    needed, unneeded = special.ndtr(-(t - d)), special.ndtr(-t)
    if needed.ndim == 0:
        return float(needed), float(unneeded)
    return needed, unneeded


@dataclass(frozen=True)
class ColumnRun:
    """One simulated pass over a leaderboard's two paired columns: ``relevance_hits`` of
    ``relevance_cases`` needed calls made, ``irrelevance_hits`` of ``irrelevance_cases``
    abstentions, by a model with call probabilities ``call_needed`` and ``call_unneeded``.
    """

    call_needed: float
    call_unneeded: float
    relevance_cases: int
    relevance_hits: int
    irrelevance_cases: int
    irrelevance_hits: int

    def __post_init__(self):
        _validate.probability("call_needed", self.call_needed)
        _validate.probability("call_unneeded", self.call_unneeded)
        for column in ("relevance", "irrelevance"):
            cases = _validate.whole(f"{column}_cases", getattr(self, f"{column}_cases"),
                                    minimum=1, maximum=MAX_CASES)
            _validate.whole(f"{column}_hits", getattr(self, f"{column}_hits"),
                            minimum=0, maximum=cases)

    @property
    def relevance(self) -> float:
        return self.relevance_hits / self.relevance_cases

    @property
    def irrelevance(self) -> float:
        return self.irrelevance_hits / self.irrelevance_cases

    @property
    def expected(self) -> tuple:
        """The closed-form (Relevance, Irrelevance) the simulation estimates."""
        return column_scores(self.call_needed, self.call_unneeded)

    def interval(self, column: str, confidence: float = 0.95) -> Interval:
        """Wilson interval of ``column`` (``"relevance"`` or ``"irrelevance"``)."""
        column = _validate.text("column", column, choices=("relevance", "irrelevance"))
        confidence = _validate.confidence(confidence)
        low, high = wilson_interval(getattr(self, f"{column}_hits"),
                                    getattr(self, f"{column}_cases"), confidence)
        return Interval(float(low), float(high))

    def beside_closed_form(self, column: str, confidence: float = 0.95) -> str:
        """A sentence that sets ``column``'s closed form beside this run's Wilson
        interval, in the page's language, chosen by where the closed form falls
        (:func:`reliability.claims.where`): inside, or outside with the reason a reader
        needs (an interval at ``confidence`` misses its closed form in about one run in
        ``1 / (1 - confidence)``, and this run is one of them).

        Examples
        --------
        >>> run = simulate_columns(0.5, 0.5, relevance_cases=16, irrelevance_cases=240,
        ...                        seed=1)
        >>> print(run.beside_closed_form("irrelevance"))
        Irrelevance: closed form 50.0%, inside this run's 95% interval
        """
        from . import claims
        from .numbers import fmt

        low, high = self.interval(column, confidence)
        closed = self.expected[("relevance", "irrelevance").index(column)]
        sentences = {
            "inside": _("{column}: closed form {closed}, inside this run's {level} "
                        "interval"),
            "below": _("{column}: closed form {closed}, below this run's {level} "
                       "interval; a {level} interval misses in about one run in "
                       "{one_in}, and this run is one"),
            "above": _("{column}: closed form {closed}, above this run's {level} "
                       "interval; a {level} interval misses in about one run in "
                       "{one_in}, and this run is one")}
        return claims.choose(claims.where(closed, low, high), sentences,
                             column=column.capitalize(), closed=fmt(closed, ".1%"),
                             level=fmt(confidence, ".0%"),
                             one_in=fmt(round(1 / (1 - confidence)), "d"))


def simulate_columns(call_needed, call_unneeded, *, relevance_cases: int = 16,
                     irrelevance_cases: int = 240, seed=0) -> ColumnRun:
    """Score a model with call probabilities ``call_needed`` (a call is needed) and
    ``call_unneeded`` (no tool fits) on ``relevance_cases`` and ``irrelevance_cases``
    test cases, each case an independent draw, seeded."""
    needed = _validate.probability("call_needed", call_needed)
    unneeded = _validate.probability("call_unneeded", call_unneeded)
    relevance_cases = _validate.whole("relevance_cases", relevance_cases, maximum=MAX_CASES)
    irrelevance_cases = _validate.whole("irrelevance_cases", irrelevance_cases,
                                        maximum=MAX_CASES)
    rng = _validate.generator(seed)
    called = int(rng.binomial(relevance_cases, needed))
    abstained = int(rng.binomial(irrelevance_cases, 1.0 - unneeded))
    return ColumnRun(needed, unneeded, relevance_cases, called, irrelevance_cases,
                     abstained)


def resolution(cases) -> float:
    """The step a score on ``cases`` test cases moves when one case flips: ``1 / cases``."""
    return 1.0 / _validate.whole("cases", cases, minimum=1)


def smallest_case_count(scores, *, decimals: int = 2, largest: int = 1000):
    """The smallest number of cases ``n`` (up to ``largest``) for which every printed
    percentage in ``scores`` is ``100 k / n`` rounded to ``decimals`` places for a whole
    ``k``; ``None`` when no ``n`` up to ``largest`` fits. ``scores`` are percentages in
    [0, 100], as a leaderboard prints them."""
    values = _validate.numeric_array("scores", scores, kind="real", ndim=1)
    values = np.asarray(values, dtype=float)
    if not values.size or np.any((values < 0) | (values > 100)):
        raise ValueError(f"scores must be a non-empty list of percentages in [0, 100], "
                         f"got {scores!r}")
    decimals = _validate.whole("decimals", decimals, minimum=0, maximum=6)
    largest = _validate.whole("largest", largest, minimum=1, maximum=10**5)
    tolerance = 0.5 * 10.0 ** -decimals + 1e-9
    for n in range(1, largest + 1):
        k = np.round(values * n / 100.0)
        if np.all(np.abs(100.0 * k / n - values) <= tolerance):
            return n
    return None

