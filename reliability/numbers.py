"""Numbers written into words, in the language of the page (:mod:`reliability.i18n`).

Every number a reader sees goes through here: the prose's glued values (the Russian
book's Sphinx extension ``book/_ext/numbers_locale.py`` calls :func:`fmt`), printed
lines, tables (:func:`reliability.notebook.table`), figure ticks and the live
explorers' sentences. The formats are CLDR's, through Babel: the English edition writes
``2,000`` and ``0.99``; the Russian one «2 000» (a no-break space between groups) and
«0,99», with the per cent sign close up as the Russian lesson writes it («24,1%»).

Rounding is Python's, in both languages: a value is first written with Python's
``format`` to the digits asked for and only then localised, so the two editions never
round one number differently.

>>> from reliability import i18n
>>> counted(21, "run", "runs"), percent(0.2412), number(2000)
('21 runs', '24.1%', '2,000')
>>> with i18n.language("ru"):
...     counted(21, "прогон", "прогона", "прогонов"), percent(0.2412), number(2000)
('21 прогон', '24,1%', '2\\xa0000')
"""

from __future__ import annotations

import math
import numbers as _numbers
import re
from decimal import Decimal

from . import _language, _validate
from ._language import N_, _

__all__ = ["number", "percent", "points", "interval", "counted", "seeded", "money", "day",
           "fmt",
           "glued_text", "yes_no",
           "said", "words_for", "known_identifiers", "NOT_A_NUMBER", "NOTHING", "MINUS"]

#: What a reader sees in place of nan or inf (an undefined rate, a division by zero).
NOT_A_NUMBER = N_("n/a")

#: A Python format spec this module writes in every language: sign, grouping comma,
#: precision and one of d, f, F, %, g (what the chapters' ``{glue:text}`` roles use).
_SPEC = re.compile(r"^(?P<sign>[+\- ]?)(?P<group>,?)(?:\.(?P<digits>\d+))?"
                   r"(?P<kind>[dfF%g]?)$")


def _locale() -> str:
    return _language.get_language()


def _real(name: str, value) -> float:
    if isinstance(value, (bool,)) or not isinstance(value, _numbers.Real):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    return float(value)


def _babel(text: str, *, digits: int, group: bool, percent: bool = False) -> str:
    """``text`` (a number Python has already rounded) in the page's locale."""
    try:
        from babel.numbers import format_decimal, format_percent
    except ModuleNotFoundError:
        # The light install (numpy and scipy alone) has no Babel: English is written as
        # Babel writes it; any other language needs the book's extra.
        if _locale() != "en":
            raise ModuleNotFoundError(
                f"numbers in {_locale()!r} need Babel: pip install 'reliability[book]'",
                name="babel") from None
        written = f"{Decimal(text):{',' if group else ''}.{digits}f}"
        return written + "%" if percent else written
    pattern = ("#,##0" if group else "0") + ("." + "0" * digits if digits else "")
    if percent:
        # exact in Decimal: Python's rounding stands, Babel only writes it
        return format_percent(Decimal(text) / 100, format=pattern + "%", locale=_locale())
    return format_decimal(Decimal(text), format=pattern, locale=_locale())


#: The minus sign every number is written with, in both editions: U+2212, as wide as the
#: plus, not the hyphen-minus a keyboard types ("−2.4", not "-2.4").
MINUS = "\u2212"

_HYPHEN_MINUS = re.compile(r"^(\s*)-(?=[\d.,])")


def _minus(text: str) -> str:
    """``text`` with a leading hyphen-minus before a number written as :data:`MINUS`."""
    return _HYPHEN_MINUS.sub(lambda found: found[1] + MINUS, text, count=1)


def _signed(text: str, value: float, sign: bool) -> str:
    text = _minus(text)
    return "+" + text if sign and not text.startswith(("-", MINUS)) and value >= 0 else text


def number(value, digits: int | None = None, *, group: bool = True,
           sign: bool = False) -> str:
    """``value`` with ``digits`` decimals (a whole number: none; a float: as many as
    it needs, up to 6) and its thousands grouped: ``number(6931.1, 1)`` is ``6,931.1``,
    «6 931,1» in Russian. ``sign`` writes a plus before a positive value."""
    group = _validate.flag("group", group)
    sign = _validate.flag("sign", sign)
    if isinstance(value, _numbers.Integral) and not isinstance(value, bool) and \
            digits is None:
        return _signed(_babel(str(int(value)), digits=0, group=group), value, sign)
    value = _real("value", value)
    if not math.isfinite(value):
        return _language.gettext(NOT_A_NUMBER)
    if digits is None:
        text = f"{value:.6f}".rstrip("0").rstrip(".")
        digits = len(text.partition(".")[2])
    else:
        digits = _validate.whole("digits", digits, minimum=0, maximum=12)
        text = f"{value:.{digits}f}"
    return _signed(_babel(text, digits=digits, group=group), value, sign)


def percent(share, digits: int = 1, *, sign: bool = False) -> str:
    """A share (0.241) as a percentage: ``24.1%``, «24,1%»."""
    share = _real("share", share)
    digits = _validate.whole("digits", digits, minimum=0, maximum=12)
    sign = _validate.flag("sign", sign)
    if not math.isfinite(share):
        return _language.gettext(NOT_A_NUMBER)
    text = f"{share:.{digits}%}"[:-1]
    return _signed(_babel(text, digits=digits, group=True, percent=True), share, sign)


def points(difference, digits: int = 1, *, sign: bool = True) -> str:
    """A difference of two shares (0.023) in percentage points: ``+2.3 pp``,
    «+2,3 п. п.»."""
    difference = _real("difference", difference)
    digits = _validate.whole("digits", digits, minimum=0, maximum=12)
    if not math.isfinite(difference):
        return _language.gettext(NOT_A_NUMBER)
    value = number(difference * 100, digits, sign=sign)
    return _("{value} pp").format(value=value)


def interval(low, high, format_spec: str = ".1%", *, width: int = 0) -> str:
    """An interval ``[low, high]``, each bound written by :func:`fmt` with
    ``format_spec``: ``[30.0%, 58.0%]``; in Russian the bounds are parted by a
    semicolon, since the comma is the decimal sign: «[30,0%; 58,0%]». ``width``
    (0 to 40 characters) right-aligns each bound, so that a column of intervals lines
    up: ``interval(0.0, 0.01, width=5)`` is ``[ 0.0%,  1.0%]``. A page prints every
    interval through this function, never with its own brackets and comma.

    >>> interval(0.3, 0.58)
    '[30.0%, 58.0%]'
    """
    format_spec = _validate.text("format_spec", format_spec)
    width = _validate.whole("width", width, minimum=0, maximum=40)
    return _("[{low}, {high}]").format(
        low=fmt(_real("low", low), format_spec).rjust(width),
        high=fmt(_real("high", high), format_spec).rjust(width))


def counted(n, *forms: str, format_spec: str | None = None) -> str:
    """``n`` with its noun in the form that goes with it: ``counted(5, "run", "runs")``.

    Two forms (English singular and plural) are looked up in the package's catalogs
    (gettext's ``ngettext``, the plural rule from the catalog). A chapter's Russian code
    gives the Russian forms itself, in gettext's order (one, few, many):
    ``counted(n, "прогон", "прогона", "прогонов")``. A fractional amount takes
    ``format_spec`` (``",.1f"``) and the form a fraction takes: "2.5 hours",
    «2,5 часа», «1,0 часа».
    """
    for index, form in enumerate(forms):
        _validate.text(f"forms[{index}]", form)
    if format_spec is None:
        n = _validate.whole("n", n, minimum=-(2**63))
        written, rule = number(n), n
    else:
        value = _real("n", n) if not isinstance(n, _numbers.Integral) or isinstance(
            n, bool) else n
        if not math.isfinite(value):
            raise ValueError(f"n must be a finite number of things, got {n!r}")
        written = fmt(value, _validate.text("format_spec", format_spec))
        # a number written with decimals reads as a fraction: English plural, Russian
        # genitive singular (the form gettext gives 2)
        fraction = get_decimal_symbol(_locale()) in written
        rule = 2 if fraction else int(round(float(n)))
    wanted = _language.plural_count()
    if len(forms) == 2:
        noun = _language.ngettext(forms[0], forms[1], rule)
    elif len(forms) == wanted:
        noun = forms[_language.plural_index(rule)]
    else:
        raise ValueError(f"forms must be the English singular and plural, or the "
                         f"{wanted} plural forms of the current language, got {forms!r}")
    return f"{written} {noun}"


def seeded(values, *forms: str, format_spec: str = ",.0f", minimum=0.0) -> str:
    """The first of a few seeded draws of one quantity (one simulated day's waiting, a
    count), with its noun's ``forms`` as :func:`counted` takes them, then the 95%
    interval of the draws' mean (Student's t, :func:`reliability.stats.mean_interval`,
    cut at ``minimum``; None: not cut), written by :func:`interval`: a page shows a
    seeded day's number with the interval of several such days, never bare. ``values``
    is a list or tuple of at least two finite numbers, the first the day shown.

    >>> seeded([29.4, 28.7, 30.4, 28.7], "worker-hour", "worker-hours", format_spec=".1f")
    '29.4 worker-hours [28.0, 30.6]'
    >>> seeded([360, 360, 360, 360], "call", "calls")   # four days that agree
    '360 calls [360, 360]'
    """
    from .stats import mean_interval

    values = [_validate.real(f"values[{i}]", v) for i, v in enumerate(
        _validate.sequence("values", values, minimum=2))]
    format_spec = _validate.text("format_spec", format_spec)
    minimum = None if minimum is None else _validate.real("minimum", minimum)
    low, high = mean_interval(values, minimum=minimum)
    first = (counted(values[0], *forms, format_spec=format_spec) if forms
             else fmt(values[0], format_spec))
    return f"{first} {interval(low, high, format_spec)}"


def glued_text(text: str, format_spec: str = "") -> str:
    """A glued value (its stored ``text/plain``) as ``{glue:text}`key:format_spec```
    shows it in the current language: myst-nb's reading of the value, :func:`fmt`'s
    writing. The spec may go on to name the noun that follows the number, in the
    language's plural forms, so the noun agrees with whatever number the run glued:
    ``{glue:text}`ch2_n:d|step|steps``` reads "1 step", "10 steps";
    ``{glue:text}`ch2_n:d|шаг|шага|шагов``` reads «1 шаг», «21 шаг», «10 шагов».
    A currency's code instead of the forms writes an amount by :func:`money`:
    ``{glue:text}`ch7_cost:.2f|USD``` reads «0,05 долл.».
    """
    from ast import literal_eval

    _validate.text("text", text)
    spec, *forms = _validate.text("format_spec", format_spec).split("|")
    try:
        value = literal_eval(text)  # as myst-nb reads it: a number, or quotes removed
    except (SyntaxError, ValueError):
        value = text
    kind = spec[-1:] or "s"
    if kind in "bcdoxX":
        value = int(value)
    elif kind in "eEfFgGn%":
        value = float(value)
    elif kind == "s" and not forms:
        value = str(value)
    if len(forms) == 1 and _CURRENCY.fullmatch(forms[0]):
        # ``{glue:text}`cost:.2f|USD```: an amount, written by :func:`money`
        found = _SPEC.match(spec)
        digits = int(found["digits"]) if found and found["digits"] else 2
        return money(float(value), forms[0], digits)
    if forms:
        return counted(value, *forms, format_spec=None if kind == "s" else spec)
    return fmt(value, spec)


#: A currency's ISO code after a glued spec's "|": the value is an amount of money.
_CURRENCY = re.compile(r"[A-Z]{3}")


#: How a printed line says a yes-or-no outcome ("accepted: no", «принято: нет»).
YES, NO = N_("yes"), N_("no")


def yes_no(flag) -> str:
    """A truth value as a word in the current language: "yes" or "no", «да» or «нет»
    (a printed line says ``accepted: no``, not ``accepted=False``)."""
    if not isinstance(flag, bool) and type(flag).__name__ != "bool_":
        raise ValueError(f"flag must be True or False, got {flag!r}")
    return _language.gettext(YES if flag else NO)


#: What a printed line says for "nothing" (a sign no detector saw, a limit not set).
NOTHING = N_("none")

#: Identifiers the package prints (a status, a reason, a class, a guardrail) and the
#: words a reader reads for them, registered by the modules that name them
#: (:func:`words_for`); an identifier not registered reads with spaces for underscores.
_WORDS: dict[str, tuple] = {}
_IDENTIFIER = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+")


def words_for(mapping: dict, context: str | None = None) -> dict:
    """Register the words (``N_``, or ``NP_`` with ``context``) a reader reads for
    each identifier in ``mapping`` (``{"budget_exceeded": N_("budget exceeded")}``);
    returns ``mapping``. A word that means other things elsewhere ("closed": a breaker's
    state, not a closed form) takes gettext's ``context``."""
    _validate.mapping("mapping", mapping, what="identifiers -> words")
    context = _validate.text("context", context, optional=True)
    for key, words in mapping.items():
        _validate.text("identifier", key)
        _validate.text(f"mapping[{key!r}]", words)
        _WORDS[key] = (context, words)
    return mapping


def said(value) -> str:
    """A value the code names as a reader reads it, in the current language: an
    identifier as words ("budget_exceeded" -> "budget exceeded", «бюджет исчерпан»),
    ``None`` as "none" («нет»), a truth value as :func:`yes_no`, a number by :func:`fmt`
    (a printed line says ``status: budget exceeded``, not ``status=budget_exceeded``).
    Any other text is returned as it is (it is already words)."""
    if value is None:
        return _language.gettext(NOTHING)
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return yes_no(bool(value))
    if isinstance(value, _numbers.Integral):
        return number(int(value))
    if isinstance(value, _numbers.Real):
        return fmt(float(value), "g")
    _validate.text("value", value)
    if value in _WORDS:
        context, words = _WORDS[value]
        translated = _language.pgettext(context, words) if context else _language.gettext(words)
    elif _IDENTIFIER.fullmatch(value):
        words = value.replace("_", " ")
        translated = _language.gettext(words)
    else:
        return value
    if _language.get_language() == "en" or translated != words:
        return translated
    # the catalogs may know the identifier (N_("time_budget")) rather than its words
    return _language.gettext(value)


def known_identifiers() -> tuple[str, ...]:
    """The identifiers registered with :func:`words_for` (the tests look for them in
    printed lines, where a reader should meet their words instead)."""
    return tuple(_WORDS)


def _localised_decimal(value: Decimal, format_spec: str) -> str:
    """A Decimal written with an ``f`` spec: Decimal rounds, Babel writes the signs."""
    found = _SPEC.match(format_spec)
    if not found:
        return format(value, format_spec)
    digits = 6 if found["digits"] is None else int(found["digits"])
    text = format(value, f".{digits}f")
    return _signed(_babel(text, digits=digits, group=bool(found["group"])), float(value),
                   found["sign"] == "+")


def get_decimal_symbol(locale: str) -> str:
    """The decimal sign of ``locale`` (CLDR): "." in English, "," in Russian."""
    from babel.numbers import get_decimal_symbol as symbol

    return symbol(locale)


def money(amount, currency: str = "USD", digits: int = 2) -> str:
    """An amount of money with ``digits`` decimals (0 to 6): ``$1,234.50`` in English;
    in Russian as the lesson writes dollars, «1 234,50 долл.», «0,05 долл.» (another
    currency: Babel's «1 234,50 €»). The one place a page's amount gets its currency.

    >>> money(1234.5), money(0.144, digits=3)
    ('$1,234.50', '$0.144')
    """
    from babel import Locale
    from babel.numbers import format_currency

    amount = _real("amount", amount)
    currency = _validate.text("currency", currency)
    digits = _validate.whole("digits", digits, minimum=0, maximum=6)
    if not math.isfinite(amount):
        return _language.gettext(NOT_A_NUMBER)
    if currency == "USD" and _locale() != "en":
        # «0,05 долл.»: the lesson's way; Babel's «0,05 $» is not how Russian prose writes
        return _("{amount} USD").format(amount=number(amount, digits))
    # the locale's own pattern («#,##0.00 ¤», "¤#,##0.00") with ``digits`` decimals
    standard = Locale.parse(_locale()).currency_formats["standard"].pattern
    pattern = standard.replace("0.00", "0" + ("." + "0" * digits if digits else ""))
    text = format_currency(Decimal(f"{amount:.{digits}f}"), currency, format=pattern,
                           currency_digits=False, locale=_locale())
    return text.replace("-", MINUS, 1)   # a debt's sign, before or after the currency's


#: How each language writes a calendar date in a message: English keeps ISO 8601, a
#: Russian bank writes «03.11.2026» (CLDR patterns).
_DATE_PATTERNS = {"en": "yyyy-MM-dd", "ru": "dd.MM.yyyy"}


def day(value) -> str:
    """A calendar date as a message in the page's language writes it: ``2026-11-03``,
    «03.11.2026».

    >>> import datetime
    >>> day(datetime.date(2026, 11, 3))
    '2026-11-03'
    """
    import datetime

    if not isinstance(value, datetime.date) or isinstance(value, datetime.datetime):
        raise ValueError(f"value must be a datetime.date, got {value!r}")
    if _locale() == "en":
        return value.isoformat()   # the light install (no Babel) writes English
    from babel.dates import format_date

    return format_date(value, _DATE_PATTERNS.get(_locale(), "short"), locale=_locale())


def fmt(value, format_spec: str) -> str:
    """``format(value, format_spec)`` in the page's language: the same rounding, the
    locale's decimal sign and groups, and a negative number's sign the minus
    :data:`MINUS` («−2,4»). In English it is exactly Python's ``format``, except that
    nan and inf read "n/a" («н/д») and the minus is :data:`MINUS` ("−2.4"). A
    spec outside sign, ``,``, precision and d/f/%/g is Python's, unlocalised."""
    return _minus(_fmt(value, format_spec))


def _fmt(value, format_spec: str) -> str:
    format_spec = _validate.text("format_spec", format_spec, optional=True) or ""
    if isinstance(value, Decimal):
        # an amount of money: Decimal's own exact rounding, then the locale's signs
        if not value.is_finite():
            return _language.gettext(NOT_A_NUMBER)
        if _language.get_language() == "en":
            return format(value, format_spec)
        if format_spec.endswith(("f", "F")):
            return _localised_decimal(value, format_spec)
        return fmt(float(value), format_spec)
    if isinstance(value, _numbers.Real) and not isinstance(value, _numbers.Integral) \
            and not math.isfinite(float(value)):
        return _language.gettext(NOT_A_NUMBER)  # no reader is told "nan%"
    if _language.get_language() == "en" or isinstance(value, str):
        return format(value, format_spec)
    found = _SPEC.match(format_spec)
    if not found or not isinstance(value, _numbers.Real) or isinstance(value, bool):
        return format(value, format_spec)
    sign = found["sign"] == "+"
    group = bool(found["group"])
    kind = found["kind"]
    if kind == "%":
        digits = 6 if found["digits"] is None else int(found["digits"])
        if not math.isfinite(float(value)):
            return _language.gettext(NOT_A_NUMBER)
        text = format(float(value), f".{digits}%")[:-1]
        return _signed(_babel(text, digits=digits, group=group, percent=True),
                       float(value), sign)
    if kind == "d" or (kind == "" and isinstance(value, _numbers.Integral)
                       and found["digits"] is None):
        return _signed(_babel(str(int(value)), digits=0, group=group), value, sign)
    if kind in ("f", "F"):
        digits = 6 if found["digits"] is None else int(found["digits"])
        if not math.isfinite(float(value)):
            return _language.gettext(NOT_A_NUMBER)
        text = format(float(value), f".{digits}f")
        return _signed(_babel(text, digits=digits, group=group), float(value), sign)
    # g or no type: Python's shortest form, with the locale's decimal sign and groups
    from babel.numbers import get_group_symbol

    text = format(value, format_spec).replace(",", "\x00")
    return text.replace(".", get_decimal_symbol(_locale())).replace(
        "\x00", get_group_symbol(_locale()))
