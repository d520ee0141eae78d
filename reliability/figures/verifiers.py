r"""Figures and tables for verifiers: what recall buys, what false rejection costs.

A verifier of recall :math:`d` and false-rejection rate :math:`f` sends an attempt back
with :math:`r = e + c f + w d`, accepts it right with :math:`a = c (1-f)` and wrong with
:math:`b = w (1-d)`. A run of :math:`n` steps with :math:`A` attempts succeeds with
:math:`(a S_A)^n` and costs :math:`S_A \sum_{i<n} (1 - r^A)^i` attempts on average.
A model judge blind to a share :math:`\rho` of the generator's silent errors acts as a
verifier of recall :math:`(1-\rho)\,d` (:mod:`reliability.judge`): see
:func:`blind_spot_table` and :func:`plot_blind_spot`.
"""

from __future__ import annotations

from dataclasses import replace

import matplotlib.pyplot as plt
import numpy as np

from .. import _validate, judge
from ..i18n import N_, Text, _, fill_slots
from . import _checks, _media
from ..notebook import PALETTE, fit_text, legend_below, percent_axis
from ..workflow import Verifier, Workflow
from ..live import nearest
from .chain import _decay
from .retries import _sweep_table, sweep
from ..numbers import fmt

__all__ = ["outcomes", "tradeoff_grid", "plot_tradeoff", "tradeoff_lines",
           "plot_tradeoff_lines", "draw_recall_frame", "blind_spot_table",
           "plot_blind_spot", "live_verifier"]

_ENDINGS = (N_("success"), N_("wrong"), N_("gave_up"))
#: Column names of the chapter's tables built from these results (translated at display
#: by :func:`reliability.notebook.table`).
_TABLE_WORDS = (N_("workflow"), N_("ending"), N_("length"), N_("closed"), N_("simulated"),
                N_("rate"), N_("low"), N_("high"), N_("closed_attempts"),
                N_("mean_attempts"))
_LABEL_BOX = dict(boxstyle="round,pad=0.15", facecolor="white", edgecolor="none", alpha=0.85)


#: What :func:`tradeoff_grid` returns (and :func:`plot_tradeoff` draws).
_GRID_KEYS = ("recall", "false_reject", "success", "attempts")
#: What :func:`blind_spot_table` returns (and :func:`plot_blind_spot` draws).
_BLIND_KEYS = ("shared", "effective_recall", "closed", "rate", "low", "high", "lift")


def _workflow(base, name: str = "base"):
    if not isinstance(base, Workflow):
        raise ValueError(f"{name} must be a reliability.Workflow, got {base!r}")
    return base


def _verifier(name: str, value) -> Verifier:
    return _validate.instance(name, value, Verifier)


def outcomes(workflow: Workflow, *, runs: int, seed) -> dict:
    """How runs end (all right, finished silently wrong, stopped by a step that gave up):
    closed form beside the simulated share and its 95 % Wilson interval.

    Returns ``{ending: (closed, simulated, low, high)}``.
    """
    from ..stats import wilson_interval

    workflow = _workflow(workflow, "workflow")
    _validate.whole("runs", runs, minimum=1)
    _validate.seed(seed)
    sim = workflow.simulate(runs=runs, seed=seed)
    closed = workflow.outcome_probabilities()
    counts = {"success": sim.successes, "wrong": sim.wrong, "gave_up": sim.gave_up}
    return {k: (closed[k], counts[k] / sim.runs, *wilson_interval(counts[k], sim.runs))
            for k in _ENDINGS}


def tradeoff_grid(base: Workflow, recalls, false_rejects) -> dict:
    """Closed-form success and attempts per run for every verifier ``(d, f)`` on a grid.

    Returns ``recall`` (rows), ``false_reject`` (columns) and the 2-D arrays ``success`` and
    ``attempts``, both of shape ``(len(recalls), len(false_rejects))``.
    """
    base = _workflow(base)
    recalls = _validate.probability_array("recalls", recalls).ravel()
    false_rejects = _validate.probability_array("false_rejects", false_rejects).ravel()
    success = np.empty((recalls.size, false_rejects.size))
    attempts = np.empty_like(success)
    for i, d in enumerate(recalls):
        for j, f in enumerate(false_rejects):
            wf = replace(base, verifier=Verifier(recall=float(d), false_reject=float(f)))
            success[i, j], attempts[i, j] = wf.success(), wf.expected_attempts()
    return {"recall": recalls, "false_reject": false_rejects, "success": success,
            "attempts": attempts}


def plot_tradeoff(grid: dict, *, mark: Verifier, title: str, medium: str = "phone"):
    """Two contour maps over (false rejection, recall): success (top), attempts per run
    (bottom), closed forms; ``mark`` is drawn as a point on both. Drawn for ``medium``
    (:data:`reliability.figures._media.MEDIA`: side by side on a slide)."""
    _media.medium(medium)
    _checks.columns("grid", grid, _GRID_KEYS, what="tradeoff_grid result")
    _verifier("mark", mark)
    _validate.text("title", title)
    # Stacked, not side by side: two maps abreast would shrink their text on a phone.
    fig, axes = _media.subplots(medium, 2, 1, height=9.0, layout="constrained")
    x, y = grid["false_reject"], grid["recall"]
    # Success is a share, so its colour scale is pinned to [0, 1]; attempts use their range,
    # or one band around their value when every verifier costs the same (say error = 1).
    low, high = float(np.min(grid["attempts"])), float(np.max(grid["attempts"]))
    # (8 levels, lines on every other one: more put their labels on top of each other
    # in a phone-sized map)
    cost_levels = 8 if high - low > 1e-9 * max(1.0, high) else [low - 0.5, high + 0.5]
    contour_labels = []
    for ax, key, cmap, label, template, levels in (
            (axes[0], "success", "cividis", _("share of runs that succeed"), "{:.0%}",
             np.linspace(0.0, 1.0, 11)),
            (axes[1], "attempts", "cividis_r", _("attempts per run (mean)"), "{:.1f}",
             cost_levels)):
        filled = ax.contourf(x, y, grid[key], levels=levels, cmap=cmap)
        lines = ax.contour(x, y, grid[key], levels=filled.levels[1:-1:2], colors="white",
                           linewidths=0.8)
        # Dark text on a pale box: readable on the darkest and the lightest fill alike.
        # Not inline: a label moved or dropped once laid out leaves no gap in its line.
        labels = ax.clabel(lines, fmt=lambda v, f=template: Text(f).format(v),
                           colors="black", inline=False)
        for text in labels:
            text.set_bbox(_LABEL_BOX)
        contour_labels.append((ax, lines))
        fig.colorbar(filled, ax=ax, label=label,
                     format=plt.FuncFormatter(lambda v, _, f=template: Text(f).format(v)))
        # Not clipped: at a corner of the map (d = 0, f = 0 say) the dot shows whole.
        ax.plot(mark.false_reject, mark.recall, "o", ms=7, color=PALETTE["vermillion"],
                clip_on=False, zorder=5)
        # The mark is named in the panel title: a label on the map would collide with
        # the contour labels somewhere in the parameter range.
        # (raised clear of the tick labels that stand above the map's top edge)
        ax.set_title(_("{label}; vermillion dot: d = {d:g}, f = {f:g}").format(
            label=label, d=mark.recall, f=mark.false_reject), pad=14)
        ax.set(xlabel=_("false rejection f (share of right answers rejected)"),
               ylabel=_("recall d (share of wrong\nanswers caught)"))
        ax.grid(False)
    fig.suptitle(title)
    fit_text(fig)
    _place_contour_labels(fig, contour_labels)
    return fig


def _place_contour_labels(fig, contours) -> None:
    """Keep each contour label of ``contours`` (pairs of axes and contour set) where it
    reads whole, once the figure is laid out: inside its map (matplotlib clips a label
    at the map's edge, '70%' showing as '0%'), clear of every marker (the chosen
    verifier's dot) and of the labels kept before it (where the contours bunch, every
    rate at 0 say, matplotlib stacks them). A label that is not moves along its own
    contour to the clear place farthest from the map's edges and its markers; a level
    with no clear place, or already labelled elsewhere, goes unlabelled (the colour bar
    still reads it)."""
    fig.canvas.draw()   # the final layout, where the labels' places are known
    renderer = fig.canvas.get_renderer()
    kept = []

    def box(text):
        text.update_bbox_position_size(renderer)
        return text.get_bbox_patch().get_window_extent(renderer)

    for ax, lines in contours:
        inside, marks = ax.bbox.padded(-2), _marker_boxes(ax, fig.dpi)

        def clear(area):
            return (inside.x0 <= area.x0 and area.x1 <= inside.x1
                    and inside.y0 <= area.y0 and area.y1 <= inside.y1
                    and not any(area.overlaps(mark) for mark in marks)
                    and not any(area.expanded(1.15, 1.3).overlaps(other)
                                for other in kept))

        labelled = set()
        for text in list(lines.labelTexts):
            area = box(text)
            if clear(area):
                kept.append(area)
                labelled.add(text.get_text())
                continue
            lines.pop_label(lines.labelTexts.index(text))
            if text.get_text() in labelled:
                continue
            for x, y in _label_places(ax, lines, text.get_text(), inside, marks):
                lines.add_label_near(x, y, inline=False, transform=False)
                moved = lines.labelTexts[-1]
                moved.set_bbox(_LABEL_BOX)
                area = box(moved)
                if clear(area):
                    kept.append(area)
                    labelled.add(moved.get_text())
                    break
                lines.pop_label()


def _marker_boxes(ax, dpi: float) -> list:
    """The display-space squares the markers of ``ax``'s lines cover."""
    from matplotlib.transforms import Bbox

    boxes = []
    for line in ax.lines:
        if line.get_marker() in (None, "None", "none", "", " "):
            continue
        radius = line.get_markersize() / 2 * dpi / 72 + 2   # (and a little air)
        for x, y in line.get_transform().transform(np.asarray(line.get_xydata(), float)):
            boxes.append(Bbox.from_extents(x - radius, y - radius, x + radius, y + radius))
    return boxes


def _label_places(ax, lines, text: str, inside, marks, most: int = 40):
    """Display-space points on the contour whose label reads ``text``, the farthest from
    the map's edges and from its markers first (at most ``most`` of them)."""
    texts = [lines.get_text(value, lines.labelFmt) for value in lines.labelLevelList]
    if text not in texts:
        return []
    level = texts.index(text)
    path = lines.get_paths()[lines.labelIndiceList[level]]
    points = lines.get_transform().transform(np.asarray(path.vertices, float))
    points = points[np.isfinite(points).all(axis=1)]
    if not len(points):
        return []
    room = np.minimum.reduce([points[:, 0] - inside.x0, inside.x1 - points[:, 0],
                              points[:, 1] - inside.y0, inside.y1 - points[:, 1]])
    for mark in marks:
        centre = np.array([(mark.x0 + mark.x1) / 2, (mark.y0 + mark.y1) / 2])
        room = np.minimum(room, np.hypot(*(points - centre).T) - mark.width / 2)
    order = np.argsort(-room)[:most]
    return [tuple(points[i]) for i in order if room[i] > 0]


def tradeoff_lines(base: Workflow, recalls, false_rejects, *, runs: int, seed: int) -> dict:
    """Seeded simulations for each recall ``d`` at each false rejection ``f``:
    ``{d: sweep table over f}`` (see :func:`reliability.figures.retries.sweep`)."""
    base = _workflow(base)
    recalls = _validate.probability_array("recalls", recalls).ravel()
    false_rejects = _validate.probability_array("false_rejects", false_rejects).ravel()
    runs = _validate.whole("runs", runs, minimum=1)
    seed = _validate.whole("seed", seed, minimum=0)
    return {float(d): sweep([replace(base, verifier=Verifier(float(d), float(f)))
                             for f in false_rejects],
                            runs=runs, seed=seed + 1000 * i)
            for i, d in enumerate(recalls)}


def plot_tradeoff_lines(base: Workflow, false_rejects, tables: dict, *, title: str,
                        medium: str = "phone"):
    """Success (top) and attempts per run (bottom) against false rejection, one colour per
    recall: lines are closed forms, dots simulated with 95 % intervals; the grey line is
    the same workflow without a verifier. Drawn for ``medium``
    (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    base = _workflow(base)
    _checks.probabilities("false_rejects", false_rejects)
    false_rejects = np.asarray(false_rejects, dtype=float)
    _checks.keyed("tables", tables, what="sweep results by recall")
    for d, table in tables.items():
        _validate.probability("tables' keys (recalls)", d)
        _sweep_table("tables", table, false_rejects.size)
    _validate.text("title", title)
    dense = np.linspace(0.0, false_rejects.max(), 61)
    colours = [PALETTE[k] for k in ("sky", "blue", "green", "orange", "purple")]
    # Stacked, not side by side, so the text stays large enough on a phone.
    fig, (top, bottom) = _media.subplots(medium, 2, 1, height=8.6,
                                         layout="constrained")
    for colour, (d, table) in zip(colours, tables.items()):
        closed = [replace(base, verifier=Verifier(d, float(f))) for f in dense]
        for ax, line, key, low, high in (
                (top, [w.success() for w in closed], "rate", "low", "high"),
                (bottom, [w.expected_attempts() for w in closed], "mean_attempts",
                 "attempts_low", "attempts_high")):
            ax.plot(dense, line, color=colour, label=_("recall d = {d:g}").format(d=d))
            ax.errorbar(false_rejects, table[key],
                        yerr=[table[key] - table[low], table[high] - table[key]],
                        fmt="o", ms=3.5, capsize=2, color=colour)
    top.axhline(base.success(), color=PALETTE["grey"], ls="--", label=_("no verifier"))
    bottom.axhline(base.expected_attempts(), color=PALETTE["grey"], ls="--",
                  label=_("no verifier"))
    top.set(xlabel=_("false rejection f"), ylabel=_("share of runs\nthat succeed"),
             ylim=(0, 1.02))
    percent_axis(top.yaxis)
    bottom.set(xlabel=_("false rejection f"), ylabel=_("attempts per run\n(mean)"))
    # One legend, under both panels: they use the same colours, and neither has a corner
    # free of data across the parameters' ranges.
    legend_below(fig)
    fig.suptitle(title)
    return fit_text(fig)


def draw_recall_frame(fig, recall: float, *, base: Workflow, false_reject: float,
                      lengths, table: dict):
    """One scrubber frame: success against chain length with a verifier of recall
    ``recall`` (line: closed form; dots: ``table[recall]`` simulated with 95 % Wilson
    bars), beside the same retries without a verifier."""
    _checks.figure("fig", fig)
    recall = _validate.probability("recall", recall)
    base = _workflow(base)
    false_reject = _validate.probability("false_reject", false_reject)
    _checks.array("lengths", lengths, kind="whole", minimum=1)
    _decay("table", table)
    if recall not in table:
        raise ValueError(f"table must hold a row for recall {recall!r}, "
                         f"got keys {list(table)}")
    lengths = np.asarray(lengths)
    grid = np.arange(1, lengths.max() + 1)
    wf = replace(base, verifier=Verifier(recall=recall, false_reject=false_reject))
    fig.set_layout_engine("constrained")
    ax = fig.add_subplot()
    ax.plot(grid, base.success_by_length(grid), color=PALETTE["grey"], ls="--",
            label=_("A = {attempts}, no verifier (closed form)").format(
                attempts=base.attempts))
    ax.plot(grid, wf.success_by_length(grid), color=PALETTE["blue"],
            label=_("with verifier d = {d:.1f}, f = {f:g} (closed form)").format(
                d=recall, f=false_reject))
    t = table[recall]
    ax.errorbar(lengths, t["rate"], yerr=[t["rate"] - t["low"], t["high"] - t["rate"]],
                fmt="o", ms=4, capsize=2, color=PALETTE["blue"],
                label=_("simulated, 95% interval"))
    ten, thirty = replace(wf, steps=10).success(), replace(wf, steps=30).success()
    ax.set(xlabel=_("steps in the chain"), ylabel=_("share of runs that succeed"),
           ylim=(0, 1.02),
           title=_("Recall d = {d:.1f} (model): ten steps succeed {ten:.0%}, "
                   "thirty {thirty:.0%}").format(d=recall, ten=ten, thirty=thirty))
    percent_axis(ax.yaxis)
    legend_below(fig, most_columns=1)
    fit_text(fig)


def blind_spot_table(base: Workflow, verifier: Verifier, shares, *, runs: int,
                     seed: int) -> dict:
    r"""A judge of recall ``verifier.recall`` on what it can see and false rejection
    ``verifier.false_reject``, for each shared blind spot :math:`\rho` in ``shares``:
    the effective recall :math:`(1-\rho)\,d`, run success in closed form, simulated
    (:func:`reliability.judge.simulate`, seed ``seed + k`` for share ``k``) with its
    95 % Wilson bounds, and the closed-form lift over no check at all.

    Returns a dict of numpy arrays, one entry per share: ``shared``, ``effective_recall``,
    ``closed``, ``rate``, ``low``, ``high``, ``lift``.
    """
    base = _workflow(base)
    _verifier("verifier", verifier)
    shares = _validate.probability_array("shares", shares).ravel()
    runs = _validate.whole("runs", runs, minimum=1)
    seed = _validate.whole("seed", seed, minimum=0)
    d, f = verifier.recall, verifier.false_reject
    rows = []
    for k, rho in enumerate(shares):
        sim = judge.simulate(base, d, f, float(rho), runs=runs, seed=seed + k)
        rows.append((float(rho), judge.effective_recall(d, float(rho)),
                     judge.judged_workflow(base, d, f, float(rho)).success(),
                     sim["rate"], sim["low"], sim["high"],
                     judge.lift(base, d, f, float(rho))))
    return dict(zip(_BLIND_KEYS, np.array(rows, dtype=float).reshape(-1, 7).T))


def plot_blind_spot(base: Workflow, verifier: Verifier, table: dict, *, title: str,
                    medium: str = "phone"):
    r"""Run success against the shared blind spot :math:`\rho`: the closed form (line),
    :func:`blind_spot_table`'s simulated shares (dots, 95 % Wilson bars), the same judge
    with independent errors (:math:`\rho = 0`, dotted) and no check at all (dashed).
    Drawn for ``medium`` (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    base = _workflow(base)
    _verifier("verifier", verifier)
    _checks.columns("table", table, _BLIND_KEYS, what="blind_spot_table result")
    _validate.text("title", title)
    d, f = verifier.recall, verifier.false_reject
    dense = np.linspace(0.0, 1.0, 101)
    closed = [judge.judged_workflow(base, d, f, float(rho)).success() for rho in dense]
    fig, ax = _media.subplots(medium, height=5.8, layout="constrained")
    ax.axhline(replace(base, verifier=None).success(), color=PALETTE["grey"], ls="--",
               label=_("no check at all"))
    ax.axhline(closed[0], color=PALETTE["green"], ls=":",
               label=_("judge with independent errors (d = {d:g})").format(d=d))
    ax.plot(dense, closed, color=PALETTE["blue"],
            label=_("shared blind spot (closed form)"))
    rate = np.asarray(table["rate"])
    ax.errorbar(table["shared"], rate, fmt="o", ms=4, capsize=2, color=PALETTE["blue"],
                yerr=[rate - table["low"], np.asarray(table["high"]) - rate],
                label=_("simulated, 95% interval"))
    ax.set(xlabel=_("shared blind spot \u03c1 (share of silent errors the judge\n"
                    "cannot see either)"),
           ylabel=_("share of {steps}-step\nruns that succeed").format(steps=base.steps),
           ylim=(0, 1.02))
    percent_axis(ax.yaxis)
    percent_axis(ax.xaxis)
    legend_below(fig, most_columns=1)
    ax.set_title(title)
    return fit_text(fig)


#: Recalls the live explorer draws and offers (its x axis: every 0.1).
LIVE_RECALLS = tuple(round(0.1 * i, 1) for i in range(11))
#: False rejections it offers (every 0.05 up to 0.5, as the chapter's trade-off lines).
LIVE_FALSE_REJECTS = tuple(round(0.05 * i, 2) for i in range(11))
#: Attempts per step it offers.
LIVE_ATTEMPTS = tuple(range(1, 7))


def live_verifier(*, runs: int, seed: int, steps: int = 10, error: float = 0.05,
                  silent: float = 0.03, recall: float = 0.8, false_reject: float = 0.05,
                  attempts: int = 3):
    """The chapter's live explorer: success of a ``steps``-step run whose attempts fail
    visibly with probability ``error`` and silently with ``silent``, against the
    verifier's recall d, for a false rejection f and ``attempts`` per step. The closed
    form is a line; seeded simulations of ``runs`` runs (the same seed at every setting)
    are dots with 95 % Wilson intervals; retries alone (no verifier) are a dashed line and
    the chosen recall a ring. The sentence states the closed form, the simulated rate
    with its interval, the lift over retries alone in pp and the attempts a run costs.
    ``recall``, ``false_reject`` and ``attempts`` set where the sliders start, moved to
    the nearest position offered. Returns a :class:`reliability.live.Explorer`.

    A shared blind spot (:mod:`reliability.judge`) is not a fourth control: every
    combination of four controls would store over 300 KB in the page."""
    from functools import lru_cache

    from ..live import Control, Explorer, Series, Words

    steps = _validate.whole("steps", steps, minimum=1, maximum=200)
    base = Workflow(steps=steps, error=_validate.probability("error", error),
                    silent=_validate.probability("silent", silent))
    # runs x steps bounds the precomputation (66 settings of eleven workflows each).
    runs = _validate.whole("runs", runs, minimum=2, maximum=20_000)
    seed = _validate.whole("seed", seed, minimum=0)
    recall = nearest(LIVE_RECALLS, _validate.probability("recall", recall))
    false_reject = nearest(LIVE_FALSE_REJECTS,
                           _validate.probability("false_reject", false_reject))
    attempts = nearest(LIVE_ATTEMPTS, _validate.whole("attempts", attempts, minimum=1))
    x = np.array(LIVE_RECALLS)

    def alone(attempts):
        return replace(base, attempts=int(attempts))

    @lru_cache(maxsize=None)
    def table(false_reject, attempts):
        # One seed for every setting: neighbouring positions share their random draws,
        # so the dots move smoothly rather than by chance.
        rows = []
        for d in LIVE_RECALLS:
            checked = replace(alone(attempts), verifier=Verifier(d, false_reject))
            sim = checked.simulate(runs=runs, seed=seed)
            rows.append((checked.success(), sim.rate, *sim.interval(0.95),
                         checked.expected_attempts()))
        return dict(zip(("closed", "rate", "low", "high", "cost"), np.array(rows).T))

    def words(recall, false_reject, attempts):
        t, i = table(false_reject, attempts), LIVE_RECALLS.index(recall)
        without = alone(attempts).success()
        return {"closed": fmt(t["closed"][i], ".1%"), "rate": fmt(t["rate"][i], ".1%"),
                "low": fmt(t["low"][i], ".1%"), "high": fmt(t["high"][i], ".1%"),
                "alone": fmt(without, ".1%"),
                "lift": fmt(100 * (t["closed"][i] - without), "+.1f"),
                "cost": fmt(t["cost"][i], ".2f")}

    def dots(false_reject, attempts):
        t = table(false_reject, attempts)
        return {"x": x, "y": t["rate"], "low": t["low"], "high": t["high"]}

    def ring(recall, false_reject, attempts):
        return {"x": [recall],
                "y": [table(false_reject, attempts)["closed"][LIVE_RECALLS.index(recall)]]}

    both = ("false_reject", "attempts")
    return Explorer(
        name="ch3-verifier",
        controls=(Control("recall", _("recall d"), LIVE_RECALLS, recall, ".1f"),
                  Control("false_reject", _("false rejection f"), LIVE_FALSE_REJECTS,
                          false_reject, ".2f"),
                  Control("attempts", _("attempts per step A"), LIVE_ATTEMPTS, attempts,
                          "d")),
        series=(
            Series(_("retries alone, no verifier"),
                   lambda attempts: {"x": [0.0, 1.0], "y": [alone(attempts).success()] * 2},
                   depends=("attempts",), colour="grey", dashed=True),
            Series(_("with the verifier, closed form"),
                   lambda false_reject, attempts: {
                       "x": x, "y": table(false_reject, attempts)["closed"]},
                   depends=both),
            Series(_("simulated, {runs:,d} runs, 95% Wilson interval").format(runs=runs),
                   dots, depends=both, kind="points", colour="orange"),
            Series(_("the chosen recall"), ring, depends=("recall",) + both, kind="marker",
                   colour="black")),
        # The template's other {slots} are filled in the page; only steps and runs here.
        words=Words(fill_slots(_("Model: with a verifier of recall {recall} and false "
                                 "rejection "
                      "{false_reject}, and A = {attempts} as the limit of attempts per "
                      "step, a {steps:,d}-step run succeeds {closed} of the time, {lift} pp "
                      "against {alone} without a verifier, at {cost} attempts per run; "
                      "{runs:,d} simulated runs give {rate} (95% Wilson interval {low} "
                      "to {high})."), steps=steps, runs=runs),
                    words, depends=("recall",) + both),
        x_label=_("verifier recall d"),
        y_label=_("share of {steps:,d}-step runs right").format(steps=steps),
        title=_("What recall buys (model)"),
        alt=_("Line chart: the share of {steps}-step runs that succeed against the "
              "verifier's recall from 0 to 1, rising with recall and lower for a higher "
              "false rejection; orange dots with interval bars are seeded simulations, a "
              "dashed grey line is retries alone and a black ring marks the chosen "
              "recall.").format(steps=steps),
        x_range=(-0.03, 1.03), y_range=(0.0, 1.0),
        source=("reliability.figures.verifiers.live_verifier",
                {"runs": runs, "seed": seed, "steps": steps, "error": error,
                 "silent": silent, "recall": recall, "false_reject": false_reject,
                 "attempts": attempts}))
