"""The nbgitpuller links of the teacher's hub page (bookbuild/hub_links.py and
book/_static/hub_links.js): what they encode, that both editions' pages carry them up to
date, and that the page's script writes the same links as the Python generator."""

from __future__ import annotations

import inspect
import json
import shutil
import subprocess
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent
from bookbuild import hub_links  # noqa: E402
from bookbuild.launch_notebooks import repository  # noqa: E402

HUB = "https://hub.example.edu/"


def _query(link: str) -> dict[str, str]:
    query = parse_qs(urlparse(link).query, strict_parsing=True)
    assert all(len(values) == 1 for values in query.values())
    return {key: values[0] for key, values in query.items()}


def test_a_chapter_link_pulls_the_repository_and_opens_the_chapter():
    repo, branch = repository()
    link = hub_links.pull_link(HUB, repo, branch, "notebooks/01_chain_decay.ipynb")
    assert link.startswith("https://hub.example.edu/hub/user-redirect/git-pull?repo=")
    # the repository URL is encoded, not pasted: its ':' and '/' would break the query
    assert "repo=https%3A%2F%2Fgithub.com%2F" in link
    folder = repo.rstrip("/").rsplit("/", 1)[-1]
    urlpath = f"lab/tree/{folder}/notebooks/01_chain_decay.ipynb"
    assert _query(link) == {"repo": repo, "branch": branch, "urlpath": urlpath}


def test_a_special_branch_is_encoded_and_the_folder_is_nbgitpullers():
    link = hub_links.pull_link("http://localhost:8000",
                               "https://example.org/a/course.git",
                               "spring 2027/ru&en", "ru/notebooks")
    query = _query(link)
    assert query["branch"] == "spring 2027/ru&en"
    # nbgitpuller clones into the URL's last segment, ".git" and all
    assert query["urlpath"] == "lab/tree/course.git/ru/notebooks"
    assert "branch=spring%202027%2Fru%26en" in link


@pytest.mark.parametrize("language, folder",
                         [("en", "notebooks"), ("ru", "ru/notebooks")])
def test_one_link_per_chapter_and_one_for_the_folder(language, folder):
    made = hub_links.links(HUB, language)
    chapters = sorted(p.name for p in (ROOT / "chapters").glob("[0-9][0-9]_*.ipynb"))
    assert [path for path, _ in made] == [f"{folder}/{n}" for n in chapters] + [
        f"{folder}/homework.ipynb", folder]
    for path, link in made:
        assert _query(link)["urlpath"].endswith("/" + path)
        assert _query(link)["branch"] == hub_links.HANDOUT_BRANCH
        assert (ROOT / path).exists()


def test_the_class_pulls_the_handout_branch_not_the_one_with_the_key():
    """The main branch holds bookbuild/homework.py (the key): the class's links pull
    the branch ``grade handout`` makes by default, which leaves it out."""
    repo, branch = repository()
    assert hub_links.HANDOUT_BRANCH != branch
    grade = pytest.importorskip("bookbuild.grade")  # absent from the handout itself
    assert inspect.signature(grade.handout).parameters["branch"].default == (
        hub_links.HANDOUT_BRANCH)
    assert "bookbuild/homework.py" in grade.TEACHER_ONLY
    for language in ("en", "ru"):
        for _, link in hub_links.links(HUB, language):
            assert _query(link)["branch"] == hub_links.HANDOUT_BRANCH


@pytest.mark.parametrize("bad", ["hub.example.edu", "ftp://hub", "https://", "",
                                 "https://hub.example.edu/?next=x"])
def test_a_hub_address_that_is_not_one_is_refused(bad):
    with pytest.raises(ValueError, match="hub must be an http"):
        hub_links.pull_link(bad, "https://github.com/a/b", "main", "notebooks")


@pytest.mark.parametrize("page, language", [(hub_links.PAGE, "en"),
                                            (hub_links.RU_PAGE, "ru")])
def test_the_hub_pages_carry_the_current_links(page, language):
    text = page.read_text()
    assert hub_links.with_panel(text, hub_links.panel(language)) == text, (
        "run python -m bookbuild.hub_links")
    repo, _ = repository()
    branch = hub_links.HANDOUT_BRANCH
    assert f'data-repo="{repo}"' in text and f'data-branch="{branch}"' in text
    # the page tells the teacher to make and push that branch first
    assert "grade handout" in text and f"git push origin {branch}" in text
    assert text.count('class="hub-link"') == len(hub_links.paths(language))
    if language == "ru":
        assert "Every chapter" not in text and "Your hub" not in text


@pytest.mark.skipif(shutil.which("node") is None, reason="node is missing")
def test_the_page_script_writes_the_same_links_as_python():
    every = hub_links.paths("en") + hub_links.paths("ru")
    cases = [(HUB, repository()[0], hub_links.HANDOUT_BRANCH, p) for p in every]
    cases += [("http://127.0.0.1:8081", "file:///tmp/x/by-the-numbers.git",
               "a b/c&d", "notebooks/01_chain_decay.ipynb")]
    source = json.dumps(str(ROOT / "book" / "_static" / "hub_links.js"))
    script = (f"const h = require({source});"
              f"const cases = {json.dumps(cases)};"
              "console.log(JSON.stringify(cases.map(c => h.pullLink(...c))));"
              "console.log(JSON.stringify("
              "[h.pullLink('hub.example.edu', 'r', 'b', 'p')]));")
    out = subprocess.run(["node", "-e", script], capture_output=True, text=True,
                         check=True, timeout=30).stdout.splitlines()
    assert json.loads(out[0]) == [hub_links.pull_link(*c) for c in cases]
    assert json.loads(out[1]) == [None]


def test_typing_the_hub_address_writes_the_links_in_the_page(tmp_path):
    """The Russian panel and the page's script in Chromium: an address that is not one
    leaves the links empty with the catalog's message; a real one fills every link with
    what Python makes, and a reload remembers it."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from bookbuild.book_pdf import CHROMIUM, CHROMIUM_ARGS

    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing")
    script = (ROOT / "book" / "_static" / "hub_links.js").read_text()
    page_file = tmp_path / "hub.html"
    page_file.write_text(f"<!doctype html><meta charset=utf-8><body>"
                         f"{hub_links.panel('ru')}<script>{script}</script></body>")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                             headless=True, args=CHROMIUM_ARGS)
        try:
            # an http origin, so that localStorage is the page's own
            page = browser.new_page()
            page.route("http://book.test/hub.html", lambda route: route.fulfill(
                body=page_file.read_text(), content_type="text/html; charset=utf-8"))
            page.goto("http://book.test/hub.html")
            page.fill("#hub-address", "hub.example.edu")
            assert "Введите адрес" in page.inner_text(".hub-links-status")
            assert page.eval_on_selector_all(
                "a.hub-link", "as => as.filter(a => a.hasAttribute('href')).length") == 0
            page.fill("#hub-address", HUB)
            hrefs = page.eval_on_selector_all("a.hub-link",
                                              "as => as.map(a => a.getAttribute('href'))")
            assert hrefs == [link for _, link in hub_links.links(HUB, "ru")]
            assert page.inner_text(".hub-links-status") == ""
            page.reload()
            assert page.input_value("#hub-address") == HUB.rstrip("/")
        finally:
            browser.close()
