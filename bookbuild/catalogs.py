"""The Russian edition: translation catalogs kept in step with the English book.

    .venv/bin/python -m bookbuild update    # English changed: refresh the catalogs
    .venv/bin/python -m bookbuild edition   # catalogs -> the Russian book in ru/
    .venv/bin/python -m bookbuild status    # what is untranslated or outdated

The English pages are the source. Each one has a gettext catalog under ``locale/ru/``
(``locale/ru/chapters/02_retries.po``, ``locale/ru/book/intro.po``) whose messages are
the page's blocks:

* a Markdown block (the text between blank lines; a ``$$`` display or a fenced code
  block is one block however many blank lines it holds), with its MyST markup, which the
  translation keeps: roles, glue keys, labels, maths (only ``\\text{...}`` is words);
* a whole code cell that has a comment or a string with a space in it, which the
  translation gives back as the same code with its comments and reader-facing strings in
  Russian (``tests/test_translation.py`` checks that only strings and comments differ).

``update`` works like ``sphinx-intl update``: a new block arrives untranslated, a changed
one keeps its old translation marked *fuzzy* with the old English beside it
(``#| msgid``), a removed one becomes obsolete. ``edition`` (:mod:`bookbuild.edition`)
writes ``ru/`` from the English pages and the catalogs and refuses a page that has an untranslated or fuzzy block; code
cells whose Russian source did not change keep their stored outputs, others are left
unrun for ``make outputs CHAPTER=ru/chapters/...`` to execute. Strings inside the
package (figure labels, table headers, explorer sentences) have catalogs of their own in
``reliability/locale/ru/`` (see :mod:`reliability.i18n`), refreshed by ``update`` too.

Reads the English pages (``chapters/*.ipynb``, ``book/*.md``, ``_toc.yml``), the
package's marked strings and those of :data:`CODE_SOURCES`; ``update`` writes
``locale/ru/**/*.po`` and ``reliability/locale/ru/*.po``, ``status`` writes nothing.
"""

from __future__ import annotations

import ast
import io
import json
import re
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LANGUAGE = "ru"
EDITION = ROOT / LANGUAGE
LOCALE = ROOT / "locale" / LANGUAGE
PACKAGE = ROOT / "reliability"
PACKAGE_LOCALE = PACKAGE / "locale" / LANGUAGE

#: The English pages that are translated, book-relative. The chapters are every notebook
#: in chapters/; the teacher's snippets page is generated from the Russian chapters by
#: bookbuild/teacher_page.py, so it has no catalog of its own.
BOOK_PAGES = ("book/intro.md", "book/how_to_use.md", "book/teaching.md", "book/quiz.md",
              "book/hub.md", "book/glossary.md", "book/api.md", "book/api/stats.md",
              "book/api/passk.md", "book/api/workflow.md", "book/api/harness.md",
              "book/references.md")

# Generated regions that the Russian edition regenerates rather than translates.
GENERATED = re.compile(r"<!-- (?P<region>chapter-times|plan-[\w-]+|hub-links): begin "
                       r"-->.*?<!-- (?P=region): end -->", re.S)

# Lines that are only markup: fences (an admonition's or dropdown's title is words),
# directive options, targets, comments.
MARKUP_ONLY = re.compile(r"^\s*((`{3,}|:{3,})(?!\{(admonition|dropdown)\}\s*\S).*|:[\w-]+:.*"
                         r"|\(.*\)=\s*|<!--.*-->)\s*$")
LETTER = re.compile(r"[A-Za-z]")


#: The book's title and part captions (from _config.yml and _toc.yml) have a catalog
#: under this name.
TOC_PAGE = "_toc.yml"


def english_pages() -> list[str]:
    """Every translated English page, book-relative, chapters first."""
    chapters = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "chapters").glob("*.ipynb"))
    return chapters + list(BOOK_PAGES)


#: Words of the build's extensions that their settings can give in another language
#: (myst-nb's code toggles, sphinx-togglebutton's hints), by setting, as in English.
EXTENSION_WORDS = {"nb_code_prompt_show": "Show code cell {type}",
                   "nb_code_prompt_hide": "Hide code cell {type}",
                   "togglebutton_hint": "Click to show",
                   "togglebutton_hint_hide": "Click to hide",
                   # the footer's date: Sphinx's default, which Russian reads
                   # «дек. 06, 2026»; the Russian catalog gives the date as Russian writes it
                   "html_last_updated_fmt": "%b %d, %Y",
                   # the reference list's and the citations' words (book/_ext/bibliography.py)
                   "bibliography_no_date": "n.d.", "bibliography_et_al": "et al.",
                   "bibliography_and": "and", "bibliography_last_and": ", and ",
                   "bibliography_edition": "{edition} edition", "bibliography_in": "In"}
#: The fields of book/references.bib whose text is prose the reader reads (not a title,
#: which a reference list keeps in its own language): translated with the extensions'
#: words, and handed to the Russian build as ``bibliography_fields``.
BIB_PROSE_FIELDS = ("note", "howpublished")


def bibliography_texts() -> list[str]:
    """The English note and howpublished texts of book/references.bib, in file order."""
    from pybtex.database import parse_file

    entries = parse_file(str(ROOT / "book" / "references.bib")).entries.values()
    return [entry.fields[name] for entry in entries for name in BIB_PROSE_FIELDS
            if name in entry.fields]


def toc_messages() -> list[str]:
    """The book's title and author, the table of contents' part captions, the
    extensions' words and the reference list's notes, in English."""
    import yaml

    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    return [config["title"], config["author"]] + [
        part["caption"] for part in toc.get("parts", [])] + list(EXTENSION_WORDS.values()) + (
        bibliography_texts())


def catalog_path(page: str) -> Path:
    return LOCALE / Path(page).with_suffix(".po")


# --- blocks -------------------------------------------------------------------------------

def split_blocks(text: str) -> list[str]:
    """``text`` as its blocks and the blank-line runs between them, so that
    ``"".join(split_blocks(text)) == text``. A ``$$`` display or a fenced code block
    (not a directive: its body is prose) stays whole."""
    lines = text.splitlines(keepends=True)
    parts: list[str] = []
    current: list[str] = []
    closing: str | None = None  # the line that ends the open $$ or code fence

    def flush():
        if current:
            parts.append("".join(current))
            current.clear()

    for line in lines:
        stripped = line.strip()
        if closing is not None:
            current.append(line)
            if stripped.startswith(closing) and len(current) > 1:
                closing = None
            continue
        if not stripped:
            flush()
            if parts and not parts[-1].strip():
                parts[-1] += line
            else:
                parts.append(line)
            continue
        current.append(line)
        if stripped == "$$" or (stripped.startswith("$$") and not stripped.endswith("$$")):
            closing = "$$"
        elif re.match(r"^`{3,}(?![`{])", stripped):
            closing = re.match(r"^`{3,}", stripped)[0]
    flush()
    return parts


def translatable(block: str) -> bool:
    """Whether a block holds words: not a blank run, not only fences, options, labels
    and comments, not a generated region."""
    if not block.strip() or GENERATED.fullmatch(block.strip()):
        return False
    words = [line for line in block.splitlines() if not MARKUP_ONLY.match(line)]
    return bool(LETTER.search("\n".join(words)))


def _code_has_words(source: str) -> bool:
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return "#" in source or '"' in source
    for token in tokens:
        if token.type == tokenize.COMMENT:
            return True
        if token.type == tokenize.STRING and re.search(r"[A-Za-z].*\s|\s.*[A-Za-z]",
                                                        token.string):
            return True
        if getattr(tokenize, "FSTRING_MIDDLE", None) == token.type and " " in token.string:
            return True
    return False


def _markdown_without_generated(text: str) -> list[tuple[str, bool]]:
    """Blocks of a Markdown page, with a generated region as one untranslatable block."""
    pieces: list[tuple[str, bool]] = []
    position = 0
    for match in GENERATED.finditer(text):
        pieces += [(b, translatable(b)) for b in split_blocks(text[position:match.start()])]
        pieces.append((match[0], False))
        position = match.end()
    pieces += [(b, translatable(b)) for b in split_blocks(text[position:])]
    return pieces


def cell_alt_text(cell) -> str | None:
    """The alt text of a code cell's figure (``metadata.mystnb.image.alt``), if any."""
    return cell.get("metadata", {}).get("mystnb", {}).get("image", {}).get("alt")


@dataclass(frozen=True)
class Message:
    text: str | tuple[str, str]   # a plural message: (singular, plural)
    location: str
    code: bool
    context: str | None = None


def page_messages(page: str) -> list[Message]:
    """The messages of one English page, in page order (repeats included)."""
    path = ROOT / page
    found: list[Message] = []
    if page == TOC_PAGE:
        return [Message(text, TOC_PAGE, False) for text in toc_messages()]
    if path.suffix == ".ipynb":
        nb = json.loads(path.read_text())
        for index, cell in enumerate(nb["cells"]):
            source = "".join(cell["source"])
            where = f"{page}#{cell.get('id', index)}"
            if cell["cell_type"] == "markdown":
                found += [Message(b.rstrip("\n"), where, False)
                          for b, ok in _markdown_without_generated(source) if ok]
            elif cell["cell_type"] == "code":
                if _code_has_words(source):
                    found.append(Message(source, where, True))
                alt = cell_alt_text(cell)
                if alt:
                    found.append(Message(alt, where, False))
    else:
        text = path.read_text()
        found += [Message(b.rstrip("\n"), page, False)
                  for b, ok in _markdown_without_generated(text) if ok]
    return found


# --- catalogs -----------------------------------------------------------------------------

def _new_catalog(project: str) -> Catalog:
    catalog = Catalog(locale=LANGUAGE, project=project, version="",
                      copyright_holder="The Agent Reliability, by the Numbers authors",
                      msgid_bugs_address="", fuzzy=False)
    catalog.revision_date = catalog.creation_date = None  # no timestamps in the diff
    return catalog


def _template(messages: list[Message], project: str) -> Catalog:
    template = _new_catalog(project)
    for message in messages:
        comments = ["code cell: keep the code; translate comments and strings a reader "
                    "sees"] if message.code else []
        existing = template.get(message.text, context=message.context)
        if existing is None:
            template.add(message.text, locations=[(message.location, None)],
                         auto_comments=comments, context=message.context)
        elif (message.location, None) not in existing.locations:
            existing.locations.append((message.location, None))
    return template


def read_catalog(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=LANGUAGE)


def write_catalog(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    catalog.revision_date = catalog.creation_date = None
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, include_previous=True, omit_header=True,
             sort_output=False)
    text = buffer.getvalue().decode()
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def set_translation(catalog: Catalog, msgid: str, text: str,
                    context: str | None = None) -> None:
    """Give ``msgid`` its translation ``text``: current, not fuzzy, no old English kept."""
    message = catalog.get(msgid, context=context)
    message.string = text
    message.flags.discard("fuzzy")
    message.previous_id = ()
    message.user_comments = [c for c in message.user_comments if not c.startswith("| ")]


def update_catalog(messages: list[Message], path: Path, project: str) -> Catalog:
    """Merge the page's current messages into its catalog (``msgmerge``'s rules)."""
    template = _template(messages, project)
    if path.exists():
        catalog = read_catalog(path)
        catalog.update(template, no_fuzzy_matching=False, update_header_comment=False)
        # Obsolete entries stay out of the file: git keeps the history.
        catalog.obsolete.clear()
    else:
        catalog = _new_catalog(project)
        for message in template:
            if message.id:
                catalog.add(message.id, locations=message.locations,
                            auto_comments=message.auto_comments, context=message.context)
    write_catalog(catalog, path)
    return catalog


# --- package strings -----------------------------------------------------------------------

MARKERS = ("_", "N_")
CONTEXT_MARKERS = ("NP_", "pgettext")
#: Plural messages: ``ngettext("run", "runs", n)`` and reliability.numbers'
#: ``counted(n, "run", "runs")`` (its Russian forms come from the catalog's plural entry).
PLURAL_MARKERS = {"ngettext": 0, "counted": 1}


def _literals(args) -> bool:
    return all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args)


#: The context of a module's docstring in its catalog when an API page shows the module
#: (``:::{api-module} name`` in book/api/): the page opens the module's entries with that
#: docstring as its introduction, in the edition's language (book/_ext/api_page.py).
API_INTRO = "API page: the module's introduction"
_API_MODULE = re.compile(r"^:::\{api-module\}\s+(\S+)", re.M)


def api_modules() -> set[str]:
    """The modules the API pages document, by dotted name."""
    return {name for page in BOOK_PAGES if page.startswith("book/api/")
            for name in _API_MODULE.findall((ROOT / page).read_text())}


def package_messages(module: Path) -> list[Message]:
    """Literal strings passed to ``_()`` or ``N_()`` in one module, and the module's
    docstring when an API page introduces the module with it (:data:`API_INTRO`)."""
    tree = ast.parse(module.read_text())
    found = []
    relative = Path(module).resolve().relative_to(ROOT).as_posix()
    dotted = ".".join(Path(relative).with_suffix("").parts)
    docstring = ast.get_docstring(tree)
    if docstring and dotted in api_modules():
        found.append((0, Message(docstring, relative, False, API_INTRO)))
    for node in ast.walk(tree):
        name = (node.func.id if isinstance(node.func, ast.Name) else node.func.attr
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                else None) if isinstance(node, ast.Call) else None
        if (name in MARKERS and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)):
            found.append((node.lineno, Message(node.args[0].value, relative, False)))
        elif (name in CONTEXT_MARKERS and len(node.args) == 2
              and all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                      for a in node.args)):
            found.append((node.lineno, Message(node.args[1].value, relative, False,
                                               node.args[0].value)))
        elif name in PLURAL_MARKERS and len(node.args) == 3:
            forms = node.args[PLURAL_MARKERS[name]:PLURAL_MARKERS[name] + 2]
            if _literals(forms):
                found.append((node.lineno, Message((forms[0].value, forms[1].value),
                                                   relative, False)))
    # Source order, but no line numbers in the catalog: moving code changes nothing there.
    return [message for _, message in sorted(found, key=lambda pair: pair[0])]


def _key(msgid) -> str:
    """A message's singular: the key of a plural entry, as gettext looks it up."""
    return msgid[0] if isinstance(msgid, tuple) else str(msgid)


def package_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "locale" not in p.parts)


def package_catalog_path(module: Path) -> Path:
    dotted = ".".join(module.relative_to(PACKAGE).with_suffix("").parts)
    return PACKAGE_LOCALE / f"{dotted}.po"


# --- the words the book's scripts and extension write ------------------------------------

#: Files outside the package whose ``_("...")`` strings reach a page (the teacher's
#: snippets page, the launch notebooks, the "Run this chapter" note, the PDF's contents);
#: each has a catalog in locale/ru/code/.
CODE_SOURCES = ("bookbuild/teacher_page.py", "bookbuild/launch_notebooks.py",
                "bookbuild/hub_links.py", "book/_ext/reader_pages.py",
                "book/_ext/quiz.py", "bookbuild/homework.py", "bookbuild/grade.py",
                "bookbuild/book_pdf.py", "bookbuild/slides.py")


def code_catalog_path(source: str, language: str = LANGUAGE) -> Path:
    return ROOT / "locale" / language / "code" / f"{Path(source).stem}.po"


def translator(language: str, source: str):
    """A function that gives ``source``'s marked strings in ``language``."""
    if language == "en":
        return lambda message: message
    from reliability.i18n import read_po

    path = code_catalog_path(source, language)
    entries = read_po(path) if path.exists() else {}
    return lambda message: entries.get(message, message)


# --- English left in Russian text ----------------------------------------------------------

#: Words without which an English sentence is hard to write, and which no name contains.
FUNCTION_WORDS = frozenset(
    "the a an of to in is are was were be been being and or but for with on at by from as "
    "that this these those it its which who what when where how not no can will would "
    "should than then there their they we you your our has have had does do into per "
    "each every only also".split())
_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z'’-]*(?:[ \t,;:]+[A-Za-z][A-Za-z'’-]*){3,}")


def english_phrases(text: str) -> list[str]:
    """Runs of four or more Latin-letter words in ``text`` with an English function word
    among them: an English sentence or clause, not a name (GPT-4o, Huang et al.)."""
    return [match[0] for match in _LATIN_RUN.finditer(text)
            if any(word.lower() in FUNCTION_WORDS
                   for word in re.findall(r"[A-Za-z][A-Za-z'’-]*", match[0]))]


def english_label(text: str) -> bool:
    """Whether a short label (a figure's text) is English: two lowercase Latin words in a
    row, or an English function word on its own."""
    text = re.sub(r"\bet al\.?", " ", text)  # an author list, not English prose
    words = re.findall(r"(?<![\w-])[A-Za-z]+(?![\w-])", text)
    return bool(re.search(r"(?<![\w-])[a-z]{2,}[ ][a-z]{2,}(?![\w-])", text)) or any(
        word in FUNCTION_WORDS and len(word) > 1 for word in words) or english_phrases(text) != []


# --- status ---------------------------------------------------------------------------------

def problems(catalog: Catalog, name: str) -> list[str]:
    """Untranslated and fuzzy (outdated) entries, one line each."""
    found = []
    for message in catalog:
        if not message.id:
            continue
        first = _key(message.id).splitlines()[0][:70]
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(forms):
            found.append(f"{name}: untranslated: {first!r}")
        elif message.fuzzy:
            found.append(f"{name}: outdated (fuzzy): {first!r}")
    return found


def update() -> list[Path]:
    written = []
    for page in english_pages() + [TOC_PAGE]:
        path = catalog_path(page)
        update_catalog(page_messages(page), path, page)
        written.append(path)
    for module in package_modules():
        messages = package_messages(module)
        path = package_catalog_path(module)
        if messages or path.exists():
            update_catalog(messages, path, module.relative_to(ROOT).as_posix())
            written.append(path)
    for source in CODE_SOURCES:
        path = code_catalog_path(source)
        update_catalog(package_messages(ROOT / source), path, source)
        written.append(path)
    return written


def status() -> list[str]:
    found = []
    for page in english_pages() + [TOC_PAGE]:
        path = catalog_path(page)
        if not path.exists():
            found.append(f"{page}: no catalog (run python -m bookbuild update)")
            continue
        catalog = read_catalog(path)
        current = {m.text for m in page_messages(page)}
        stale = current - {str(m.id) for m in catalog if m.id}
        found += [f"{page}: not in the catalog (run update): {s.splitlines()[0][:70]!r}"
                  for s in sorted(stale)]
        found += problems(catalog, path.relative_to(ROOT).as_posix())
    sources = [(m, package_catalog_path(m)) for m in package_modules()] + [
        (ROOT / s, code_catalog_path(s)) for s in CODE_SOURCES]
    for module, path in sources:
        messages = package_messages(module)
        if not messages:
            continue
        if not path.exists():
            found.append(f"{module.relative_to(ROOT)}: no catalog (run update)")
            continue
        catalog = read_catalog(path)
        stale = {(_key(m.text), m.context) for m in messages} - {
            (_key(m.id), m.context) for m in catalog if m.id}
        found += [f"{path.relative_to(ROOT)}: not in the catalog (run update): {s[0][:70]!r}"
                  for s in sorted(stale, key=str)]
        found += problems(catalog, path.relative_to(ROOT).as_posix())
    return found


# --- building the Russian pages --------------------------------------------------------------

class Untranslated(LookupError):
    pass


def _lookup(catalog: Catalog, text: str, where: str) -> str:
    message = catalog.get(text)
    if message is None or not message.string or message.fuzzy:
        state = "missing" if message is None or not message.string else "outdated"
        raise Untranslated(f"{where}: {state} translation of {text.splitlines()[0][:70]!r}")
    return str(message.string)


def translate_markdown(text: str, catalog: Catalog, where: str) -> str:
    out = []
    for block, ok in _markdown_without_generated(text):
        if not ok:
            out.append(block)
            continue
        body = block.rstrip("\n")
        out.append(_lookup(catalog, body, where).rstrip("\n") + block[len(body):])
    return "".join(out)


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "status"
    if command == "update":
        for path in update():
            print(path.relative_to(ROOT))
        return 0
    if command == "status":
        found = status()
        print("\n".join(found) or "every catalog is complete and current")
        return 1 if found else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
