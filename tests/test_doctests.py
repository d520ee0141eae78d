"""The examples a reader copies run as written: every docstring example in the package
and every ``>>>`` example in the README is a doctest here, so a changed output fails
`make test` (the command collects this module with the rest of tests/).

The package's modules are found by their source, not listed by hand: a new module's
examples run without being registered. pytest's own ``--doctest-modules`` would also
collect the test modules and the chapters' folders that `make test` names, so the
examples are run through the standard library's doctest runner instead, one test per
module and one for the README.
"""

import doctest
import importlib
import inspect
import re
from pathlib import Path

import pytest

import reliability
from bookbuild.run import sphinx_extension
from reliability import i18n

PACKAGE = Path(reliability.__file__).resolve().parent
ROOT = PACKAGE.parent
README = ROOT / "README.md"
#: The book's API pages (book/api/*.md), which show these modules' docstrings.
API_PAGES = sorted((ROOT / "book" / "api").glob("*.md"))
# ELLIPSIS for tracebacks' middle lines; whitespace is compared exactly, since what a
# reader sees printed is what the example shows.
FLAGS = doctest.ELLIPSIS


def _modules_with_examples() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>>" not in path.read_text(encoding="utf-8"):
            continue
        parts = path.relative_to(ROOT).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def _run(tests) -> tuple[int, int, str]:
    """Run doctests in English (the examples' language), returning how many examples ran,
    how many failed and the runner's report of the failures."""
    report = []
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    with i18n.language("en"):
        for test in tests:
            runner.run(test, out=report.append)
    return runner.tries, runner.failures, "".join(report)


MODULES = _modules_with_examples()


def test_the_modules_the_issue_named_are_among_those_run():
    assert {"reliability", "reliability.datasets", "reliability.parameters",
            "reliability.lab", "reliability.passk", "reliability.stats"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_give_the_outputs_they_show(name):
    module = importlib.import_module(name)
    tests = [t for t in doctest.DocTestFinder().find(module, name) if t.examples]
    tries, failures, report = _run(tests)
    assert tries > 0, f"{name}: its source has '>>>' but no example was found"
    assert failures == 0, report


def _readme_examples() -> doctest.DocTest:
    """The README's ``>>>`` examples as one doctest, in the order they appear. A code
    fence's closing line would read as part of the expected output, so fence lines
    become blank lines (which end an example's output, as in a session)."""
    text = re.sub(r"(?m)^```.*$", "", README.read_text(encoding="utf-8"))
    return doctest.DocTestParser().get_doctest(text, {}, "README.md", str(README), 0)


def test_readme_examples_give_the_outputs_they_show():
    readme = _readme_examples()
    tries, failures, report = _run([readme])
    assert tries >= 10, f"the README's examples were not found ({tries} ran)"
    assert failures == 0, report


def test_a_changed_output_fails():
    """The runner reports a wrong output rather than passing whatever it is given: the
    README's first example with an output, its output changed, is one failure."""
    readme = _readme_examples()
    example = next(e for e in readme.examples if e.want)
    example.want = "not " + example.want
    tries, failures, report = _run([readme])
    assert failures == 1 and "Expected:\n    not " in report, report


def _api_page_modules() -> list[str]:
    return [name for page in API_PAGES for name in
            re.findall(r"(?m)^:::\{api-module\} (\S+)$", page.read_text(encoding="utf-8"))]


def test_every_public_function_on_the_api_page_has_numpydoc_sections_and_examples():
    """Each public function of a module the API page shows (stats, passk, workflow, the
    harness) says what it takes, what it returns, and shows it in an example that runs
    here: a function added without them fails."""
    modules = _api_page_modules()
    assert {"reliability.stats", "reliability.passk", "reliability.workflow",
            "reliability.harness.budget", "reliability.harness.ladder"} <= set(modules)
    missing, functions = [], 0
    for name in modules:
        module = importlib.import_module(name)
        tests = {t.name: t for t in doctest.DocTestFinder().find(module, name)}
        for member in module.__all__:
            function = getattr(module, member)
            if not inspect.isfunction(function):
                continue
            functions += 1
            doc = inspect.getdoc(function) or ""
            wanted = ["Returns", "Examples"] + (
                ["Parameters"] if inspect.signature(function).parameters else [])
            missing += [f"{name}.{member}: no {section} section" for section in wanted
                        if not re.search(rf"(?m)^{section}\n-+$", doc)]
            test = tests.get(f"{name}.{member}")
            if test is None or not test.examples:
                missing.append(f"{name}.{member}: no example runs")
    assert functions >= 30, f"only {functions} public functions found"
    assert not missing, "\n".join(missing)


def test_a_changed_output_in_a_docstring_fails():
    """A docstring's example is checked, not only run: wilson_interval's first output,
    changed, is one failure."""
    module = importlib.import_module("reliability.stats")
    test = next(t for t in doctest.DocTestFinder().find(module, "reliability.stats")
                if t.name == "reliability.stats.wilson_interval")
    example = next(e for e in test.examples if e.want)
    example.want = "not " + example.want
    tries, failures, report = _run([test])
    assert tries > 1 and failures == 1 and "Expected:\n    not " in report, report


def test_the_api_index_names_every_module_the_api_pages_document():
    """book/api.md's index (the api-index directive) and the pages in book/api/ name the
    same modules: a module added to a page but not to the index, or the other way
    round, fails. The index's summaries are first sentences, never cut inside a literal
    or a role."""
    index = (ROOT / "book" / "api.md").read_text(encoding="utf-8")
    listed = re.search(r"(?m)^:::\{api-index\} (.+)$", index)[1].split()
    assert sorted(listed) == sorted(_api_page_modules())
    first_sentence = sphinx_extension("api_page").first_sentence
    assert first_sentence("Four limits; ``x. y`` works. The rest.") == \
        "Four limits; ``x. y`` works."
    assert first_sentence("Width :math:`1.5 h`.\n\nMore.") == "Width :math:`1.5 h`."
    assert first_sentence("No full stop") == "No full stop"
