"""The Russian edition: every page translated and current, built from the catalogs, the
same code as the English chapters with the same numbers, the markup kept, no English
sentence left in its prose."""

import ast
import re
import string

import nbformat
import pytest

from bookbuild import edition
from bookbuild import catalogs
from bookbuild.launch_notebooks import glued_values
from bookbuild.run import ROOT, chapters

CHAPTERS = chapters()
PAGES = catalogs.english_pages()


def _ids(paths):
    return [str(p).split("/")[-1].split(".")[0] for p in paths]


def test_every_catalog_is_complete_and_current():
    problems = catalogs.status()
    assert not problems, (
        f"{len(problems)} untranslated or outdated entries (English changed and the Russian "
        f"did not follow; see locale/ru/README.md):\n" + "\n".join(problems[:30]))


def test_the_russian_book_is_what_the_catalogs_make():
    stale = [path.relative_to(ROOT).as_posix() for path, text in edition.outputs().items()
             if not path.exists() or path.read_text() != text]
    assert not stale, f"out of date with the catalogs: {stale}; run make notebooks"


@pytest.mark.parametrize("path", CHAPTERS, ids=_ids(CHAPTERS))
def test_every_russian_code_cell_has_run(path):
    russian = edition.EDITION / "chapters" / path.name
    assert not edition.not_run(russian), (
        f"{russian.relative_to(ROOT)} has code whose outputs were never stored; run "
        f"make outputs CHAPTER={russian.relative_to(ROOT)}")


# --- the same code ----------------------------------------------------------------------------

class _Words(ast.NodeTransformer):
    """Every string constant (and f-string) replaced by one placeholder."""

    def visit_Constant(self, node):
        return ast.Constant("") if isinstance(node.value, str) else node

    def visit_JoinedStr(self, node):
        return ast.Constant("")


def skeleton(source: str) -> str:
    """The code's syntax tree without its strings (comments are gone already)."""
    lines = [line for line in source.splitlines() if not line.lstrip().startswith("%")]
    return ast.dump(_Words().visit(ast.parse("\n".join(lines))))


def _identifier_strings(source: str) -> list[str]:
    """Strings that name things rather than say them: no space, no letter outside ASCII
    identifiers (keys, chapter and table names, formats)."""
    tree = ast.parse("\n".join(line for line in source.splitlines()
                                if not line.lstrip().startswith("%")))
    return [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
            and isinstance(node.value, str) and re.fullmatch(r"[A-Za-z0-9_.:-]+", node.value)
            and re.search(r"[_\d.-]|:(?!$)", node.value)]  # not a label ending in ":"


@pytest.mark.parametrize("page", PAGES[:len(CHAPTERS)], ids=_ids(CHAPTERS))
def test_russian_code_is_the_english_code(page):
    """A translated code cell differs only in its strings and comments, and keeps every
    string that names something (``"02_retries"``, ``"ch2-cost"``, ``"reliability_page"``)."""
    catalog = catalogs.read_catalog(catalogs.catalog_path(page))
    for message in catalogs.page_messages(page):
        if not message.code:
            continue
        russian = str(catalog[message.text].string)
        if not russian:
            continue  # untranslated: the completeness test says so
        assert skeleton(russian) == skeleton(message.text), (
            f"{message.location}: the Russian cell is different code:\n{russian}")
        assert _identifier_strings(russian) == _identifier_strings(message.text), (
            f"{message.location}: a key or name was translated:\n{russian}")


# --- the markup and the placeholders ------------------------------------------------------------

ROLE = re.compile(r"\{(?P<name>[a-zA-Z][\w:-]*)\}`(?P<body>[^`]*)`")
TEXT_IN_MATHS = re.compile(r"\\(?:text|mathrm|textrm|operatorname)\{[^{}]*\}")
MATHS = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S)


def markup(text: str) -> list:
    """What a translation must keep: roles (a term's target, not its text), maths without
    its words, fences, directive options and labels."""
    kept = []
    for match in ROLE.finditer(text):
        body = match["body"]
        if match["name"] in ("term", "doc", "ref", "numref"):
            titled = re.match(r"^.*?<([^>]+)>$", body, re.S)
            body = (titled[1] if titled else body).strip().lower()
        if match["name"].startswith("glue"):
            # key and format stay; the noun's plural forms after "|" are words
            # (reliability.numbers.glued_text)
            body = body.split("|")[0]
        kept.append((match["name"], body))
    # Russian maths writes a decimal comma as TeX spells it, ``0{,}5`` for ``0.5``
    kept += [re.sub(r"\s+", "", TEXT_IN_MATHS.sub("T", m)).replace("{,}", ".")
             for m in MATHS.findall(text)]
    # A directive's fence, name and label stay; an admonition's or dropdown's title is
    # words, and is translated.
    kept += [re.sub(r"^((?:`{3,}|:{3,})\{(?:admonition|dropdown)\}).*", r"\1", line.strip())
             for line in text.splitlines()
             if re.match(r"^\s*(`{3,}|:{3,}|:[\w-]+:|\([\w-]+\)=)", line)
             and not line.strip().startswith(":class:")]
    return sorted(map(str, kept))


def _prose_messages(page: str):
    """(English, Russian) of each translated message of a page that is not code."""
    catalog = catalogs.read_catalog(catalogs.catalog_path(page))
    code = {m.text for m in catalogs.page_messages(page) if m.code}
    return [(str(m.id), str(m.string)) for m in catalog
            if m.id and m.string and str(m.id) not in code]


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_translations_keep_the_markup(page):
    for english, russian in _prose_messages(page):
        assert markup(russian) == markup(english), (
            f"{page}: markup changed in the translation of {english.splitlines()[0][:60]!r}"
            f"\n{markup(english)}\n{markup(russian)}")


def _fields(text: str) -> list:
    return sorted((name, spec) for _, name, spec, _ in string.Formatter().parse(text)
                  if name is not None)


def _code_catalogs():
    return sorted(catalogs.PACKAGE_LOCALE.glob("*.po")) + sorted(
        (catalogs.LOCALE / "code").glob("*.po"))


@pytest.mark.parametrize("path", _code_catalogs(), ids=lambda p: p.stem)
def test_package_strings_keep_their_placeholders(path):
    for message in catalogs.read_catalog(path):
        # a module's docstring (an API page's introduction) is reStructuredText, never
        # formatted: its braces are LaTeX's, not placeholders
        if message.id and message.string and message.context != catalogs.API_INTRO:
            # a plural message: each of the language's forms keeps the English forms'
            # placeholders ("{name} fired {count:,d} times" -> «… сработал {count:,d} раза»)
            english = message.id if isinstance(message.id, tuple) else (message.id,)
            forms = (message.string if isinstance(message.string, tuple)
                     else (message.string,))
            wanted = [_fields(str(text)) for text in english]
            for form in forms:
                assert _fields(str(form)) in wanted, (
                    f"{path.name}: {str(message.id)!r} -> {str(message.string)!r}")


# --- the same numbers ----------------------------------------------------------------------------

NUMBER = re.compile(r"-?[\d.e+-]+|np\.\w+\(.*\)|nan|inf|True|False")


@pytest.mark.parametrize("path", CHAPTERS, ids=_ids(CHAPTERS))
def test_both_editions_glue_the_same_numbers(path):
    """Every glued value of the English chapter, and the same value in the Russian one:
    numbers equal (one code, one run), sentences in Russian."""
    english = glued_values(nbformat.read(str(path), as_version=4))
    russian = glued_values(nbformat.read(str(edition.EDITION / "chapters" / path.name),
                                         as_version=4))
    assert set(russian) == set(english)
    assert english, "the chapter glues nothing"
    for key, value in english.items():
        if NUMBER.fullmatch(value):
            assert russian[key] == value, f"{key}: {value} in English, {russian[key]} in Russian"
        else:
            assert re.search("[а-яё]", russian[key], re.I), f"{key}: {russian[key]} not Russian"


# --- no English left ----------------------------------------------------------------------------

def prose(text: str) -> str:
    """Markdown with what is not prose taken out: code, maths, roles, link targets, HTML
    tags, fences and options, and quoted titles (a paper's title stays as cited)."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S) if text.count("```") % 2 == 0 else text
    text = MATHS.sub(" ", text)
    text = ROLE.sub(" ", text)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"«[^»]*»|\"[^\"]*\"|\*[^*\n]+\*", " ", text)
    return "\n".join(line for line in text.splitlines()
                     if not re.match(r"^\s*(`{3,}|:{3,}|:[\w-]+:|\([\w-]+\)=)", line))


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_no_english_sentence_in_the_russian_prose(page):
    left = []
    for _, russian in _prose_messages(page):
        left += catalogs.english_phrases(prose(russian))
    assert not left, f"{page}: English left in the Russian text: {left[:8]}"


def test_the_english_detector_finds_english_and_spares_russian():
    assert catalogs.english_phrases("Повторы помогают. The ceiling is what silent "
                                    "errors leave, and retries cannot pass it.")
    assert not catalogs.english_phrases("Повторы не обходят потолок: GPT-4o, MATH-500, "
                                        "Huang et al. и pass^k остаются как есть.")


# --- the glossary ----------------------------------------------------------------------------------

def _glossary_entries(text: str) -> list[list[str]]:
    """Each glossary entry's term lines."""
    body = text.split("```{glossary}", 1)[1].split("\n```", 1)[0]
    entries, current = [], []
    for line in body.splitlines():
        if line.startswith(":"):
            continue
        if line and not line.startswith(" "):
            current.append(line.strip())
        elif current:
            entries.append(current)
            current = []
    return entries + ([current] if current else [])


def test_the_russian_glossary_gives_each_term_in_both_languages():
    english = {terms[0] for terms in _glossary_entries((ROOT / "book/glossary.md").read_text())}
    russian = _glossary_entries((edition.EDITION / "book/glossary.md").read_text())
    assert len(russian) == len(english)
    for terms in russian:
        assert re.search("[а-яё]", terms[0], re.I), f"{terms}: no Russian name first"
        assert any(term in english for term in terms[1:]), f"{terms}: no English name"
    assert {t for terms in russian for t in terms[1:]} >= english


def test_a_package_string_has_one_translation_everywhere():
    """The runtime merges every module's catalog, so a string marked in two modules (a
    shared table header, say) must be translated the same way in both."""
    seen: dict[str, tuple[str, str]] = {}
    clashes = []
    for path in sorted(catalogs.PACKAGE_LOCALE.glob("*.po")):
        for message in catalogs.read_catalog(path):
            if not message.id or not message.string:
                continue
            english, russian = str(message.id), str(message.string)
            if message.context:
                english = f"{message.context}: {english}"  # a word in its own context
            if english in seen and seen[english][0] != russian:
                clashes.append(f"{english!r}: {seen[english][0]!r} ({seen[english][1]}) vs "
                               f"{russian!r} ({path.name})")
            seen.setdefault(english, (russian, path.name))
    assert not clashes, "\n".join(clashes)


def test_a_repeated_block_reads_the_same_in_every_chapter():
    """A heading or sentence that several English pages share ("## Overview", "You will
    learn", "## Exercises") is translated the same way on each of them."""
    seen: dict[str, tuple[str, str]] = {}
    clashes = []
    for page in PAGES:
        for english, russian in _prose_messages(page):
            if english in seen and seen[english][0] != russian:
                clashes.append(f"{english[:50]!r}: {seen[english][0][:50]!r} "
                               f"({seen[english][1]}) vs {russian[:50]!r} ({page})")
            seen.setdefault(english, (russian, page))
    assert not clashes, "\n".join(clashes)


# --- what the Russian chapters print ----------------------------------------------------------

RUSSIAN_OUTPUTS = [edition.EDITION / "chapters" / p.name for p in chapters()] + [
    edition.EDITION / "book" / "teaching_snippets.ipynb"]


def printed_lines(nb: nbformat.NotebookNode) -> list[tuple[int, str]]:
    """What a reader reads in a notebook's stored outputs, line by line with its cell's
    number: printed text and tables, read as tests/test_numbers.py reads them (a figure's
    ``<Figure size ...>`` stand-in and the animation player's script left out)."""
    from test_numbers import _shown

    return [(number, line.strip())
            for number, cell in enumerate(nb.cells) if cell.cell_type == "code"
            for output in cell.get("outputs", [])
            for text in _shown(output, between_tags="\n")
            for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize("path", RUSSIAN_OUTPUTS, ids=[p.stem for p in RUSSIAN_OUTPUTS])
def test_the_russian_outputs_are_in_russian(path):
    """A printed line of the Russian edition (the teaching cells a teacher runs in class
    among them) says nothing in English: no English clause, no two English words in a
    row (a rung's or an arm's name), no English function word."""
    english = [f"cell {number}: {line[:90]}"
               for number, line in printed_lines(nbformat.read(str(path), as_version=4))
               if catalogs.english_phrases(line)
               or len(line) < 90 and catalogs.english_label(line)]
    assert not english, f"{path.name} prints English:\n" + "\n".join(english[:12])


def _package_words() -> set[str]:
    """Single English words the package translates (a msgid of reliability/locale/ru
    that is one lowercase word, with a Russian msgstr of its own): printed on their own
    in a Russian output ("baseline", "usage", "traces"), they are a translation the code
    forgot to ask for. One word slips past english_label, which needs two."""
    from babel.messages.pofile import read_po

    words = set()
    for path in sorted((ROOT / "reliability" / "locale" / "ru").glob("*.po")):
        with open(path, "rb") as handle:
            for message in read_po(handle):
                english = message.id if isinstance(message.id, str) else None
                russian = message.string if isinstance(message.string, str) else ""
                if english and re.fullmatch(r"[a-z]{2,}", english) and russian \
                        and russian != english:
                    words.add(english)
    return words


def _untranslated_words(line: str, words: set[str]) -> list[str]:
    """The package's English words that stand alone in ``line`` (not part of a name
    such as order_id or GPT-4o, nor inside a quoted identifier)."""
    return [word for word in re.findall(r"(?<![\w.\-'\"`])[a-z]{2,}(?![\w\-'\"`])", line)
            if word in words]


#: Words that are names, not English: the answer schema's fields (chapter 6), which the
#: model writes and the validator quotes as they are.
_FIELD_NAMES = {"answer", "reasoning", "confidence"}
#: Lines still waiting for their fix, by chapter and the line's start, each with why.
_PENDING: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("path", RUSSIAN_OUTPUTS, ids=[p.stem for p in RUSSIAN_OUTPUTS])
def test_the_russian_outputs_leave_no_package_word_in_english(path):
    """A word the package translates is shown translated in a Russian output: a table
    cell, a header, a printed label («в порядке», not "ok"; «база», not "baseline")."""
    words = _package_words() - _FIELD_NAMES
    pending = tuple(start for chapter, start in _PENDING if chapter == path.stem)
    found = [f"cell {number}: {word!r} in {line[:80]!r}"
             for number, line in printed_lines(nbformat.read(str(path), as_version=4))
             if not (pending and line.startswith(pending))
             for word in _untranslated_words(line, words)]
    assert not found, f"{path.name} shows English words:\n" + "\n".join(found[:12])


def test_the_word_check_finds_a_lone_english_word():
    words = _package_words()
    assert {"baseline", "usage", "timing", "traces"} <= words
    assert _untranslated_words("+валидация — baseline: +46,0 п. п.", words) == ["baseline"]
    assert _untranslated_words("refund        order_id          usage", words) == ["usage"]
    assert _untranslated_words("find_order    order_id          в порядке", words) == []


#: An interval printed with a comma between Russian decimals: «[38,1, 53,2]» reads as
#: three numbers. reliability.numbers.interval writes «[38,1; 53,2]».
_COMMA_INTERVAL = re.compile(r"\[\s*[-+]?[\d\u00a0 ]*\d,\d+\s*%?\s*,\s")


@pytest.mark.parametrize("path", RUSSIAN_OUTPUTS, ids=[p.stem for p in RUSSIAN_OUTPUTS])
def test_a_russian_interval_parts_its_bounds_with_a_semicolon(path):
    wrong = [f"cell {number}: {line[:90]}"
             for number, line in printed_lines(nbformat.read(str(path), as_version=4))
             if _COMMA_INTERVAL.search(line)]
    assert not wrong, f"{path.name} prints an interval with a comma:\n" + "\n".join(wrong)


def test_the_interval_check_tells_a_comma_from_a_semicolon():
    assert _COMMA_INTERVAL.search("[38,1, 53,2]") and _COMMA_INTERVAL.search(
        "77,5%  [71,7%, 82,8%]") and _COMMA_INTERVAL.search("[ 0,0%,  1,0%]")
    assert not _COMMA_INTERVAL.search("+46,0 п. п. [+38,1; +53,2]")
    assert not _COMMA_INTERVAL.search("[19,5%; 26,7%]")


def test_the_output_check_finds_english_and_spares_russian():
    cell = nbformat.v4.new_code_cell("print(...)", outputs=[
        nbformat.v4.new_output("stream", name="stdout",
                               text="с предохранителем: 345 вызовов\n"
                                    "    primary model   27 223\n"),
        nbformat.v4.new_output("display_data", data={
            "text/plain": "<Figure size 700x400 with 1 Axes>", "image/png": "iVBO"})])
    lines = printed_lines(nbformat.v4.new_notebook(cells=[cell]))
    assert [line for _, line in lines] == ["с предохранителем: 345 вызовов",
                                           "primary model   27 223"]
    assert [catalogs.english_label(line) for _, line in lines] == [False, True]


def test_the_russian_pages_commands_open_the_russian_chapters():
    """A command a Russian page tells its reader to type runs the Russian chapter, not the
    English one (``bookbuild rerun ru/chapters/...``): the book's pages, and the
    chapters' own prose (exercises 3 of chapters 1 and 9 named the English chapter)."""
    texts = [(page.name, page.read_text())
             for page in (edition.EDITION / "book").glob("*.md")]
    texts += [(path.name, cell.source)
              for path in sorted((edition.EDITION / "chapters").glob("*.ipynb"))
              for cell in nbformat.read(str(path), as_version=4).cells
              if cell.cell_type == "markdown"]
    english = [(name, line.strip()) for name, text in texts for line in text.splitlines()
               if re.search(r"(\.py|bookbuild rerun)\s+chapters/\d", line)]
    assert not english, english


#: Numbers with a decimal point that Russian prose may keep: versions, not quantities.
_VERSIONS = re.compile(r"Python \d+\.\d+")


def _russian_prose(text: str) -> str:
    """Markdown's words a reader reads as Russian: code fences, maths, roles, links and
    HTML taken out; a directive's body (an exercise, a note) read as prose again."""
    from markdown_it import MarkdownIt

    parts = []
    for token in MarkdownIt().parse(text):
        if token.type == "fence" and token.info.startswith("{"):
            body = "\n".join(line for line in token.content.splitlines()
                              if not line.startswith(":"))  # the directive's options
            parts.append(_russian_prose(body))
        elif token.type == "inline":
            parts.append(token.content)
    text = "\n".join(parts)
    for pattern in (r"\$\$.*?\$\$", r"\$[^$\n]*\$", r"`[^`]*`", r"\]\([^)]*\)", r"<[^>]*>",
                    r"\{[^}]*\}"):
        text = re.sub(pattern, " ", text, flags=re.S)
    return _VERSIONS.sub(" ", text)


@pytest.mark.parametrize("path", sorted((ROOT / "ru" / "chapters").glob("*.ipynb"))
                         + sorted((ROOT / "ru" / "book").glob("*.md")),
                         ids=lambda path: f"ru/{path.parent.name}/{path.name}")
def test_russian_prose_writes_decimals_with_a_comma(path):
    """«0,8», not «0.8»: a quantity typed into a Russian sentence (an exercise's
    probability, a landing page's rule) follows the edition's number format, as the
    glued numbers do. Model names (GPT-3.5, GLM-4.6) are names, not quantities."""
    if path.suffix == ".ipynb":
        notebook = nbformat.read(str(path), as_version=4)
        texts = [cell.source for cell in notebook.cells if cell.cell_type == "markdown"]
    else:
        texts = [path.read_text(encoding="utf-8")]
    found = [match.group(0) for text in texts
             for match in re.finditer(r"(?<![\w.\-])\d+\.\d+(?![\w.]*[\-\d])",
                                      _russian_prose(text))]
    # and its maths too: «$p = 0{,}99$», not «$p = 0.99$»
    found += [formula for text in texts for formula in MATHS.findall(text)
              if re.search(r"\d\.\d", formula)]
    assert found == [], f"{path.name} writes decimals with a point: {found}"


#: A number written with English thousands separators: «2,000», «400,000». A Russian
#: decimal with three places («1,525») looks the same, so the check reads only typed text
#: (prose and code comments), where the book writes no such decimal.
_ENGLISH_THOUSANDS = re.compile(r"(?<![\w.,])[1-9]\d{0,2}(?:,\d{3})+(?![\d,.])")


@pytest.mark.parametrize("path", sorted((ROOT / "ru" / "chapters").glob("*.ipynb"))
                         + sorted((ROOT / "ru" / "notebooks").glob("*.ipynb"))
                         + sorted((ROOT / "ru" / "book").glob("*.md")),
                         ids=lambda path: f"ru/{path.parent.name}/{path.name}")
def test_russian_text_writes_thousands_with_a_space(path):
    """«2 000 прогонов», not «2,000 прогонов»: in the prose and in the code's comments,
    which a student reads in the Russian notebook as much as the page's sentences."""
    if path.suffix == ".ipynb":
        notebook = nbformat.read(str(path), as_version=4)
        texts = [_russian_prose(cell.source) for cell in notebook.cells
                 if cell.cell_type == "markdown"]
        texts += [line.split("#", 1)[1] for cell in notebook.cells
                  if cell.cell_type == "code"
                  for line in cell.source.splitlines() if "#" in line]
    else:
        texts = [_russian_prose(path.read_text(encoding="utf-8"))]
    found = [match.group(0) for text in texts for match in _ENGLISH_THOUSANDS.finditer(text)]
    assert found == [], f"{path.name} writes thousands the English way: {found}"


def test_the_thousands_check_finds_english_separators_and_spares_decimals():
    assert _ENGLISH_THOUSANDS.findall("не больше 2,000 прогонов; 400,000 или 1,234,567")\
        == ["2,000", "400,000", "1,234,567"]
    assert _ENGLISH_THOUSANDS.findall("0,920; 2 000; 79,4; 1,5; 12,25") == []


def _api_page():
    """book/_ext/api_page.py, the Sphinx extension that writes the API pages."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("api_page",
                                                  ROOT / "book" / "_ext" / "api_page.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rst_prose(text: str) -> str:
    """A docstring's reStructuredText with what is not prose taken out: display maths
    (a ``.. math::`` block), roles (:func:`curves`, :math:`p`), inline literals and
    quotations."""
    text = re.sub(r"^\.\. math::.*?(?=\n\S|\Z)", " ", text, flags=re.S | re.M)
    text = re.sub(r":[\w:]+:`[^`]*`|``[^`]*``", " ", text)
    return re.sub(r"«[^»]*»|\"[^\"]*\"", " ", text)


@pytest.mark.parametrize("module", sorted(catalogs.api_modules()))
def test_the_russian_api_pages_introduce_each_module_in_russian(module):
    """An API page opens each module's entries with the module's docstring in the page's
    language (book/_ext/api_page.py): the Russian edition's comes from the package's
    catalog and leaves no English sentence. (The functions' own docstrings stay English in
    both editions, in a block marked lang="en", and the Russian page says so.)"""
    api_page = _api_page()
    assert api_page.API_INTRO == catalogs.API_INTRO
    english = api_page.introduction(module, "en")
    russian = api_page.introduction(module, "ru")
    assert english and russian != english, f"{module}: its introduction is not translated"
    left = catalogs.english_phrases(rst_prose(russian))
    assert not left, f"{module}: English left in its Russian introduction: {left[:5]}"
    # the translation keeps the markup: every role (links, inline maths) and display maths
    markup = re.compile(r":[\w:]+:`[^`]*`|^\.\. math::.*?(?=\n\S|\Z)", re.S | re.M)
    assert sorted(markup.findall(russian)) == sorted(markup.findall(english)), module
    assert catalogs.english_phrases(rst_prose("A task set is a population of tasks, "
                                              "each with its own chance :math:`p`."))
