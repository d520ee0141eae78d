"""The API page's directive: one module of the package, documented from its docstrings.

    :::{api-module} reliability.stats
    :::

in a MyST page is Sphinx autodoc's ``.. automodule:: reliability.stats`` with
``:members:`` (the module's ``__all__``, in the order of the source), read as
reStructuredText, which the docstrings are written in (numpydoc sections through
napoleon, formulas in ``:math:`` and ``.. math::``). A MyST page cannot hold autodoc
directly: autodoc's output would be read as Markdown. The result sits in a block marked
``lang="en"``: the docstrings are English in both editions, and the Russian page says so.
The module is imported from this checkout, not from whatever copy the build's Python has.
"""

from __future__ import annotations

import sys
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import Parser
from docutils.utils import new_document
from sphinx.util.docutils import SphinxDirective

ROOT = Path(__file__).resolve().parents[2]


class ApiModule(SphinxDirective):
    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        if str(ROOT) not in sys.path:
            sys.path.insert(0, str(ROOT))
        name = self.arguments[0]
        source = f".. automodule:: {name}\n   :members:\n"
        document = new_document(self.get_source_info()[0], self.state.document.settings)
        document.reporter = self.state.document.reporter
        document.note_source(*self.get_source_info())
        Parser().parse(source, document)
        # docutils writes the class language-en as the attribute lang="en"
        block = nodes.container(classes=["api-module", "language-en"])
        block += document.children
        return [block]


def setup(app):
    app.setup_extension("sphinx.ext.autodoc")
    app.setup_extension("sphinx.ext.napoleon")
    app.add_directive("api-module", ApiModule)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
