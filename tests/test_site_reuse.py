"""`make test` reuses the site `make book` built only when it was built from the very files
the checkout holds now (bookbuild.site.reuse): any change to a file the book reads, a
failed step or a missing PDF means the tests build the book again."""

import json
import subprocess

import pytest

from bookbuild import site


def _git(folder, *args):
    subprocess.run(["git", "-c", "user.email=t@example.org", "-c", "user.name=t", *args],
                   cwd=folder, check=True, capture_output=True)


@pytest.fixture
def checkout(tmp_path):
    """A small git checkout with a chapter, a test and a finished build's record."""
    root = tmp_path / "checkout"
    (root / "chapters").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "chapters" / "01.ipynb").write_text("{}")
    (root / "tests" / "test_x.py").write_text("")
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "commit", "-qm", "start")
    html = site.site(root)
    html.mkdir(parents=True)
    (html / "index.html").write_text("<html></html>")
    result = {"en": {"returncode": 0, "log": ""}, "ru": {"returncode": 0, "log": ""},
              "pdf_en": {"returncode": 0, "log": ""}, "pdf_ru": {"returncode": 0, "log": ""}}
    record = {"inputs": site.inputs_digest(root), "result": result}
    (html.parent / site.RECORD_NAME).write_text(json.dumps(record))
    return root


def test_a_site_built_from_the_same_files_is_copied(checkout, tmp_path):
    result = site.reuse(tmp_path / "out", built=checkout)
    assert result is not None and result["reused_from"] == str(site.site(checkout))
    assert (site.site(tmp_path / "out") / "index.html").read_text() == "<html></html>"


def test_a_changed_test_leaves_the_site_current(checkout, tmp_path):
    (checkout / "tests" / "test_x.py").write_text("assert True\n")
    assert site.reuse(tmp_path / "out", built=checkout) is not None


@pytest.mark.parametrize("change", ["edit", "new file", "delete"])
def test_a_changed_file_the_book_reads_means_a_new_build(checkout, tmp_path, change):
    chapter = checkout / "chapters" / "01.ipynb"
    if change == "edit":
        chapter.write_text('{"cells": []}')
    elif change == "new file":
        (checkout / "chapters" / "02.ipynb").write_text("{}")
    else:
        chapter.unlink()
    assert site.reuse(tmp_path / "out", built=checkout) is None
    assert not (tmp_path / "out").exists(), "nothing is copied from a stale site"


@pytest.mark.parametrize("step", ["ru", "pdf_en"])
def test_a_build_with_a_failed_or_missing_step_is_never_reused(checkout, tmp_path, step):
    record_path = site.site(checkout).parent / site.RECORD_NAME
    record = json.loads(record_path.read_text())
    record["result"][step]["returncode"] = 1
    record_path.write_text(json.dumps(record))
    assert site.reuse(tmp_path / "out", built=checkout) is None
    del record["result"][step]
    record_path.write_text(json.dumps(record))
    assert site.reuse(tmp_path / "out", built=checkout) is None


def test_outside_a_git_checkout_nothing_is_reused(tmp_path):
    (tmp_path / "chapters").mkdir()
    assert site.inputs_digest(tmp_path) is None
    assert site.reuse(tmp_path / "out", built=tmp_path) is None
