"""Live explorers for the static page: every number computed here, ahead of time.

A chapter's key figure, redrawn in the reader's browser as its controls move, with no
kernel. The package evaluates the figure and its sentence at every position of the
controls (a grid fine enough that moving a control feels continuous), and
:meth:`Explorer.html` writes them into the page as JSON beside a container that
``book/_static/live.js`` turns into labelled sliders, an SVG chart and a sentence read out
to screen readers. The page computes nothing itself: it looks values up, so a simulated
number on the page is the package's seeded simulation, never a second random generator.

Each part of the figure declares which controls it ``depends`` on, so a curve that moves
with one control is stored once per position of that control, not once per combination
of all of them. Numbers are stored at a few significant digits more than any axis can
show; the sentence's numbers are stored already formatted, as Python formats them, so the
page and :meth:`Explorer.sentence` agree character for character.

Without JavaScript (or in Jupyter, where the script is not loaded) the container shows the
sentence at the default position and says that the chart needs the book's page.
"""

from __future__ import annotations

import html
import itertools
import json
import math
import re
from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import _validate
from .i18n import Text, _, get_language
from .numbers import fmt
from .notebook import PALETTE

__all__ = ["Control", "Series", "Words", "Explorer", "nearest", "MAX_POSITIONS",
           "MAX_FRAMES"]

#: Positions one control may take (a slider with more steps than this feels no smoother).
MAX_POSITIONS = 201
def _decimal_sign() -> str:
    from babel.numbers import get_decimal_symbol

    return get_decimal_symbol(get_language())


#: Stored frames of one series or of the sentence (every combination of its controls).
MAX_FRAMES = 4000
#: Significant digits of the stored chart numbers: more than an axis can show.
DIGITS = 5

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_KINDS = ("line", "points", "marker")
_FIELD = re.compile(r"{([a-z][a-z0-9_]*)}")


def nearest(grid, value):
    """The position of ``grid`` nearest ``value``: where a slider starts when a chapter's
    parameter is not one of the positions its live explorer offers (the first of two
    equally near). ``value`` is checked by the caller, which knows its name and range."""
    positions = _validate.numeric_array("grid", grid, kind="real", ndim=1)
    if len(positions) == 0:
        raise ValueError("grid must hold at least one position")
    value = _validate.real("value", value)
    return min(grid, key=lambda v: abs(v - value))


def _depends(depends) -> None:
    if not isinstance(depends, (tuple, list)) or not all(isinstance(d, str) for d in depends):
        raise ValueError(f"depends must be a tuple of control names, got {depends!r}")


def _digits(value: float) -> float | None:
    if value is None or not math.isfinite(value):
        return None
    return float(f"{value:.{DIGITS}g}")


@dataclass(frozen=True)
class Control:
    """One slider: ``values`` it can take (in order), the ``default`` among them, and the
    ``format`` (a Python format spec such as ``".0%"``) of the value it shows, or
    ``labels``, one word per value, for a switch or a choice (``("off", "on")`` for the
    values ``(0, 1)``)."""

    name: str
    label: str
    values: tuple
    default: float
    format: str = "g"
    labels: tuple | None = None

    def __post_init__(self):
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise ValueError(f"name must be a lower-case identifier (letters, digits, _), "
                             f"got {self.name!r}")
        _validate.text("label", self.label)
        values = _validate.numeric_array("values", self.values, kind="real", ndim=1)
        if not 2 <= len(values) <= MAX_POSITIONS:
            raise ValueError(f"values must hold 2 to {MAX_POSITIONS} positions, "
                             f"got {len(values)}")
        if np.any(np.diff(np.asarray(values, dtype=float)) <= 0):
            raise ValueError("values must be strictly increasing")
        object.__setattr__(self, "values", tuple(v.item() if hasattr(v, "item") else v
                                                 for v in values))
        _validate.real("default", self.default)
        if self.default not in self.values:
            raise ValueError(f"default must be one of values, got {self.default!r}")
        _validate.text("format", self.format)
        try:
            format(self.values[0], self.format)
        except (ValueError, TypeError) as error:
            raise ValueError(f"format must be a Python format spec for these values, "
                             f"got {self.format!r} ({error})") from None
        if self.labels is not None:
            labels = _validate.sequence("labels", self.labels, minimum=len(self.values))
            if len(labels) != len(self.values):
                raise ValueError(f"labels must be None or one label per value "
                                 f"({len(self.values)}), got {self.labels!r}")
            for index, word in enumerate(labels):
                _validate.text(f"labels[{index}]", word)
            object.__setattr__(self, "labels", labels)

    def shown(self, value) -> str:
        """The value as the slider shows it (``value`` is one of ``values``)."""
        value = self._position("value", value)
        if self.labels is not None:
            return self.labels[self.values.index(value)]
        return fmt(value, self.format)

    def _position(self, name: str, value):
        """``value`` if the control offers it, else a ValueError naming ``name``."""
        if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or \
                value not in self.values:
            raise ValueError(f"{name} must be one of the control's positions "
                             f"{self.values}, got {value!r}")
        return value


@dataclass(frozen=True)
class Series:
    """One part of the chart. ``draw(**params)`` gets the values of the controls in
    ``depends`` and returns a dict of equal-length sequences ``x`` and ``y``, and for
    ``"points"`` optionally ``low`` and ``high`` (an interval drawn as a bar). ``kind`` is
    ``"line"``, ``"points"`` (dots) or ``"marker"`` (a ring around the point the controls
    pick out)."""

    label: str
    draw: Callable
    depends: tuple = ()
    kind: str = "line"
    colour: str = "blue"
    dashed: bool = False

    def __post_init__(self):
        _validate.text("label", self.label)
        _validate.function("draw", self.draw)
        _validate.text("kind", self.kind, choices=_KINDS)
        _validate.text("colour", self.colour, choices=tuple(PALETTE))
        _validate.flag("dashed", self.dashed)
        _depends(self.depends)
        object.__setattr__(self, "depends", tuple(self.depends))


@dataclass(frozen=True)
class Words:
    """The sentence under the chart: ``template`` with ``{field}`` slots, filled from the
    controls' shown values and from ``fill(**params)``, which gets the controls in
    ``depends`` and returns the other slots as formatted strings."""

    template: str
    fill: Callable
    depends: tuple = ()

    def __post_init__(self):
        _validate.text("template", self.template)
        _validate.function("fill", self.fill)
        _depends(self.depends)
        object.__setattr__(self, "depends", tuple(self.depends))


@dataclass(frozen=True)
class Explorer:
    """A live explorer: controls, the series of its chart, its sentence and its axes.

    ``name`` is unique on the site (it keys the URL: ``?ch1-decay.p=0.95``); ``alt``
    describes the chart for a screen reader. ``source`` names the package function that
    built the explorer and its keyword arguments, ``("reliability.figures.chain.live_decay",
    {"runs": 2000, ...})``; it is written into the page so that a test can rebuild the
    explorer and check the page's numbers against the package's.
    """

    name: str
    controls: tuple
    series: tuple
    words: Words
    x_label: str
    y_label: str
    alt: str
    title: str = ""
    x_percent: bool = False
    y_percent: bool = True
    x_range: tuple | None = None
    y_range: tuple | None = (0.0, 1.0)
    source: tuple | None = None

    def __post_init__(self):
        if not isinstance(self.name, str) or not re.match(r"^[a-z0-9][a-z0-9-]*$", self.name):
            raise ValueError(f"name must be lower-case letters, digits and dashes, "
                             f"got {self.name!r}")
        controls = _validate.sequence("controls", self.controls, of=Control, what="Controls",
                                      minimum=1)
        by_name = {c.name: c for c in controls}
        if len(by_name) != len(controls):
            raise ValueError("controls must have distinct names")
        series = _validate.sequence("series", self.series, of=Series, what="Series",
                                    minimum=1)
        _validate.instance("words", self.words, Words)
        for part, what in [(s, f"series {s.label!r}") for s in series] + [(self.words,
                                                                          "words")]:
            unknown = set(part.depends) - set(by_name)
            if unknown:
                raise ValueError(f"{what} depends on unknown controls {sorted(unknown)}; "
                                 f"the controls are {sorted(by_name)}")
            frames = math.prod(len(by_name[d].values) for d in part.depends)
            if frames > MAX_FRAMES:
                raise ValueError(f"{what} would store {frames:,} frames (at most "
                                 f"{MAX_FRAMES:,}): give its controls fewer positions")
        slots = set(_FIELD.findall(self.words.template))
        for text_name in ("x_label", "y_label", "alt", "title"):
            _validate.text(text_name, getattr(self, text_name))
        for flag_name in ("x_percent", "y_percent"):
            _validate.flag(flag_name, getattr(self, flag_name))
        for range_name in ("x_range", "y_range"):
            span = getattr(self, range_name)
            if span is not None:
                low, high = (_validate.real(f"{range_name}[{i}]", v) for i, v in
                             enumerate(_validate.sequence(range_name, span, minimum=2)))
                if not low < high or len(span) != 2:
                    raise ValueError(f"{range_name} must be None or (low, high) with "
                                     f"low < high, got {span!r}")
        if self.source is not None:
            if (not isinstance(self.source, tuple) or len(self.source) != 2
                    or not isinstance(self.source[0], str)
                    or not isinstance(self.source[1], dict)):
                raise ValueError(f"source must be None or (function path, keyword dict), "
                                 f"got {self.source!r}")
            try:
                json.dumps(self.source[1], allow_nan=False)
            except (TypeError, ValueError):
                raise ValueError(f"source's keywords must be plain JSON values, "
                                 f"got {self.source[1]!r}") from None
        object.__setattr__(self, "controls", controls)
        object.__setattr__(self, "series", series)
        object.__setattr__(self, "_by_name", by_name)
        object.__setattr__(self, "_slots", slots)

    # -- what the page shows, computed directly ------------------------------------------

    def _params(self, params: dict) -> dict:
        unknown = set(params) - set(self._by_name)
        if unknown:
            raise ValueError(f"params names unknown controls {sorted(unknown)}; the "
                             f"controls are {sorted(self._by_name)}")
        values = {c.name: c.default for c in self.controls}
        for name, value in params.items():
            values[name] = self._by_name[name]._position(name, value)
        return values

    def _filled(self, values: dict) -> dict:
        slots = {c.name: c.shown(values[c.name]) for c in self.controls}
        extra = self.words.fill(**{d: values[d] for d in self.words.depends})
        if not isinstance(extra, dict) or not all(isinstance(v, str) for v in extra.values()):
            raise ValueError(f"words.fill must return a dict of formatted strings, "
                             f"got {extra!r}")
        slots.update(extra)
        missing = self._slots - set(slots)
        if missing:
            raise ValueError(f"the template's slots {sorted(missing)} are neither controls "
                             f"nor returned by words.fill")
        return slots

    def sentence(self, **params) -> str:
        """The sentence the page shows at these control values (the defaults for the
        controls not given), computed directly from the package."""
        values = self._params(params)
        return Text(self.words.template).format(**self._filled(values))

    # -- the page -------------------------------------------------------------------------

    def _frames(self, depends, compute):
        grids = [self._by_name[d].values for d in depends]
        frames = {}
        for index in itertools.product(*(range(len(g)) for g in grids)):
            values = {d: g[i] for d, g, i in zip(depends, grids, index)}
            frames["_".join(map(str, index))] = compute(values)
        return frames

    def _series_frame(self, part: Series, values: dict) -> list:
        """The columns x, y (and low, high for an interval) of one frame, as lists."""
        drawn = part.draw(**values)
        if not isinstance(drawn, dict) or not {"x", "y"} <= set(drawn):
            raise ValueError(f"series {part.label!r}: draw must return a dict with x and y, "
                             f"got {drawn!r}")
        keys = ("x", "y", "low", "high") if "low" in drawn else ("x", "y")
        columns = [np.asarray(drawn[key], dtype=float).ravel() for key in keys]
        if len({c.size for c in columns}) != 1:
            raise ValueError(f"series {part.label!r}: x, y, low and high must have equal "
                             f"lengths")
        return [[_digits(v) for v in column.tolist()] for column in columns]

    def _slots_frame(self, values: dict, slots: tuple) -> list:
        filled = self.words.fill(**values)
        if not isinstance(filled, dict) or set(filled) != set(slots) or not all(
                isinstance(v, str) for v in filled.values()):
            raise ValueError(f"words.fill must return formatted strings for exactly "
                             f"{list(slots)}, got {filled!r}")
        return [filled[k] for k in slots]

    def data(self) -> dict:
        """Everything the page needs, as JSON-ready data. A series frame is a list of
        columns (x, y, and low, high for intervals); a sentence frame lists the strings of
        ``words.slots`` in order."""
        first = {d: self._by_name[d].default for d in self.words.depends}
        slots = tuple(sorted(self.words.fill(**first)))
        return {
            "name": self.name, "title": self.title, "alt": self.alt,
            "source": list(self.source) if self.source else None,
            "x_label": self.x_label, "y_label": self.y_label,
            "x_percent": self.x_percent, "y_percent": self.y_percent,
            # the axis labels' decimal sign in the page's language (CLDR, through Babel)
            "decimal": _decimal_sign(),
            "x_range": list(self.x_range) if self.x_range else None,
            "y_range": list(self.y_range) if self.y_range else None,
            "controls": [{"name": c.name, "label": c.label, "values": list(c.values),
                          "shown": [c.shown(v) for v in c.values],
                          "default": c.values.index(c.default)} for c in self.controls],
            "series": [{"label": s.label, "kind": s.kind, "colour": PALETTE[s.colour],
                        "dashed": s.dashed, "depends": list(s.depends),
                        "frames": self._frames(s.depends,
                                               lambda v, s=s: self._series_frame(s, v))}
                       for s in self.series],
            "words": {"template": self.words.template, "depends": list(self.words.depends),
                      "slots": list(slots),
                      "frames": self._frames(self.words.depends,
                                             lambda v: self._slots_frame(v, slots))},
        }

    def html(self) -> str:
        """The container and its data; ``book/_static/live.js`` brings it to life."""
        # Letters outside ASCII (a Russian page's) as themselves, not six-byte escapes:
        # half the weight of a Russian explorer. English pages keep the escapes their
        # stored outputs were written with.
        payload = json.dumps(self.data(), separators=(",", ":"), sort_keys=True,
                             allow_nan=False, ensure_ascii=get_language() == "en")
        # "</" cannot end the script element early once escaped.
        payload = payload.replace("</", "<\\/")
        default = html.escape(self.sentence())
        fallback = _("On the book's web page this is a live chart with sliders; without its "
                     "script, the sentence above states the default setting.")
        return (f'<div class="live-explorer" id="live-{self.name}" '
                f'data-live="{self.name}">\n'
                f'<script type="application/json" class="live-data">{payload}</script>\n'
                f'<p class="live-text" aria-live="polite">{default}</p>\n'
                f'<p class="live-fallback">{html.escape(fallback, quote=False)}</p>\n</div>')
