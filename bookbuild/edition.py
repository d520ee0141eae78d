"""Write the Russian book in ``ru/`` from the English pages and the catalogs in
``locale/ru/``: ``python -m bookbuild edition`` (part of ``make notebooks``).

    ru/_config.yml, ru/_toc.yml      the English ones, with the Russian title, captions
                                     and language, and paths into the shared book/ folder
    ru/chapters/NN_name.ipynb        each chapter, its prose and reader-facing code
                                     translated, ``setup()`` made ``setup(language="ru")``
    ru/book/*.md                     the landing, how-to-use, teacher, glossary and
                                     reference pages

A Russian code cell whose source is unchanged keeps the outputs stored in ``ru/``; any
other is left unrun, and ``make outputs CHAPTER=ru/chapters/NN_name.ipynb`` runs it
(``tests/test_translation.py`` fails until it has). Nothing else in ``ru/`` is written
by hand, and the later stages write the rest: the launch notebooks in ``ru/notebooks/``
(``bookbuild/launch_notebooks.py``), the teacher's snippets page and the generated
regions of the Russian pages, the chapter times, the teaching plans and the hub's links
(``bookbuild/teacher_page.py``, ``bookbuild/hub_links.py``), which this stage keeps as
they stand in ``ru/``.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path

import nbformat
import yaml

from . import catalogs
from .catalogs import (EDITION, GENERATED, LANGUAGE, ROOT, Untranslated, catalog_path,
                       read_catalog, translate_markdown)

SETUP_CALL = re.compile(r"\bsetup\(\)")
#: The parameter check names the chapter first; the Russian chapter's check speaks Russian.
CHECK_CALL = re.compile(r"\bcheck_parameters\((\"[\w]+\"), ")
TOC_PAGE = catalogs.TOC_PAGE


def _translated_code(source: str, catalog, where: str) -> str:
    if catalogs._code_has_words(source):
        source = catalogs._lookup(catalog, source, where)
    source = CHECK_CALL.sub(rf'check_parameters(\1, language="{LANGUAGE}",\n'
                            + " " * len("check_parameters("), source)
    return SETUP_CALL.sub(f'setup(language="{LANGUAGE}")', source)


def chapter(page: str) -> nbformat.NotebookNode:
    """The Russian notebook of one English chapter, outputs carried over where the
    Russian code is unchanged."""
    english = nbformat.read(str(ROOT / page), as_version=4)
    catalog = read_catalog(catalog_path(page))
    target = EDITION / page
    stored = {}
    if target.exists():
        stored = {c.get("id"): c for c in nbformat.read(str(target), as_version=4).cells
                  if c.cell_type == "code"}
    russian = copy.deepcopy(english)
    for index, cell in enumerate(russian.cells):
        where = f"{page}#{cell.get('id', index)}"
        if cell.cell_type == "markdown":
            cell.source = translate_markdown(cell.source, catalog, where)
        elif cell.cell_type == "code":
            cell.source = _translated_code(cell.source, catalog, where)
            if catalogs.cell_alt_text(cell):
                cell.metadata.mystnb.image.alt = catalogs._lookup(
                    catalog, catalogs.cell_alt_text(cell), where)
            before = stored.get(cell.get("id"))
            if before is not None and before.source == cell.source:
                cell.outputs = copy.deepcopy(before.outputs)
                cell.execution_count = before.execution_count
            else:
                cell.outputs, cell.execution_count = [], None
    russian.metadata.setdefault("reliability", {})["language"] = LANGUAGE
    return russian


def book_page(page: str) -> str:
    text = (ROOT / page).read_text()
    translated = translate_markdown(text, read_catalog(catalog_path(page)), page)
    if page == "book/glossary.md":
        # Russian terms in Russian alphabetical order, whatever order the English has.
        translated = re.sub(r"^(```\{glossary\}\n)(?!:sorted:)", r"\1:sorted:\n", translated,
                            flags=re.M)
    # A generated region (the chapter times, the teaching plans, the hub's links) is the
    # teacher pages' stage's to write, after this one (bookbuild/teacher_page.py,
    # bookbuild/hub_links.py): it keeps what that stage last wrote in ru/.
    written = EDITION / page
    if written.is_file():
        regions = {m["region"]: m[0] for m in GENERATED.finditer(written.read_text())}
        translated = GENERATED.sub(lambda m: regions.get(m["region"], m[0]), translated)
    return translated


def config_and_toc() -> dict[str, str]:
    """ru/_config.yml and ru/_toc.yml, as text."""
    catalog = read_catalog(catalog_path(TOC_PAGE))

    def tr(text):
        return catalogs._lookup(catalog, text, TOC_PAGE)

    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    config["title"], config["author"] = tr(config["title"]), tr(config["author"])
    config["exclude_patterns"] = [p for p in config["exclude_patterns"] if p != LANGUAGE]
    config["bibtex_bibfiles"] = ["../book/references.bib"]
    config["html"]["favicon"] = "../book/_static/favicon.svg"
    config["repository"]["path_to_book"] = LANGUAGE
    sphinx = config["sphinx"]
    sphinx["local_extensions"] = {name: "../book/_ext"
                                  for name in sphinx["local_extensions"]}
    sphinx["config"]["html_static_path"] = ["../book/_static"]
    # the footer in Russian words: «© 2026», the authors without «Автор:»
    sphinx["config"]["templates_path"] = ["../book/_templates/ru"]
    sphinx["config"]["language"] = LANGUAGE
    for setting, english in catalogs.EXTENSION_WORDS.items():
        sphinx["config"][setting] = tr(english)
    sphinx["config"]["bibliography_fields"] = {english: tr(english)
                                               for english in catalogs.bibliography_texts()}
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    for part in toc.get("parts", []):
        part["caption"] = tr(part["caption"])
    head = ("# Generated by python -m bookbuild edition from the English _config.yml "
            "and _toc.yml\n# and locale/ru/_toc.po: edit those, not this file.\n")
    dump = dict(allow_unicode=True, sort_keys=False, width=88)
    return {"_config.yml": head + yaml.safe_dump(config, **dump),
            "_toc.yml": head + yaml.safe_dump(toc, **dump)}


def outputs() -> dict[Path, str]:
    """Every file of ru/ that the build writes, as text (refuses an untranslated page)."""
    files = {EDITION / name: text for name, text in config_and_toc().items()}
    for page in catalogs.english_pages():
        if page.endswith(".ipynb"):
            files[EDITION / page] = nbformat.writes(chapter(page)) + "\n"
        else:
            files[EDITION / page] = book_page(page)
    return files


def build() -> int:
    try:
        files = outputs()
    except Untranslated as error:
        print(f"python -m bookbuild edition: {error}\n(run python -m bookbuild status "
              f"for every gap)", file=sys.stderr)
        return 1
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            print(path.relative_to(ROOT))
    unrun = [path.relative_to(ROOT).as_posix() for path in sorted(files)
             if path.suffix == ".ipynb" and not_run(path)]
    for path in unrun:
        print(f"{path}: code changed since its outputs were stored; run "
              f"make outputs CHAPTER={path}")
    return 0


def not_run(path: Path) -> bool:
    nb = json.loads(path.read_text())
    return any(c["cell_type"] == "code" and c.get("execution_count") is None
               and c["source"] for c in nb["cells"])
