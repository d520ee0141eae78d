"""Live explorers: the data written into the page, the sentence the page shows, and
chapter 1's explorer against its closed form. The browser side (the page shows these
numbers, moved by keyboard, at desktop and phone widths) is in tests/test_browser.py."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

from reliability import horizon
from reliability.figures import chain
from reliability.live import MAX_FRAMES, MAX_POSITIONS, Control, Explorer, Series, Words


def _explorer(**override):
    parts = dict(
        name="t-live",
        controls=(Control("a", "a value", (0.1, 0.2, 0.3), 0.2, ".0%"),
                  Control("k", "a count", (1, 2, 3, 4), 2, "d")),
        series=(Series("line", lambda a: {"x": [0, 1, 2], "y": [a, a * a, a ** 3]},
                       depends=("a",)),
                Series("dot", lambda a, k: {"x": [k], "y": [a], "low": [a / 2],
                                            "high": [a + 0.1]}, depends=("a", "k"),
                       kind="points", colour="orange")),
        words=Words("a = {a}, k = {k}, a^k = {power}",
                    lambda a, k: {"power": f"{a ** k:.3f}"}, depends=("a", "k")),
        x_label="x", y_label="y", alt="a test chart", source=("t.f", {"seed": 1}))
    parts.update(override)
    return Explorer(**parts)


def test_every_frame_is_stored_once_per_position_of_its_controls():
    data = _explorer().data()
    line, dot = data["series"]
    assert len(line["frames"]) == 3 and len(dot["frames"]) == 12
    assert line["frames"]["2"] == [[0.0, 1.0, 2.0], [0.3, 0.09, 0.027]]
    assert dot["frames"]["0_3"] == [[4.0], [0.1], [0.05], [0.2]]
    assert data["words"]["slots"] == ["power"]
    assert data["words"]["frames"]["2_3"] == [f"{0.3 ** 4:.3f}"]
    assert [c["default"] for c in data["controls"]] == [1, 1]
    assert data["controls"][0]["shown"] == ["10%", "20%", "30%"]


def test_the_sentence_is_the_template_filled_at_those_positions():
    e = _explorer()
    assert e.sentence() == "a = 20%, k = 2, a^k = 0.040"
    assert e.sentence(a=0.3, k=4) == f"a = 30%, k = 4, a^k = {0.3 ** 4:.3f}"
    with pytest.raises(ValueError, match="k must be one of"):
        e.sentence(k=5)
    with pytest.raises(ValueError, match="unknown controls"):
        e.sentence(b=1)


def test_the_page_data_is_json_that_cannot_close_its_script_element():
    e = _explorer(alt="ends </script> here")
    page = e.html()
    assert page.count("</script>") == 1
    payload = page.split('class="live-data">')[1].split("</script>")[0]
    assert json.loads(payload.replace("<\\/", "</"))["alt"] == "ends </script> here"
    assert 'aria-live="polite"' in page and "a = 20%" in page


def test_stored_numbers_keep_five_significant_digits_and_no_nan():
    e = _explorer(series=(Series("s", lambda a: {"x": [1, 2], "y": [math.pi * a, math.nan]},
                                 depends=("a",)),))
    assert e.data()["series"][0]["frames"]["0"][1] == [0.31416, None]


@pytest.mark.parametrize("override, message", [
    (dict(name="Has Spaces"), "name must be"),
    (dict(controls=()), "controls"),
    (dict(words=Words("{missing}", lambda a: {}, depends=("a",))), "slots"),
    (dict(series=(Series("s", lambda z: {"x": [1], "y": [1]}, depends=("z",)),)),
     "unknown controls"),
    (dict(y_range=(1.0, 0.0)), "y_range"),
    (dict(source=("f", {"x": object()})), "source"),
])
def test_a_bad_explorer_is_refused_by_name(override, message):
    with pytest.raises(ValueError, match=message):
        e = _explorer(**override)
        e.sentence()


@pytest.mark.parametrize("kwargs, message", [
    (dict(values=(0.1,)), "values must hold"),
    (dict(values=(0.2, 0.1)), "increasing"),
    (dict(values=tuple(range(MAX_POSITIONS + 1)), default=1), "values must hold"),
    (dict(default=0.15), "default must be one of"),
    (dict(format="%"), None),
    (dict(format="q"), "format"),
    (dict(name="Bad"), "name"),
])
def test_a_bad_control_is_refused_by_name(kwargs, message):
    args = dict(name="a", label="a", values=(0.1, 0.2), default=0.1, format=".0%")
    args.update(kwargs)
    if message is None:
        Control(**args)
        return
    with pytest.raises(ValueError, match=message):
        Control(**args)


def test_too_many_frames_are_refused_before_anything_is_computed():
    big = tuple(range(MAX_POSITIONS))
    controls = tuple(Control(n, n, big, 0, "d") for n in "abc")
    with pytest.raises(ValueError, match="frames"):
        Explorer(name="big", controls=controls,
                 series=(Series("s", lambda a, b, c: {}, depends=("a", "b", "c")),),
                 words=Words("x", lambda: {}), x_label="x", y_label="y", alt="a")
    assert MAX_FRAMES < MAX_POSITIONS ** 3


# --- chapter 1 ---------------------------------------------------------------------------

RUNS, SEED = 2000, 20261202


@pytest.fixture(scope="module")
def decay():
    return chain.live_decay(runs=RUNS, seed=SEED, p=0.92, n=10)


def test_chapter_1_explorer_starts_at_the_chapters_setting(decay):
    assert decay.sentence().startswith("Model: a 10-step chain whose steps are each right "
                                       "with probability 0.92 is right 43.4% of the time")
    # the nearest offered positions for values the explorer does not offer
    snapped = chain.live_decay(runs=10, seed=0, p=0.9234, n=11)
    assert snapped.source[1]["p"] == 0.92 and snapped.source[1]["n"] == 10


def test_chapter_1_simulated_dots_agree_with_the_closed_form(decay):
    """Every simulated dot of every position within 4.5 standard errors of p^n (435
    comparisons; 4.5 SE keeps a false alarm under one in a hundred runs of the suite)."""
    data = decay.data()
    dots = next(s for s in data["series"] if s["kind"] == "points")
    ps = data["controls"][0]["values"]
    worst = 0.0
    for index, p in enumerate(ps):
        x, rate, low, high = (np.array(col) for col in dots["frames"][str(index)])
        closed = p ** x
        se = np.sqrt(closed * (1 - closed) / RUNS)
        z = np.abs(rate - closed) / np.maximum(se, 1 / RUNS)
        worst = max(worst, z.max())
        assert np.all((low <= rate + 1e-9) & (rate <= high + 1e-9))
    assert worst < 4.5, worst


def test_chapter_1_sentence_states_the_closed_form_and_horizon(decay):
    text = decay.sentence(p=0.99, n=60)
    assert f"right {0.99 ** 60:.1%} of the time" in text
    assert f"fail by step {horizon(0.99):,.1f}" in text


def test_nearest_picks_the_closest_position_and_the_first_of_a_tie():
    from reliability.live import nearest

    assert nearest((0.1, 0.2, 0.3), 0.26) == 0.3
    assert nearest((1, 2, 3), 2.5) == 2          # a tie goes to the first
    assert nearest((0.5,), -7.0) == 0.5
    with pytest.raises(ValueError, match="grid"):
        nearest((), 1.0)


# --- every chapter's stored explorer -------------------------------------------------------

def _stored_explorers():
    """(chapter, explorer name, bytes) for every live explorer in the stored outputs."""
    from bookbuild.run import chapters

    found = []
    for path in chapters():
        for cell in json.loads(path.read_text())["cells"]:
            for output in cell.get("outputs", []):
                page = "".join(output.get("data", {}).get("text/html", ""))
                if 'class="live-explorer"' in page:
                    name = re.search(r'data-live="([^"]+)"', page).group(1)
                    found.append((path.stem, name, len(page.encode())))
    return found


def test_every_chapter_has_a_light_live_explorer():
    """One live explorer per chapter, its data well under the 1 MB a page may weigh."""
    from bookbuild.run import chapters

    stored = _stored_explorers()
    assert {stem for stem, _, _ in stored} == {p.stem for p in chapters()}
    heavy = [(name, size) for _, name, size in stored if size >= 150_000]
    assert not heavy, f"live explorers over 150 KB: {heavy}"
