"""The book builds from the stored outputs with every warning an error."""

import subprocess
import sys
from pathlib import Path

import pytest

from notebooks import ROOT, chapters

pytestmark = pytest.mark.xdist_group(name="book")


@pytest.fixture(scope="module")
def built_book(tmp_path_factory):
    out = tmp_path_factory.mktemp("book")
    jb = Path(sys.executable).parent / "jupyter-book"
    result = subprocess.run(
        [str(jb), "build", str(ROOT), "-W", "-n", "--keep-going", "--path-output", str(out)],
        capture_output=True, text=True, cwd=ROOT)
    return result, out / "_build" / "html"


def test_book_builds_without_warnings(built_book):
    result, _ = built_book
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]


def test_every_chapter_has_a_page(built_book):
    _, html = built_book
    assert (html / "index.html").exists()
    for path in chapters():
        assert (html / "chapters" / f"{path.stem}.html").exists(), path.name
