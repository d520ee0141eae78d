"""nbgitpuller links a teacher hands out: one per chapter, and one for the whole folder.

    .venv/bin/python -m bookbuild.hub_links            # refresh the hub pages
    .venv/bin/python -m bookbuild.hub_links https://hub.example.edu [ru]   # print links

A JupyterHub with nbgitpuller installed (the course image built from ``binder/`` has
it) answers ``<hub>/hub/user-redirect/git-pull?repo=...&branch=...&urlpath=...``: it
logs the student in, starts their server, clones the repository into their home (or
merges the teacher's new commits into the copy they have, keeping their edits) and
opens ``urlpath``. The repository comes from ``_config.yml``, the one place it lives;
the branch is :data:`HANDOUT_BRANCH`, the one ``grade handout`` (bookbuild/grade.py)
writes without the homework's key: the repository's main branch holds the key, so a
link to it would hand every student the answers.

The teacher's page (``book/hub.md`` and the Russian ``ru/book/hub.md``) carries,
between the ``hub-links`` markers, a form whose script (``book/_static/hub_links.js``)
writes the same links in the reader's browser for the hub address typed there; this
script writes that region, and ``tests/test_hub_links.py`` checks that Python and
JavaScript agree.
"""

from __future__ import annotations

import html
import json
import sys
from pathlib import Path
from urllib.parse import quote, urlparse

from .catalogs import EDITION, translator
from .launch_notebooks import NOTEBOOKS, RU_NOTEBOOKS, repository
from .run import ROOT

PAGE = ROOT / "book" / "hub.md"
RU_PAGE = EDITION / "book" / "hub.md"
#: The homework set's student notebook, beside the chapters' (bookbuild/homework.py).
HOMEWORK = "homework.ipynb"
#: The branch the class's links pull: ``grade handout``'s default, which leaves out the
#: key (bookbuild/grade.py's TEACHER_ONLY). The teacher runs it and pushes the branch
#: before sending the links.
HANDOUT_BRANCH = "handout"
BEGIN, END = "<!-- hub-links: begin -->", "<!-- hub-links: end -->"

# encodeURIComponent leaves these unescaped; quoting the same way makes the Python and
# the JavaScript links byte for byte equal.
_JS_SAFE = "!'()*"


def hub_address(hub: str) -> str:
    """The hub's base address without a trailing slash; ValueError if it is none."""
    text = str(hub).strip().rstrip("/")
    parsed = urlparse(text)
    if parsed.scheme not in ("http", "https") or not parsed.netloc or parsed.query:
        raise ValueError(f"hub must be an http:// or https:// address such as "
                         f"https://hub.example.edu, not {hub!r}")
    return text


def target_folder(repo: str) -> str:
    """The folder nbgitpuller clones ``repo`` into: its last path segment (a ``.git``
    suffix included, as nbgitpuller does)."""
    return repo.rstrip("/").rsplit("/", 1)[-1]


def pull_link(hub: str, repo: str, branch: str, path: str) -> str:
    """The link that pulls ``repo`` at ``branch`` and opens ``path`` (relative to the
    repository) in JupyterLab."""
    urlpath = f"lab/tree/{target_folder(repo)}/{path.strip('/')}"
    query = "&".join(f"{key}={quote(value, safe=_JS_SAFE)}" for key, value in
                     (("repo", repo), ("branch", branch), ("urlpath", urlpath)))
    return f"{hub_address(hub)}/hub/user-redirect/git-pull?{query}"


def notebook_folder(language: str = "en") -> Path:
    if language not in ("en", "ru"):
        raise ValueError(f"language must be 'en' or 'ru', not {language!r}")
    return NOTEBOOKS if language == "en" else RU_NOTEBOOKS


def paths(language: str = "en") -> list[str]:
    """What the links open, repository-relative: each chapter's launch notebook, the
    homework's, then the folder that holds them all."""
    folder = notebook_folder(language)
    relative = folder.relative_to(ROOT).as_posix()
    found = sorted(folder.glob("[0-9][0-9]_*.ipynb"))
    # the homework set's notebook (bookbuild/homework.py), which the grader collects
    found += [p for p in (folder / HOMEWORK,) if p.exists()]
    return [f"{relative}/{p.name}" for p in found] + [relative]


def links(hub: str, language: str = "en") -> list[tuple[str, str]]:
    """(what it opens, link) for every chapter and for the whole folder."""
    repo, _ = repository()
    return [(path, pull_link(hub, repo, HANDOUT_BRANCH, path))
            for path in paths(language)]


def _title(path: str) -> str:
    nb = json.loads((ROOT / path).read_text())
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            for line in "".join(cell["source"]).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return Path(path).stem


def panel(language: str = "en", titles: dict[str, str] | None = None) -> str:
    """The generated region of the hub page: the form and a list the script fills in.
    ``titles``: chapter titles by file name (the Russian edition's build gives them);
    otherwise each launch notebook's own."""
    _ = translator(language, "hub_links")
    repo, branch = repository()[0], HANDOUT_BRANCH
    items = []
    for path in paths(language):
        if Path(path).name == HOMEWORK:
            words = _("Homework: the set your teacher grades")
        elif path.endswith(".ipynb"):
            number = int(Path(path).name[:2])
            title = (titles or {}).get(Path(path).name) or _title(path)
            words = f"{number}. {title}"
        else:
            words = _("Every chapter: the whole folder")
        items.append(f'<li><a class="hub-link" data-path="{html.escape(path)}">'
                     f"{html.escape(words)}</a></li>")
    invalid = html.escape(_("Type the address of your hub, such as "))
    attributes = (f'data-repo="{html.escape(repo)}" data-branch="{html.escape(branch)}" '
                  f'data-invalid="{invalid}https://hub.example.edu"')
    label = html.escape(_("Your hub's address:"))
    return "\n".join([
        f'<div class="hub-links" {attributes}>',
        f'<p><label for="hub-address">{label}</label>',
        '<input id="hub-address" type="url" size="40" '
        'placeholder="https://hub.example.edu" autocomplete="url"></p>',
        '<p class="hub-links-status" role="status"></p>',
        "<ol>", *items, "</ol>",
        "</div>",
    ])


def with_panel(text: str, region: str, where: str = "book/hub.md") -> str:
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        raise ValueError(f"{where} needs one '{BEGIN}' and one '{END}' line")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{region}\n{END}{tail}"


def write_all() -> list[Path]:
    """Refresh both editions' pages (the Russian one once ru/ has been built)."""
    written = []
    for page, language in ((PAGE, "en"), (RU_PAGE, "ru")):
        if page.exists():
            page.write_text(with_panel(page.read_text(), panel(language), str(page)))
            written.append(page)
    return written


def main(argv: list[str]) -> int:
    if argv:
        for path, link in links(argv[0], *argv[1:2]):
            print(f"{path}\n    {link}")
    else:
        written = write_all()
        print("hub page: " + ", ".join(str(p.relative_to(ROOT)) for p in written))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
