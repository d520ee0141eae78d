"""reliability.i18n: the words the package draws, in the page's language."""

import gettext

import pandas as pd
import pytest

from bookbuild import catalogs
from reliability import _language, i18n, notebook


def _catalogs():
    return sorted(i18n.LOCALE.glob("*/*.po")) + sorted(catalogs.LOCALE.rglob("*.po"))


class _Catalog(gettext.NullTranslations):
    """Stands in for the compiled catalogs: a few entries, gettext's interface."""

    def __init__(self, entries):
        super().__init__()
        self.entries = entries

    def gettext(self, message):
        return self.entries.get(message, message)

    def pgettext(self, context, message):
        return self.entries.get(f"{context}\x04{message}", message)


@pytest.mark.parametrize("path", sorted(i18n.LOCALE.glob("ru/*.po")), ids=lambda p: p.stem)
def test_the_compiled_catalogs_give_every_current_translation(path):
    """gettext, reading the catalogs compiled in memory, gives each module's translated,
    current entries (plural entries in each of their forms)."""
    with i18n.language("ru"):
        for message in catalogs.read_catalog(path):
            if not message.id or message.fuzzy or not message.string:
                continue
            if isinstance(message.id, tuple):
                for n in (1, 2, 5):
                    assert i18n.ngettext(*message.id, n) == \
                        message.string[i18n.plural_index(n)]
            elif message.context:
                assert i18n.pgettext(message.context, message.id) == message.string
            else:
                assert i18n.gettext(message.id) == message.string


def test_a_fuzzy_or_empty_entry_falls_back_to_english(tmp_path):
    po = tmp_path / "x.po"
    po.write_text('msgid ""\nmsgstr ""\n\n#, fuzzy\nmsgid "old"\nmsgstr "старое"\n\n'
                  'msgid "empty"\nmsgstr ""\n\nmsgid "kept"\nmsgstr ""\n"сохр"\n"анено"\n',
                  encoding="utf-8")
    assert i18n.read_po(po) == {"kept": "сохранено"}


def test_the_language_is_english_until_set_and_restored_after_a_block():
    assert i18n.get_language() == "en"
    with i18n.language("ru"):
        assert i18n.get_language() == "ru"
        assert i18n.gettext("a number in [{low}, {high}]") == "число из [{low}; {high}]"
        assert i18n.gettext("no such message") == "no such message"
    assert i18n.get_language() == "en"
    assert i18n.gettext("a number in [{low}, {high}]") == "a number in [{low}, {high}]"


def test_setup_sets_the_language_and_refuses_an_unknown_one():
    try:
        notebook.setup(language="ru")
        assert i18n.get_language() == "ru"
    finally:
        notebook.setup()
    assert i18n.get_language() == "en"
    with pytest.raises(ValueError, match="language"):
        notebook.setup(language="de")


def test_tables_show_marked_headers_and_labels_in_the_language(monkeypatch):
    """The frame keeps its English column names for the code; the page shows them
    translated, text cells too, numbers untouched."""
    monkeypatch.setattr(_language, "translations", lambda language: _Catalog(
        {"success": "успех", "closed form": "формула"}))
    frame = pd.DataFrame({"method": ["closed form"], "success": [0.5]})
    with i18n.language("ru"):
        shown = notebook.table(frame, name="t", formats={"success": "{:.1%}"}).data
    assert "успех" in shown and "формула" in shown and "50,0%" in shown
    assert list(frame.columns) == ["method", "success"]
    english = notebook.table(frame, name="t", formats={"success": "{:.1%}"}).data
    assert "success" in english and "успех" not in english


def test_parameter_ranges_are_described_in_the_language():
    from reliability.parameters import allowed

    english = allowed("02_retries")
    with i18n.language("ru"):
        russian = allowed("02_retries")
    assert set(english) == set(russian)
    assert all(text.startswith(("a number", "a whole number")) for text in english.values())
    assert all(text.startswith(("число", "целое число")) for text in russian.values())


def test_a_word_can_read_differently_in_a_column_that_gives_it_context(monkeypatch):
    monkeypatch.setattr(_language, "translations", lambda language: _Catalog({
        "low": "нижняя граница", "lower bound": "нижняя граница",
        "confidence\x04low": "низкая"}))
    frame = pd.DataFrame({"confidence": ["low"], "low": [0.25]})
    with i18n.language("ru"):
        assert i18n.pgettext("confidence", "low") == "низкая"
        assert i18n.pgettext("share", "low") == "нижняя граница"
        shown = notebook.table(frame, name="t").data
    assert "низкая" in shown and "нижняя граница" in shown


def test_fill_slots_formats_what_it_is_given_and_keeps_the_rest():
    template = "{runs:,d} прогонов дают {rate} ({low} – {high}); {{literal}}"
    filled = i18n.fill_slots(template, runs=2000)
    assert filled == "2,000 прогонов дают {rate} ({low} – {high}); {{literal}}"
    assert filled.format(rate="72%", low="70%", high="74%") == \
        "2,000 прогонов дают 72% (70% – 74%); {literal}"
    with i18n.language("ru"):
        assert i18n.fill_slots(template, runs=2000).startswith("2\xa0000 прогонов")
    with pytest.raises(ValueError, match="template"):
        i18n.fill_slots("{unclosed", runs=1)
