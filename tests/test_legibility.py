"""The phone audit (reliability.notebook.figure_problems) reports each problem a figure
can have when planted in an otherwise clean figure, and passes the clean one."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

from reliability.notebook import FIGURE_WIDTH_IN, figure_problems, fit_text, setup


@pytest.fixture(autouse=True)


def book_style():
    with matplotlib.rc_context():
        setup()   # the book's sizes, which the audit's thresholds assume
        yield
    plt.close("all")


def _figure():
    fig, ax = plt.subplots(figsize=(FIGURE_WIDTH_IN, 3.4), layout="constrained")
    x = np.linspace(0, 1, 50)
    ax.plot(x, x, label="rising")
    ax.plot(x, 0.5 + 0 * x, label="flat")
    ax.set(xlabel="share", ylabel="rate", title="A short title")
    return fig, ax


def test_a_clean_figure_with_its_legend_below_the_axes_passes():
    fig, ax = _figure()
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25), ncols=2)
    assert figure_problems(fig) == []


def test_a_legend_in_an_empty_corner_passes():
    fig, ax = _figure()
    ax.set_ylim(0, 1.6)   # nothing is drawn above 1
    ax.legend(loc="upper left")
    assert figure_problems(fig) == []


def test_a_legend_over_a_line_is_reported():
    fig, ax = _figure()
    ax.legend(loc="center")   # the flat line runs through the middle
    problems = figure_problems(fig)
    assert any("the legend ('rising', 'flat') covers line" in p for p in problems), \
        problems


def test_a_legend_over_a_line_between_its_points_is_reported():
    """Two vertices far apart, the legend between them on the segment."""
    fig, ax = plt.subplots(figsize=(FIGURE_WIDTH_IN, 3.4), layout="constrained")
    ax.plot([0, 1], [0.5, 0.5], label="two points")
    ax.set(xlim=(-0.1, 1.1), ylim=(0, 1))
    ax.legend(loc="center")
    problems = figure_problems(fig)
    assert any("covers line 'two points'" in p for p in problems), problems


def test_a_legend_over_bars_is_reported():
    fig, ax = plt.subplots(figsize=(FIGURE_WIDTH_IN, 3.4), layout="constrained")
    ax.bar(["a", "b", "c", "d"], [0.9, 0.95, 0.9, 0.92], label="share")
    ax.legend(loc="upper right")
    problems = figure_problems(fig)
    assert any("covers a bar" in p for p in problems), problems


def test_a_legend_over_markers_and_scatter_points_is_reported():
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(FIGURE_WIDTH_IN, 6),
                                      layout="constrained")
    top.plot([0.05, 0.5, 0.95], [0.95, 0.2, 0.9], "o", label="points")
    top.set(xlim=(0, 1), ylim=(0, 1))
    top.legend(loc="upper left")
    bottom.scatter([0.1, 0.9], [0.9, 0.1], label="scatter")
    bottom.set(xlim=(0, 1), ylim=(0, 1))
    bottom.legend(loc="upper left")
    problems = figure_problems(fig)
    assert any("covers the markers of line 'points'" in p for p in problems), problems
    assert any("covers scatter points" in p for p in problems), problems


def test_a_boxed_label_over_a_marker_is_reported_and_over_a_reference_line_is_not():
    """A label drawn on a white box hides what lies under it: over an interval's marker
    that is a problem (chapter 9's Russian rig-vs-lab figure hid two of the rig's markers
    behind wrapped stage names), over a grid or reference line it is what the box is
    for."""
    fig, ax = plt.subplots(figsize=(FIGURE_WIDTH_IN, 3.4), layout="constrained")
    ax.axvline(0.5, color="black")
    ax.errorbar(0.2, 0.5, xerr=0.1, fmt="s", label="rig")
    ax.set(xlim=(0, 1), ylim=(0, 1))
    label = ax.text(0.05, 0.55, "a stage name,\nwrapped", va="top",
                    bbox=dict(facecolor="white", edgecolor="none", pad=1))
    problems = figure_problems(fig)
    assert any("hides a marker" in p and "a stage name" in p for p in problems), problems
    label.set_position((0.45, 0.95))   # over the reference line only
    assert figure_problems(fig) == []


def _contour_map():
    fig, ax = plt.subplots(figsize=(FIGURE_WIDTH_IN, 3.4), layout="constrained")
    x = np.linspace(0, 1, 41)
    lines = ax.contour(x, x, np.add.outer(x, x) / 2, levels=[0.3, 0.7])
    ax.set(xlabel="share", ylabel="rate", title="A contour map")
    return fig, ax, lines


def test_a_contour_label_over_a_marker_is_reported_even_over_the_markers_edge_only():
    """Chapter 3's '90%' sat on the chosen verifier's dot: the label's box covered the
    dot's edge, not its centre."""
    fig, ax, lines = _contour_map()
    fig.canvas.draw()
    label, = ax.clabel(lines, levels=[0.7], manual=[(0.7, 0.7)], inline=False,
                       fmt="%.1f")
    box = label.get_window_extent(fig.canvas.get_renderer())
    # A dot whose centre is 3 px right of the label, its 7-pt body under the label.
    assert 7 / 2 * fig.dpi / 72 > 3
    x, y = ax.transData.inverted().transform((box.x1 + 3, (box.y0 + box.y1) / 2))
    dot, = ax.plot(x, y, "o", ms=7)
    problems = figure_problems(fig)
    assert any("contour label '0.7' hides a marker" in p for p in problems), problems
    dot.set_data([0.1], [0.9])   # far from the label
    assert figure_problems(fig) == []


def test_a_contour_label_past_its_axes_is_reported():
    """Chapter 3's '70%' label sat on the map's bottom edge, clipped there to '0%'."""
    fig, ax, lines = _contour_map()
    fig.canvas.draw()
    label, = ax.clabel(lines, levels=[0.3], manual=[(0.3, 0.3)], inline=False,
                       fmt="%.1f")
    assert figure_problems(fig) == []
    label.set_position((0.3, 0.0))   # half below the map
    problems = figure_problems(fig)
    assert any("text '0.3' runs" in p and "past its axes" in p for p in problems), \
        problems


def _ch03_tradeoff(language, medium, **setting):
    from reliability.figures import verifiers as fig_verifiers
    from reliability.workflow import Verifier, Workflow

    setup(language=language)
    base = Workflow(steps=10, error=setting.get("error", 0.05),
                    silent=setting.get("silent", 0.03),
                    attempts=setting.get("attempts", 3))
    mark = Verifier(setting.get("recall", 0.8), setting.get("false_reject", 0.05))
    grid = fig_verifiers.tradeoff_grid(base, np.linspace(0, 1, 41),
                                       np.linspace(0, max(0.5, mark.false_reject), 41))
    return fig_verifiers.plot_tradeoff(
        grid, mark=mark, medium=medium,
        title="Ten steps (model): success needs high recall and low false rejection")


@pytest.mark.parametrize("setting", [{}, {"error": 0.0, "silent": 0.0},
                                     {"recall": 0.0, "false_reject": 0.0},
                                     {"recall": 1.0, "false_reject": 0.5},
                                     {"attempts": 10}],
                         ids=["defaults", "no-errors", "corner", "far-corner", "A10"])
@pytest.mark.parametrize("medium", ["phone", "page"])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_ch03_tradeoff_maps_keep_their_contour_labels_inside_and_off_the_dot(
        language, medium, setting):
    """Issue 41 (ch03): '90%' hid the chosen verifier's dot and '70%' was clipped at the
    map's edge. At the chapter's defaults and at the ends of its ranges, in both
    editions and on a phone and a page, the audit finds nothing and each map keeps
    labels on at least two of its contours."""
    from reliability.figures._media import MEDIA

    fig = _ch03_tradeoff(language, medium, **setting)
    assert figure_problems(fig, column_px=MEDIA[medium].shown_px or 358) == []
    maps = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
    labelled = [{t.get_text() for t in ax.texts} for ax in maps]
    assert len(labelled[0]) >= 2, labelled


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_rig_beside_lab_figure_shows_every_marker_at_a_phones_width(language):
    """Chapter 9's figure at its settings, in both editions: every stage's name wraps
    to the figure and pushes its two intervals down, so no name hides a marker."""
    from reliability.datasets import load
    from reliability.figures import lab as fig_lab
    from reliability.lab.rig import mirror_stages

    setup(language=language)
    mirrors = mirror_stages(load("forge_gap"), seed=20261209)
    fig = fig_lab.plot_rig_vs_lab(fig_lab.mirror_rows(mirrors), title="Rig beside lab")
    assert figure_problems(fig) == []
    names = [t for t in fig.axes[0].texts if t.get_text().startswith("S")]
    assert len(names) == len(mirrors) and any("\n" in t.get_text() for t in names) \
        == (language == "ru")


def test_a_legend_below_one_panel_over_the_next_one_is_reported():
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(FIGURE_WIDTH_IN, 6))
    top.plot([0, 1], [0, 1], label="top line")
    bottom.plot([0, 1], [1, 1], label="bottom line")
    bottom.set(ylim=(0, 1.05))
    top.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1))
    problems = figure_problems(fig)
    assert any("covers line 'bottom line'" in p for p in problems), problems


def test_a_title_wider_than_the_figure_is_reported():
    fig, ax = _figure()
    ax.set_title("A title that states a finding in far too many words for a phone")
    problems = figure_problems(fig)
    assert any("past the figure's" in p and "A title that" in p for p in problems), \
        problems
    ax.set_title("A title that states a finding\nin far too many words for a phone")
    assert figure_problems(fig) == []


def test_fit_text_wraps_a_long_title_and_label_onto_even_lines_that_fit():
    fig, ax = _figure()
    title = ("Заголовок, который утверждает вывод слишком многими словами для экрана "
             "телефона (модель)")
    ax.set_title(title)
    ax.set_xlabel("per-step error rate 1 − p (log scale; better to the right)")
    assert figure_problems(fig)
    fit_text(fig)
    assert figure_problems(fig) == []
    lines = ax.get_title().split("\n")
    assert " ".join(lines) == title and len(lines) == 3   # every word kept
    lengths = [len(line) for line in lines]
    assert max(lengths) - min(lengths) < 10   # even lines, not a word left over


def test_small_text_is_reported_against_the_phone_column():
    fig, ax = _figure()
    ax.set_xlabel("share", fontsize=9)
    problems = figure_problems(fig)
    assert any("'share' is" in p and "at least 13 px" in p for p in problems), problems
    wide = plt.figure(figsize=(7.0, 3.4))   # the old width shrinks 12.5-pt text too
    wide.add_subplot().set_xlabel("share")
    assert any("'share' is" in p for p in figure_problems(wide))


def test_a_figure_saved_in_memory_carries_its_smallest_text_in_image_pixels():
    """What a notebook's inline figure stores: the browser test scales this by the width
    the page shows the image at (tests/test_browser.py)."""
    import io

    from PIL import Image

    from reliability.notebook import TEXT_SIZE_KEY

    fig, ax = _figure()
    ax.set_xlabel("share", fontsize=14)
    ax.tick_params(labelsize=10)   # the smallest text
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=200, bbox_inches="tight")
    image = Image.open(io.BytesIO(buffer.getvalue()))
    assert float(image.text[TEXT_SIZE_KEY]) == pytest.approx(10 / 72 * 200, abs=0.01)
    assert image.mode == "P"   # 256 colours: half the bytes, nothing visible lost


def test_fit_text_wraps_a_legend_entry_wider_than_the_figure():
    from reliability.notebook import legend_below

    fig, ax = _figure()
    ax.lines[0].set_label("повторы + верификатор — симуляция, 95%-й интервал, "
                          "ещё длиннее")
    legend_below(fig, most_columns=1)
    assert any("past the figure's" in p for p in figure_problems(fig))
    fit_text(fig)
    assert figure_problems(fig) == []
    assert "\n" in fig.legends[0].get_texts()[0].get_text()


def test_fit_text_ends_on_a_word_longer_than_the_room():
    fig, ax = plt.subplots(figsize=(1.5, 2.0), layout="constrained")
    ax.set_title("Самообуславливание продолжается")   # each word wider than the room
    fit_text(fig)   # returns: the loop that evens the lines stops
    assert ax.get_title().split() == ["Самообуславливание", "продолжается"]


def _explorer_png(drawn: list):
    """An ipywidgets explorer whose function saves its figure as an inline one would,
    moved once: the PNG its update drew."""
    import io

    import ipywidgets

    def draw(share=0.5):
        fig, ax = _figure()
        ax.axhline(share)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=200, bbox_inches="tight",
                    metadata={"Software": None})
        plt.close(fig)
        drawn.append(buffer.getvalue())

    explorer = ipywidgets.interactive(draw, share=(0.0, 1.0, 0.1))
    explorer.kwargs_widgets[0].value = 0.3
    return drawn[-1]


def test_an_explorers_update_keeps_full_colour_and_its_text_size_the_page_keeps_256():
    """A kernel explorer's update (a student waits; no page stores it) is written fast,
    in full colour, still carrying its smallest text; the same figure saved outside an
    update, as a chapter's stored figure is, keeps 256 colours. Both show the same
    picture at the same size."""
    import io

    from PIL import Image, ImageChops

    from reliability.notebook import TEXT_SIZE_KEY

    written = Image.open(io.BytesIO(_explorer_png([])))
    assert written.mode == "RGBA" and written.getchannel("A").getextrema() == (255, 255)
    live = written.convert("RGB")
    fig, ax = _figure()
    ax.axhline(0.3)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=200, bbox_inches="tight",
                metadata={"Software": None})
    stored = Image.open(io.BytesIO(buffer.getvalue()))
    assert stored.mode == "P"
    assert written.text[TEXT_SIZE_KEY] == stored.text[TEXT_SIZE_KEY]
    assert live.size == stored.size
    # the same drawing: quantising the live image gives the stored one's pixels
    quantised = live.quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                              dither=Image.Dither.NONE).convert("RGB")
    assert ImageChops.difference(quantised, stored.convert("RGB")).getbbox() is None


@pytest.mark.parametrize("language", ["en", "ru"])
def test_fit_text_wraps_as_it_would_after_whole_draws(monkeypatch, language):
    """fit_text lays the figure out without drawing it (the layout engine, then each
    legend placed): every title, label, legend title and entry ends wrapped exactly as
    when each round drew the whole figure, as fit_text once did."""
    from reliability.notebook import legend_below, style

    def build():
        fig, axes = plt.subplots(2, 1, figsize=(FIGURE_WIDTH_IN, 6), layout="constrained")
        for k in range(3):
            axes[0].plot([0, 1], [k, k + 1],
                         label=f"an entry long enough to need a second line, number {k}")
        axes[0].set_title("A title long enough that a phone's figure cannot hold it "
                          "on one line (model)")
        axes[1].set_ylabel("a vertical label long enough to be wrapped onto lines")
        axes[1].set_xlabel("an axis label that runs well past the width of the figure")
        legend_below(fig, title="lines: closed form; dots: simulation, 95% interval "
                                "intervals drawn")
        return fit_text(fig)

    def texts(fig):
        return [t.get_text() for t in fig.findobj(matplotlib.text.Text)]

    from reliability import i18n

    # the language set back after, and the book's rcParams: later tests in this process
    # draw and print in English with matplotlib's defaults
    with matplotlib.rc_context(), i18n.language(language):
        setup(language=language)
        laid_out = texts(build())
        monkeypatch.setattr(style, "_lay_out", lambda fig, renderer, **_:
                            fig.draw_without_rendering())
        drawn = texts(build())
    assert laid_out == drawn
    assert sum("\n" in text for text in laid_out) >= 4


@pytest.mark.parametrize("language", ["en", "ru"])
def test_an_explorers_update_is_laid_out_once_and_shows_the_stored_picture(language):
    """In a kernel explorer's update, legend_below and fit_text lay the figure out at the
    resolution of its retina PNG and the save keeps that layout rather than solving it
    again (fewer passes of the layout engine, the slow part of an update), and passes
    over the figure once, to draw it (no pass with drawing switched off); the picture
    is the one the same figure gives saved outside an update, pixel for pixel, wrapped
    title and legend included."""

    import ipywidgets
    from matplotlib.layout_engine import ConstrainedLayoutEngine
    from PIL import Image, ImageChops

    from reliability import i18n
    from reliability.notebook import legend_below

    from matplotlib.figure import Figure

    passes, draws = [], []
    execute, figure_draw = ConstrainedLayoutEngine.execute, Figure.draw

    def counted(engine, fig):
        passes[-1] += 1
        return execute(engine, fig)

    def counted_draw(fig, renderer):
        draws[-1] += 1
        return figure_draw(fig, renderer)

    def draw(share=0.5):
        passes.append(0)
        draws.append(0)
        fig, ax = plt.subplots(figsize=(FIGURE_WIDTH_IN, 3.4), layout="constrained")
        for k in range(3):
            ax.plot([0, 1], [share * k, k], label=f"an entry long enough, number {k}")
        ax.set_title(f"A title long enough that a phone's figure cannot hold it: "
                     f"{share:.1f} (model)")
        legend_below(fig)
        fit_text(fig)
        return _retina(fig)

    with matplotlib.rc_context(), i18n.language(language):
        setup(language=language)
        ConstrainedLayoutEngine.execute, Figure.draw = counted, counted_draw
        try:
            live = []
            explorer = ipywidgets.interactive(lambda share: live.append(draw(share)),
                                              share=(0.0, 1.0, 0.1))
            explorer.kwargs_widgets[0].value = 0.3
            stored = draw(0.3)
        finally:
            ConstrainedLayoutEngine.execute, Figure.draw = execute, figure_draw
    assert passes[-2] < passes[-1]
    assert draws[-2] == 1 < draws[-1]
    assert live[-1].mode == "RGBA" and live[-1].size == stored.size
    quantised = live[-1].convert("RGB").quantize(
        colors=256, method=Image.Quantize.MEDIANCUT,
        dither=Image.Dither.NONE).convert("RGB")
    assert ImageChops.difference(quantised, stored.convert("RGB")).getbbox() is None


def test_text_is_measured_once_across_figures_and_draws_the_same_pixels():
    """An explorer's every update draws a new figure, whose new renderer forgot every
    measurement: setup() keeps each text's layout, so a second figure with the same
    words measures none of them again (the first did), and its PNG is the one
    matplotlib's own measuring gives, pixel for pixel, in either language."""
    import io

    from matplotlib.backends.backend_agg import RendererAgg
    from matplotlib.text import Text
    from PIL import Image, ImageChops

    measured = []
    measure = RendererAgg.get_text_width_height_descent

    def counted(renderer, s, prop, ismath):
        measured[-1] += 1
        return measure(renderer, s, prop, ismath)

    def png():
        measured.append(0)
        fig, ax = _figure()
        ax.set_title("Measured once, at 0.5 (model)")
        fit_text(fig)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=200, bbox_inches="tight")
        plt.close(fig)
        return Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")

    kept = Text._get_layout
    assert getattr(kept, "_remembered", False)
    RendererAgg.get_text_width_height_descent = counted
    try:
        first, second = png(), png()
        Text._get_layout = kept.__wrapped__
        fresh = png()
    finally:
        Text._get_layout = kept
        RendererAgg.get_text_width_height_descent = measure
    assert measured[0] > 0 and measured[1] == 0 < measured[2]
    assert ImageChops.difference(first, fresh).getbbox() is None
    assert ImageChops.difference(second, fresh).getbbox() is None


def test_a_wrapped_lines_width_is_measured_once_and_as_a_fresh_renderer_measures_it():
    """_layout.wrap measures the same words at every update of an explorer: each line's
    width at a size and font is measured once, and it is the width a fresh 72-dpi
    renderer gives (so every title wraps where it did)."""
    from matplotlib.backends.backend_agg import RendererAgg
    from matplotlib.font_manager import FontProperties

    from reliability.figures import _layout

    words = "Limit 7: 9.6% of tasks hit it (95% CI 8.7% to 10.5%) in a model mix"
    measured = []
    measure = RendererAgg.get_text_width_height_descent

    def counted(renderer, s, prop, ismath):
        measured.append(s)
        return measure(renderer, s, prop, ismath)

    _layout._line_width.cache_clear()
    RendererAgg.get_text_width_height_descent = counted
    try:
        first = _layout.wrap(words, 3.0, size="axes.titlesize")
        again = len(measured), _layout.wrap(words, 3.0, size="axes.titlesize")
    finally:
        RendererAgg.get_text_width_height_descent = measure
    assert measured and again == (len(measured), first)
    fresh = RendererAgg(8, 8, 72)
    size = FontProperties(size=matplotlib.rcParams["axes.titlesize"]).get_size_in_points()
    for line in first.split("\n"):
        width = fresh.get_text_width_height_descent(line, FontProperties(size=size),
                                                    ismath=False)[0]
        assert _layout.text_width(line, "axes.titlesize") == width / 72 <= 3.0
    assert "\n" in first


@pytest.mark.parametrize("language", ["en", "ru"])
def test_an_explorers_update_of_a_hand_placed_figure_draws_once_the_stored_picture(
        language):
    """A figure laid out by figures/_layout.finish (no layout engine), saved in a
    kernel explorer's update, is drawn once (its tight box measured, not found by a
    pass over the whole figure with drawing switched off) and shows the picture the
    same figure gives saved outside an update, pixel for pixel."""

    import ipywidgets
    from matplotlib.figure import Figure
    from PIL import Image, ImageChops

    from reliability import i18n
    from reliability.figures import budgets
    from reliability.harness.budget import TaskMix

    draws = []
    figure_draw = Figure.draw

    def counted_draw(fig, renderer):
        draws[-1] += 1
        return figure_draw(fig, renderer)

    sample = TaskMix(median=6.0, spread=0.5, stuck=0.03).simulate(2000, seed=1)

    def draw(limit):
        draws.append(0)
        fig = plt.figure(figsize=budgets.LIMIT_FIGSIZE)
        budgets.draw_limit_frame(fig, sample, limit)
        return _retina(fig)

    with matplotlib.rc_context(), i18n.language(language):
        setup(language=language)
        Figure.draw = counted_draw
        try:
            live = []
            explorer = ipywidgets.interactive(lambda limit: live.append(draw(limit)),
                                              limit=(1, 30))
            explorer.kwargs_widgets[0].value = 3
            stored = draw(3)
        finally:
            Figure.draw = figure_draw
    assert draws[-2] == 1 < draws[-1]
    assert live[-1].mode == "RGBA" and live[-1].size == stored.size
    quantised = live[-1].convert("RGB").quantize(
        colors=256, method=Image.Quantize.MEDIANCUT,
        dither=Image.Dither.NONE).convert("RGB")
    assert ImageChops.difference(quantised, stored.convert("RGB")).getbbox() is None

def _retina(fig):
    """The figure as IPython's retina PNG (twice the figure's dpi), closed after."""
    import io

    from PIL import Image

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=2 * fig.dpi, bbox_inches="tight",
                metadata={"Software": None})
    plt.close(fig)
    return Image.open(io.BytesIO(buffer.getvalue()))


@pytest.mark.parametrize("chapter", ["07", "10"])
def test_finish_stopping_at_a_settled_pass_lays_out_what_every_pass_would(chapter):
    """figures/_layout.finish stops at a pass that changes nothing it reads; the
    figure it leaves is the one its three passes and last layout leave, to the bit
    (chapter 10's frame settles after two passes, chapter 7's never quite does)."""
    from reliability.figures import _layout, budgets, reading
    from reliability.harness.budget import TaskMix

    def frame():
        if chapter == "07":
            fig = plt.figure(figsize=budgets.LIMIT_FIGSIZE)
            sample = TaskMix(median=6.0, spread=0.5, stuck=0.03).simulate(500, seed=1)
            budgets.draw_limit_frame(fig, sample, 12)
        else:
            fig = plt.figure(figsize=reading.THRESHOLD_FIGSIZE)
            reading.draw_threshold_frame(fig, 1.0, separation=2.0, relevance_cases=16,
                                         irrelevance_cases=240, seed=0)
        return fig

    layouts, tight_layout = [], matplotlib.figure.Figure.tight_layout

    def counted(fig, **kwargs):
        layouts[-1] += 1
        return tight_layout(fig, **kwargs)

    def every_pass(fig, **tight):   # the loop without its stop
        for unused in range(3):
            _layout._fit_text(fig)
            fig.tight_layout(**tight)
            _layout._place_legends(fig)
        fig.tight_layout(**tight)

    drawer = budgets if chapter == "07" else reading   # calls finish by its own name
    assert drawer.finish is _layout.finish
    matplotlib.figure.Figure.tight_layout = counted
    try:
        layouts.append(0)
        stopped = _layout._layout_state(frame())
        drawer.finish = every_pass
        layouts.append(0)
        full = _layout._layout_state(frame())
    finally:
        drawer.finish = _layout.finish
        matplotlib.figure.Figure.tight_layout = tight_layout
    assert stopped == full
    assert layouts[1] == 4 and layouts[0] == (3 if chapter == "10" else 4), layouts


def _limit_frame(language="en"):
    """Chapter 7's explorer frame: a bar chart placed by figures/_layout.finish."""
    from reliability.figures import budgets
    from reliability.harness.budget import TaskMix

    sample = TaskMix(median=6.0, spread=0.5, stuck=0.03).simulate(500, seed=1)
    fig = plt.figure(figsize=budgets.LIMIT_FIGSIZE)
    budgets.draw_limit_frame(fig, sample, 12)
    return fig


_CONSTRAINED_TITLE = ("A title long enough that a phone's figure cannot hold it on one "
                      "line (model)")


def _constrained_frame():
    """A constrained-layout figure with a title fit_text wraps and a legend below."""
    from reliability.notebook import legend_below

    fig, ax = _figure()
    ax.bar(np.arange(8), np.linspace(0.2, 0.9, 8), label="bars")
    ax.set_title(_CONSTRAINED_TITLE)
    legend_below(fig)
    fit_text(fig)
    return fig


@pytest.mark.parametrize("build", [_limit_frame, _constrained_frame])
def test_layout_shortcuts_lay_out_what_matplotlib_does_with_fewer_tick_searches(
        monkeypatch, build):
    """While a figure is laid out, each axis's ticks are found once per view interval
    and bars clipped to their axes are left out of its tight box (matplotlib compares
    their clip box with the axes' exactly, and a bar's can differ by 1e-13 of a pixel).
    The layout is matplotlib's own to the bit and the picture the same pixels: with the
    shortcuts switched off, the same figure finds its ticks many more times and
    measures every bar."""
    import contextlib

    from matplotlib.axis import Axis
    from matplotlib.patches import Rectangle
    from PIL import ImageChops

    from reliability.figures import _layout
    from reliability.notebook import legibility, style

    searches, bars_measured = [], []
    find, extent = Axis._update_ticks, Rectangle.get_window_extent

    def counted_find(axis):
        searches[-1] += 1
        return find(axis)

    def counted_extent(patch, renderer=None):
        bars_measured[-1] += 1
        return extent(patch, renderer)

    def laid_out():
        searches.append(0)
        bars_measured.append(0)
        fig = build()
        places = [ax.get_position().bounds for ax in fig.axes]
        texts = [t.get_text() for ax in fig.axes for t in (ax.title, ax.xaxis.label)]
        return places, texts, _retina(fig).convert("RGB")

    monkeypatch.setattr(Axis, "_update_ticks", counted_find)
    monkeypatch.setattr(Rectangle, "get_window_extent", counted_extent)
    fast = laid_out()
    for module in (_layout, style, legibility):
        monkeypatch.setattr(module, "_layout_shortcuts", contextlib.nullcontext)
    slow = laid_out()
    assert fast[:2] == slow[:2]
    assert ImageChops.difference(fast[2], slow[2]).getbbox() is None
    assert 0 < 3 * searches[0] < searches[1], searches
    assert bars_measured[0] < bars_measured[1], bars_measured


def test_text_is_shaped_and_its_glyphs_rendered_once_and_paints_matplotlibs_pixels():
    """setup() keeps each text's glyph layout and each glyph's image per place within a
    pixel: a second figure with the same words renders no glyph again, and both paint
    what matplotlib's own text drawing paints, pixel for pixel, level or turned, at
    places that fall between pixels, antialiased or not, in both scripts."""
    import io

    from matplotlib.backends.backend_agg import RendererAgg
    from PIL import Image, ImageChops

    from reliability.notebook import style

    def png():
        fig, ax = _figure()
        ax.set_title("Шаг 0.37: доля 12,5 % (model)")
        for k, angle in enumerate((0, 90, 33)):
            ax.text(0.1 + 0.2137 * k, 0.3 + 0.1093 * k,
                    f"at {k / 7:.4f}, turned {angle}", rotation=angle)
        ax.text(0.5, 0.9, "not antialiased", antialiased=False)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=200)
        plt.close(fig)
        return Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")

    remembered = RendererAgg.draw_text
    assert getattr(remembered, "_remembered", False)
    style._glyphs_kept.clear()
    first = png()
    rendered = len(style._glyphs_kept)
    second = png()
    RendererAgg.draw_text = remembered.__wrapped__
    try:
        matplotlibs = png()
    finally:
        RendererAgg.draw_text = remembered
    assert rendered > 0 and len(style._glyphs_kept) == rendered
    assert ImageChops.difference(first, matplotlibs).getbbox() is None
    assert ImageChops.difference(second, matplotlibs).getbbox() is None


def test_fit_text_measures_a_candidate_line_once_across_figures_and_wraps_the_same():
    """An explorer's title is wrapped again at every update, from mostly the same
    words: each candidate line is measured once per font and resolution, and the lines
    are the ones a fresh measurement gives."""
    from matplotlib.backends.backend_agg import RendererAgg

    from reliability.notebook import style

    measured = []
    measure = RendererAgg.get_text_width_height_descent

    def counted(renderer, s, prop, ismath):
        # (the title's candidate lines: a legend also measures "lp" for its descent)
        measured[-1] += s in _CONSTRAINED_TITLE
        return measure(renderer, s, prop, ismath)

    def wrapped():
        measured.append(0)
        fig = _constrained_frame()
        title = fig.axes[0].title.get_text()
        plt.close(fig)
        return title

    RendererAgg.get_text_width_height_descent = counted
    try:
        style._line_widths.clear()
        first, second = wrapped(), wrapped()
        style._line_widths.clear()
        fresh = wrapped()
    finally:
        RendererAgg.get_text_width_height_descent = measure
    assert "\n" in first and first == second == fresh
    assert measured[0] > 0 and measured[1] == 0 < measured[2], measured


def test_an_explorers_quick_png_holds_the_drawn_pixels_and_text_exactly():
    """A live update's PNG is written by the package (rows stored as differences from
    the row above, zlib's fastest level), not by Pillow: Pillow reads back every pixel
    the canvas drew, opaque or translucent, and each text chunk, a Cyrillic value too;
    the file passes Pillow's CRC checks."""
    import io
    import zlib

    from PIL import Image

    from reliability.notebook.legibility import _png_with_text

    fig, ax = _figure()
    ax.bar([1, 2, 3], [0.2, 0.5, 0.3], color=["#0072b2", "#e69f00", "#009e73"])
    fig.canvas.draw()
    drawn = np.asarray(fig.canvas.buffer_rgba()).copy()
    plt.close(fig)
    translucent = drawn.copy()
    alpha = translucent[::7, ::3, 3]
    alpha[...] = np.arange(alpha.size).reshape(alpha.shape) % 256
    for pixels in (drawn, translucent):
        text = {"reliability-smallest-text-px": "25.00", "Title": "доля отказов"}
        written = _png_with_text(pixels, text, fast=True)
        Image.open(io.BytesIO(written)).verify()
        image = Image.open(io.BytesIO(written))
        assert image.mode == "RGBA" and image.text == text
        assert np.array_equal(np.asarray(image), pixels)
        # every row after the first is filtered "Up" (type 2): the quick path was taken
        start = written.index(b"IDAT") + 4
        raw = zlib.decompress(written[start:start + int.from_bytes(
            written[start - 8:start - 4], "big")])
        stride = 4 * pixels.shape[1] + 1
        assert raw[0] == 0 and set(raw[stride::stride]) == {2}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_title_is_wrapped_once_by_finish_and_reads_as_wrapped_twice(language):
    """figures/_layout.title measures nothing: finish wraps the words to the room its
    axes leaves. The figure is the one a title first wrapped to the figure's width
    gives (as title did before), pixel for pixel, in both languages; and finish's
    first pass is what wraps it."""
    from reliability import i18n
    from reliability.figures import _layout

    measured, line_width = [], _layout._line_width

    def counted(line, points, settings):
        measured.append(line)
        return line_width(line, points, settings)

    def pre_wrapped(ax, text, **kwargs):   # the title as it was set before
        width = ax.figure.get_figwidth() - 2 * _layout._MARGIN_IN
        ax.set_title(_layout.wrap(text, width, size="axes.titlesize"), **kwargs)
        ax.title._unwrapped, ax.title._within_axes = text, False

    with matplotlib.rc_context(), i18n.language(language):
        setup(language=language)
        words = i18n.gettext("Limit {limit}: {share:.1%} of tasks hit it ")
        fig, ax = plt.subplots(figsize=(FIGURE_WIDTH_IN, 3.0))
        _layout._line_width.cache_clear()
        _layout._line_width = counted
        try:
            _layout.title(ax, words * 4)
            assert measured == [] and ax.get_title() == words * 4
            _layout.finish(fig)
        finally:
            _layout._line_width = line_width
        assert measured and "\n" in ax.get_title()
        now = _retina(fig)
        fig, ax = plt.subplots(figsize=(FIGURE_WIDTH_IN, 3.0))
        pre_wrapped(ax, words * 4)
        _layout.finish(fig)
        before = _retina(fig)
    assert np.array_equal(np.asarray(now), np.asarray(before))


@pytest.mark.parametrize("language", ["en", "ru"])
def test_wrap_breaks_where_taking_words_one_at_a_time_does_with_fewer_measures(language):
    """figures/_layout.wrap measures its guess of a line's end and the word next to it,
    then halves, instead of every run of words in turn: the lines are those of taking
    words while they fit (written out here), for titles of the book's explorers in both
    languages, numbers and all, at widths from a word's to the figure's, while it
    measures fewer lines (no more at a title's room; fewer in all, though a line of a
    word or two can take a measure more); a word too wide alone keeps its own line."""
    import random

    from reliability import i18n
    from reliability.figures import _layout

    def one_at_a_time(text, width):
        if _layout.text_width(text, "axes.titlesize") <= width:
            return text
        lines = []
        for word in text.split():
            if lines and _layout.text_width(f"{lines[-1]} {word}",
                                            "axes.titlesize") <= width:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        return "\n".join(lines)

    measured, line_width = [], _layout._line_width

    def counted(line, points, settings):
        measured.append(line)
        return line_width.__wrapped__(line, points, settings)

    draw = random.Random(7)
    with matplotlib.rc_context(), i18n.language(language):
        setup(language=language)
        template = i18n.gettext("Limit {limit}: {share:.1%} of tasks hit it "
                                "(95% CI {low:.1%} to {high:.1%}),\n"
                                "{cut:.1%} are sound tasks cut short "
                                "(simulated task mix)")
        titles = [template.format(limit=draw.randint(1, 30), share=draw.random(),
                                  low=draw.random(), high=draw.random(),
                                  cut=draw.random()) for _ in range(12)]
        titles.append("Incomprehensibilities " * 3 + "a")   # words wider than the room
        widths = [0.3, 0.9, 1.7, 2.4, 3.1, 3.9, 4.44]
        wanted = {(t, w): one_at_a_time(t, w) for t in titles for w in widths}
        _layout._line_width = counted
        totals = [0, 0]
        try:
            for (text, width), lines in wanted.items():
                measured.clear()
                assert _layout.wrap(text, width, size="axes.titlesize") == lines
                measures = len(measured)
                measured.clear()
                one_at_a_time(text, width)
                totals[0] += measures
                totals[1] += len(measured)
                if width >= 2.4:   # a title's room in a figure of the book's width
                    assert measures <= len(measured), (text, width)
            assert totals[0] < totals[1], totals
        finally:
            _layout._line_width = line_width
