"""What a reader sees of each chapter's code and figures: lines that fit the page, cells
short enough to read, and figures sharp on a high-density screen or a phone; and one
convention in every chapter: numbers glued beside the paragraph that cites them, figure
modules imported under one pattern, the package's helpers under their own names."""

import ast
import base64
import json
import re
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
    """Names assigned a dict holding ``continuous_update=False`` (``slider = dict(...)``),
    directly or through another such dict (``box = dict(**slider)``)."""
    names = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)):
            continue
        if isinstance(node.value, ast.Call) and _holds_until_released(node.value, names):
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


#: The ipywidgets controls a chapter's explorer may build.
WIDGETS = re.compile(r"(Slider|Dropdown|Checkbox|ToggleButtons|RadioButtons)$")
CYRILLIC = re.compile("[а-яё]", re.I)


def unlabelled_widgets(source: str, russian: bool = False) -> list[str]:
    """The controls of an ``interact(...)`` cell that a student would see under an
    identifier (``pass1``, ``kmax``) instead of words: a widget built without a
    ``description`` string (in Russian, for the Russian edition), and a parameter of
    ``interact`` given no widget, which ipywidgets labels with its name."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = ast.unparse(node.func)
        if name == "interact":
            found += [f"{kw.arg}={ast.unparse(kw.value)[:30]}: not a widget"
                      for kw in node.keywords if kw.arg and not (
                          isinstance(kw.value, ast.Call)
                          and WIDGETS.search(ast.unparse(kw.value.func)))]
        elif WIDGETS.search(name):
            words = next((kw.value for kw in node.keywords if kw.arg == "description"),
                         None)
            if not (isinstance(words, ast.Constant) and isinstance(words.value, str)
                    and words.value.strip()):
                found.append(f"{ast.unparse(node)[:50]}: no description in words")
            elif russian and not CYRILLIC.search(words.value):
                found.append(f"{words.value!r}: not in Russian")
    return found


def _explore_signature(cells) -> set[str]:
    """The parameters of the chapter's ``explore`` that have a default (interact would
    make a widget for each, labelled with the parameter's name)."""
    for source in cells:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef) and node.name == "explore":
                args = node.args.args
                return {a.arg for a in args[len(args) - len(node.args.defaults):]}
    return set()


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_every_explorer_control_is_labelled_in_words(path):
    """In JupyterLab a slider shows its ``description`` beside it, or else its parameter
    name: each control of the chapter's ``## Explore it yourself`` explorer names what it
    sets in the reader's words (the Russian edition in Russian, via the code catalogs)."""
    cells = ["".join(c["source"]) for c in _code_cells(path)]
    explorers = [c for c in cells if "interact(" in c]
    assert explorers, "no interact explorer"
    russian = path.parent.parent.name == "ru"
    for source in explorers:
        problems = unlabelled_widgets(source, russian)
        given = {kw.arg for node in ast.walk(ast.parse(source))
                 if isinstance(node, ast.Call) and ast.unparse(node.func) == "interact"
                 for kw in node.keywords}
        problems += [f"{name}: a default of explore with no widget"
                     for name in _explore_signature(cells) - given]
        assert not problems, problems


def test_the_label_check_finds_each_kind_of_unlabelled_control():
    good = ('interact(f, a=FloatSlider(value=1, description="hours down"),\n'
            '         b=Dropdown(options=[1], description="profile"))')
    assert unlabelled_widgets(good) == []
    assert unlabelled_widgets(good, russian=True) == [
        "'hours down': not in Russian", "'profile': not in Russian"]
    assert unlabelled_widgets(good.replace("hours down", "часы простоя").replace(
        "profile", "профиль"), russian=True) == []
    for bad in ('interact(f, a=FloatSlider(value=1))', 'interact(f, a=(0, 1, 0.1))',
                'interact(f, a=IntSlider(value=1, description=""))',
                'interact(f, a=Checkbox(value=True, description=name))'):
        assert len(unlabelled_widgets(bad)) == 1, bad


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


# --- one convention: glue beside the prose, figure modules by one name, helpers unrenamed ---

#: A glue key cited in Markdown: the role ``{glue:text}`key:.1%|run|runs` `` (or any other
#: glue role) and the directive ``{glue:figure} key``.
GLUE_ROLE = re.compile(r"\{glue(?::\w+)?\}`([^`:|]+)")
GLUE_DIRECTIVE = re.compile(r"^[`:]{3,}\{glue(?::\w+)?\}\s+(\S+)", re.M)


def _glued_keys(cell) -> set[str]:
    """The keys a code cell glues: the keyword names of its ``glue_values`` calls, and the
    names its stored outputs carry (which also covers keys built in a loop)."""
    keys = {output["metadata"]["scrapbook"]["name"] for output in cell.get("outputs", [])
            if "scrapbook" in output.get("metadata", {})}
    for node in ast.walk(ast.parse("".join(cell["source"]))):
        if isinstance(node, ast.Call) and getattr(
                node.func, "id", getattr(node.func, "attr", None)) == "glue_values":
            keys |= {keyword.arg for keyword in node.keywords if keyword.arg}
    return keys


def glue_cited_before_set(cells) -> list[tuple[int, str]]:
    """(markdown cell index, key) for every glue key a Markdown cell cites before any
    earlier code cell has glued it (a key glued nowhere counts too)."""
    glued, early = set(), []
    for i, cell in enumerate(cells):
        source = "".join(cell["source"])
        if cell["cell_type"] == "code":
            glued |= _glued_keys(cell)
        elif cell["cell_type"] == "markdown":
            cited = GLUE_ROLE.findall(source) + GLUE_DIRECTIVE.findall(source)
            early += [(i, key) for key in dict.fromkeys(cited) if key not in glued]
    return early


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_every_glue_key_is_set_before_the_prose_cites_it(path):
    """Numbers are glued beside the paragraph that cites them, in a code cell above it,
    not all together at the end of the chapter."""
    early = glue_cited_before_set(json.loads(path.read_text())["cells"])
    assert not early, f"(markdown cell, glue key) cited before a code cell sets it: " \
                      f"{early[:5]}"


def test_the_glue_order_check_finds_a_key_glued_after_its_paragraph():
    def code(source):
        return {"cell_type": "code", "source": source, "outputs": []}

    def prose(source):
        return {"cell_type": "markdown", "source": source}

    glued_late = [prose("Ten steps succeed {glue:text}`ch_ten:.1%` of the time."),
                  code("glue_values(ch_ten=ten)")]
    assert glue_cited_before_set(glued_late) == [(0, "ch_ten")]
    assert glue_cited_before_set(glued_late[::-1]) == []
    assert glue_cited_before_set([prose("```{glue:figure} ch_fig\n```")]) == [(0, "ch_fig")]


def _imports(path):
    for cell in _code_cells(path):
        for node in ast.walk(ast.parse("".join(cell["source"]))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                yield node


def import_problems(nodes) -> list[str]:
    """Imports that break the chapters' one pattern: a figure module is imported as
    ``from reliability.figures import retries as fig_retries`` (its own name, after
    ``fig_``, so it never hides the model module of the same name), nothing is imported
    from inside a figure module, and no helper of the package is renamed."""
    found = []
    for node in nodes:
        module = (node.module or "") if isinstance(node, ast.ImportFrom) else ""
        for alias in node.names:
            name = f"{module}.{alias.name}" if module else alias.name
            if isinstance(node, ast.Import) and alias.name.startswith("reliability.figures"):
                found.append(f"import {alias.name}")
            elif module == "reliability.figures":
                if alias.asname != f"fig_{alias.name}":
                    found.append(f"{name} as {alias.asname}: not as fig_{alias.name}")
            elif module.startswith("reliability.figures."):
                found.append(f"{name}: imported from a figure module")
            elif (module.split(".")[0] == "reliability" and alias.asname
                  and alias.asname != alias.name):
                found.append(f"{name} renamed {alias.asname}")
    return found


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_figure_modules_and_helpers_are_imported_one_way(path):
    problems = import_problems(_imports(path))
    assert not problems, problems


def test_the_import_check_finds_each_kind_of_break():
    def imports(source):
        return [node for node in ast.walk(ast.parse(source))
                if isinstance(node, (ast.Import, ast.ImportFrom))]

    assert import_problems(imports(
        "from reliability.figures import chain as fig_chain\n"
        "from reliability.notebook import fmt, table\n"
        "from reliability import passk\nimport numpy as np")) == []
    for source in ("from reliability.figures import passk as figures",
                   "from reliability.figures import chain",
                   "from reliability.figures.retries import sweep",
                   "import reliability.figures.chain",
                   "from reliability.notebook import table as show_table"):
        assert len(import_problems(imports(source))) == 1, source


GLUED = re.compile(r"\{glue(?::\w+)?\}`[^`]*`")
PERCENTAGE = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)?\s?%")
#: Percentages that are definitions, not results: the confidence level every interval
#: of the book is drawn at ("95% Wilson interval", «95%-й интервал») and a range's zero.
DEFINITIONS = {"95", "0"}


def typed_percentages(cells) -> list[tuple[int, str]]:
    """(markdown cell, percentage) for each percentage prose types instead of gluing: a
    number typed by hand does not follow the chapter's parameters or the other edition's
    formatter when they change."""
    found = []
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        prose = GLUED.sub("", "".join(cell["source"]))
        found += [(i, m.group(0)) for m in PERCENTAGE.finditer(prose)
                  if re.sub(r"\s|%", "", m.group(0)) not in DEFINITIONS]
    return found


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_prose_types_no_percentage_it_could_glue(path):
    typed = typed_percentages(json.loads(path.read_text())["cells"])
    assert not typed, f"(markdown cell, percentage) typed in prose; glue it: {typed[:5]}"


def test_the_percentage_check_finds_a_typed_share_and_spares_definitions():
    def prose(source):
        return {"cell_type": "markdown", "source": source}

    cells = [prose("A model starts at 90% and fixes 30,5 % of wrong ones; CPT(50%)."),
             prose("Its 95% Wilson interval, «95%-й интервал», from 0% to "
                   "{glue:text}`ch_top:.0%`; {glue:text}`ch_share:.1%` of runs."),
             {"cell_type": "code", "source": "print('80%')", "outputs": []}]
    assert typed_percentages(cells) == [(0, "90%"), (0, "30,5 %"), (0, "50%")]


HEADER = re.compile(r'class="col_heading[^"]*"\s*>([^<]*)</th>')
#: Keys the package's frames name their columns by, which a reader should never see as a
#: header: the table shows words for them (reliability.notebook.tables.HEADERS).
CODE_KEYS = {"closed", "rate", "low", "high"}


def code_headers(cells) -> list[str]:
    """The headers of the stored tables that show a code key instead of words: one of
    CODE_KEYS, or a name with an underscore (``closed_attempts``)."""
    found = []
    for cell in cells:
        for output in cell.get("outputs", []):
            html = output.get("data", {}).get("text/html", "")
            html = "".join(html) if isinstance(html, list) else html
            found += [h for h in HEADER.findall(html)
                      if h.strip() in CODE_KEYS or re.fullmatch(r"[a-z]+(_[a-z]+)+", h.strip())]
    return found


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_table_headers_are_words_not_code_keys(path):
    """ch03 once headed its tables "closed" and "closed attempts" where the reader needs
    "closed form" (issue 41)."""
    found = code_headers(json.loads(path.read_text())["cells"])
    assert not found, f"table headers that are code keys: {sorted(set(found))}"


def test_the_header_check_finds_a_code_key():
    html = ('<th class="col_heading level0 col2" >closed</th>'
            '<th class="col_heading level0 col3" >closed form</th>'
            '<th class="col_heading level0 col4" >mean_attempts</th>')
    cells = [{"cell_type": "code", "outputs": [{"data": {"text/html": html}}]}]
    assert code_headers(cells) == ["closed", "mean_attempts"]


@pytest.mark.parametrize("path", [p for p in CHAPTERS if p.parent.parent.name == "ru"],
                         ids=[i for i in IDS if i.startswith("ru-")])
def test_russian_chapters_cite_authors_as_the_references_page_does(path):
    """The Russian references page labels an entry «Huang и др., 2024» (the bibliography's
    "et al." translated); prose, printed lines and figure labels name authors the same way,
    not «Huang et al.» (issue 41)."""
    cells = json.loads(path.read_text())["cells"]
    text = "\n".join("".join(c["source"]) for c in cells)
    # a line break may fall inside the phrase ("Huang et\nal.")
    assert not re.search(r"et\s+al\.", text), re.findall(r".{0,30}et\s+al\..{0,10}",
                                                           text)[:3]
