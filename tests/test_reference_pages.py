"""The glossary and the references: complete, in order, and used by the chapters."""

import functools
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


@functools.cache
def _bibliography_extension():
    """book/_ext/bibliography.py, loaded as the Sphinx build loads it (once: its
    templates are taught once per process, as in a build)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "book_bibliography", ROOT / "book" / "_ext" / "bibliography.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _reference_list(config: dict) -> str:
    """The reference list as the build formats it, with an edition's Sphinx
    configuration (its words and its notes)."""
    from pybtex.database import parse_file
    from pybtex.plugin import register_plugin

    ext = _bibliography_extension()
    ext.patch()
    ext._words.clear()
    ext._fields.clear()
    ext._words.update({setting: config.get(setting, english)
                       for setting, english in ext.WORDS.items()})
    ext._fields.update(config.get("bibliography_fields") or {})
    register_plugin("pybtex.style.labels", "book_author_year", ext.AuthorYearLabels,
                    force=True)
    entries = parse_file(str(BIB)).entries.values()
    return "\n".join(f"[{e.label}] {e.text.render_as('text')}"
                     for e in ext.BookStyle().format_entries(entries))


def test_the_russian_reference_list_is_in_russian():
    """The Russian edition's reference list writes its own words for "n.d.", "et al.",
    "and" and "2 edition", and its notes (how an entry was published, what the book
    took from it) in Russian; the English list keeps the English ones."""
    import yaml

    from bookbuild import catalogs

    english = _reference_list({})
    assert "n.d." in english and "2 edition" in english and " et al." in english
    config = yaml.safe_load((ROOT / "ru" / "_config.yml").read_text())["sphinx"]["config"]
    russian = _reference_list(config)
    left = [word for word in ("n.d.", " edition", " et al.") if word in russian]
    assert not left, f"the Russian reference list says {left}"
    assert "б. г." in russian and "2-е изд." in russian and " и др." in russian
    # the last of the authors (titles keep their own language, "and" included)
    assert ", and Ion Stoica." in english and " и Ion Stoica." in russian
    untranslated = [text for text in catalogs.bibliography_texts()
                    if text.replace("\\%", "%").replace("--", "–")[:40] in russian]
    assert not untranslated, f"English notes in the Russian list: {untranslated}"


def test_the_russian_launch_notebooks_cite_in_russian():
    from bookbuild.launch_notebooks import Bibliography

    bibliography = Bibliography.load()
    assert bibliography.label("reliabilitypage", "ru").endswith(", б. г.")
    assert bibliography.label("bfcl", "ru") == "Patil и др., 2024"
    line = bibliography.reference("reliabilitypage", "ru")
    assert "(б. г.)" in line and "Интерактивная страница курса" in line, line
    assert bibliography.label("reliabilitypage").endswith(", n.d.")


def test_an_authorless_repository_is_cited_by_its_name_in_both_editions():
    """The rig's repository names no author: both editions cite it by its name, as its
    list entry opens, and never by an English stand-in for an author («forge-gap
    authors» in the Russian text)."""
    import yaml

    from bookbuild.launch_notebooks import Bibliography

    config = yaml.safe_load((ROOT / "ru" / "_config.yml").read_text())["sphinx"]["config"]
    for words, year in (({}, "n.d."), (config, "б. г.")):
        listed = _reference_list(words)
        assert f"[forge-gap, {year}] forge-gap: an ablation rig" in listed, listed
        assert "authors" not in listed
    bibliography = Bibliography.load()
    assert bibliography.label("forgegap", "ru") == "forge-gap, б. г."
    assert bibliography.label("forgegap") == "forge-gap, n.d."


def test_an_authorless_entry_is_cited_in_the_text_as_the_list_labels_it():
    """One rule for both editions: the text cites an entry with no author by the short
    name its list label gives (BibTeX's key field), never by its long English title:
    «[forge-gap, б. г.]», «[Reliability, б. г.]», not «[forge-gap: an ablation rig
    measuring …]» in a Russian sentence."""
    from pybtex.database import parse_file
    from sphinxcontrib.bibtex.style.referencing import PersonStyle

    ext = _bibliography_extension()
    ext.patch()
    entries = parse_file(str(BIB)).entries
    authorless = [key for key, entry in entries.items()
                  if not entry.persons.get("author") and not entry.persons.get("editor")]
    assert {"forgegap", "reliabilitypage"} <= set(authorless)
    labels = dict(zip(authorless, ext.AuthorYearLabels().format_labels(
        [entries[key] for key in authorless])))
    for key in authorless:
        assert "key" in entries[key].fields, f"{key} has no short name (key field)"
        cited = PersonStyle().author_or_editor_or_title(full=False).format_data(
            {"entry": entries[key]}).render_as("text")
        assert labels[key].startswith(f"{cited}, "), (key, cited, labels[key])
        assert len(cited) < 30, f"{key} is cited by a long title: {cited}"


def test_the_russian_reference_list_says_where_a_paper_appeared_in_russian():
    """pybtex writes "In" before a venue; the Russian list writes «В:» (the edition's
    word, from locale/ru/_toc.po), for every paper in proceedings."""
    import yaml

    config = yaml.safe_load((ROOT / "ru" / "_config.yml").read_text())["sphinx"]["config"]
    assert config.get("bibliography_in") == "В:"
    english, russian = _reference_list({}), _reference_list(config)
    venues = len(re.findall(r"^@inproceedings\{", BIB.read_text(), flags=re.M))
    # after the title's full stop, or its question mark ("... fail? In NeurIPS")
    assert len(re.findall(r"[.?] In ", english)) == venues > 0
    assert len(re.findall(r"[.?] В: ", russian)) == venues, russian
    assert not re.search(r"[.?] In ", russian), russian


def test_every_word_of_the_reference_list_is_handed_to_the_translation():
    """Each word the bibliography extension writes (its WORDS) is one bookbuild offers
    for translation (catalogs.EXTENSION_WORDS) with the same English, and the Russian
    configuration gives each a Russian value: a word added to one and not the other
    would print English in the Russian list («In NeurIPS»)."""
    import yaml

    from bookbuild import catalogs

    ext = _bibliography_extension()
    handed = {setting: catalogs.EXTENSION_WORDS.get(setting) for setting in ext.WORDS}
    assert handed == ext.WORDS
    config = yaml.safe_load((ROOT / "ru" / "_config.yml").read_text())["sphinx"]["config"]
    same = [s for s, english in ext.WORDS.items() if config.get(s, english) == english]
    assert not same, f"the Russian edition keeps the English of {same}"


def test_the_launch_notebooks_name_a_venue_as_the_reference_list_does():
    """The launch notebooks' reference lines write a paper's proceedings as the site's
    list does: "In NeurIPS …" in English, «В: NeurIPS …» in Russian."""
    from bookbuild.launch_notebooks import Bibliography

    bibliography = Bibliography.load()
    assert "*. In NeurIPS Datasets" in bibliography.reference("cemri2025mast")
    russian = bibliography.reference("cemri2025mast", "ru")
    assert "*. В: NeurIPS Datasets" in russian and " In " not in russian, russian
