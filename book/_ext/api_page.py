"""The API pages' directives: one module of the package documented from its docstrings,
and an index of every public name.

    :::{api-module} reliability.stats
    :::

in a MyST page is Sphinx autodoc's ``.. automodule:: reliability.stats`` with
``:members:`` (the module's ``__all__``, in the order of the source), read as
reStructuredText, which the docstrings are written in (numpydoc sections through
napoleon, formulas in ``:math:`` and ``.. math::``). A MyST page cannot hold autodoc
directly: autodoc's output would be read as Markdown.

    :::{api-index} reliability.stats reliability.passk
    :::

lists each named module's ``__all__``, every name a link to its entry on whichever page
documents it, beside the first sentence of its docstring (a constant's ``#:`` comment).
The reference is split into one page a part of the package (book/api/): on one page, its
15,000 elements cost a phone a quarter of a second of layout each time the theme measured
it; the index keeps the whole package a click away.

Both write a block marked ``lang="en"``: the docstrings are English in both editions, and
the Russian pages say so. A module's own docstring, its page's introduction to it, comes
first and in the page's language: the Russian edition takes it from the package's catalog
(``reliability/locale/ru/<module>.po``, context :data:`API_INTRO`). The modules are
imported from this checkout, not from whatever copy the build's Python has.
"""

from __future__ import annotations

import importlib
import inspect
import re

from docutils import nodes
from docutils.parsers.rst import Parser
from docutils.utils import new_document
from sphinx.pycode import ModuleAnalyzer
from sphinx.util.docutils import SphinxDirective

# A docstring's first sentence: up to the first full stop that ends a word, outside
# inline literals (``x``) and roles (:math:`x`): an odd count of either delimiter
# before it means inside one.
_SENTENCE_END = re.compile(r"\.(?=\s|$)")


def _inside_literal(text: str) -> bool:
    return text.count("``") % 2 == 1 or text.replace("``", "").count("`") % 2 == 1


def first_sentence(text: str) -> str:
    """The first sentence of a docstring's first paragraph, on one line."""
    paragraph = " ".join(text.strip().split("\n\n")[0].split())
    for end in _SENTENCE_END.finditer(paragraph):
        if not _inside_literal(paragraph[:end.start()]):
            return paragraph[:end.end()]
    return paragraph


def summary(module_name: str, name: str) -> str:
    """What the index says of one public name: its docstring's first sentence for a
    function or class, the ``#:`` comment above it for a constant, else nothing."""
    value = getattr(importlib.import_module(module_name), name)
    if inspect.isfunction(value) or inspect.isclass(value):
        return first_sentence(inspect.getdoc(value) or "")
    comment = ModuleAnalyzer.for_module(module_name).find_attr_docs().get(("", name))
    return first_sentence("\n".join(comment)) if comment else ""


def index_source(module_names: list[str]) -> str:
    """The index as reStructuredText: a definition list a module."""
    lines = []
    for module_name in module_names:
        # the module as context, so a summary's :meth:`Workflow.simulate` resolves
        lines += [f".. py:currentmodule:: {module_name}", "",
                  f":py:mod:`{module_name}`", ""]
        for name in importlib.import_module(module_name).__all__:
            said = summary(module_name, name)
            lines.append(f"* :py:obj:`~{module_name}.{name}`" + (f": {said}" if said else ""))
        lines.append("")
    return "\n".join(lines + [".. py:currentmodule:: None", ""])


class _ReStructuredText(SphinxDirective):
    """A directive whose output is reStructuredText it writes, in an English block."""

    has_content = False

    def source(self) -> str:
        raise NotImplementedError

    def parsed(self, source: str, classes: list[str]) -> nodes.container:
        document = new_document(self.get_source_info()[0], self.state.document.settings)
        document.reporter = self.state.document.reporter
        document.note_source(*self.get_source_info())
        Parser().parse(source, document)
        block = nodes.container(classes=classes)
        block += document.children
        return block

    def run(self) -> list[nodes.Node]:
        # docutils writes the class language-en as the attribute lang="en"
        return [self.parsed(self.source(), [self.block_class, "language-en"])]


#: The context of a module's docstring in the package's catalogs (the same string as
#: bookbuild.catalogs.API_INTRO, which extracts it; tests/test_translation.py checks).
API_INTRO = "API page: the module's introduction"


def introduction(module_name: str, language: str) -> str:
    """The module's docstring in ``language``: the introduction its API page opens with
    (the English docstring when the catalog has no translation)."""
    text = inspect.getdoc(importlib.import_module(module_name)) or ""
    if text and language != "en":
        from reliability import i18n

        with i18n.language(language):
            text = i18n.pgettext(API_INTRO, text)
    return text


class ApiModule(_ReStructuredText):
    """The module's introduction (its docstring, translated in the Russian edition) in
    the page's language, then its members' docstrings in an English block."""

    required_arguments = 1
    block_class = "api-module"

    def source(self) -> str:
        return f".. automodule:: {self.arguments[0]}\n   :members:\n"

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        text = introduction(name, self.env.config.language or "en")
        intro = [self.parsed(f".. py:currentmodule:: {name}\n\n{text}\n", ["api-intro"])
                 ] if text else []
        return intro + super().run()


def _without_module_docstring(app, what, name, obj, options, lines) -> None:
    # ApiModule shows the module's docstring itself, in the page's language
    if what == "module":
        lines.clear()


class ApiIndex(_ReStructuredText):
    required_arguments = 1
    optional_arguments = 50
    block_class = "api-index"

    def source(self) -> str:
        return index_source(self.arguments)


def setup(app):
    app.setup_extension("sphinx.ext.autodoc")
    app.setup_extension("sphinx.ext.napoleon")
    app.add_directive("api-module", ApiModule)
    app.add_directive("api-index", ApiIndex)
    app.connect("autodoc-process-docstring", _without_module_docstring)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
