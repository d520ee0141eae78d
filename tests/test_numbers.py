"""Numbers in words: reliability.numbers in both languages, and what a reader of either
edition sees (printed lines, tables, live sentences, glued prose) written by it.

The formatter's rules are CLDR's (Babel) and gettext's plural rule; the scans of the
stored outputs and the rendered prose fail naming the chapter, the cell and the text.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import nbformat
import pandas as pd
import pytest

from bookbuild import launch_notebooks
import reliability.formattax
import reliability.harness
import reliability.lab
import reliability.refund_loop  # noqa: F401  (their code names, registered for said())
from reliability import i18n, notebook, numbers

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = sorted((ROOT / "chapters").glob("*.ipynb"))
RUSSIAN = sorted((ROOT / "ru" / "chapters").glob("*.ipynb"))
NBSP = "\u00a0"


# --- the formatter ---------------------------------------------------------------------

@pytest.mark.parametrize("n, english, russian", [
    (1, "1 run", "1 прогон"), (2, "2 runs", "2 прогона"), (5, "5 runs", "5 прогонов"),
    (11, "11 runs", "11 прогонов"), (21, "21 runs", "21 прогон"),
    (22, "22 runs", "22 прогона"), (111, "111 runs", "111 прогонов"),
    (2000, "2,000 runs", f"2{NBSP}000 прогонов")])
def test_a_count_takes_the_form_its_number_asks_for(n, english, russian):
    assert numbers.counted(n, "run", "runs") == english
    with i18n.language("ru"):
        assert numbers.counted(n, "прогон", "прогона", "прогонов") == russian


def test_english_forms_are_looked_up_in_the_catalogs_plural_entry():
    """The package's own nouns: the Russian forms come from the catalog (gettext's
    ngettext with the Plural-Forms rule), not from the code."""
    with i18n.language("ru"):
        assert [numbers.counted(n, "call", "calls") for n in (1, 3, 5, 21)] == [
            "1 вызов", "3 вызова", "5 вызовов", "21 вызов"]
        assert i18n.gettext("failure") == "сбой"   # the plain entry is kept apart
    assert numbers.counted(1, "call", "calls") == "1 call"


def test_a_fraction_takes_the_fractions_form():
    assert numbers.counted(2.0, "hour", "hours", format_spec=".1f") == "2.0 hours"
    with i18n.language("ru"):
        assert numbers.counted(29.4, "воркер-час", "воркер-часа", "воркер-часов",
                               format_spec=".1f") == "29,4 воркер-часа"
        assert numbers.counted(1.0, "час", "часа", "часов", format_spec=".1f") == \
            "1,0 часа"


def test_decimals_thousands_percents_points_and_intervals_in_both_languages():
    english = (numbers.number(6931.1, 1), numbers.number(2000), numbers.number(0.99),
               numbers.percent(0.2412), numbers.points(0.023), numbers.points(-0.004),
               numbers.interval(0.3, 0.58), numbers.interval(0.91, 0.933, ".3f"))
    assert english == ("6,931.1", "2,000", "0.99", "24.1%", "+2.3 pp", "\u22120.4 pp",
                       "[30.0%, 58.0%]", "[0.910, 0.933]")
    with i18n.language("ru"):
        russian = (numbers.number(6931.1, 1), numbers.number(2000), numbers.number(0.99),
                   numbers.percent(0.2412), numbers.points(0.023),
                   numbers.points(-0.004), numbers.interval(0.3, 0.58),
                   numbers.interval(0.91, 0.933, ".3f"))
    assert russian == (f"6{NBSP}931,1", f"2{NBSP}000", "0,99", "24,1%", "+2,3 п. п.",
                       "\u22120,4 п. п.", "[30,0%; 58,0%]", "[0,910; 0,933]")


def test_a_negative_number_has_a_minus_sign_not_a_hyphen_in_both_languages():
    # U+2212, as the printed page writes it; a hyphen-minus reads as a dash or a range
    for language in ("en", "ru"):
        with i18n.language(language):
            shown = [numbers.fmt(-2.4, ".1f"), numbers.fmt(-2.4, "+.1f"),
                     numbers.fmt(-0.05, ".1%"), numbers.fmt(-1234, ",d"),
                     numbers.number(-3.25, 2), numbers.percent(-0.5),
                     numbers.points(-0.02), numbers.interval(-0.1, 0.2),
                     numbers.money(-3.5), numbers.glued_text("-2.4", ".1f")]
        for text in shown:
            assert text.count(numbers.MINUS) == 1 and "-" not in text, (language, text)
    assert numbers.fmt(-2.4, "+.1f") == "\u22122.4" and numbers.fmt(2.4, "+.1f") == "+2.4"


def test_an_interval_lines_up_in_a_column_and_keeps_its_semicolon():
    column = [numbers.interval(low, high, width=5) for low, high in ((0.0, 0.01),
                                                                      (0.195, 0.267))]
    assert column == ["[ 0.0%,  1.0%]", "[19.5%, 26.7%]"]
    assert len({len(row) for row in column}) == 1
    with i18n.language("ru"):
        assert numbers.interval(0.0, 0.01, width=5) == "[ 0,0%;  1,0%]"
        assert numbers.interval(0.381, 0.532) == "[38,1%; 53,2%]"
    for bad in (-1, 41, 2.5, "5"):
        with pytest.raises(ValueError, match="width"):
            numbers.interval(0.1, 0.2, width=bad)


@pytest.mark.parametrize("value, spec", [
    (0.2412, ".1%"), (2000, ",d"), (6931.1, ",.1f"), (0.99, ".2f"), (12, "d"),
    (-0.0123, "+.1%"), (2.675, ".2f"), (0.125, ".2f"), (1234567.891, ",.2f"), (7, ""),
    (0.5, "g"), (3, ">4")])
def test_english_is_pythons_format_and_russian_rounds_the_same(value, spec):
    """One rounding in both editions: the Russian text is the English one with the
    Russian signs."""
    english = numbers.fmt(value, spec)
    assert english == format(value, spec).replace("-", numbers.MINUS)   # the minus sign
    with i18n.language("ru"):
        russian = numbers.fmt(value, spec)
    assert russian.replace(NBSP, "#").replace(",", ".") == \
        english.replace(",", "#"), (english, russian)


def test_nan_and_inf_never_reach_the_reader_as_such():
    assert numbers.fmt(float("nan"), ".1%") == "n/a"
    with i18n.language("ru"):
        assert numbers.percent(float("inf")) == "н/д"


def test_glued_text_names_the_noun_after_the_number():
    assert numbers.glued_text("1", "d|step|steps") == "1 step"
    assert numbers.glued_text("0.2412", ".1%") == "24.1%"
    assert numbers.glued_text("'text'", "s") == "text"
    with i18n.language("ru"):
        assert numbers.glued_text("322", "d|случай|случая|случаев") == "322 случая"
        assert numbers.glued_text("2000", ",d") == f"2{NBSP}000"


def test_translated_templates_and_tables_write_numbers_in_the_language():
    frame = pd.DataFrame({"k": [1, 2], "share": [0.805, 0.7471]})
    english = notebook.table(frame, name="t", formats="{:.3f}").data
    assert "0.805" in english and ">1<" in english and "1.000" not in english
    with i18n.language("ru"):
        assert i18n._("simulated, {runs:,d} runs, 95% Wilson interval").format(
            runs=2000) == f"симуляция, 2{NBSP}000 прогонов, 95%-й интервал Уилсона"
        russian = notebook.table(frame, name="t", formats="{:.3f}").data
    assert "0,805" in russian and "0.805" not in russian


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="forms"):
        numbers.counted(3, "run")
    with pytest.raises(ValueError, match="share"):
        numbers.percent("half")
    with pytest.raises(ValueError, match="n "):
        numbers.counted(2.5, "run", "runs")


def test_a_code_name_reads_as_words_in_both_languages():
    """A status, reason, class or state the package names in code is printed as words
    (``said``), in the page's language; None and truth values as words too."""
    cases = [("budget_exceeded", "budget exceeded", "бюджет исчерпан"),
             ("closed", "closed", "закрыт"),          # the breaker's, not a closed form
             ("wrong_record", "wrong record, self-consistent", None),
             ("time_budget", "time budget", "бюджет времени"),
             (None, "none", "нет"), (True, "yes", "да"), (2000, "2,000", "2\u00a0000")]
    for value, english, russian in cases:
        assert numbers.said(value) == english
        with i18n.language("ru"):
            shown = numbers.said(value)
        assert shown != english, (value, shown)
        assert russian is None or shown == russian, (value, shown)
    assert numbers.said("draft answer after 4 steps") == "draft answer after 4 steps"
    assert {"budget_exceeded", "validation_failed", "two_turn"} <= set(
        numbers.known_identifiers())
    with pytest.raises(ValueError, match="value"):
        numbers.said(["a list"])


# --- what the reader sees ----------------------------------------------------------------

#: Templates, undefined numbers and Python reprs: wrong in either language.
EVERYWHERE = {
    "a '(s)' template": re.compile(r"\w\(s\)"),
    "nan or inf": re.compile(r"(?<![\w-])(?:nan|NaN|inf|-inf)(?![\w-])"),
    "a numpy repr": re.compile(r"\bnp\.\w+\("),
    # accepted=False, finish_at=None, "a poll counter: None": a repr, not a word
    "a Python value repr": re.compile(r"(?:\w=|: )(?:None|True|False)\b"),
    # a status, reason, class or guardrail the package names in code ("budget_exceeded",
    # "wrong_record", "error_recovery"): a printed line says its words (numbers.said)
    "a code name where words belong": re.compile(r"(?<![\w.])(?:" + "|".join(
        name for name in numbers.known_identifiers() if "_" in name) + r")(?![\w(])"),
    # a negative number's sign is the minus, U+2212 (reliability.numbers.MINUS), not the
    # keyboard's hyphen-minus, which reads as a dash or a range ("gap -2.4", «от -22,2»);
    # a range (2-4), a date and a name (gpt-4o) have a letter or digit before the hyphen
    "a hyphen-minus as a minus sign": re.compile(r"(?:^|(?<=[\s(\[;:=«\"“/+]))-(?=\d)"),
}
#: English nouns after a count of one, or after another count in the singular.
ENGLISH_NOUNS = ("run|step|case|call|task|attempt|round|day|failure|conversation|"
                 "request|reply|answer|question|turn|trial|hour|second")
IN_ENGLISH = {
    "a plural noun after 1": re.compile(rf"(?<![\d.,])\b1 (?:{ENGLISH_NOUNS})s\b"),
}
#: The Russian genitive plurals, which go with 5-20, 0, 25, 111... (and with 2-4 after
#: a preposition that asks for the genitive: «из 3 случаев»).
GENITIVE_PLURAL = ("случаев|шагов|прогонов|попыток|задач|диалогов|ответов|раундов|"
                   "вызовов|запросов|сбоев|дней|секунд|вопросов|воркер-часов")
GENITIVE_PREPOSITIONS = {"из", "до", "от", "около", "после", "для", "без", "с", "со",
                         "у", "более", "менее", "свыше"}
_COUNTED = re.compile(rf"(?:(?P<before>[\w-]+)\s+)?(?<![\d,.\u00a0])"
                      rf"(?P<number>\d{{1,3}}(?:\u00a0\d{{3}})*|\d+)"
                      rf" (?P<noun>{GENITIVE_PLURAL})\b")


class _DisagreeingNoun:
    """A count whose noun is in the genitive plural where the number asks for another
    form: «21 случаев» anywhere, «3 случаев» unless a preposition asks for the
    genitive."""

    def finditer(self, text):
        for match in _COUNTED.finditer(text):
            n = int(match["number"].replace("\u00a0", ""))
            if n % 100 in range(11, 15):
                continue
            if n % 10 == 1 or (n % 10 in (2, 3, 4) and (match["before"] or "").lower()
                               not in GENITIVE_PREPOSITIONS):
                yield match


IN_RUSSIAN = {
    # «1,000» is a Russian decimal (1.000); "6,931.1" and "1,234,567" are English
    "an English thousands separator": re.compile(r"(?<![\d,.])[1-9]\d{0,2}(?:,\d{3}\.\d"
                                                 r"|(?:,\d{3}){2,})"),
    # a number in quoted JSON data ("confidence": 0.9) is data, not prose
    "a decimal point": re.compile(r"(?<![\w.\-^/:])(?<!\": )\d+\.\d+(?![\w.\-])"),
    "a noun that disagrees with its number": _DisagreeingNoun(),
}


def _shown(output, *, between_tags: str = " ") -> list[str]:
    """The text of one stored output as a reader meets it: printed lines, tables and
    live sentences (HTML without its tags, scripts and styles; ``between_tags="\n"``
    puts each table cell on a line of its own), no glue records."""
    if output.get("output_type") == "stream":
        return [output.get("text", "")]
    data = output.get("data", {})
    if any(key.startswith("application/papermill.record") for key in data):
        return []
    if "text/html" in data:
        text = data["text/html"]
        text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S)
        text = re.sub(r"<[^>]+>", between_tags, text)
        return [html.unescape(text)]
    plain = data.get("text/plain", "")
    # a widget or a figure's placeholder is not text a reader reads
    return [] if plain.startswith(("<Figure", "interactive(", "<IPython")) else [plain]


def _problems(text: str, rules: dict) -> list[str]:
    found = []
    for what, pattern in rules.items():
        for match in pattern.finditer(text):
            start = max(0, match.start() - 40)
            found.append(f"{what}: ...{text[start:match.end() + 20]!r}")
    return found


def reader_problems(nb, language: str) -> list[str]:
    """What is wrong with the numbers and words in a run notebook's outputs (a chapter
    run at its extremes, say), by the rules of the edition's ``language``."""
    rules = {**EVERYWHERE, **(IN_RUSSIAN if language == "ru" else IN_ENGLISH)}
    return _outputs_problems(nb, rules)


def figure_problems(texts, language: str) -> list[str]:
    """The same rules for the pieces of text a figure draws (ticks, annotations)."""
    rules = {**EVERYWHERE, **(IN_RUSSIAN if language == "ru" else IN_ENGLISH)}
    return [p for text in texts for p in _problems(text, rules)]


def _outputs_problems(nb, rules: dict) -> list[str]:
    if isinstance(nb, Path):
        nb = nbformat.read(str(nb), as_version=4)
    found = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            for text in _shown(output):
                found += [f"cell {index}: {p}" for p in _problems(text, rules)]
    return found


def _prose(path: Path, language: str) -> str:
    """The chapter's prose with its glued numbers filled in, as the reader reads it
    (the launch notebooks' rendering of the roles), code and formulas left out."""
    nb = launch_notebooks.launch_notebook(path, language=language)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    text = re.sub(r"```.*?```|`[^`]*`", " ", text, flags=re.S)
    return re.sub(r"\$\$.*?\$\$|\$[^$]*\$", " ", text, flags=re.S)


@pytest.mark.parametrize("path", ENGLISH, ids=[p.stem for p in ENGLISH])
def test_english_outputs_read_as_words(path):
    found = _outputs_problems(path, {**EVERYWHERE, **IN_ENGLISH})
    assert not found, f"{path.name}:\n" + "\n".join(found[:15])


@pytest.mark.parametrize("path", RUSSIAN, ids=[p.stem for p in RUSSIAN])
def test_russian_outputs_write_numbers_the_russian_way(path):
    found = _outputs_problems(path, {**EVERYWHERE, **IN_RUSSIAN})
    assert not found, f"ru/{path.name}:\n" + "\n".join(found[:15])


@pytest.mark.parametrize("path", RUSSIAN, ids=[p.stem for p in RUSSIAN])
def test_russian_prose_writes_glued_numbers_the_russian_way(path):
    found = _problems(_prose(path, "ru"), {**EVERYWHERE, **IN_RUSSIAN})
    assert not found, f"ru/{path.name} (prose):\n" + "\n".join(found[:15])


@pytest.mark.parametrize("path", ENGLISH, ids=[p.stem for p in ENGLISH])
def test_english_prose_has_no_templates(path):
    found = _problems(_prose(path, "en"), {**EVERYWHERE, **IN_ENGLISH})
    assert not found, f"{path.name} (prose):\n" + "\n".join(found[:15])


def test_a_russian_figures_ticks_use_the_decimal_comma():
    import matplotlib.pyplot as plt

    try:
        notebook.setup(language="ru")
        fig, ax = plt.subplots()
        ax.plot([0, 0.5, 1], [0, 0.25, 0.5])
        notebook.percent_axis(ax.yaxis)
        fig.canvas.draw()
        russian = [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
        plt.close(fig)
    finally:
        notebook.setup()
    assert "0,2" in russian and not any("." in t for t in russian), russian
    assert any(t.endswith("%") for t in russian)


_WHOLE_TICKS = ["0%", "20%", "40%", "60%", "80%", "100%"]


@pytest.mark.parametrize("language, quarter", [
    ("en", ["0.0%", "2.5%", "5.0%", "7.5%", "10.0%"]),
    ("ru", ["0,0%", "2,5%", "5,0%", "7,5%", "10,0%"])])
def test_a_percent_axis_tick_shows_the_value_it_marks(language, quarter):
    """Ticks 2.5 points apart read 2.5% and 7.5%, not "2%" and "8%" (chapter 9's
    dashboard, issue 41); ticks 20 points apart stay whole, in both languages."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    try:
        notebook.setup(language=language)
        fig, ax = plt.subplots()
        ax.set(xlim=(0, 0.1), ylim=(0, 1))
        ax.xaxis.set_major_locator(MaxNLocator(4))
        notebook.percent_axis(ax.xaxis)
        notebook.percent_axis(ax.yaxis)
        fig.canvas.draw()
        shown = ([t.get_text() for t in ax.get_xticklabels()],
                 [t.get_text() for t in ax.get_yticklabels()])
        plt.close(fig)
    finally:
        notebook.setup()
    assert shown == (quarter, _WHOLE_TICKS)


def test_an_amount_of_money_keeps_decimals_exact_rounding():
    from decimal import Decimal

    assert numbers.fmt(Decimal("2.675"), ".2f") == "2.68"      # float would give 2.67
    with i18n.language("ru"):
        assert numbers.fmt(Decimal("1450.00"), ".2f") == "1450,00"
        assert numbers.fmt(Decimal("12345.5"), ",.2f") == f"12{NBSP}345,50"


#: A column name a reader should not meet over a table: a code name with an underscore
#: (``cut_short``, ``closed_attempts``), or the bare keys of a share and its interval.
RAW_HEADER = re.compile(r"(?<![\w.])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w(])|^(?:rate|low|high)$")


def _table_headers(nb) -> list[str]:
    """The header and row-label cells (``<th>``) of every table a notebook's stored
    outputs show, as text."""
    if isinstance(nb, Path):
        nb = nbformat.read(str(nb), as_version=4)
    headers = []
    for index, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            page = output.get("data", {}).get("text/html", "")
            page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
            for found in re.finditer(r"<th\b[^>]*>(.*?)</th>", page, flags=re.S):
                text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found[1])).split())
                headers.append(f"cell {index}: {text}")
    return headers


def raw_headers(nb) -> list[str]:
    return [h for h in _table_headers(nb) if RAW_HEADER.search(h.split(": ", 1)[1])]


@pytest.mark.parametrize("path", ENGLISH + RUSSIAN,
                         ids=[f"{p.parent.parent.name}-{p.stem}" for p in ENGLISH + RUSSIAN])
def test_table_headers_are_words_in_the_editions_language(path):
    found = raw_headers(path)
    assert not found, f"{path.relative_to(ROOT)}: column names as code:\n" + "\n".join(
        found[:15])


def test_the_header_check_finds_code_names_and_bare_interval_keys():
    import pandas as pd

    raw = pd.DataFrame({"cut_short": [1], "low": [0.1], "high": [0.2], "closed form": [0.3]})
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(outputs=[
        nbformat.v4.new_output("execute_result", data={
            "text/html": raw.style.hide(axis="index").to_html()})])])
    assert [h.split(": ", 1)[1] for h in raw_headers(nb)] == ["cut_short", "low", "high"]
    nb.cells[0].outputs[0].data["text/html"] = notebook.table(raw, name="t").data
    assert raw_headers(nb) == []   # the book's table() writes words over them
    with i18n.language("ru"):
        nb.cells[0].outputs[0].data["text/html"] = notebook.table(raw, name="t").data
    assert raw_headers(nb) == [] and "нижняя граница" in nb.cells[0].outputs[0].data[
        "text/html"]


def test_the_minus_check_finds_a_hyphen_and_spares_ranges_dates_and_names():
    rule = {"minus": EVERYWHERE["a hyphen-minus as a minus sign"]}
    for wrong in ("gap (SE) -2.4", "95% CI -22.2 to +33.6", "[-9.5, +9.5]",
                  "от -22,2 до", "(-1.7)"):
        assert _problems(wrong, rule), wrong
    for right in ("gap \u22122.4", "pages 78-95", "2024-06-20", "gpt-4o", "GPT-4.5",
                  "1 - e^A", "k-subsets", "x_range"):
        assert not _problems(right, rule), right


def test_money_reads_as_the_lesson_writes_dollars_and_english_is_unchanged():
    assert numbers.money(1234.5) == "$1,234.50"
    assert numbers.money(0.144, digits=3) == "$0.144"
    assert numbers.glued_text("0.05", ".2f") == "0.05"   # the English page types "USD"
    with i18n.language("ru"):
        assert numbers.money(1234.5) == f"1{NBSP}234,50 долл."
        assert numbers.glued_text("0.05", ".2f|USD") == "0,05 долл."
        assert numbers.glued_text("0.144", ".3f|USD") == "0,144 долл."
        assert numbers.money(2, "EUR") == f"2,00{NBSP}€"


def test_a_bank_message_writes_dates_as_its_language_does():
    from datetime import date

    from reliability.validation import Records, RefundRequest, rule_violations

    records = Records(customer_accounts={"40817-0042"},
                      fees={("40817-0042", date(2026, 11, 3)): "900.00"},
                      today=date(2026, 12, 2))
    refund = RefundRequest(account="40817-0042", charged_on=date(2026, 11, 3),
                           fee_charged="1200.00", amount="900.00")
    english = " ".join(rule_violations(refund, records))
    assert "2026-11-03" in english and "03.11.2026" not in english
    with i18n.language("ru"):
        russian = " ".join(rule_violations(refund, records))
        assert numbers.day(date(2025, 7, 1)) == "01.07.2025"
    assert "03.11.2026" in russian and "2026-11-03" not in russian, russian
