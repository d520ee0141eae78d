"""The glossary and the references: complete, in order, and used by the chapters."""

import json
import re

from bookbuild.run import ROOT, chapters

GLOSSARY = ROOT / "book" / "glossary.md"
BIB = ROOT / "book" / "references.bib"


def glossary_terms() -> list[str]:
    block = GLOSSARY.read_text().split("```{glossary}", 1)[1].split("```", 1)[0]
    return re.findall(r"^(\S[^\n]*)$", block, flags=re.M)


def prose(paths) -> str:
    """The Markdown of every chapter and book page."""
    texts = []
    for path in paths:
        if path.suffix == ".ipynb":
            texts += ["".join(c["source"]) for c in json.loads(path.read_text())["cells"]
                      if c["cell_type"] == "markdown"]
        else:
            texts.append(path.read_text())
    return "\n".join(texts)


def linked_terms(text: str) -> set[str]:
    """Targets of ``{term}`x``` and ``{term}`shown <x>```, lower-cased as Sphinx does."""
    found = re.findall(r"\{term\}`([^`]+)`", text)
    return {re.sub(r"^.*<(.+)>$", r"\1", t, flags=re.S).strip().lower() for t in found}


def test_glossary_is_alphabetical():
    terms = glossary_terms()
    assert len(terms) >= 30, terms
    assert terms == sorted(terms, key=str.lower), terms


def test_every_glossary_term_is_linked_from_a_chapter():
    linked = linked_terms(prose(chapters()))
    unlinked = [t for t in glossary_terms() if t.lower() not in linked]
    assert not unlinked, f"no chapter links these glossary terms with {{term}}: {unlinked}"


def test_every_linked_term_is_in_the_glossary():
    terms = {t.lower() for t in glossary_terms()}
    pages = chapters() + sorted((ROOT / "book").glob("*.md"))
    assert linked_terms(prose(pages)) <= terms, linked_terms(prose(pages)) - terms


def test_every_reference_is_cited_somewhere():
    keys = re.findall(r"^@\w+\{([^,]+),", BIB.read_text(), flags=re.M)
    text = prose(chapters() + sorted((ROOT / "book").glob("*.md")))
    cited = set()
    for group in re.findall(r"\{cite(?::\w+)?\}`([^`]+)`", text):
        cited |= {k.strip() for k in group.split(",")}
    assert set(keys) - cited == set(), f"listed but never cited: {set(keys) - cited}"
    assert cited <= set(keys), f"cited but not listed: {cited - set(keys)}"
