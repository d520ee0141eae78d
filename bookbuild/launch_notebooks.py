"""Make the notebooks a student opens: plain Jupyter notebooks generated from the chapters.

    python -m bookbuild.launch_notebooks   # notebooks/, ru/notebooks/ (make notebooks)

The chapters are written for Jupyter Book: their prose holds MyST roles and directives
(``{glue:text}`` numbers, ``{cite}`` references, ``{exercise}`` and ``{solution}``
blocks) that only the book resolves. Binder, Colab and a plain JupyterLab show those as
raw markup, so the launch and download buttons point at these notebooks instead: the same
code, the prose with its numbers filled in from the chapter's stored outputs, citations as
linked text with a reference list, exercises as plain Markdown with a cell that checks
the student's answer (``reliability.checks``), and every solution, its code and printed
output included, folded in ``<details>``, so Run All shows no answer. The web page's
live explorer (an HTML chart that needs no kernel) stays on the web page: the notebook's
explorer is the chapter's ``ipywidgets`` cell. The hidden cells that only feed the
page's prose (glue, chosen or checked claims) are left out (:func:`bookkeeping_cells`),
and each solution is one fold. Each opens with one folded cell that, in Colab only,
installs the package's wheel (and what Colab lacks), under a title and three lines that
say what it installs and why.

They are generated, never edited by hand; ``tests/test_launch_notebooks.py`` fails when
one is out of date with its chapter. Reads ``chapters/`` and ``ru/chapters/`` (their
stored glue), ``book/references.bib`` and ``_config.yml``; writes ``notebooks/`` and
``ru/notebooks/``: each chapter's notebook, the homework's (:mod:`bookbuild.homework`),
``README.md`` and ``requirements.txt``.
"""

from __future__ import annotations

import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlparse

import nbformat
import yaml
from pybtex.database import parse_file

from reliability import i18n
from reliability.numbers import glued_text

from . import homework
from .catalogs import EDITION, translator
from .run import sphinx_extension

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = ROOT / "chapters"
NOTEBOOKS = ROOT / "notebooks"
#: The Russian edition's chapters and launch notebooks (bookbuild/edition.py writes
#: ru/).
RU_CHAPTERS = EDITION / "chapters"
RU_NOTEBOOKS = EDITION / "notebooks"
GLUE_MIME = "application/papermill.record/text/plain"
#: The environment variable that points the Colab install cell at another source of the
#: package (a local checkout, a fork, a tag), e.g. RELIABILITY_SOURCE=/path/to/checkout.
SOURCE_VARIABLE = "RELIABILITY_SOURCE"


# --- where the book lives -----------------------------------------------------------------

def repository() -> tuple[str, str]:
    """The repository URL and branch, from ``_config.yml`` (the one place they live)."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    return config["repository"]["url"].rstrip("/"), config["repository"].get("branch", "main")


def site_url() -> str:
    """Where GitHub Pages publishes the book for that repository."""
    url, _ = repository()
    owner, name = urlparse(url).path.strip("/").split("/")[:2]
    return f"https://{owner}.github.io/{name}/"


def package_version() -> str:
    """The package's version, from ``pyproject.toml`` (the one place it lives)."""
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


#: Where the site publishes the package's wheel and the book's pins beside it
#: (bookbuild/wheel.py builds both into the site; the notebooks' zip carries them too).
WHEELS = "wheels"
CONSTRAINTS = "constraints.txt"


def wheel_name() -> str:
    """The file name of the package's wheel: pure Python, any platform."""
    return f"reliability-{package_version()}-py3-none-any.whl"


def package_source() -> str:
    """What ``pip install`` takes to install the package with no git and no repository:
    its wheel, as the published site serves it."""
    return f"{site_url()}{WHEELS}/{wheel_name()}"


#: The extra the chapters need beside the statistics (pyproject.toml): tables, figures,
#: widgets, the lab's harness, Russian output. Every install line of the book asks for it.
EXTRA = "book"


def install_spec(source: str | None = None) -> str:
    """What ``pip install`` is given for the book's package with its ``book`` extra: the
    wheel at ``source`` (a URL, by default the site's copy; or a file beside the
    notebooks, as ``./name.whl``)."""
    source = package_source() if source is None else source
    if "://" in source:
        return f"reliability[{EXTRA}] @ {source}"
    return f"{source}[{EXTRA}]"


def constraints_url() -> str:
    """The book's pinned versions (``binder/requirements.txt``), as the site serves them."""
    return f"{site_url()}{WHEELS}/{CONSTRAINTS}"


def pinned_runtime() -> list[str]:
    """``name==version`` for every package of the book's runtime (binder/requirements.txt,
    what Binder and ``make lab`` install), without the line that installs the checkout."""
    lines = (ROOT / "binder" / "requirements.txt").read_text().splitlines()
    return [line for line in lines if "==" in line and not line.startswith("#")]


#: The first cell folded, code hidden under its title: Colab shows the ``@title`` line as a
#: form, JupyterLab and Notebook fold the code (a click unfolds it).
INSTALL_METADATA = {"cellView": "form", "jupyter": {"source_hidden": True}}
#: How many comment lines open the first cell, its title first: what it installs and why,
#: all a student needs to read of it.
INSTALL_HEADER_LINES = 4


def install_cell_source(language: str = "en") -> str:
    """The notebook's first cell, folded (:data:`INSTALL_METADATA`) under a title and
    three lines that say what it installs and why: in Colab it installs the package's
    wheel and what Colab lacks; elsewhere, when the package is missing from the kernel,
    it stops Run All with one message that says what to run (no traceback, no error
    three cells later)."""
    _ = translator(language, "launch_notebooks")
    header = [
        "#@title " + _("Setup: installs the book's package in Colab (click to see how)"),
        _("# The book's package, `reliability`, computes the numbers and charts below."),
        _("# Colab: installed here at the book's versions. Binder, `make lab` and the zip's"),
        _("# requirements.txt have it. Missing elsewhere: this cell says the line to run."),
    ]
    assert len(header) == INSTALL_HEADER_LINES
    return "\n".join([
        *header,
        "import glob, importlib, importlib.util, os, subprocess, sys",
        f'SITE = "{site_url()}{WHEELS}/"',
        f'WHEEL = SITE + "{wheel_name()}"',
        f'SOURCE = os.environ.get("{SOURCE_VARIABLE}") or next(  # the zip\'s, else '
        "the site's",
        '    iter(sorted(glob.glob("./reliability-*.whl"))), WHEEL)',
        f'PACKAGE = f"reliability[{EXTRA}] @ {{SOURCE}}" if "://" in SOURCE '
        f'else f"{{SOURCE}}[{EXTRA}]"',
        'if "google.colab" in sys.modules:',
        '    subprocess.run([sys.executable, "-m", "pip", "install", "-q", PACKAGE], check=True)',
        "    importlib.invalidate_caches()",
        'elif importlib.util.find_spec("reliability") is None:',
        "    class PackageMissing(Exception):  # one line, where Jupyter prints a traceback",
        "        def _render_traceback_(self):",
        "            return [str(self)]",
        '    line = "%pip install -r requirements.txt"  # the unzipped download',
        '    if not os.path.exists("requirements.txt"):',
        f'        line = f\'%pip install "reliability[{EXTRA}] @ {{WHEEL}}" -c "{{SITE}}'
        f'{CONSTRAINTS}"\'',
        *_wrapped_literal("    raise PackageMissing(", _(
            "The book's package is missing. Run this in a cell, then run all cells "
            "again: "), " + line)"),
    ])


def _wrapped_literal(head: str, text: str, tail: str, width: int = 84) -> list[str]:
    """``head`` + ``text`` as adjacent string literals, one a line, so no line of the
    cell is over 88 characters in either language; then ``tail``."""
    lines, line = [], ""
    for word in text.split(" "):
        if line and len(head) + len(repr(line + word + " ")) > width:
            lines.append(line)
            line = ""
        line += word + " "
    lines.append(line.rstrip(" ") + (" " if text.endswith(" ") else ""))
    indent = " " * len(head)
    return [(head if i == 0 else indent) + repr(chunk) + (tail if i == len(lines) - 1 else "")
            for i, chunk in enumerate(lines)]


# --- citations ----------------------------------------------------------------------------

@dataclass
class Bibliography:
    entries: dict = field(default_factory=dict)

    @classmethod
    def load(cls) -> "Bibliography":
        return cls(dict(parse_file(str(ROOT / "book" / "references.bib")).entries))

    def entry(self, key: str):
        if key not in self.entries:
            raise ValueError(f"{{cite}} names {key!r}, which book/references.bib lacks")
        return self.entries[key]

    def label(self, key: str, language: str = "en") -> str:
        """``Huang et al., 2024``: the author-year label the book prints."""
        _ = translator(language, "launch_notebooks")
        entry = self.entry(key)
        people = entry.persons.get("author", [])
        names = [_plain(" ".join(p.last_names)) for p in people]
        # BibTeX's "and others" is a person named "others": the book writes "et al."
        unknown = "others" in names
        names = [n for n in names if n != "others"]
        if not names:   # BibTeX's key field names an authorless entry, as the book does
            who = _plain(entry.fields.get("key") or entry.fields.get("title", key))
        elif unknown or len(names) > 2:
            who = _("{first} et al.").format(first=names[0])
        elif len(names) == 1:
            who = names[0]
        else:
            who = _("{first} and {second}").format(first=names[0], second=names[1])
        # the reference list's word for an entry with no year (book/_ext/bibliography.py)
        return f"{who}, {entry.fields.get('year', _('n.d.'))}"

    def url(self, key: str) -> str | None:
        """The entry's link, with the characters that end a Markdown link or autolink
        (parentheses, angle brackets, spaces) percent-encoded: a DOI such as Newcombe's
        ``...(19980430)17:8<873::AID-SIM779>...`` would otherwise be cut short."""
        fields = self.entry(key).fields
        if "url" in fields:
            link = fields["url"]
        elif "doi" in fields:
            link = f"https://doi.org/{fields['doi']}"
        elif "eprint" in fields:
            link = f"https://arxiv.org/abs/{fields['eprint']}"
        else:
            return None
        return quote(link, safe=":/?#@!$&'*+,;=%~-._[]")

    def reference(self, key: str, language: str = "en") -> str:
        """One line of the reference list: authors, year, title, where, link, its words
        (and a howpublished text) in ``language``."""
        _ = translator(language, "launch_notebooks")
        entry = self.entry(key)
        fields = entry.fields
        names = [_plain(" ".join(p.first_names + p.middle_names + p.last_names))
                 for p in entry.persons.get("author", [])]
        # BibTeX's "and others" is a person named "others".
        authors = ", ".join(n for n in names if n != "others") + (
            " " + _("et al.") if "others" in names else "")
        where = next((fields[f] for f in ("journal", "booktitle", "howpublished",
                                          "publisher") if f in fields), "")
        if "howpublished" in fields and where == fields["howpublished"]:
            where = bibliography_text(where, language)
        where = _plain(where)
        if where and "booktitle" in fields and where == _plain(fields["booktitle"]):
            # a paper in proceedings, as the book's reference list writes it
            # (book/_ext/bibliography.py): "In NeurIPS ...", «В: NeurIPS ...»
            where = _("In {venue}").format(venue=where)
        if not where and "eprint" in fields:
            where = f"arXiv:{fields['eprint']}"
        parts = [p for p in (authors, f"({fields.get('year', _('n.d.'))})",
                             f"*{_plain(fields.get('title', key))}*.", where) if p]
        text = " ".join(parts)
        link = self.url(key)
        return f"{text} <{link}>" if link else text


def bibliography_text(text: str, language: str) -> str:
    """A note or howpublished text of book/references.bib in ``language``: the
    translation the Russian build's reference list shows (locale/ru/_toc.po)."""
    if language == "en":
        return text
    from .catalogs import TOC_PAGE, _lookup, catalog_path, read_catalog

    return _lookup(read_catalog(catalog_path(TOC_PAGE)), text, TOC_PAGE)


def _plain(text: str) -> str:
    """BibTeX text without braces and with its dashes and ties as a reader types them."""
    return re.sub(r"[{}]", "", text).replace("--", "–").replace("~", " ").strip()


# --- prose: roles -------------------------------------------------------------------------

ROLE = re.compile(r"\{(?P<name>[a-zA-Z][\w:-]*)\}`(?P<body>[^`]*)`")
TITLED = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^>]+)>$", re.S)


@dataclass
class Chapter:
    """What rendering one chapter's prose needs: its glued values, the bibliography, the
    citations met so far and the numbering of its exercises."""

    path: Path
    glued: dict
    bibliography: Bibliography
    cited: list = field(default_factory=list)
    exercises: dict = field(default_factory=dict)
    language: str = "en"

    def role(self, match: re.Match) -> str:
        name, body = match["name"], match["body"]
        if name in ("glue", "glue:", "glue:text"):
            return self.glue(body)
        if name in ("cite", "cite:p", "cite:t", "cite:ps", "cite:ts"):
            return self.cite(body, textual=name.startswith("cite:t"))
        if name in ("term", "doc", "ref", "numref", "download", "abbr"):
            titled = TITLED.match(body)
            return titled["text"] if titled else self.target_text(name, body)
        if name == "math":
            return f"${body}$"
        if name == "eq":
            return f"({body})"
        raise ValueError(f"{self.path.name}: no plain-Markdown rendering for the role "
                         f"{{{name}}}; teach bookbuild/launch_notebooks.py one")

    def target_text(self, name: str, body: str) -> str:
        if name == "doc":
            return Path(body).stem.split("_", 1)[-1].replace("_", " ").capitalize()
        return body

    def glue(self, body: str) -> str:
        key, _, spec = body.rpartition(":") if ":" in body else (body, "", "")
        if "::" in key:
            raise ValueError(f"{self.path.name}: glue from another document ({body}) is "
                             "not supported in the launch notebooks")
        if key not in self.glued:
            raise ValueError(f"{self.path.name}: the prose cites {key!r}, which no stored "
                             "output glues (regenerate the chapter with `make outputs`)")
        # the book's formatter (book/_ext/numbers_locale.py): numbers in the chapter's
        # language, a noun after the number in its plural form (``d|step|steps``)
        with i18n.language(self.language):
            return glued_text(self.glued[key], spec or "s")

    def cite(self, body: str, *, textual: bool) -> str:
        keys = [key.strip() for key in body.split(",") if key.strip()]
        links = []
        for key in keys:
            if key not in self.cited:
                self.cited.append(key)
            label = self.bibliography.label(key, self.language)
            if textual:
                who, year = label.rsplit(", ", 1)
                label = f"{who} ({year})"
            url = self.bibliography.url(key)
            links.append(f"[{label}]({url})" if url else label)
        joined = "; ".join(links)
        return joined if textual else f"({joined})"

    def prose(self, text: str) -> str:
        def render(match: re.Match) -> str:
            rendered = self.role(match)
            line_start = match.start() == 0 or text[match.start() - 1] == "\n"
            # "6. GPT-4" at the start of a line would become a numbered list item.
            after = text[match.end():match.end() + 1]
            if line_start and re.fullmatch(r"\d+", rendered) and after in (".", ")"):
                rendered += "\\"
            return rendered

        return ROLE.sub(render, text)


# --- prose: words for a notebook -----------------------------------------------------------

def _web_sentences() -> dict:
    """The book's one list of web-only sentences (``book/_ext/print_words.py``, which the
    print pass reads too), loaded from its file: ``book/_ext`` is Sphinx's extension
    folder, not a package."""
    return sphinx_extension("print_words").WEB_SENTENCES


#: Sentences written for the web page, rewritten for a notebook, per language: the page's
#: address keeps no setting in a notebook, and there is no rocket button to launch with
#: (the notebook is already live). The web explorer's own paragraph is left out whole
#: (:func:`without_web_explorer`). ``tests/test_launch_notebooks.py`` fails on any
#: page-only phrase these leave.
NOTEBOOK_WORDS = {language: [(s.pattern, s.notebook) for s in sentences
                             if s.notebook is not None]
                  for language, sentences in _web_sentences().items()}


def notebook_words(text: str, language: str = "en") -> str:
    """``text`` with the web page's own sentences rewritten for a notebook."""
    for pattern, replacement in NOTEBOOK_WORDS.get(language, []):
        text = re.sub(pattern, replacement, text)
    return text


# --- prose: directives --------------------------------------------------------------------

FENCE = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[\w:-]+)\}(?P<argument>[^\n]*)\n"
                   r"(?P<body>.*?)^(?P=fence)[ \t]*$\n?", re.S | re.M)
ADMONITIONS = {"note", "tip", "hint", "important", "warning", "caution", "attention",
               "danger", "error", "seealso"}


def _options(body: str) -> tuple[dict, str]:
    """A directive's ``:key: value`` lines and the body after them."""
    options, lines = {}, body.split("\n")
    while lines and re.match(r"^:[\w-]+:", lines[0]):
        key, _, value = lines.pop(0)[1:].partition(":")
        options[key.strip()] = value.strip()
    return options, "\n".join(lines).strip("\n")


def _details(summary: str, body: str) -> str:
    return f"<details>\n<summary>{summary}</summary>\n\n{body.strip()}\n\n</details>"


_DETAILS = re.compile(r"<details>\n<summary>(.*?)</summary>\n\n(.*)\n\n</details>", re.S)


def one_toggle_per_solution(cells: list) -> list:
    """``cells`` with each solution in one fold: a solution's prose and its code come
    from separate cells of the chapter, and two folds under the same title read as two
    solutions; they are joined, in order, under the one title (metadata of both)."""
    joined: list = []
    for cell in cells:
        this = _DETAILS.fullmatch(cell.source) if cell.cell_type == "markdown" else None
        last = (_DETAILS.fullmatch(joined[-1].source)
                if joined and joined[-1].cell_type == "markdown" else None)
        if this and last and this[1] == last[1]:
            joined[-1].source = _details(last[1], f"{last[2].strip()}\n\n{this[2].strip()}")
            joined[-1].metadata.update(cell.metadata)
        else:
            joined.append(cell)
    return joined


class Renderer:
    """Turns a chapter's cells into plain notebook cells."""

    def __init__(self, chapter: Chapter):
        self.chapter = chapter
        #: The title of the solution being rendered, while its cells go by.
        self.open_solution: str | None = None

    def directive(self, match: re.Match) -> str:
        _ = translator(self.chapter.language, "launch_notebooks")
        name, argument = match["name"], match["argument"].strip()
        options, body = _options(match["body"])
        body = self.chapter.prose(body)
        if name == "exercise":
            number = len(self.chapter.exercises) + 1
            if "label" in options:
                self.chapter.exercises[options["label"]] = number
            title = _("**Exercise {number}**").format(number=number) + (
                f" ({argument})" if argument else "")
            return f"{title}\n\n{body}"
        if name == "solution":
            return _details(self.solution_title(argument), body)
        if name == "solution-start":
            return f"\x00START:{self.solution_title(argument)}\x00{body}"
        if name == "solution-end":
            return "\x00END\x00"
        if name in ADMONITIONS or name in ("admonition", "dropdown"):
            title = argument or name.capitalize()
            if name == "dropdown" or "dropdown" in options.get("class", ""):
                return _details(title, body)
            quoted = "\n".join(f"> {line}" if line else ">" for line in body.split("\n"))
            return f"> **{title}.**\n>\n{quoted}"
        raise ValueError(f"{self.chapter.path.name}: no plain-Markdown rendering for the "
                         f"directive {{{name}}}; teach bookbuild/launch_notebooks.py "
                         "one")

    def solution_title(self, label: str) -> str:
        _ = translator(self.chapter.language, "launch_notebooks")
        number = self.chapter.exercises.get(label)
        return _("Solution to exercise {number}").format(number=number) if number else _(
            "Solution")

    def markdown(self, source: str) -> list[nbformat.NotebookNode]:
        """One chapter Markdown cell as notebook cells. A solution may start in one cell
        and end in a later one, with code cells between; ``<details>`` cannot span cells,
        so each piece of its prose is folded on its own and its code cells are marked."""
        source = re.sub(r"^\([\w-]+\)=[ \t]*\n", "", source, flags=re.M)  # MyST targets
        source = without_web_explorer(source, self.chapter.language)
        # A rendered directive is a block of its own: blank lines around it, never more.
        text = FENCE.sub(lambda m: f"\n\n{self.directive(m)}\n\n", source)
        text = notebook_words(self.chapter.prose(text), self.chapter.language)
        text = re.sub(r"\n{3,}", "\n\n", text)
        cells = []
        for part in re.split(r"(\x00(?:START:[^\x00]*|END)\x00)", text):
            if part.startswith("\x00START:"):
                self.open_solution = part[len("\x00START:"):-1]
            elif part == "\x00END\x00":
                self.open_solution = None
            elif part.strip() and self.open_solution:
                cells.append(nbformat.v4.new_markdown_cell(_details(self.open_solution, part)))
            elif part.strip():
                cells.append(nbformat.v4.new_markdown_cell(part.strip("\n")))
        return cells

    def code(self, cell) -> nbformat.NotebookNode:
        if self.open_solution:
            return self.solution_code(cell)
        new = nbformat.v4.new_code_cell(cell.source)
        tags = [t for t in cell.metadata.get("tags", []) if t == "parameters"]
        if tags:
            new.metadata["tags"] = tags
        return new

    def solution_code(self, cell) -> nbformat.NotebookNode:
        """A solution's code and the chapter's printed output, folded in ``<details>``
        as the book folds them: Run All never runs it, so no answer shows under an
        exercise; a student copies the code into a cell to run it."""
        _ = translator(self.chapter.language, "launch_notebooks")
        printed = "".join(_output_text(output) for output in cell.get("outputs", []))
        body = f"```python\n{cell.source.rstrip()}\n```"
        if printed.strip():
            body += "\n\n" + _("It prints:") + f"\n\n```\n{printed.rstrip()}\n```"
        new = nbformat.v4.new_markdown_cell(_details(self.open_solution, body))
        new.metadata[SOLUTION_TAG] = True
        return new


#: The metadata key of a launch notebook's markdown cell that holds a solution's code.
SOLUTION_TAG = "solution-code"


def _output_text(output) -> str:
    if output.get("output_type") == "stream":
        return "".join(output.get("text", ""))
    return "".join(output.get("data", {}).get("text/plain", "")) + "\n" if output.get(
        "output_type") == "execute_result" else ""


def solution_cells(nb) -> set[int]:
    """The indices of a chapter's code cells inside a solution (between
    ``{solution-start}`` and ``{solution-end}``): folded Markdown in a launch notebook."""
    inside, found = False, set()
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            for mark in re.findall(r"\{solution-(start|end)\}", cell.source):
                inside = mark == "start"
        elif inside:
            found.add(index)
    return found


def launched_code(nb) -> list[int]:
    """The indices of a chapter's code cells that its launch notebook runs, in order:
    all but the web explorer's, the solutions' and the glue's bookkeeping."""
    left_out = web_explorer_cells(nb) | solution_cells(nb) | bookkeeping_cells(nb)
    return [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and i not in left_out]


def _touched(tree) -> set[str]:
    """The names a cell binds or changes in place (``x = ...``, ``x[i] = ...``,
    ``x.a += ...``, an import, a definition)."""
    import ast
    scoped = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)
    names, todo = set(), [tree]
    while todo:  # a comprehension's or a lambda's names are its own, not the cell's
        node = todo.pop()
        todo.extend(child for child in ast.iter_child_nodes(node)
                    if not isinstance(child, scoped))
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(
                node.ctx, (ast.Store, ast.Del)):
            base = node
            while isinstance(base, (ast.Attribute, ast.Subscript)):
                base = base.value
            if isinstance(base, ast.Name):
                names.add(base.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def bookkeeping_cells(nb) -> set[int]:
    """The indices of the chapter's hidden cells (``remove-cell``) that only give the
    book's prose its numbers and sentences (glue, chosen or checked claims): nothing a
    later cell runs or a folded solution shows reads what they define. A launch
    notebook has its numbers filled in already, so it leaves them out; a hidden cell a
    later cell needs stays."""
    import ast
    web, solutions = web_explorer_cells(nb), solution_cells(nb)
    dropped, read_later = set(), set()
    for index in reversed(range(len(nb.cells))):
        cell = nb.cells[index]
        if cell.cell_type != "code" or index in web:
            continue
        tree = ast.parse(cell.source)
        if (index not in solutions and "remove-cell" in cell.metadata.get("tags", [])
                and not _touched(tree) & read_later):
            dropped.add(index)
            continue
        read_later |= _free_reads(tree)
    return dropped


def _free_reads(tree) -> set[str]:
    """The names a cell reads from the cells before it: less those only a comprehension
    or lambda of its own binds (``[v for v in x]`` reads ``x``, not ``v``) and those it
    binds on a line before it first reads them (``r = R()`` then ``r.a``)."""
    import ast
    scoped = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)
    local = set()
    for node in ast.walk(tree):
        if isinstance(node, scoped):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                    local.add(inner.id)
                elif isinstance(inner, ast.arg):
                    local.add(inner.arg)
    first_read, first_bound = {}, {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            seen = first_read if isinstance(node.ctx, ast.Load) else first_bound
            seen[node.id] = min(seen.get(node.id, node.lineno), node.lineno)
    bound_first = {name for name, line in first_bound.items()
                   if line < first_read.get(name, line + 1)}
    return set(first_read) - (local - _touched(tree)) - bound_first


# --- the web page's explorer stays on the web page ---------------------------------------

def _names(source: str, context) -> set[str]:
    import ast
    return {node.id for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Name)
            and isinstance(node.ctx, context)}


def builds_web_explorer(source: str) -> bool:
    """Whether a chapter's code cell builds or shows the web page's live explorer (a
    ``live_*`` builder of a figure module, or an explorer's ``.html()``)."""
    import ast
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                node.func.attr == "html" or node.func.attr.startswith("live_")):
            return True
    return False


def web_explorer_cells(nb) -> set[int]:
    """The indices of the chapter's code cells a launch notebook leaves out: those that
    build or show the web explorer, and the bookkeeping cells (``remove-cell``) that
    read what those define. A shown cell that needs them is an error: the notebook
    could not run."""
    import ast
    dropped, defined = set(), set()
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        used = _names(cell.source, ast.Load)
        if builds_web_explorer(cell.source) or (used & defined and "remove-cell" in
                                                cell.metadata.get("tags", [])):
            dropped.add(index)
            defined |= _names(cell.source, ast.Store)
        elif used & defined:
            raise ValueError(f"cell {index} uses {sorted(used & defined)}, which only the "
                             "web explorer's cells define; a launch notebook leaves those "
                             "out")
    return dropped


def without_web_explorer(text: str, language: str) -> str:
    """A Markdown cell without the paragraph that speaks of the web page's explorer (its
    sentence about moving sliders "on this page, with no kernel", and all it says about
    that chart), and with the kernel explorer's paragraph saying it is this notebook's
    explorer."""
    pattern = WEB_EXPLORER[language]
    paragraphs = [p for p in re.split(r"\n{2,}", text)
                  if not re.search(pattern, p)]
    lead, instead, dropped_words = KERNEL_EXPLORER[language]
    kept = []
    for paragraph in paragraphs:
        if re.match(lead, paragraph):
            paragraph = re.sub(lead, instead, paragraph, count=1)
            for words in dropped_words:
                paragraph = re.sub(words, "", paragraph)
        kept.append(paragraph)
    return "\n\n".join(kept)


#: The web explorer's paragraph, by its first sentence (book/_ext/print_words.py's
#: first pattern, whatever the sliders move).
WEB_EXPLORER = {"en": r"on\s+this\s+page,\s+with\s+no\s+kernel\.",
                "ru": r"прямо\s+на\s+(?:этой\s+)?странице,\s+без\s+ядра\."}

#: The kernel explorer's paragraph: how it starts on the page ("In a live kernel
#: (Binder, Colab or your own Jupyter)"), what a notebook says instead, and the words
#: that compared it with the web explorer ("also", «ещё»), which a notebook lacks.
KERNEL_EXPLORER = {
    "en": (r"In\s+a\s+live\s+kernel(?:\s+\([^)]*\))?,?\s+", "This notebook's explorer: ",
           [r"\s+also(?=\s)"]),
    "ru": (r"В\s+(?:живом|работающем)\s+ядре(?:\s+\([^)]*\))?,?\s+",
           "Живой график этого блокнота: ", [r"\s+ещё\s+и(?=\s)", r"\s+ещё(?=\s)"]),
}


# --- the notebook -------------------------------------------------------------------------

def glued_values(nb) -> dict[str, str]:
    values = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            name = output.get("metadata", {}).get("scrapbook", {}).get("name")
            if name and GLUE_MIME in output.get("data", {}):
                values[name] = output["data"][GLUE_MIME]
    return values


def sampled_keys(nb) -> set[str]:
    """The glue keys a chapter marks as sampled numbers, each glued with its interval's
    bounds (``reliability.notebook.Sampled``)."""
    from reliability.notebook.glue import SAMPLED_MARK
    return {output["metadata"]["scrapbook"]["name"]
            for cell in nb.cells if cell.cell_type == "code"
            for output in cell.get("outputs", [])
            if output.get("metadata", {}).get(SAMPLED_MARK)
            and "scrapbook" in output.get("metadata", {})}


#: The tag of a launch notebook's own cells that let a student check an exercise.
CHECK_TAG = "exercise-check"


def with_checks(cells: list, source: str, chapter: Chapter) -> list:
    """``cells`` with a cell after each exercise that ``reliability.checks`` can check:
    the student puts each answer in place of its ``...`` and is told, in one line,
    right, close or not yet, never the answer. The cell runs the student's answers
    only: the solution's code is not in it."""
    from reliability.checks import EXERCISES, LABELS, parts
    from reliability.i18n import gettext
    from reliability.i18n import language as language_of

    _ = translator(chapter.language, "launch_notebooks")
    for label in re.findall(r"^:label: ([\w-]+)$", source, re.M):
        number = chapter.exercises.get(label)
        if label not in LABELS or number is None:
            continue
        title = _("**Exercise {number}**").format(number=number)
        at = next(i for i, c in enumerate(cells) if title in c.source)
        names = parts(label)
        lines = [_("# Check your answer: put it in place of ... and run the cell."),
                 _("# The check says right, close or not yet, and never shows the answer."),
                 "from reliability.checks import check", ""]
        with language_of(chapter.language):
            what = [gettext(EXERCISES[name].what) for name in names]
        if len(names) == 1:
            lines.append(f'check("{label}", ...)  # {what[0]}')
        else:
            lines.append(f'check("{label}",')
            lines += [f"      ...{')' if i == len(names) - 1 else ','}  # {w}"
                      for i, w in enumerate(what)]
        check_cell = nbformat.v4.new_code_cell("\n".join(lines))
        check_cell.metadata["tags"] = [CHECK_TAG]
        cells.insert(at + 1, check_cell)
    return cells


def launch_notebook(path: Path, bibliography: Bibliography | None = None,
                    language: str = "en"):
    """The plain notebook for chapter ``path`` (of the edition in ``language``)."""
    _ = translator(language, "launch_notebooks")
    nb = nbformat.read(str(path), as_version=4)
    chapter = Chapter(path, glued_values(nb), bibliography or Bibliography.load(),
                      language=language)
    renderer = Renderer(chapter)
    cells = [nbformat.v4.new_code_cell(install_cell_source(language),
                                       metadata=dict(INSTALL_METADATA))]
    left_out = web_explorer_cells(nb) | bookkeeping_cells(nb)
    for index, cell in enumerate(nb.cells):
        if index in left_out:
            continue
        if cell.cell_type == "markdown":
            cells.extend(with_checks(renderer.markdown(cell.source), cell.source, chapter))
        elif cell.cell_type == "code":
            cells.append(renderer.code(cell))
    cells = one_toggle_per_solution(cells)
    if chapter.cited:
        lines = "\n".join(f"* {chapter.bibliography.reference(key, language)}"
                          for key in chapter.cited)
        cells.append(nbformat.v4.new_markdown_cell(_("## References") + f"\n\n{lines}"))
    source = path.resolve().relative_to(ROOT).as_posix()
    site = site_url() if language == "en" else f"{site_url()}{language}/"
    cells.append(nbformat.v4.new_markdown_cell(_(
        "*Generated from `{source}` of [the book]({site}) by `make notebooks`; edit the "
        "chapter, not this file.*").format(source=source, site=site)))
    for index, cell in enumerate(cells):
        cell["id"] = f"cell-{index:03d}"  # stable ids: regenerating changes no byte
    out = nbformat.v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
        "colab": {"provenance": [], "toc_visible": True},
    })
    return out


def book_title(language: str = "en") -> str:
    """The edition's title, from its ``_config.yml``."""
    folder = ROOT if language == "en" else EDITION
    return yaml.safe_load((folder / "_config.yml").read_text())["title"]


def readme(language: str = "en") -> str:
    """The README that travels with the notebooks (in their folder and in the book's zip
    of them): what to install, how to open a chapter, where the book is."""
    _ = translator(language, "launch_notebooks")
    url, _branch = repository()
    site = site_url() if language == "en" else f"{site_url()}{language}/"
    return "\n".join([
        _("# {title}: the chapters as notebooks").format(title=book_title(language)),
        "",
        _("One Jupyter notebook per chapter of the book, with the numbers of its pages in "
          "the text. The book, with every figure and a PDF: {site}").format(site=site),
        "",
        _("## Install"),
        "",
        _("With Python 3.11 (the book's versions are pinned for it), in a terminal, in "
          "this folder:"),
        "",
        "    python -m venv .venv",
        "    .venv/bin/pip install -r requirements.txt",
        "",
        _("(on Windows: `.venv\\Scripts\\pip install -r requirements.txt`). That installs "
          "JupyterLab and the book's package, `reliability`, at the versions behind the "
          "book's numbers: from the package's file beside the notebooks in the book's zip "
          "of them, or else from the book's site. No git is needed."),
        "",
        _("## Open"),
        "",
        "    .venv/bin/jupyter lab",
        "",
        _("Open a chapter (`01_chain_decay.ipynb` first), choose Run > Run All Cells, then "
          "move the sliders under \"Explore it yourself\" near its end."),
        "",
        _("In a Jupyter you already have (JupyterLab, VS Code, Colab), open the notebook "
          "there: in Colab its first cell installs the package; elsewhere, when the package "
          "is missing, that cell stops and prints the one line to run in a cell: "
          "`%pip install -r requirements.txt` in this folder, or "
          "`%pip install \"{source}\" -c \"{constraints}\"`.").format(
              source=install_spec(), constraints=constraints_url()),
        "",
        _("`homework.ipynb` is the homework your teacher grades: put a number under each "
          "problem, run all cells, save the notebook and hand it in as your teacher "
          "says."),
        "",
    ])


def requirements(language: str = "en", *, wheel: str | None = None) -> str:
    """The requirements file beside the notebooks: the package's wheel (``wheel``: a file
    beside it, as in the book's zip; else the site's copy) and JupyterLab, at the
    versions pinned for the book's runtime, so a student's numbers are the book's."""
    _ = translator(language, "launch_notebooks")
    return "\n".join([
        _("# What the notebooks need: pip install -r requirements.txt"),
        _("# The versions behind the book's numbers (binder/requirements.txt); no git "
          "needed."),
        install_spec(f"./{wheel}" if wheel else None),
        *pinned_runtime(),
        "",
    ])


#: The files written beside the notebooks, and zipped with them by the book's build.
COMPANIONS = {"README.md": readme, "requirements.txt": requirements}


def render_all(target: Path = NOTEBOOKS, language: str = "en") -> list[Path]:
    """Write every chapter's launch notebook, and the homework's, into ``target``;
    return their paths."""
    target.mkdir(parents=True, exist_ok=True)
    bibliography = Bibliography.load()
    written = []
    source = CHAPTERS if language == "en" else RU_CHAPTERS
    for path in sorted(source.glob("*.ipynb")):
        out = target / path.name
        out.write_text(nbformat.writes(launch_notebook(path, bibliography, language)) + "\n")
        written.append(out)
    # The homework set's student notebook (bookbuild/homework.py; its key is the
    # teacher's), opened by the same install cell
    student = target / homework.NAME
    sheet = homework.notebook(language, first_cell=install_cell_source(language))
    sheet.cells[0].metadata.update(INSTALL_METADATA)  # folded, as in every launch notebook
    student.write_text(nbformat.writes(sheet) + "\n")
    written.append(student)
    for name, make in COMPANIONS.items():
        (target / name).write_text(make(language))
    stale = {p.name for p in target.glob("*.ipynb")} - {p.name for p in written}
    for name in stale:
        (target / name).unlink()
    return written


def main(argv: list[str]) -> int:
    if argv:
        editions = [(Path(argv[0]), "en")]
    else:
        editions = [(NOTEBOOKS, "en")] + ([(RU_NOTEBOOKS, "ru")] if RU_CHAPTERS.exists()
                                          else [])
    for folder, language in editions:
        written = render_all(folder, language)
        print(f"launch notebooks: {len(written)} written to {written[0].parent}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
