"""What a reader sees of each chapter's code and figures: lines that fit the page, cells
short enough to read, and figures sharp on a high-density screen or a phone."""

import ast
import base64
import json
import struct

import pytest

from bookbuild.run import ROOT, chapters

# Both editions: a Russian chapter is the English code with Russian words, which must fit
# the page as well.
CHAPTERS = chapters() + [ROOT / "ru" / "chapters" / p.name for p in chapters()]
IDS = [("ru-" if p.parent.parent.name == "ru" else "") + p.stem for p in CHAPTERS]
MAX_LINE = 88
#: "About fifteen lines": a reader-facing cell may reach this, no further.
MAX_CELL_LINES = 15
HIDDEN = {"remove-cell", "remove-input"}


def _code_cells(path):
    return [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]


def _png_size(data: str) -> tuple[int, int]:
    raw = base64.b64decode(data)
    assert raw[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", raw[16:24])


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_no_code_line_is_wider_than_the_page(path):
    wide = [(i, line) for i, cell in enumerate(_code_cells(path))
            for line in "".join(cell["source"]).splitlines() if len(line) > MAX_LINE]
    assert not wide, f"{len(wide)} code lines over {MAX_LINE} characters: {wide[:3]}"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_reader_facing_cells_are_short(path):
    long = [(i, len("".join(cell["source"]).splitlines()))
            for i, cell in enumerate(_code_cells(path))
            if not HIDDEN & set(cell.get("metadata", {}).get("tags", []))
            and len("".join(cell["source"]).splitlines()) > MAX_CELL_LINES]
    assert not long, f"code cells (index, lines) over {MAX_CELL_LINES} lines: {long}"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_figures_are_stored_at_twice_their_display_size(path):
    """Inline figures are retina PNGs: twice as many pixels as the width they are shown
    at, which the output's metadata gives, so they stay sharp when zoomed or shrunk."""
    images = [(output.get("metadata", {}).get("image/png", {}), output["data"]["image/png"])
              for cell in _code_cells(path) for output in cell.get("outputs", [])
              if "image/png" in output.get("data", {})]
    assert images, "no stored figure"
    for shown, data in images:
        width, _ = _png_size(data)
        assert shown.get("width"), "a figure without its display width (not retina)"
        assert width >= 2 * shown["width"] - 2, (width, shown["width"])


def _holds_until_released(call, held_dicts) -> bool:
    for keyword in call.keywords:
        if keyword.arg == "continuous_update":
            return isinstance(keyword.value, ast.Constant) and keyword.value.value is False
        if keyword.arg is None and isinstance(keyword.value, ast.Name):
            if keyword.value.id in held_dicts:
                return True
    return False


def _held_dicts(tree) -> set[str]:
    """Names assigned a dict holding ``continuous_update=False`` (``slider = dict(...)``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], ast.Name) and "continuous_update" in ast.unparse(node.value):
            if isinstance(node.value, ast.Call) and _holds_until_released(node.value, set()):
                names.add(node.targets[0].id)
            if isinstance(node.value, ast.Dict) and any(
                    isinstance(k, ast.Constant) and k.value == "continuous_update"
                    and isinstance(v, ast.Constant) and v.value is False
                    for k, v in zip(node.value.keys, node.value.values)):
                names.add(node.targets[0].id)
    return names


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_explorer_sliders_update_when_let_go(path):
    """A slider that updates while dragged queues one redraw per pixel moved; each one is
    built with ``continuous_update=False`` (benchmarks/explorers.py times one update)."""
    cells = ["".join(c["source"]) for c in _code_cells(path)]
    explorers = [ast.parse(c) for c in cells if "interact(" in c]
    assert explorers, "no interact explorer"
    for tree in explorers:
        held = _held_dicts(tree)
        sliders = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
                   and ast.unparse(n.func).endswith("Slider")]
        loose = [ast.unparse(n)[:60] for n in sliders if not _holds_until_released(n, held)]
        assert not loose, f"sliders that redraw while dragged: {loose}"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_every_stored_figure_and_animation_has_alt_text_in_its_cell(path):
    """myst-nb (figures) and book/_ext/reader_pages.py (jshtml animations) take a cell's
    alt text from ``metadata.mystnb.image.alt``; a cell without it puts an image on the
    page that a screen reader cannot describe. The browser test finds this too, later."""
    missing = []
    for i, cell in enumerate(_code_cells(path)):
        stored = json.dumps(cell.get("outputs", []))
        if "image/png" not in stored and "_anim_img" not in stored:
            continue
        mystnb = cell.get("metadata", {}).get("mystnb", {})
        alt = mystnb.get("image", {}).get("alt") or mystnb.get("figure", {}).get("alt")
        if not (alt or "").strip():
            missing.append(i)
    assert not missing, f"code cells (index) with a figure but no alt text: {missing}"
