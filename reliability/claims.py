"""Sentences that follow their numbers.

A sentence that characterises a number ("the error rate stays flat", "inside the band",
"the same run as above") must be true at every setting a reader can choose. This module
gives a chapter two ways to make it so:

* **choose** the words from the numbers: :func:`trend`, :func:`change` and :func:`where`
  name what the numbers do (``"flat"``, ``"rising"``, ``"inside"`` ...), and
  :func:`choose` picks the sentence written for that case, which the chapter glues;
* **check** a sentence that is fixed text: :func:`check` raises :class:`ClaimFailed`,
  naming the claim, when the numbers contradict it, so the chapter stops in the tests
  (they run every chapter at its defaults and at each extreme case) instead of printing
  a false sentence.

When a page shows several 95 % intervals of one value, some miss it by chance;
:func:`chance_of_misses` says how often chance misses as often as the page does, so a
sentence can call the misses chance only when they could be.

The words this module owns (:data:`WORDS`) are marked for the catalogs with ``N_``, so
:func:`word` gives them in the edition's language; a chapter's own sentences live in the
chapter's cells and are translated with the chapter.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from . import _validate
from .i18n import N_, gettext

if TYPE_CHECKING:  # change() imports the statistics when it runs; this is for its annotation
    from .stats import Interval

__all__ = ["ClaimFailed", "check", "where", "inside", "trend", "change", "same",
           "chance_of_misses", "choose", "word", "WORDS"]

#: What a pair of numbers can do, and where a number can sit against an interval,
#: as words a sentence can use ("the error rate {stays flat}").
WORDS = {
    "flat": N_("stays flat"),
    "rising": N_("rises"),
    "falling": N_("falls"),
    "below": N_("below"),
    "inside": N_("inside"),
    "above": N_("above"),
}


class ClaimFailed(AssertionError):
    """A sentence of the book is false at the numbers of this run; the message names it."""


def _real(name: str, value) -> float:
    return _validate.real(name, value)   # NaN and infinities refused


def check(claim: str, holds, **numbers) -> None:
    """Raise :class:`ClaimFailed` naming ``claim`` (the sentence, or its gist) when
    ``holds`` is false; the keyword ``numbers`` are written into the message so the
    reader of a failed test sees why. ``holds`` must be a bool (numpy's too)."""
    _validate.text("claim", claim)
    if not _validate.flag("holds", holds):
        shown = ", ".join(f"{name} = {value!r}" for name, value in numbers.items())
        raise ClaimFailed(f"the claim '{claim}' is false here" + (f": {shown}" if shown
                                                                   else ""))


def where(value, low, high) -> str:
    """``"below"``, ``"inside"`` or ``"above"``: where ``value`` sits against the closed
    interval [``low``, ``high``]."""
    value, low, high = _real("value", value), _real("low", low), _real("high", high)
    if low > high:
        raise ValueError(f"low must not exceed high, got low = {low!r}, high = {high!r}")
    return "below" if value < low else "above" if value > high else "inside"


def inside(value, low, high) -> bool:
    """Whether ``value`` lies in the closed interval [``low``, ``high``]."""
    return where(value, low, high) == "inside"


def trend(first, last, tolerance) -> str:
    """``"flat"`` when ``last`` is within ``tolerance`` of ``first`` (both ends
    included), else ``"rising"`` or ``"falling"``."""
    first, last = _real("first", first), _real("last", last)
    tolerance = _validate.real("tolerance", tolerance, minimum=0.0)
    if abs(last - first) <= tolerance:
        return "flat"
    return "rising" if last > first else "falling"


def change(before, after, confidence: float = 0.95) -> tuple[str, Interval]:
    """How a binomial rate moved between two independent samples, each given as
    ``(events, trials)``: ``"rising"`` or ``"falling"`` when Newcombe's interval for
    ``after - before`` excludes zero, ``"flat"`` when it contains it (the data cannot
    tell the two rates apart). Returns the word and the interval."""
    from .stats import Interval, newcombe_interval

    for name, pair in (("before", before), ("after", after)):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise ValueError(f"{name} must be a pair (events, trials), got {pair!r}")
        events = _validate.whole(f"{name}[0] (events)", pair[0], minimum=0)
        _validate.whole(f"{name}[1] (trials)", pair[1], minimum=max(events, 1))
    low, high = newcombe_interval(after[0], after[1], before[0], before[1],
                                  confidence=confidence)
    low, high = float(low), float(high)
    word = "rising" if low > 0 else "falling" if high < 0 else "flat"
    return word, Interval(low, high)


def same(first, second, *, tolerance: float = 0.0) -> bool:
    """Whether two numbers, or two equally long sequences of numbers, agree to within
    ``tolerance`` each: "the same run as above" checked value by value."""
    tolerance = _validate.real("tolerance", tolerance, minimum=0.0)
    firsts = list(first) if isinstance(first, (tuple, list)) else [first]
    seconds = list(second) if isinstance(second, (tuple, list)) else [second]
    if len(firsts) != len(seconds):
        raise ValueError(f"first and second must have the same length, got "
                         f"{len(firsts)} and {len(seconds)}")
    return all(abs(_real("first", a) - _real("second", b)) <= tolerance
               for a, b in zip(firsts, seconds))


def chance_of_misses(*, misses: int, intervals: int, confidence: float = 0.95) -> float:
    r"""The chance that ``misses`` or more of ``intervals`` independent intervals miss
    the value they estimate when each holds it with probability ``confidence``: how
    often chance alone gives a page that many misses. With :math:`m` misses of
    :math:`n` intervals at confidence :math:`c`, the misses are binomial:

    .. math::

        P(M \ge m) = \sum_{k=m}^{n} \binom{n}{k}\,(1-c)^k\,c^{\,n-k} .

    A small chance says the misses are not chance: the intervals or the closed form they
    are compared with are wrong (or the intervals are not independent).

    Parameters
    ----------
    misses : int
        The intervals seen to miss, 0 to ``intervals``.
    intervals : int
        How many independent intervals there are, at least 1.
    confidence : float
        Each interval's confidence level, strictly between 0 and 1 (default 0.95).

    Returns
    -------
    float
        The chance of ``misses`` or more misses, in [0, 1]; 1.0 when ``misses`` is 0.

    Examples
    --------
    Two of six 95 % intervals missing happens on about 3 % of such pages:

    >>> round(chance_of_misses(misses=2, intervals=6), 4)
    0.0328
    >>> chance_of_misses(misses=0, intervals=6)
    1.0
    """
    from math import comb

    intervals = _validate.whole("intervals", intervals, minimum=1)
    misses = _validate.whole("misses", misses, minimum=0, maximum=intervals)
    miss = 1.0 - _validate.confidence(confidence)
    return float(min(1.0, sum(comb(intervals, k) * miss ** k
                              * (1.0 - miss) ** (intervals - k)
                              for k in range(misses, intervals + 1))))


def choose(case: str, sentences: Mapping[str, str], **numbers) -> str:
    """The sentence written for ``case`` (a word from :func:`trend`, :func:`change` or
    :func:`where`), with its ``{fields}`` filled from ``numbers``. ``sentences`` must
    have a sentence for ``case``: a case nobody wrote words for fails here, naming it."""
    _validate.text("case", case)
    sentences = _validate.mapping("sentences", sentences, what="sentences")
    if case not in sentences:
        raise ValueError(f"sentences has no sentence for the case {case!r} (it has "
                         f"{', '.join(map(repr, sentences))})")
    text = _validate.text(f"sentences[{case!r}]", sentences[case])
    return text.format(**numbers) if numbers else text


def word(case: str) -> str:
    """The word for ``case`` (``"flat"`` -> "stays flat") in the edition's language."""
    _validate.text("case", case, choices=tuple(WORDS))
    return gettext(WORDS[case])
