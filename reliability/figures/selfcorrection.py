"""Tables and figures for self-correction and self-conditioning."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter, MaxNLocator

from .. import _validate
from ..i18n import N_, NP_, Text, _, translate
from ..notebook import PALETTE, TEXT_COLOURS, fit_text, legend_below
from ..selfconditioning import SelfConditioning, TrajectorySimulation
from ..selfcorrection import (ORACLE, Arbiter, Revision, expected_revisions, fit_rounds,
                              loop_accuracy, simulate_loop)
from ..stats import newcombe_interval, wilson_interval
from . import _checks, _media
from ..live import nearest
from ..numbers import counted, fmt

__all__ = ["round_table", "even_percent_axis", "fates_table", "trajectory_fits", "two_fits",
           "loop_table", "blank_nan", "restart_table", "restart_difference", "refine_table",
           "styled_changes", "rounds_frame", "plot_rounds", "draw_recall_frame",
           "conditioning_frame", "plot_conditioning", "live_arbiter"]

_COLUMNS = {"Standard Prompting": N_("before"), "Self-Correct (round 1)": N_("round 1"),
            "Self-Correct (round 2)": N_("round 2"),
            "Self-Correct (Oracle)": N_("with oracle")}

#: Labels read from data/*.csv that the chapter's tables show (translated at display by
#: reliability.notebook.table): Self-Correction Bench, the dict_sum horizons, the shares
#: of self-conditioning-like failures and the CommonGen-Hard rows.
_DATA_LABELS = (
    N_("14 open non-reasoning models"), N_("(fine-tuned models)"), N_("baseline"),
    N_('appending "Wait"'), N_("fine-tuning on correction traces"), N_("models evaluated"),
    N_("blind spot rate (own error passed over)"), N_("relative reduction of blind spot"),
    N_("training traces"),
    # The bench's units, as the chapter writes them after a number (said(unit)): the
    # Russian is the form a number of five or more takes (14, 5 306).
    N_("models"), N_("traces"),
    N_("without thinking"), N_("with thinking"), N_("single turn"),
    # a model's name with its mode, which the Russian edition glosses in the lesson's
    # words («в режиме рассуждений»)
    N_("GPT-5 (thinking)"),
    N_("self-conditioning-like failures"), NP_("confidence", "medium"),
    NP_("confidence", "low"),
    N_("model"), N_("setting"), N_("condition"), N_("metric"), N_("value"),
    N_("confidence"),
    N_("weak base prompt"), N_("weak base prompt + Self-Refine"),
    N_("fuller initial prompt"), N_("fuller initial prompt + self-correction"),
    # who reported a row, as the reference list labels the paper ("et al." is «и др.»);
    # chapter 10's table reads its "paper" column in that context
    N_("Madaan et al."), N_("Huang et al."),
    NP_("paper", "Madaan et al."), NP_("paper", "Huang et al."))


def round_table(huang: pd.DataFrame) -> pd.DataFrame:
    """Huang et al.'s rows pivoted to one row per model and benchmark, with the change
    each round makes (percentage points) beside the accuracies."""
    _checks.frame("huang", huang, ("model", "setting", "condition", "value"))
    wide = (huang.assign(column=huang["condition"].map(_COLUMNS))
            .pivot_table(index=["model", "setting"], columns="column", values="value",
                         aggfunc="first")[list(_COLUMNS.values())])
    order = [b for b in ("GSM8K", "CommonSenseQA", "HotpotQA")
             if b in wide.index.get_level_values(1)]
    wide = wide.reindex(order, level=1)
    wide[N_("change, round 1")] = wide["round 1"] - wide["before"]
    wide[N_("change, round 2")] = wide["round 2"] - wide["round 1"]
    wide[N_("change, oracle")] = wide["with oracle"] - wide["before"]
    wide.index.names = [N_("model"), N_("benchmark")]
    wide.columns.name = None
    return wide


def even_percent_axis(axis) -> None:
    """Ticks at even steps (1, 2 or 5 times a power of ten) labelled as percentages, so a
    share axis never reads 98, 95, 92, 90 from rounding ticks 2.5 points apart."""
    _checks.axis("axis", axis)
    axis.set_major_locator(MaxNLocator(nbins=6, steps=[1, 2, 5, 10]))

    def label(value, _):
        points = value * 100
        digits = ".0f" if abs(points - round(points)) < 1e-6 else ".1f"
        return f"{fmt(points, digits)}%"

    axis.set_major_formatter(FuncFormatter(label))


_FATE_LABELS = {"unchanged": N_("answer unchanged"),
                "right_to_wrong": N_("right, then wrong"),
                "wrong_to_right": N_("wrong, then right"),
                "wrong_to_wrong": N_("wrong, then another wrong answer")}


def fates_table(fates: pd.Series, questions: int) -> pd.DataFrame:
    """The published fates (shares of all ``questions``) with 95 % Wilson intervals, from
    the counts the rounded shares imply."""
    if not isinstance(fates, pd.Series):
        raise ValueError(f"fates must be a pandas Series of shares by fate, got {fates!r}")
    _checks.probabilities("fates", fates.to_numpy())
    _validate.whole("questions", questions, minimum=1)
    counts = np.round(fates.to_numpy() * questions).astype(int)
    low, high = wilson_interval(counts, questions)
    return pd.DataFrame({N_("fate after two rounds"): [_FATE_LABELS.get(k, k)
                                                        for k in fates.index],
                         N_("share"): fates.to_numpy(), N_("questions"): counts,
                         N_("95% low"): low, N_("95% high"): high})


def trajectory_fits(table: pd.DataFrame) -> pd.DataFrame:
    """Per-round rates fitted to each row's published trajectory (before, round 1,
    round 2); empty where no two-state chain passes through the three points."""
    _checks.frame("table", table, ("before", "round 1", "round 2"))
    if table.index.nlevels != 2:
        raise ValueError("table must be round_table's result, indexed by model and "
                         f"benchmark, got {table!r}")
    rows = []
    for (model, benchmark), r in table.iterrows():
        try:
            fit = fit_rounds(r["before"] / 100, r["round 1"] / 100, r["round 2"] / 100)
            rates = (fit.break_rate, fit.fix_rate, fit.fixed_point)
        except ValueError:
            rates = (np.nan, np.nan, np.nan)
        rows.append((model, benchmark, *[np.nan if x is None else x for x in rates]))
    return pd.DataFrame(rows, columns=[N_("model"), N_("benchmark"), N_("break rate a"),
                                       N_("fix rate b"), N_("fixed point")])


def two_fits(fates_fit: Revision, rounds_fit: Revision, initial: float) -> pd.DataFrame:
    """What each fit of the same row predicts: its rates, round 1, and the two-round
    flips (shares of all questions)."""
    _validate.instance("fates_fit", fates_fit, Revision)
    _validate.instance("rounds_fit", rounds_fit, Revision)
    _validate.probability("initial", initial)
    rows = {}
    for label, fit in ((N_("from the fates"), fates_fit),
                       (N_("from the trajectory"), rounds_fit)):
        flips = fit.fates(initial, 2)
        rows[label] = {N_("break rate a"): fit.break_rate, N_("fix rate b"): fit.fix_rate,
                       N_("round 1"): fit.accuracy(initial, 1),
                       N_("right, then wrong"): flips["right_to_wrong"],
                       N_("wrong, then right"): flips["wrong_to_right"]}
    return pd.DataFrame(rows).T.rename_axis(N_("fit")).reset_index()


#: What :func:`rounds_frame` holds per loop (and :func:`plot_rounds` draws).
_ROUNDS_KEYS = ("round", "closed", "rate", "low", "high")


def _loop_inputs(revision, initial, rounds, arbiters) -> None:
    _validate.instance("revision", revision, Revision)
    _validate.probability("initial", initial)
    _validate.whole("rounds", rounds, minimum=0, maximum=_validate.MAX_LOOP)
    _checks.of_kind("arbiters", arbiters, (Arbiter, type(None)),
                    what="Arbiter (or None for intrinsic revision) by label")


def loop_table(revision: Revision, initial: float, rounds: int, arbiters: dict,
               frame: dict | None = None, *, label: str = N_("loop")) -> pd.DataFrame:
    """Closed-form accuracy after ``rounds`` rounds and the revision calls spent, per loop;
    with ``frame`` (from :func:`rounds_frame`) also the simulated accuracy after the last
    round and its 95 % Wilson interval."""
    _loop_inputs(revision, initial, rounds, arbiters)
    if frame is not None:
        _checks.table("frame", frame, _ROUNDS_KEYS, what="rounds_frame's result")
        if not set(arbiters) <= set(frame):
            raise ValueError(f"frame must hold a row for every loop in arbiters "
                             f"({list(arbiters)}), has {list(frame)}")
    _validate.text("label", label)
    rows = []
    for name, arbiter in arbiters.items():
        row = {label: name,
               N_("closed form"): loop_accuracy(revision, initial, rounds, arbiter)}
        if frame is not None:
            t = frame[name]
            row.update({N_("simulated"): t["rate"][-1], N_("95% low"): t["low"][-1],
                        N_("95% high"): t["high"][-1]})
        row[N_("revision calls")] = expected_revisions(revision, initial, rounds, arbiter)
        rows.append(row)
    return pd.DataFrame(rows)


def blank_nan(form: str, blank: str = ""):
    """A table cell formatter: ``form`` for numbers, ``blank`` where there is none."""
    _validate.text("form", form)
    _validate.text("blank", blank)
    # the cell's number in the page's language (a translated blank is the caller's)
    return lambda value: translate(blank) if pd.isna(value) else Text(form).format(value)


def restart_table(resumed, rebuilt, never_crashed: float) -> pd.DataFrame:
    """First step after a restart, simulated (95 % Wilson intervals), beside the run that
    never crashed (closed form, no interval)."""
    _validate.instance("resumed", resumed, TrajectorySimulation)
    _validate.instance("rebuilt", rebuilt, TrajectorySimulation)
    _validate.probability("never_crashed", never_crashed)
    right = np.array([sim.runs - sim.errors[:, 0].sum() for sim in (resumed, rebuilt)])
    runs = np.array([resumed.runs, rebuilt.runs])
    low, high = wilson_interval(right, runs)
    return pd.DataFrame({
        N_("first step after the restart"): [N_("resumed from the checkpoint"),
                                             N_("context rebuilt without the history"),
                                             N_("never crashed (closed form)")],
        N_("share right"): [*(right / runs), never_crashed],
        N_("95% low"): [*low, np.nan], N_("95% high"): [*high, np.nan]})


def restart_difference(resumed, rebuilt) -> tuple[float, float, float]:
    """Accuracy of the first step after the restart, resumed minus rebuilt, with its
    95 % Newcombe interval (the two simulations must use different seeds)."""
    _validate.instance("resumed", resumed, TrajectorySimulation)
    _validate.instance("rebuilt", rebuilt, TrajectorySimulation)
    right = [int(sim.runs - sim.errors[:, 0].sum()) for sim in (resumed, rebuilt)]
    low, high = newcombe_interval(right[0], resumed.runs, right[1], rebuilt.runs)
    return right[0] / resumed.runs - right[1] / rebuilt.runs, float(low), float(high)


def refine_table(refine: pd.DataFrame) -> pd.DataFrame:
    """The CommonGen-Hard rows, with who reported each and the change within a paper."""
    _checks.frame("refine", refine, ("paper", "condition", "value"))
    out = refine.assign(**{N_("reported by"): refine["paper"].str.split(" 20").str[0]})
    same_paper = out["paper"].eq(out["paper"].shift())
    out[N_("change")] = out["value"].diff().where(same_paper)
    return (out[["reported by", "condition", "value", "change"]]
            .rename(columns={"value": N_("score")}).set_index("condition"))


def _sign_colour(value) -> str:
    if not isinstance(value, (int, float)) or np.isnan(value) or value == 0:
        return f"color: {TEXT_COLOURS['none']}"
    colour = TEXT_COLOURS["up"] if value > 0 else TEXT_COLOURS["down"]
    return f"color: {colour}; font-weight: bold"


def styled_changes(table: pd.DataFrame, *, name: str, digits: int = 1) -> str:
    """HTML for ``table`` with every ``change`` column coloured by sign (blue up,
    vermillion down) and signed. The id is fixed by ``name`` so the HTML is identical on
    every run."""
    _checks.frame("table", table)
    _validate.text("name", name)
    _validate.whole("digits", digits, minimum=0, maximum=20)
    changes = [c for c in table.columns if str(c).startswith("change")]
    # Headers, index labels and text cells in the page's language; the frame keeps its
    # English column names for the code that reads it.
    numbers = [translate(c) for c in table.select_dtypes("number").columns]
    changes = [translate(c) for c in changes]
    table = table.rename(columns=translate, index=translate)
    table.index.names = [translate(n) for n in table.index.names]
    text = [c for c in table.columns if not pd.api.types.is_numeric_dtype(table[c])]
    if text:
        table[text] = table[text].map(translate)
    # numbers in the page's language (reliability.numbers through a translated template)
    plain, signed = Text(f"{{:.{digits}f}}"), Text(f"{{:+.{digits}f}}")
    styler = (table.style.set_uuid(name)
              .format(plain.format, na_rep="", subset=numbers)
              .format(signed.format, subset=changes, na_rep="")
              .map(_sign_colour, subset=changes))
    return styler.to_html()


def rounds_frame(revision: Revision, initial: float, rounds: int, arbiters: dict, *,
                 questions: int, seed: int) -> dict:
    """Closed form and simulated accuracy (95 % Wilson bounds) per loop, rounds 0..k."""
    _loop_inputs(revision, initial, rounds, arbiters)
    _validate.whole("questions", questions, minimum=1)
    _validate.whole("seed", seed, minimum=0)
    ks = np.arange(rounds + 1)
    out = {}
    for i, (label, arbiter) in enumerate(arbiters.items()):
        sim = simulate_loop(revision, initial, rounds, questions=questions, seed=seed + i,
                            arbiter=arbiter)
        low, high = sim.interval()
        out[label] = dict(round=ks, closed=loop_accuracy(revision, initial, ks, arbiter),
                          rate=sim.accuracy, low=low, high=high)
    return out


_LOOP_COLOURS = [PALETTE["vermillion"], PALETTE["blue"], PALETTE["green"], PALETTE["purple"]]


def plot_rounds(frame: dict, *, title: str, medium: str = "phone"):
    """Lines: closed forms. Dots with bars: simulated accuracy and its 95 % interval.
    Drawn for ``medium`` (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    _checks.table("frame", frame, _ROUNDS_KEYS, what="rounds_frame's result")
    _validate.text("title", title)
    fig, ax = _media.subplots(medium, height=5.6, layout="constrained")
    for colour, (label, t) in zip(_LOOP_COLOURS, frame.items()):
        ax.plot(t["round"], t["closed"], color=colour, label=label)
        ax.errorbar(t["round"], t["rate"], yerr=[t["rate"] - t["low"], t["high"] - t["rate"]],
                    fmt="o", ms=4, capsize=2, color=colour)
    ax.set(xlabel=_("rounds of revision"), ylabel=_("share of answers right"), title=title)
    even_percent_axis(ax.yaxis)
    # Under the axes, so it never covers a line, a dot or a tick label.
    legend_below(fig, most_columns=_media.columns(medium, 1),
                 title=_("lines: closed form; dots: simulated, 95% interval"))
    return fit_text(fig)


def draw_recall_frame(fig, recall: float, *, revision: Revision, initial: float,
                      rounds: int, false_reject: float):
    """One scrubber frame: intrinsic, an arbiter of this recall, and the oracle."""
    _checks.figure("fig", fig)
    _validate.probability("recall", recall)
    _validate.instance("revision", revision, Revision)
    _validate.probability("initial", initial)
    _validate.whole("rounds", rounds, minimum=0, maximum=_validate.MAX_LOOP)
    _validate.probability("false_reject", false_reject)
    fig.set_layout_engine("constrained")
    ax = fig.add_subplot()
    ks = np.arange(rounds + 1)
    loops = {_("intrinsic revision"): None,
             _("arbiter, recall {recall:.0%}, false rejection {false_reject:.0%}").format(
                 recall=recall, false_reject=false_reject):
                 Arbiter(recall=recall, false_reject=false_reject),
             _("oracle (stop when right)"): ORACLE}
    for colour, (label, arbiter) in zip(_LOOP_COLOURS, loops.items()):
        ax.plot(ks, loop_accuracy(revision, initial, ks, arbiter), "-o", ms=3,
                color=colour, label=label)
    final = loop_accuracy(revision, initial, rounds, Arbiter(recall, false_reject))
    ax.set(xlabel=_("rounds of revision"), ylabel=_("share of answers right"),
           ylim=(min(0.6, initial - 0.1), 1.0),
           title=_("Model: recall {recall:.0%} ends at {final:.1%} after {rounds}")
           .format(recall=recall, final=final,
                   rounds=counted(rounds, "round", "rounds")))
    even_percent_axis(ax.yaxis)
    legend_below(fig, most_columns=1)
    fit_text(fig)


def conditioning_frame(models: dict[str, SelfConditioning], steps: int, *, runs: int,
                       seed: int) -> dict:
    """Expected and simulated per-step accuracy (95 % Wilson bounds) for each model."""
    _checks.of_kind("models", models, SelfConditioning, what="SelfConditioning by label")
    _validate.whole("steps", steps, minimum=1)
    _validate.whole("runs", runs, minimum=1)
    _validate.whole("seed", seed, minimum=0)
    out = {}
    for i, (label, model) in enumerate(models.items()):
        sim = model.simulate(steps, runs=runs, seed=seed + i)
        low, high = sim.interval()
        out[label] = dict(step=np.arange(1, steps + 1), closed=model.expected_accuracy(steps),
                          rate=sim.accuracy(), low=low, high=high,
                          floor=1.0 - model.fixed_point())
    return out


def plot_conditioning(frame: dict, *, title: str, every: int = 10,
                      medium: str = "phone"):
    """Per-step accuracy along the trajectory: closed-form lines, simulated dots with
    95 % intervals (every ``every``-th step, to keep them legible), dashed long-run
    level; drawn for ``medium`` (:data:`reliability.figures._media.MEDIA`)."""
    _media.medium(medium)
    _checks.table("frame", frame, ("step", "closed", "rate", "low", "high", "floor"),
                  what="conditioning_frame's result")
    _validate.text("title", title)
    _validate.whole("every", every, minimum=1)
    fig, ax = _media.subplots(medium, height=5.6, layout="constrained")
    for colour, (label, t) in zip([PALETTE["vermillion"], PALETTE["blue"], PALETTE["green"]],
                                  frame.items()):
        ax.plot(t["step"], t["closed"], color=colour, label=label)
        pick = slice(every - 1, None, every)
        ax.errorbar(t["step"][pick], t["rate"][pick],
                    yerr=[t["rate"][pick] - t["low"][pick], t["high"][pick] - t["rate"][pick]],
                    fmt="o", ms=3, capsize=2, color=colour)
        ax.axhline(t["floor"], color=colour, ls="--", lw=1)
    ax.set(xlabel=_("step of the trajectory"), ylabel=_("share of runs whose step is right"),
           title=title)
    even_percent_axis(ax.yaxis)
    legend_below(fig, title=_("lines: expected; dots: simulated, 95% interval;\n"
                              "dashed: long-run level"),
                 most_columns=_media.columns(medium, 2))
    return fit_text(fig)


#: Arbiter recalls the live explorer offers (every 5 pp, as the chapter's recall scan).
LIVE_RECALLS = tuple(round(0.05 * i, 2) for i in range(21))
#: Rounds of revision it offers and draws (as the kernel explorer: up to 20).
LIVE_ROUNDS = tuple(range(1, 21))


def live_arbiter(*, break_rate: float, fix_rate: float, initial: float,
                 false_reject: float, questions: int, seed: int, recall: float = 0.6,
                 rounds: int = 6):
    """The chapter's live explorer: accuracy over rounds of revision (a two-state chain
    that breaks ``break_rate`` of right answers and fixes ``fix_rate`` of wrong ones per
    round, starting at ``initial``) for intrinsic revision, an arbiter of recall d and
    false rejection ``false_reject``, and the oracle. Closed forms are lines; the
    arbiter's loop simulated with :func:`reliability.selfcorrection.simulate_loop`
    (``questions`` questions, seed ``seed + 1`` as :func:`rounds_frame` seeds the second
    loop, so the chapter's figure and the chart share their dots) is dots with 95 %
    Wilson intervals; a ring marks the chosen round. The sentence states the three loops'
    accuracy after k rounds, the simulated one with its interval, and the revision calls
    the arbiter spends. ``recall`` and ``rounds`` set where the sliders start, moved to
    the nearest position offered. Returns a :class:`reliability.live.Explorer`."""
    from functools import lru_cache

    from ..live import Control, Explorer, Series, Words

    revision = Revision(_validate.probability("break_rate", break_rate),
                        _validate.probability("fix_rate", fix_rate))
    initial = _validate.probability("initial", initial)
    false_reject = _validate.probability("false_reject", false_reject)
    # questions x 21 recalls x 20 rounds bounds the precomputation.
    questions = _validate.whole("questions", questions, minimum=1, maximum=100_000)
    seed = _validate.whole("seed", seed, minimum=0)
    recall = nearest(LIVE_RECALLS, _validate.probability("recall",
                                                                            recall))
    rounds = nearest(LIVE_ROUNDS, _validate.whole("rounds", rounds,
                                                                    minimum=0))
    ks = np.arange(LIVE_ROUNDS[-1] + 1)

    def arbiter(recall):
        return Arbiter(recall=recall, false_reject=false_reject)

    @lru_cache(maxsize=None)
    def loop(recall):
        # The same seed at every recall: neighbouring positions share their draws.
        sim = simulate_loop(revision, initial, ks[-1], questions=questions, seed=seed + 1,
                            arbiter=arbiter(recall))
        low, high = sim.interval()
        return {"x": ks, "y": sim.accuracy, "low": low, "high": high,
                "closed": loop_accuracy(revision, initial, ks, arbiter(recall))}

    def words(recall, rounds):
        t = loop(recall)
        return {"closed": fmt(t["closed"][rounds], ".1%"), "rate": fmt(t["y"][rounds], ".1%"),
                "low": fmt(t["low"][rounds], ".1%"), "high": fmt(t["high"][rounds], ".1%"),
                "intrinsic": fmt(loop_accuracy(revision, initial, rounds), ".1%"),
                "oracle": fmt(loop_accuracy(revision, initial, rounds, ORACLE), ".1%"),
                "calls": fmt(expected_revisions(revision, initial, rounds, arbiter(recall)), ".2f"),
                # the noun follows the number: "after 1 round", "after 5 rounds"
                "after": counted(rounds, "round", "rounds")}

    return Explorer(
        name="ch5-arbiter",
        controls=(Control("recall", _("arbiter recall d"), LIVE_RECALLS, recall, ".0%"),
                  Control("rounds", _("rounds of revision k"), LIVE_ROUNDS, rounds, "d")),
        series=(
            Series(_("intrinsic revision"), lambda: {
                "x": ks, "y": loop_accuracy(revision, initial, ks)}, colour="vermillion"),
            Series(_("oracle (stop when right)"), lambda: {
                "x": ks, "y": loop_accuracy(revision, initial, ks, ORACLE)},
                colour="green"),
            Series(_("arbiter, closed form"),
                   lambda recall: {"x": ks, "y": loop(recall)["closed"]},
                   depends=("recall",)),
            Series(_("arbiter, simulated, {questions}, 95% Wilson interval")
                   .format(questions=counted(questions, "question", "questions")),
                   lambda recall: {k: loop(recall)[k] for k in ("x", "y", "low", "high")},
                   depends=("recall",), kind="points", colour="orange"),
            Series(_("the chosen round"), lambda recall, rounds: {
                "x": [rounds], "y": [loop(recall)["closed"][rounds]]},
                depends=("recall", "rounds"), kind="marker", colour="black")),
        words=Words(_("Model: starting from {initial:.1%} right, after {{after}} "
                      "an arbiter that sends back {{recall}} of wrong answers and "
                      "{false_reject:.0%} of right ones ends at {{closed}}, spending "
                      "{{calls}} revision calls per question; intrinsic revision ends at "
                      "{{intrinsic}} and the oracle at {{oracle}}. "
                      "A simulation of {questions} gives {{rate}} (95% Wilson "
                      "interval {{low}} to {{high}}).").format(
                          initial=initial, false_reject=false_reject,
                          questions=counted(questions, "question", "questions")),
                    words, depends=("recall", "rounds")),
        x_label=_("rounds of revision k"), y_label=_("share of answers right"),
        title=_("What an arbiter buys (model)"),
        alt=_("Line chart: the share of answers right over 0 to 20 rounds of revision: "
              "intrinsic revision drifts down to its fixed point, the oracle climbs, and "
              "the arbiter's line lies between them, higher for a higher recall; orange "
              "dots with interval bars are seeded simulations of the arbiter's loop, a "
              "black ring marks the chosen round."),
        x_range=(-0.5, ks[-1] + 0.5), y_range=None,
        source=("reliability.figures.selfcorrection.live_arbiter",
                {"break_rate": revision.break_rate, "fix_rate": revision.fix_rate,
                 "initial": initial, "false_reject": false_reject,
                 "questions": questions, "seed": seed, "recall": recall,
                 "rounds": rounds}))
