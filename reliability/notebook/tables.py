"""Tables a projector can show: a pandas DataFrame as HTML with its numbers and words in
the page's language and element ids that are the same on every run (:func:`table`).
"""

from __future__ import annotations

import numbers

from .. import _validate, i18n
from ..numbers import known_identifiers, said
from ._names import _name

__all__ = ["table"]


#: Characters beyond which a text column holds sentences, not names (see :func:`table`).
LONG_TEXT = 30

#: The words a table shows over the columns the package's frames name for a simulated
#: share and its 95% interval (``rate``, ``low``, ``high``) and for a closed form beside it
#: (``closed``, ``closed_attempts``): a reader reads words, not
#: the keys the code reads. Any other code name with an underscore (``cut_short``)
#: shows as :func:`reliability.numbers.said` writes it ("cut short").
HEADERS = {"rate": i18n.N_("share"), "low": i18n.N_("lower bound"),
           "high": i18n.N_("upper bound"), "closed": i18n.N_("closed form"),
           "closed_attempts": i18n.N_("attempts, closed form"),
           "mean_attempts": i18n.N_("attempts, simulated")}


def table(frame, *, name: str, formats=None, index: bool = False):
    """``frame`` (a pandas DataFrame) as an HTML table a projector can show: each column
    in ``formats`` written with its format (``{"share": "{:.1%}"}``, or one format for
    every number), the index hidden unless ``index``, and the element ids derived from
    ``name`` so the stored output is the same on every run."""
    import pandas as pd
    from IPython.display import HTML

    _validate.instance("frame", frame, pd.DataFrame)
    _name(name)
    if formats is not None and not isinstance(formats, (str, dict)) and not callable(formats):
        raise ValueError(f"formats must be None, a format string, a function or a dict of "
                         f"them by column, got {formats!r}")
    index = _validate.flag("index", index)
    # Headers and text cells marked for translation (N_) show in the page's language;
    # the frame itself keeps its English column names for the code that reads it.
    english_columns = list(frame.columns)  # by position: the renamed ones are translated
    frame = frame.rename(columns=_header, index=i18n.translate)
    if formats is not None and isinstance(formats, dict):
        formats = {_header(k): v for k, v in formats.items()}
    text_columns = [i for i, c in enumerate(frame.columns)
                    if frame.iloc[:, i].dtype == object
                    or pd.api.types.is_string_dtype(frame.iloc[:, i])]
    known = set(known_identifiers())
    if text_columns:
        # a cell holding a code name (a status, a failure class, a guardrail) shows the
        # words a reader reads for it ("wrong_record": "wrong record, self-consistent")
        frame = frame.copy()
        for i in text_columns:
            frame.isetitem(i, [said(v) if isinstance(v, str) and v in known else v
                               for v in frame.iloc[:, i]])
    if text_columns and i18n.get_language() != "en":
        frame = frame.copy()
        for i in text_columns:
            # a cell reads as its column gives it context ("low" confidence), else plainly
            english = english_columns[i]
            context = english[-1] if isinstance(english, tuple) else english
            frame.isetitem(i, [i18n.pgettext(str(context), v) if isinstance(v, str) else v
                               for v in frame.iloc[:, i]])
    style = frame.style.set_uuid(name)
    longest = {frame.columns[i]: int(frame.iloc[:, i].map(lambda v: len(str(v))).max())
               for i in text_columns}
    long_text = {column: n for column, n in longest.items() if n > LONG_TEXT}
    if long_text:
        # On a phone the table would squeeze a sentence column to a word a line and its
        # rows grow many lines tall; at a readable width (a sixth of its longest cell's
        # characters, in em, from 12 to 24em: a few lines) it scrolls in its box instead.
        style = style.set_table_styles(
            {column: [{"selector": "td",
                       "props": f"min-width: {min(24, max(12, -(-n // 6)))}em"}]
             for column, n in long_text.items()}, overwrite=False)
    if isinstance(formats, str):
        # One format for every number: whole-number columns (k, n, a count) stay whole,
        # not 1.000, 2.000.
        formats = {c: formats for i, c in enumerate(frame.columns)
                   if not pd.api.types.is_integer_dtype(frame.iloc[:, i])
                   and i not in text_columns}
    if i18n.get_language() != "en":
        # Numbers in the page's language (reliability.numbers): «0,805», «2 000»
        style = style.format(lambda value: _localised(value, "{}"))
    # every format through reliability.numbers, in English too: the same digits as
    # Python's, with the minus sign (−1.7, not -1.7) and "n/a" for nan
    if isinstance(formats, dict):
        formats = {k: _localiser(v) for k, v in formats.items()}
    elif formats is not None:
        formats = _localiser(formats)
    whole = [c for i, c in enumerate(frame.columns)
             if pd.api.types.is_integer_dtype(frame.iloc[:, i])]
    if whole:
        # a count reads with its thousands grouped, as the prose writes it: 2,576,
        # «2 576» (a column's own format below still wins)
        style = style.format(lambda value: _localised(value, "{:,}"),
                             subset=pd.IndexSlice[:, whole])
    if isinstance(formats, dict):
        # column by column: a dict given to Styler.format at once would put every column
        # it does not name back to pandas' unlocalised default
        for column, format_ in formats.items():
            if column in frame.columns:
                style = style.format(format_, subset=pd.IndexSlice[:, [column]])
    elif formats is not None:
        style = style.format(formats)
    if not index:
        style = style.hide(axis="index")
    return HTML(style.to_html())


def _header(column):
    """A column's name as its header reads in the page's language (:data:`HEADERS`)."""
    if isinstance(column, str) and column in HEADERS:
        return i18n.translate(HEADERS[column])
    if isinstance(column, str) and "_" in column and column.islower() \
            and column.replace("_", "").isalnum():
        return said(column)
    return i18n.translate(column)


def _localised(value, template: str) -> str:
    """``template.format(value)`` with its number written by reliability.numbers."""
    import string

    from ..numbers import fmt

    if isinstance(value, str) or not isinstance(value, numbers.Number) or \
            isinstance(value, bool):
        return template.format(value)
    out = []
    for literal, field, format_spec, _ in string.Formatter().parse(template):
        out.append(literal)
        if field is not None:
            out.append(fmt(value.item() if hasattr(value, "item") else value,
                            format_spec or ""))
    return "".join(out)


def _localiser(format_):
    """A table format (a ``"{:.1%}"`` string or a function) as a function writing its
    numbers in the page's language."""
    if callable(format_):
        return format_
    return lambda value: _localised(value, format_)
