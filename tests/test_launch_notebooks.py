"""The notebooks behind the Binder, Colab and download buttons (``notebooks/``): generated
from the chapters by ``make notebooks``, never edited by hand, readable in any Jupyter."""

import ast
import json
import os
import re
import subprocess
import sys
from urllib.parse import unquote

import pytest

from bookbuild import launch_notebooks
from bookbuild.run import ROOT, chapters
from bookbuild.catalogs import translator

CHAPTERS = chapters()
IDS = [p.stem for p in CHAPTERS]
#: Both editions' chapters: the English ones, and the Russian ones in ru/chapters with
#: their launch notebooks in ru/notebooks.
BOTH = CHAPTERS + [launch_notebooks.RU_CHAPTERS / p.name for p in CHAPTERS]
BOTH_IDS = IDS + [f"ru-{p.stem}" for p in CHAPTERS]
FOLDERS = {launch_notebooks.CHAPTERS: (launch_notebooks.NOTEBOOKS, "en"),
           launch_notebooks.RU_CHAPTERS: (launch_notebooks.RU_NOTEBOOKS, "ru")}


def _launch(path):
    folder, _ = FOLDERS[path.parent]
    return json.loads((folder / path.name).read_text())


def _language(path):
    return FOLDERS[path.parent][1]


def _source(cell):
    return "".join(cell["source"])


@pytest.mark.parametrize("language", ["en", "ru"])
def test_launch_notebooks_are_up_to_date(tmp_path, language):
    launch_notebooks.render_all(tmp_path, language)
    folder = launch_notebooks.NOTEBOOKS if language == "en" else launch_notebooks.RU_NOTEBOOKS
    fresh = {p.name: p.read_text() for p in tmp_path.glob("*.ipynb")}
    committed = {p.name: p.read_text() for p in folder.glob("*.ipynb")}
    # every chapter's, and the homework's (bookbuild/homework.py)
    assert sorted(fresh) == sorted(committed) == sorted(
        [p.name for p in CHAPTERS] + ["homework.ipynb"])
    for name in launch_notebooks.COMPANIONS:   # README.md, requirements.txt
        fresh[name], committed[name] = (tmp_path / name).read_text(), (
            folder / name).read_text() if (folder / name).exists() else None
    stale = [name for name in fresh if fresh[name] != committed[name]]
    assert not stale, f"{folder.name}/ is out of date with its chapters for {stale}: run " \
                      f"`make notebooks`"


@pytest.mark.parametrize("path", BOTH, ids=BOTH_IDS)
def test_markdown_holds_no_myst_markup(path):
    for cell in _launch(path)["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        text = _source(cell)
        assert not re.search(r"\{[a-zA-Z][\w:-]*\}`", text), f"a MyST role is left: {text}"
        assert not re.search(r"^\s*(`{3,}|:{3,})\{", text, re.M), f"a directive is left: {text}"
        assert not re.search(r"^\([\w-]+\)=\s*$", text, re.M), f"a MyST target is left: {text}"


@pytest.mark.parametrize("path", BOTH, ids=BOTH_IDS)
def test_first_cell_installs_only_in_colab(path):
    first = _launch(path)["cells"][0]
    assert first["cell_type"] == "code" and len(first["source"]) <= 23, "one cell"
    assert max(len(line) for line in _source(first).splitlines()) <= 88
    # folded: Colab shows its title as a form, JupyterLab folds the code; what a student
    # reads is the title and three lines on what it installs and why, in the edition's
    # language, before any code
    assert first["metadata"]["cellView"] == "form"
    assert first["metadata"]["jupyter"]["source_hidden"] is True
    lines = _source(first).splitlines()
    header = launch_notebooks.INSTALL_HEADER_LINES
    assert lines[0].startswith("#@title ") and all(
        line.startswith("# ") for line in lines[1:header])
    assert not lines[header].startswith("#"), "the code starts after the header"
    words = " ".join(lines[:header])
    assert "`reliability`" in words and "Colab" in words and "Binder" in words
    assert bool(re.search("[а-яё]{4}", words)) == (_language(path) == "ru"), words
    tree = ast.parse(_source(first))
    guards = [node for node in tree.body if isinstance(node, ast.If)]
    assert len(guards) == 1 and ast.unparse(guards[0].test) == "'google.colab' in sys.modules"
    colab, elsewhere = guards[0].body, guards[0].orelse
    calls = [ast.unparse(n) for node in colab for n in ast.walk(node) if isinstance(n, ast.Call)]
    assert any("'pip', 'install'" in call for call in calls), "it installs with pip"
    # elsewhere it installs nothing: it stops Run All, saying what to run
    assert len(elsewhere) == 1 and ast.unparse(elsewhere[0].test) == \
        "importlib.util.find_spec('reliability') is None"
    assert not any("subprocess" in ast.unparse(n) for n in elsewhere)
    assert isinstance(elsewhere[0].body[-1], ast.Raise)
    outside = [n for n in tree.body if n is not guards[0]]
    assert not any("pip" in ast.unparse(n) and "install" in ast.unparse(n) for n in outside)
    # the package's wheel on the book's site (_config.yml's repository), never git
    assert launch_notebooks.wheel_name() in _source(first)
    assert launch_notebooks.site_url() in _source(first)
    assert "git" not in _source(first).replace("github.io", "")
    assert launch_notebooks.SOURCE_VARIABLE in _source(first)


@pytest.mark.parametrize("path", [CHAPTERS[0], BOTH[len(CHAPTERS)]], ids=["en", "ru"])
def test_first_cell_outside_colab_stops_with_the_line_that_installs(path, tmp_path):
    """Run where the package is missing (Python with no site-packages), the cell stops
    with one message naming the %pip line: the pinned requirements when they are beside
    the notebook (the unzipped download), else the site's wheel with the book's pins; with
    the package, it says nothing. (tests/test_environments.py runs it in a real kernel.)"""
    source = _source(_launch(path)["cells"][0])
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    environment.pop(launch_notebooks.SOURCE_VARIABLE, None)
    wheel, pins = launch_notebooks.install_spec(), launch_notebooks.constraints_url()
    for beside, line in ((False, f'%pip install "{wheel}" -c "{pins}"'),
                         (True, "%pip install -r requirements.txt")):
        if beside:
            (tmp_path / "requirements.txt").write_text("jupyterlab\n")
        bare = subprocess.run([sys.executable, "-I", "-S", "-c", source],
                              capture_output=True, text=True, cwd=tmp_path,
                              env=environment)
        assert bare.returncode == 1 and bare.stdout == "", bare
        assert bare.stderr.strip().splitlines()[-1].startswith("PackageMissing: ")
        assert bare.stderr.strip().endswith(line), bare.stderr
    with_package = subprocess.run([sys.executable, "-c", source], capture_output=True,
                                  text=True, cwd=tmp_path,
                                  env={**environment, "PYTHONPATH": str(ROOT)})
    assert with_package.returncode == 0 and with_package.stdout == "", with_package


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_notebooks_folder_says_what_to_install_and_how_to_open(language):
    folder = launch_notebooks.NOTEBOOKS if language == "en" else launch_notebooks.RU_NOTEBOOKS
    requirements = (folder / "requirements.txt").read_text().splitlines()
    needed = [line for line in requirements if line and not line.startswith("#")]
    # the package's wheel, then every pin of the book's runtime (JupyterLab among them)
    assert needed == [f"reliability[book] @ {launch_notebooks.package_source()}",
                      *launch_notebooks.pinned_runtime()]
    assert any(line.startswith("jupyterlab==") for line in needed)
    readme = (folder / "README.md").read_text()
    site = launch_notebooks.site_url() + ("" if language == "en" else f"{language}/")
    for needed_words in ("pip install -r requirements.txt", "jupyter lab", site,
                         f'%pip install "{launch_notebooks.install_spec()}" -c '
                         f'"{launch_notebooks.constraints_url()}"',
                         CHAPTERS[0].name, launch_notebooks.book_title(language)):
        assert needed_words in readme, f"the README does not say {needed_words!r}"


#: Words that only make sense on the web page (the static explorer "on this page", the
#: page's address, the rocket button), per language.
PAGE_ONLY = {"en": ["on this page", "with no kernel", "rocket", "static page",
                    "address keeps"],
             "ru": ["на этой странице", "без ядра", "ракет", "статическ", "статичн",
                    "адрес страницы", "адрес хранит"]}


@pytest.mark.parametrize("path", BOTH, ids=BOTH_IDS)
def test_notebook_words_for_a_notebook(path):
    markdown = " ".join(" ".join(_source(c).split()) for c in _launch(path)["cells"]
                        if c["cell_type"] == "markdown").lower()
    left = [words for words in PAGE_ONLY[_language(path)] if words in markdown]
    assert not left, f"page-only words left in the notebook: {left}"
    chapter = " ".join(" ".join(_source(c).split()) for c in
                       json.loads(path.read_text())["cells"] if c["cell_type"] == "markdown")
    if "rocket" in chapter or "ракет" in chapter:   # the explorer's paragraph is still there
        assert {"en": "this notebook's explorer: ",
                "ru": "живой график этого блокнота: "}[_language(path)] in markdown


#: What a launch notebook cannot do, in words: the web page's explorer works with no
#: kernel, and a notebook has none of it (issue 42, item 1).
WEB_EXPLORER_WORDS = {"en": ["with no kernel", "with no call to the kernel",
                             "move the sliders:", "computed ahead of time",
                             "in a live kernel", "also"],
                      "ru": ["без ядра", "без обращений к ядру", "двигайте ползунки",
                             "посчитал заранее", "в живом ядре", "в работающем ядре"]}


@pytest.mark.parametrize("path", BOTH, ids=BOTH_IDS)
def test_no_web_explorer_in_a_launch_notebook(path):
    """A launch notebook promises only what Jupyter does: no sentence about the web
    page's explorer, no cell that builds or shows it (``live_*``, ``.html()``); the
    kernel explorer's paragraph says it is the notebook's explorer, with nothing that
    compares it with the web one."""
    language = _language(path)
    cells = _launch(path)["cells"]
    for cell in cells:
        text = " ".join(_source(cell).split()).lower()
        if cell["cell_type"] == "code":
            assert not launch_notebooks.builds_web_explorer(_source(cell)), text
            assert "explorer.html" not in text
        elif "explorer: " in text or "живой график этого блокнота" in text:
            said = [w for w in WEB_EXPLORER_WORDS[language] if w in text]
            assert not said, (said, text)
        else:
            said = [w for w in WEB_EXPLORER_WORDS[language][:-1] if w in text]
            assert not said, (said, text)
    chapter = nbformat_read(path)
    if any(launch_notebooks.builds_web_explorer(c.source) for c in chapter.cells
           if c.cell_type == "code"):
        lead = {"en": "This notebook's explorer: ", "ru": "Живой график этого блокнота: "}
        assert any(_source(c).startswith(lead[language]) for c in cells
                   if c["cell_type"] == "markdown")


def nbformat_read(path):
    import nbformat
    return nbformat.read(str(path), as_version=4)


def test_a_shown_cell_that_needs_the_web_explorer_is_refused():
    import nbformat
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("explorer = fig.live_x(1)"),
        nbformat.v4.new_code_cell("n = len(explorer.controls)")])
    with pytest.raises(ValueError, match="only the web explorer's cells define"):
        launch_notebooks.web_explorer_cells(nb)
    nb.cells[1].metadata["tags"] = ["remove-cell"]
    assert launch_notebooks.web_explorer_cells(nb) == {0, 1}


@pytest.mark.parametrize("path", BOTH, ids=BOTH_IDS)
def test_every_link_survives_whole(path):
    """Every cited link reaches the reader whole, as Markdown parses it: a DOI with
    parentheses and angle brackets (Newcombe's) once broke at ``...17:8``."""
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark")
    hrefs = set()
    for cell in _launch(path)["cells"]:
        if cell["cell_type"] == "markdown":
            for token in parser.parseInline(_source(cell)):
                for child in token.children or []:
                    if child.type == "link_open":
                        hrefs.add(unquote(child.attrs["href"]))
    bibliography = launch_notebooks.Bibliography.load()
    chapter = "".join(_source(c) for c in json.loads(path.read_text())["cells"])
    keys = {k.strip() for body in re.findall(r"\{cite(?::\w+)?\}`([^`]+)`", chapter)
            for k in body.split(",")}
    for key in keys:
        url = bibliography.url(key)
        if url:
            assert not set("()<> ") & set(url), url
            assert unquote(url) in hrefs, f"{key}'s link {url} is cut or missing"


@pytest.mark.parametrize("path", BOTH, ids=BOTH_IDS)
def test_the_code_is_the_chapters_code(path):
    """Every code cell of the chapter is in its launch notebook, in order: as a code cell,
    or folded inside its solution (Run All never runs a solution, issue 42 item 3); only
    the web explorer's cells are left out."""
    chapter = nbformat_read(path)
    web_only = launch_notebooks.web_explorer_cells(chapter)
    launched = _launch(path)["cells"]
    code = [_source(c) for c in launched[1:] if c["cell_type"] == "code"
            and launch_notebooks.CHECK_TAG not in c["metadata"].get("tags", [])]
    folded = [_source(c) for c in launched
              if c["metadata"].get(launch_notebooks.SOLUTION_TAG)]
    solutions = launch_notebooks.solution_cells(chapter)
    assert code == [chapter.cells[i].source for i in launch_notebooks.launched_code(chapter)]
    bookkeeping = launch_notebooks.bookkeeping_cells(chapter)
    assert code == [c.source for i, c in enumerate(chapter.cells) if c.cell_type == "code"
                    and i not in web_only and i not in solutions and i not in bookkeeping]
    assert len(folded) <= len(solutions)
    for text in folded:
        assert text.startswith("<details>") and text.rstrip().endswith("</details>")
    shown = "\n".join(folded)
    at = 0
    for index in sorted(solutions):   # every solution's code, folded, in order
        block = f"```python\n{chapter.cells[index].source.rstrip()}\n```"
        assert block in shown[at:], f"cell {index}'s code is not folded in order"
        at = shown.index(block, at) + len(block)
    assert all(not c.get("outputs") for c in launched if c["cell_type"] == "code")


@pytest.mark.parametrize("path", BOTH, ids=BOTH_IDS)
def test_no_hidden_bookkeeping_cell_in_a_launch_notebook(path):
    """A cell the book hides (``remove-cell``) is in a launch notebook only when a later
    cell there (or a folded solution) reads a name it binds: the prose's numbers are
    filled in already, so the glue and claim cells that only feed them are left out."""
    import ast

    chapter = nbformat_read(path)
    launched = launch_notebooks.launched_code(chapter)
    later = launched + sorted(launch_notebooks.solution_cells(chapter))
    hidden = [i for i in launched if "remove-cell" in chapter.cells[i].metadata.get(
        "tags", [])]
    for index in hidden:
        binds = launch_notebooks._touched(ast.parse(chapter.cells[index].source))
        readers = [j for j in later if j > index and binds & launch_notebooks._free_reads(
            ast.parse(chapter.cells[j].source))]
        assert readers, f"hidden cell {index} of {path.name} feeds only the prose"
    dropped = launch_notebooks.bookkeeping_cells(chapter)
    assert dropped, f"{path.name}: its glue cells are in the launch notebook"
    sources = [_source(c) for c in _launch(path)["cells"] if c["cell_type"] == "code"]
    for index in dropped:
        assert chapter.cells[index].source not in sources


def test_a_hidden_cell_a_later_cell_needs_stays():
    """Glue-only hidden cells go; a hidden cell that defines what a later cell reads
    stays; a comprehension's own variable, or a name the later cell binds before it
    reads it, is not a read."""
    from nbformat.v4 import new_code_cell, new_notebook

    hidden = {"tags": ["remove-cell"]}
    nb = new_notebook(cells=[
        new_code_cell("x = 2"),
        new_code_cell("glue_values(a=x)", metadata=hidden),
        new_code_cell("y = 3\nglue_values(b=y)", metadata=hidden),
        new_code_cell("v = 1", metadata=hidden),
        new_code_cell("z = 4", metadata=hidden),
        new_code_cell("print([v for v in range(y)])\nz = 5\nprint(z)"),
    ])
    assert launch_notebooks.bookkeeping_cells(nb) == {1, 3, 4}
    assert launch_notebooks.launched_code(nb) == [0, 2, 5]


@pytest.mark.parametrize("path", BOTH, ids=BOTH_IDS)
def test_run_all_shows_no_solution(path):
    """Run All runs no solution: every solution's code is folded Markdown, and a check
    cell calls only ``check`` on the student's ``...``."""
    for cell in _launch(path)["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = _source(cell)
        if launch_notebooks.CHECK_TAG in cell["metadata"].get("tags", []):
            tree = ast.parse(source)
            calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
            assert [c.func.id for c in calls] == ["check"], source
            assert all(isinstance(a, ast.Constant) for c in calls for a in c.args)
            assert [a.value for a in calls[0].args[1:]] == [...] * (len(calls[0].args) - 1)
        assert not re.match(r"# (Solution to exercise|Решение упражнения)", source), source


@pytest.mark.parametrize("path", BOTH, ids=BOTH_IDS)
def test_exercises_are_numbered_and_solutions_folded(path):
    _ = translator(_language(path), "launch_notebooks")
    chapter = "\n".join(_source(c) for c in json.loads(path.read_text())["cells"])
    markdown = "\n".join(_source(c) for c in _launch(path)["cells"]
                         if c["cell_type"] == "markdown")
    exercises = len(re.findall(r"^[`:]{3,}\{exercise\}", chapter, re.M))
    exercise = re.escape(_("**Exercise {number}**")).replace(r"\{number\}", r"(\d+)")
    assert re.findall(exercise, markdown) == [str(n) for n in range(1, exercises + 1)]
    solutions = len(re.findall(r"^[`:]{3,}\{solution(?:-start)?\}", chapter, re.M))
    solution = re.escape(_("Solution to exercise {number}")).replace(r"\{number\}", r"\d+")
    titles = re.findall(f"<summary>({solution})</summary>", markdown)
    # one fold a solution, under one title: its prose, code and printed output inside
    assert len(titles) == len(set(titles)) == solutions, titles
    assert markdown.count("<details>") == markdown.count("</details>")


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_citations_are_linked_text_with_a_reference_list(path):
    chapter = "".join(_source(c) for c in json.loads(path.read_text())["cells"])
    keys = {k.strip() for body in re.findall(r"\{cite(?::\w+)?\}`([^`]+)`", chapter)
            for k in body.split(",")}
    markdown = "\n".join(_source(c) for c in _launch(path)["cells"]
                         if c["cell_type"] == "markdown")
    bibliography = launch_notebooks.Bibliography.load()
    for key in keys:
        url, label = bibliography.url(key), bibliography.label(key)
        cited = f"[{label}]({url})" if url else label
        assert cited in markdown, f"{key} is not cited as {cited}"
        assert bibliography.reference(key) in markdown, f"{key} is not in the references"
    assert ("## References" in markdown) == bool(keys)


def test_a_role_without_a_rendering_is_refused(tmp_path):
    chapter = launch_notebooks.Chapter(tmp_path / "x.ipynb", {}, launch_notebooks.Bibliography())
    with pytest.raises(ValueError, match="teach bookbuild/launch_notebooks.py"):
        chapter.prose("a {mystery}`role` here")
    with pytest.raises(ValueError, match="which no stored output glues"):
        chapter.prose("{glue:text}`missing:.1f`")


def test_a_number_at_the_start_of_a_line_does_not_become_a_list(tmp_path):
    chapter = launch_notebooks.Chapter(tmp_path / "x.ipynb", {"n": "6"},
                                       launch_notebooks.Bibliography())
    assert chapter.prose("raises all\n{glue:text}`n:d`. GPT-4") == "raises all\n6\\. GPT-4"
