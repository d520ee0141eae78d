"""What every page of the book needs for its readers, added at build time.

* Each chapter page gets a "Run this chapter" note: launch it on Binder or Colab,
  download it, or re-run it with other parameters (``bookbuild/rerun.py``), with that
  chapter's own file name, parameters and their allowed ranges (``reliability.parameters``).
* The launch and download buttons open the chapter's plain notebook in ``notebooks/``
  (made by ``bookbuild/launch_notebooks.py``: numbers filled in, no MyST markup), not
  the MyST source; those notebooks and a zip of them are copied into the site.
* The page works offline: asset URLs that stored outputs point at a CDN (the Font Awesome
  stylesheet in matplotlib's animation player) are rewritten to copies in
  ``_static/vendor`` (see ``scripts/vendor_assets.sh``).
* A kernel-free animation takes the alt text of its cell's metadata, like a figure.
* A chapter's sentences about the web page ("Move the sliders ... on this page") are
  marked web-only, each with the words paper prints instead
  (``book/_ext/print_words.py``; ``print.css`` and ``live.css`` choose which shows).
* Exercises are numbered within each chapter (1, 2, 3), not across the book.
* Sphinx's words that its scripts write (the search highlights' "Hide Search Matches")
  come in the book's language: translations.js loads before the script that writes them.
* Figures travel light: the build stores each figure of _images as a 256-colour PNG (a
  chart's flat colours and antialiased edges survive it unchanged), a third of the bytes;
  the notebooks keep their full-colour outputs.
* A first visit stays light: the theme's fontawesome.js (1.5 MB of icons its web fonts
  already draw) is left out of every page, and every formula is typeset once at build
  time (scripts/prerender_maths.js, the npm MathJax), so no page loads MathJax itself.
* The first words paint first (issue 29; ``make bench`` measures it with Lighthouse):
  the page's scripts are deferred (they run once the page is parsed, in their order), the
  search index and search scripts load on the search page only (the search box sends the
  reader there), stylesheets for printing and the animation player's icons load without holding the first paint, figures below the
  first load as the reader scrolls (their space kept), and fonts show text while they
  load (``font-display: swap``).
* No console errors of the book's own making: script tags registered twice (sphinx-thebe's
  ``const THEBE_JS_URL`` would be declared twice, a SyntaxError) are emitted once, and
  thebe's assets are left out altogether when no thebe launch button is configured.
"""

from __future__ import annotations

import html
import io
import json
import re
import shutil
import subprocess
import zipfile
from pathlib import Path
from urllib.parse import urlparse

from docutils import nodes
from sphinx.util import logging

#: CDN assets found in stored outputs -> their copy under the book's _static.
OFFLINE_ASSETS = {
    "https://maxcdn.bootstrapcdn.com/font-awesome/4.4.0/css/font-awesome.min.css":
        "_static/vendor/font-awesome/css/font-awesome.min.css",
}

CHAPTER_PREFIX = "chapters/"
#: Where bookbuild/launch_notebooks.py writes the plain notebooks, in the repository and
#: in the built site alike, and the zip of them beside the site's landing page.
LAUNCH_FOLDER = "notebooks"
ZIP_NAME = "agent-reliability-notebooks.zip"
#: Written beside the launch notebooks by bookbuild/launch_notebooks.py, zipped with
#: them.
COMPANIONS = ("README.md", "requirements.txt")

logger = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
#: The other edition of each language, and where its pages sit relative to this one's
#: root: the Russian book is the same site's ru/ folder (bookbuild/edition.py).
EDITIONS = {"en": ("ru", "ru/", "Читать по-русски"), "ru": ("en", "../", "Read in English")}


def _translator(app):
    """The ``_()`` of this build's language, from locale/<language>/code/reader_pages.po."""
    language = app.config.language or "en"
    if language == "en":
        return lambda message: message
    from reliability.i18n import read_po

    path = ROOT / "locale" / language / "code" / "reader_pages.po"
    entries = read_po(path) if path.exists() else {}
    return lambda message: entries.get(message, message)


def _language(app) -> str:
    return app.config.language or "en"


def _binder_branch() -> str:
    """The branch Binder builds from: the handout (bookbuild/hub_links.py), the
    repository less the homework's key, as the hub's links pull it; a Binder image holds
    the whole branch it was built from, so one built from main would hand out the key."""
    from bookbuild.hub_links import HANDOUT_BRANCH

    return HANDOUT_BRANCH


def _launch_urls(theme_options: dict, path: str) -> dict[str, str]:
    """The Binder and Colab URLs for the repository file ``path`` (as the theme builds
    them, but for the launch notebook, and Binder's from the handout branch)."""
    repo_url = theme_options.get("repository_url", "").rstrip("/")
    branch = theme_options.get("repository_branch", "main")
    launch = theme_options.get("launch_buttons", {})
    org_repo = urlparse(repo_url).path.strip("/")
    urls = {}
    if launch.get("binderhub_url"):
        urls["Binder"] = (f"{launch['binderhub_url'].rstrip('/')}/v2/gh/{org_repo}/"
                          f"{_binder_branch()}?urlpath=lab/tree/{path}")
    if launch.get("colab_url"):
        urls["Colab"] = f"{launch['colab_url'].rstrip('/')}/github/{org_repo}/blob/{branch}/{path}"
    return urls


def _launch_notebook(docname: str) -> str:
    """A chapter's launch notebook, relative to its edition's root."""
    return f"{LAUNCH_FOLDER}/{Path(docname).name}.ipynb"


def _in_repository(app, path: str) -> str:
    """``path`` (relative to the book being built) as a path in the repository."""
    return (Path(app.srcdir).resolve() / path).relative_to(ROOT).as_posix()


def _paragraph(*parts) -> nodes.paragraph:
    para = nodes.paragraph()
    for part in parts:
        para += part if isinstance(part, nodes.Node) else nodes.Text(part)
    return para


def _link(text: str, url: str) -> nodes.reference:
    return nodes.reference(text, text, refuri=url)


def run_this_chapter(app, doctree, docname):
    """Insert the "Run this chapter" note under a chapter's title."""
    if app.builder.format != "html" or not docname.startswith(CHAPTER_PREFIX):
        return
    source = Path(app.env.doc2path(docname))
    if source.suffix != ".ipynb":
        return
    _ = _translator(app)
    path = _in_repository(app, source.relative_to(app.srcdir).as_posix())
    notebook = json.loads(source.read_text(encoding="utf-8"))
    from reliability import i18n

    with i18n.language(_language(app)):  # the ranges in words, in the page's language
        ranges = _allowed(Path(docname).name)  # the parameters cell's names, in order
    changed = notebook.get("metadata", {}).get("reliability", {}).get("test_parameters", {})
    options = app.config.html_theme_options
    launch = _in_repository(app, _launch_notebook(docname))
    # the zip's folder installs the wheel it carries at the book's pins (no git); a single
    # downloaded notebook's first cell names the site's wheel instead
    install = "pip install -r requirements.txt"

    note = nodes.admonition(classes=["tip", "dropdown", "run-this-chapter"])
    note += nodes.title("", _("Run this chapter"))
    items = nodes.bullet_list()
    urls = _launch_urls(options, launch)
    if "Binder" in urls:
        items += nodes.list_item("", _paragraph(
            _link(_("Open it on Binder"), urls["Binder"]),
            _(": JupyterLab with binder/requirements.txt, the pinned versions behind the "
              "numbers on this page; the first start takes a few minutes.")))
    if "Colab" in urls:
        items += nodes.list_item("", _paragraph(
            _link(_("Open it in Colab"), urls["Colab"]),
            _(": run the first cell, which installs the book's package and the libraries "
              "Colab lacks (it downgrades nothing), then run the rest; no restart "
              "needed.")))
    items += nodes.list_item("", _paragraph(
        _("Or download it with the download button at the top of the page (the same "
          "notebook; every chapter in one zip is linked from the landing page) and run it "
          "in a clone's "), nodes.literal("make lab", "make lab"),
        _(" or in any Jupyter after "), nodes.literal(install, install),
        _(" in the zip's folder (no git needed; a notebook's first cell says what to run "
          "where the package is missing).")))
    note += items

    out = f"/tmp/{source.stem}-rerun.ipynb"
    flags = " ".join(f"-p {key} {json.dumps(value)}" for key, value in changed.items())
    command = f".venv/bin/python -m bookbuild rerun {path} {out} {flags}".strip()
    if ranges:
        note += _paragraph(_("To re-run it with other values from a clone of the "
                             "repository (after "), nodes.literal("make book", "make book"),
                           _("), change the parameters of its first code cell; a name the "
                             "chapter lacks or a value outside its range is refused before "
                             "it runs:"))
    else:
        note += _paragraph(_("To re-run it from a clone of the repository:"))
    note += nodes.literal_block(command, command, language="bash")
    if ranges:
        table = nodes.bullet_list(classes=["parameter-ranges"])
        for name, allowed in ranges.items():
            table += nodes.list_item("", _paragraph(nodes.literal(name, name), f": {allowed}"))
        note += _paragraph(_("Its parameters and the values they accept:"))
        note += table
    how_to = app.builder.get_relative_uri(docname, "book/how_to_use")
    if "book/how_to_use" in app.env.all_docs:
        note += _paragraph(_("More in "), _link(_("How to use this book"), how_to), ".")

    section = next(iter(doctree.findall(nodes.section)), None)
    if section is None:
        doctree.insert(0, note)
        return
    title = next((i for i, child in enumerate(section.children)
                  if isinstance(child, nodes.title)), -1)
    section.insert(title + 1, note)


def _allowed(chapter: str) -> dict[str, str]:
    """A chapter's parameters with their ranges in words (reliability.parameters)."""
    from reliability.parameters import CHAPTERS, allowed

    return allowed(chapter) if chapter in CHAPTERS else {}


def launch_buttons_to_notebooks(app, pagename, context):
    """Point the theme's Binder, Colab and .ipynb download buttons at the chapter's launch
    notebook (plain Markdown, numbers filled in) instead of its MyST source."""
    if not pagename.startswith(CHAPTER_PREFIX):
        return
    _ = _translator(app)
    source, launch = f"{pagename}.ipynb", _launch_notebook(pagename)
    options = app.config.html_theme_options
    binder = options.get("launch_buttons", {}).get("binderhub_url", "").rstrip("/")
    org_repo = urlparse(options.get("repository_url", "").rstrip("/")).path.strip("/")
    main = f"/v2/gh/{org_repo}/{options.get('repository_branch', 'main')}?"
    for group in context.get("header_buttons", []):
        buttons = group.get("buttons", [])
        if group.get("label") == "launch-buttons":
            for button in buttons:
                url = button.get("url", "")
                if binder and url.startswith(binder + main):  # Binder builds the handout
                    url = url.replace(main, f"/v2/gh/{org_repo}/{_binder_branch()}?", 1)
                button["url"] = url.replace(source, launch).replace("urlpath=tree/",
                                                                   "urlpath=lab/tree/")
        elif group.get("label") == "download-buttons":
            kept = []
            for button in buttons:
                if button.get("url", "").endswith(f"_sources/{source}"):
                    button.update(url=context["pathto"](launch, 1), text=".ipynb",
                                  tooltip=_("Download this chapter as a notebook"))
                kept.append(button)
            group["buttons"] = kept


def copy_launch_notebooks(app, exception):
    """Put the launch notebooks and their zip into the site, for the download buttons and
    the landing page's link (fixed timestamps: the zip is the same on every build)."""
    if exception is not None or app.builder.format != "html":
        return
    folder = Path(app.srcdir) / LAUNCH_FOLDER
    # the notebooks, and the README and requirements.txt written beside them
    # (bookbuild/launch_notebooks.py: what to install, how to open, where the book is)
    notebooks = sorted(folder.glob("*.ipynb")) + [
        folder / name for name in COMPANIONS if (folder / name).exists()]
    target = Path(app.outdir) / LAUNCH_FOLDER
    target.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(Path(app.outdir) / ZIP_NAME, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in notebooks:
            shutil.copy2(path, target / path.name)
            info = zipfile.ZipInfo(f"agent-reliability-notebooks/{path.name}",
                                   date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())


_ANIM_IMG = re.compile(r'<img id="(_anim_img[0-9a-f]+)"(?![^>]*\balt=)')


def animation_alt_text(app, doctree, docname):
    """Give a kernel-free animation (matplotlib's jshtml player) the alt text of its cell.

    The player's ``<img>`` has no ``alt``; a cell that shows one gives it the same way as a
    figure, in its metadata as ``"mystnb": {"image": {"alt": "..."}}``.
    """
    for cell in doctree.findall(nodes.container):
        if cell.get("nb_element") != "cell_code":
            continue
        alt = cell.get("cell_metadata", {}).get("mystnb", {}).get("image", {}).get("alt")
        if not alt:
            continue
        for raw in list(cell.findall(nodes.raw)):
            text = raw.astext()
            if "html" not in raw.get("format", "") or not _ANIM_IMG.search(text):
                continue
            new = _ANIM_IMG.sub(lambda m: f'<img id="{m.group(1)}" alt="{html.escape(alt)}"', text)
            raw.replace(raw.children[0], nodes.Text(new))


def solution_titles(app, doctree, docname):
    """Title each solution in the page's language as a sentence ("Решение к упражнению
    2"): sphinx-exercise glues its "Solution to" to the exercise's own title, which in
    Russian leaves the noun in the wrong case («Решение к Упражнение 2»)."""
    if _language(app) == "en":
        return
    from sphinx_exercise.nodes import solution_node

    _ = _translator(app)
    for solution in doctree.findall(solution_node):
        title = solution.children[0] if solution.children else None
        links = list(title.findall(nodes.reference)) if title is not None else []
        number = re.search(r"(\d+)\s*$", links[0].astext()) if links else None
        if not number:
            continue
        words = _("Solution to exercise {number}").format(number=number.group(1))
        link = links[0].deepcopy()
        link.children = []
        link += nodes.Text(words)
        title.children = []
        title += link
        solution["title"] = words


def _script_key(script):
    attributes = getattr(script, "attributes", {}) or {}
    # sphinx-togglebutton registers one inline script with filename None, another with ""
    return (str(getattr(script, "filename", script) or ""), tuple(sorted(attributes.items())))


def _is_thebe(script) -> bool:
    filename = str(getattr(script, "filename", "") or "")
    body = (getattr(script, "attributes", {}) or {}).get("body", "")
    return "thebe" in filename or "THEBE_JS_URL" in body


def offline_and_clean(app, pagename, templatename, context, doctree):
    """One tag per script, no unused thebe, CDN assets in stored outputs made local."""
    thebe_wanted = bool(app.config.html_theme_options.get("launch_buttons", {}).get("thebe"))
    seen, scripts = set(), []
    for script in context.get("script_files", []):
        key = _script_key(script)
        if key in seen or (_is_thebe(script) and not thebe_wanted):
            continue
        seen.add(key)
        scripts.append(script)
    context["script_files"] = scripts
    launch_buttons_to_notebooks(app, pagename, context)
    if not thebe_wanted:
        context["css_files"] = [css for css in context.get("css_files", [])
                                if "thebe" not in str(getattr(css, "filename", css))]

    body = context.get("body")
    if body:
        for remote, local in OFFLINE_ASSETS.items():
            if remote in body:
                body = body.replace(remote, context["pathto"](local, 1))
        context["body"] = body


def edition_switch(app, pagename: str) -> str:
    """A link to the same page in the other edition, first on every page. It is written
    in the other language (and marked so), as language menus are."""
    other, offset, text = EDITIONS[_language(app)]
    href = "../" * pagename.count("/") + offset + pagename + ".html"
    return (f'<p class="edition-switch"><a href="{html.escape(href)}" hreflang="{other}" '
            f'lang="{other}">{text}</a></p>\n')


_ARTICLE = re.compile(r'(<article class="bd-article"[^>]*>\n?|<div class="bd-search-container">'
                      r'\n?)')


def edition_switches(app, exception):
    """Put the link to the other edition at the top of every page's article (Sphinx's
    search page included, whose body the theme writes itself)."""
    if exception or app.builder.format != "html":
        return
    out = Path(app.outdir)
    for page in out.rglob("*.html"):
        pagename = page.relative_to(out).with_suffix("").as_posix()
        if pagename.split("/")[0].startswith("_"):
            continue
        text = page.read_text(encoding="utf-8")
        if 'class="edition-switch"' in text or not _ARTICLE.search(text):
            continue  # the root's redirect has no article
        page.write_text(_ARTICLE.sub(lambda m: m[1] + edition_switch(app, pagename), text,
                                     count=1), encoding="utf-8")

def drop_thebe_config(app, doctree, docname):
    """sphinx-thebe adds a config block (naming a Binder repository) to every page."""
    if app.config.html_theme_options.get("launch_buttons", {}).get("thebe"):
        return
    for node in list(doctree.findall(nodes.raw)):
        if "text/x-thebe-config" in node.astext():
            node.parent.remove(node)


def wheel_install() -> str:
    """The command that installs the package's wheel from the book's site, with the
    book's extra, at the book's pinned versions, with no git: the same two URLs the
    launch notebooks' first cell names (bookbuild/launch_notebooks.py, the one place
    that makes them; bookbuild/wheel.py publishes both files)."""
    from bookbuild.launch_notebooks import constraints_url, install_spec

    return f'pip install "{install_spec()}" -c "{constraints_url()}"'


def repository_substitutions(app, config):
    """``{{ pip_install }}`` for the prose: the install command for the repository named in
    _config.yml, so the address is typed in one place only."""
    options = config.html_theme_options
    url = options.get("repository_url", "").rstrip("/")
    config.myst_substitutions = {
        **(config.myst_substitutions or {}),
        # a block of its own: an inline command this long would widen a phone's page
        "pip_install": "```bash\n" + wheel_install().replace(" -c ", " \\\n    -c ")
                       + "\n```",
        "repository_url": url,
    }


def exercises_per_chapter(app, env):
    """Number exercises 1, 2, 3 within each chapter, as the launch notebooks do.

    Sphinx numbers every enumerable node by section number, and an unnumbered book has
    none, so sphinx-exercise's counter would run across the whole book (chapter 4 opening
    on "Exercise 10"). Runs after Sphinx has assigned its numbers; returns the pages whose
    numbers changed so they are written again."""
    changed = []
    for docname, numbers in env.toc_fignumbers.items():
        exercises = numbers.get("exercise")
        if not exercises:
            continue
        renumbered = {ids: (i,) for i, ids in enumerate(exercises, start=1)}
        if renumbered != exercises:
            numbers["exercise"] = renumbered
            changed.append(docname)
    return changed


_FONTAWESOME_JS = re.compile(r'<script[^>]*src="[^"]*_static/scripts/fontawesome\.js[^"]*"[^>]*>'
                             r'\s*</script>\s*')


def no_fontawesome_script(app, exception):
    """The theme draws its icons twice over: with Font Awesome's web fonts (its stylesheet)
    and with fontawesome.js, 1.5 MB of SVG icons that would make up most of a first visit.
    The fonts alone draw every icon the pages use, so the script's tag is taken out of
    every page and the file out of the build."""
    if exception or app.builder.format != "html":
        return
    out = Path(app.outdir)
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        trimmed = _FONTAWESOME_JS.sub("", text)
        if trimmed != text:
            page.write_text(trimmed, encoding="utf-8")
    script = out / "_static" / "scripts" / "fontawesome.js"
    for suffix in (".js", ".js.LICENSE.txt", ".js.map"):
        leftover = script.with_suffix(suffix)
        if leftover.exists():
            leftover.unlink()


_SEARCH_SCRIPT = re.compile(r'[ \t]*<script src="[^"]*(?:_static/searchtools\.js|'
                            r'_static/language_data\.js|searchindex\.js)"></script>\n?')
_BLOCKING_SCRIPT = re.compile(r'<script((?: [\w-]+="[^"]*")*) src="([^"]+)"></script>')
_OPTIONS_SCRIPT = re.compile(r'<script src="([^"]*_static/documentation_options\.js)'
                             r'(?:\?[^"]*)?"></script>')
# (not the copy in the <noscript> this pass writes: a rebuild passes over a page again)
_STYLESHEET = re.compile(r'(?<!<noscript>)<link (rel="stylesheet"\s+(?:type="text/css"\s+)?'
                         r'href="([^"]+)")\s*/?>')
#: Stylesheets nothing on the first screen needs: print rules and the animation
#: player's icons. They load after the first paint. (Not pygments.css, whose line height
#: for code, nor copybutton.css, which takes the copy buttons out of the text's flow:
#: either would move the page when it came.)
LATE_STYLESHEETS = ("print.css", "font-awesome.min.css")
#: The theme preloads its two deferred scripts at the highest priority: they would share
#: the first paint's bandwidth with the stylesheets, which the paint waits for.
_SCRIPT_PRELOAD = re.compile(r'[ \t]*<link rel="preload" as="script" href="[^"]+" />'
                             r'\n?')
_FIGURE = re.compile(r'<img ((?:(?!loading=)[^>])*?)src="([^"]*_images/[^"]+)" '
                     r'style="width: (\d+)px; height: (\d+)px;" />')
#: The launch menu's logos, hidden in a closed dropdown until the reader opens it.
_LAUNCH_LOGO = re.compile(r'(<img alt="[^"]*" src="[^"]*_static/images/logo_[a-z]+\.'
                          r'(?:svg|png)")>')
#: The theme's theme.css only @imports Sphinx's basic.css: a chain of two requests
#: before the first paint, where the page can name basic.css itself.
_THEME_CSS = re.compile(r'<link href="([^"]*_static/)styles/theme\.css[^"]*" '
                        r'rel="stylesheet" />')
_ONLY_IMPORT = re.compile(r'\s*(?:/\*[^*]*\*/\s*)?@import "\.\./basic\.css";\s*')
_BLOCK_FONT = re.compile(r"font-display:\s*block")
_FONT_FACE = re.compile(r"@font-face\s*(?:/\*[^*]*\*/\s*)?\{(?![^}]*font-display)")


def _late_stylesheet(match) -> str:
    attributes, href = match[1], match[2]
    if not any(name in href.split("?")[0] for name in LATE_STYLESHEETS):
        return match[0]
    # media="print" loads it without holding the paint; onload turns it on for the
    # screen, and a reader without JavaScript gets the ordinary tag.
    return (f'<link {attributes} media="print" onload="this.media=\'all\'" />'
            f'<noscript><link {attributes} /></noscript>')


def _deferred(match) -> str:
    attributes, src = match[1], match[2]
    if "defer" in attributes or "async" in attributes:
        return match[0]
    return f'<script{attributes} defer src="{src}"></script>'


def _lazy_figures(text: str) -> str:
    """Every figure loads as the reader nears it, its space kept by width and height
    (the browser's aspect ratio for figures.css's height: auto). None is eager: no
    chapter's first figure is on a phone's first screen, and an eager one shared the
    first paint's bandwidth (48 KB on chapter 2: its largest paint went from 2.6 s to
    2.3 s in Lighthouse's phone profile)."""
    def figure(match) -> str:
        width, height = match[3], match[4]
        return (f'<img {match[1]}src="{match[2]}" width="{width}" height="{height}"'
                f' loading="lazy" decoding="async"'
                f' style="width: {width}px; height: {height}px;" />')

    return _LAUNCH_LOGO.sub(r'\1 loading="lazy">', _FIGURE.sub(figure, text))


def first_paint_first(app, exception):
    """Let every page paint its first screen before it loads what can wait."""
    if exception or app.builder.format != "html":
        return
    out = Path(app.outdir)
    options = out / "_static" / "documentation_options.js"
    inline_options = (options.read_text(encoding="utf-8").strip() if options.exists()
                      else None)
    as_you_type = app.config.html_theme_options.get("search_as_you_type")
    theme_css = out / "_static" / "styles" / "theme.css"
    only_basic = (theme_css.exists()
                  and _ONLY_IMPORT.fullmatch(theme_css.read_text(encoding="utf-8")))
    for page in out.rglob("*.html"):
        relative = page.relative_to(out).as_posix()
        if relative.split("/")[0].startswith("_"):
            continue
        before = page.read_text(encoding="utf-8")
        after = before
        if relative != "search.html" and not as_you_type:
            # the theme's search box submits to search.html; only it reads the index
            after = _SEARCH_SCRIPT.sub("", after)
        if inline_options is not None:
            # inline scripts of the page read DOCUMENTATION_OPTIONS as they are parsed:
            # its 300 bytes go into the page instead of a blocking request
            after = _OPTIONS_SCRIPT.sub(lambda _: f"<script>{inline_options}</script>",
                                        after)
        after = _BLOCKING_SCRIPT.sub(_deferred, after)
        if only_basic:
            after = _THEME_CSS.sub(r'<link href="\1basic.css" rel="stylesheet" />', after)
        after = _STYLESHEET.sub(_late_stylesheet, after)
        after = _lazy_figures(_SCRIPT_PRELOAD.sub("", after))
        if after != before:
            page.write_text(after, encoding="utf-8")
    for css in [*(out / "_static").rglob("*.css")]:
        text = css.read_text(encoding="utf-8")
        # fonts never hide text: the theme's icon fonts say "block", Font Awesome 4's
        # and MathJax's nothing (MathJax sizes every glyph itself: a swap moves nothing)
        swapped = _FONT_FACE.sub("@font-face{font-display:swap;",
                                 _BLOCK_FONT.sub("font-display:swap", text))
        if swapped != text:
            css.write_text(swapped, encoding="utf-8")


#: Colours a figure keeps on the page (see the module docstring).
FIGURE_COLOURS = 256


def paletted_figures(app, exception):
    """Re-encode every opaque PNG figure of the build with a 256-colour palette (median
    cut, no dither: deterministic) when that makes it smaller."""
    if exception or app.builder.format != "html":
        return
    from PIL import Image

    for png in sorted((Path(app.outdir) / "_images").glob("*.png")):
        with Image.open(png) as image:
            image.load()
        if image.mode == "P" or (image.mode in ("RGBA", "LA")
                                 and image.getchannel("A").getextrema()[0] < 255):
            continue                      # already paletted, or see-through somewhere
        out = io.BytesIO()
        image.convert("RGB").quantize(colors=FIGURE_COLOURS, method=Image.Quantize.MEDIANCUT,
                                      dither=Image.Dither.NONE).save(out, format="PNG",
                                                                     optimize=True)
        if out.tell() < png.stat().st_size:
            png.write_bytes(out.getvalue())


def prerendered_maths(app, exception):
    """Typeset every formula of the built pages with MathJax under Node, once, and drop
    MathJax's tags from the pages (scripts/prerender_maths.js says how). Needs Node and
    the npm packages that scripts/vendor_assets.sh installs, as the build already does."""
    if exception or app.builder.format != "html":
        return
    root = ROOT  # the repository (either edition's book is built from inside it)
    script = root / "scripts" / "prerender_maths.js"
    node = shutil.which("node")
    if node is None or not (root / "node_modules" / "mathjax").is_dir():
        raise RuntimeError("prerender_maths: Node and node_modules/mathjax are needed; run "
                           "scripts/vendor_assets.sh (make book does) and build again")
    result = subprocess.run([node, str(script), str(app.outdir)], capture_output=True,
                            text=True)
    if result.returncode != 0:
        raise RuntimeError(result.stderr.strip() or result.stdout.strip())
    logger.info(result.stdout.strip())


#: The theme's words that its own Russian catalogs leave in English: button and landmark
#: names, tooltips, alt text and the search box (translated in
#: locale/<language>/code/reader_pages.po like the rest of this extension's words).
def N_(word: str) -> str:
    """Mark a word for this extension's catalog (gettext's convention)."""
    return word


THEME_WORDS = (N_("Toggle primary sidebar"), N_("Toggle secondary sidebar"),
               N_("System Settings"), N_("Launch on Colab"), N_("Launch on Binder"),
               N_("Color mode"), N_("Back to top"), N_("Launch interactive content"),
               N_("Main"), N_("Page"), N_("Search this book..."), N_("Version warning"),
               N_("Binder logo"), N_("Colab logo"), N_("Toggle hidden content"))


def theme_words_in_language(app, exception):
    """Give the theme's remaining English words in the book's language, where they stand
    as a whole attribute value or a whole text node (never inside the prose)."""
    if exception or app.builder.format != "html" or _language(app) == "en":
        return
    _ = _translator(app)
    said = {english: _(english) for english in THEME_WORDS}
    attribute = re.compile(r'((?:title|aria-label|placeholder|alt|data-bs-title)=")([^"]+)(")')
    text = re.compile(r">(\s*)([^<>]+?)(\s*)<")
    for page in Path(app.outdir).rglob("*.html"):
        before = page.read_text(encoding="utf-8")
        after = attribute.sub(lambda m: m[1] + html.escape(said[html.unescape(m[2])]) + m[3]
                              if html.unescape(m[2]) in said else m[0], before)
        after = text.sub(lambda m: f">{m[1]}{said[m[2]]}{m[3]}<" if m[2] in said else m[0],
                         after)
        if after != before:
            page.write_text(after, encoding="utf-8")


#: Sphinx's own words that its scripts write on the page (from _static/translations.js,
#: Sphinx's catalog of the language), where the book words them otherwise
#: (locale/<language>/code/reader_pages.po): the link that hides a search's highlights.
SPHINX_SCRIPT_WORDS = (N_("Hide Search Matches"),)
_SCRIPT_TAG = r'<script[^>]*\ssrc="[^"]*_static/{}\.js[^"]*"[^>]*></script>'
_TRANSLATIONS_TAG = re.compile(_SCRIPT_TAG.format("translations") + r"\s*")
_HIGHLIGHT_TAG = re.compile(_SCRIPT_TAG.format("sphinx_highlight"))


def sphinx_words_in_language(app, exception):
    """Sphinx's script words in the book's language, and in time for its scripts.

    sphinx_highlight.js writes "Hide Search Matches" as soon as it runs, and the pages'
    deferred scripts run in their order, in which translations.js (Sphinx's catalog)
    came after it: a Russian page said it in English. translations.js moves before it,
    and says the book's words where the book's catalog has them."""
    if exception or app.builder.format != "html" or _language(app) == "en":
        return
    out = Path(app.outdir)
    catalog = out / "_static" / "translations.js"
    if not catalog.exists():
        return
    _ = _translator(app)
    text = catalog.read_text(encoding="utf-8")
    for english in SPHINX_SCRIPT_WORDS:
        key, said = json.dumps(english), json.dumps(_(english))
        text, found = re.subn(re.escape(key) + r'\s*:\s*"(?:[^"\\]|\\.)*"',
                              lambda _m: f"{key}: {said}", text)
        if not found:
            text = text.replace('"messages": {', f'"messages": {{{key}: {said}, ', 1)
    catalog.write_text(text, encoding="utf-8")
    for page in out.rglob("*.html"):
        before = page.read_text(encoding="utf-8")
        translations, highlight = (_TRANSLATIONS_TAG.search(before),
                                   _HIGHLIGHT_TAG.search(before))
        if not translations or not highlight or translations.start() < highlight.start():
            continue
        tag = translations[0]
        after = before[:translations.start()] + before[translations.end():]
        after = after[:highlight.start()] + tag + after[highlight.start():]
        page.write_text(after, encoding="utf-8")


#: Sphinx's own words that its catalog of the language leaves in English, which the
#: index and the API pages show: «rate (свойство reliability.passk.Fit)», not
#: «(… property)». Added to Sphinx's catalog before the pages are read.
SPHINX_INDEX_WORDS = (N_("%s (%s property)"), N_("%s (type alias in %s)"))


def sphinx_index_words_in_language(app):
    if _language(app) == "en":
        return
    from sphinx import locale

    catalog = getattr(locale.translators.get(("general", "sphinx")), "_catalog", None)
    if catalog is None:
        return
    _ = _translator(app)
    for english in SPHINX_INDEX_WORDS:
        if _(english) != english and not catalog.get(english):
            catalog[english] = _(english)


#: Accessible names that say what a reader sees (axe-core's label-content-name-mismatch,
#: label and aria-required-children rules; tests/test_browser.py runs axe on every page):
#: the theme's search buttons and the hidden-code toggles are named by their own visible
#: words, not by a different aria-label; the bibliography's list has no list items (its
#: entries are plain blocks), so it is not announced as a list.
_NAMED_BY_CONTENT = re.compile(
    r'(<button class="[^"]*search-button[^"]*"[^>]*?|<summary)\s+aria-label="[^"]*"')
_CITATION_LIST = re.compile(r'(<div) role="list"( class="citation-list")')
_ANIMATION_SLIDER = re.compile(r'(<input id="_anim_slider\w+" type="range" class="anim-slider")')
# The sidebar's toggle for a page with pages under it (the API reference): the theme's
# summary holds only a chevron, so it has no name to announce.
_SECTION_TOGGLE = re.compile(r'(<li class="toctree-l\d[^"]*has-children[^"]*"><a [^>]*>)'
                             r'([^<]*)(</a><details[^>]*>)<summary>')


def accessible_names(app, exception):
    """Give every control a name a screen reader can announce, in the page's language:
    the animation player's frame slider and the sidebar's section toggles have none of
    their own."""
    if exception or app.builder.format != "html":
        return
    _ = _translator(app)
    frame = html.escape(_("Frame of the animation"))
    pages_in = _("Pages in “{section}”")

    def toggle(match) -> str:
        section = html.unescape(match[2]).strip()
        name = html.escape(pages_in.format(section=section))
        return f'{match[1]}{match[2]}{match[3]}<summary aria-label="{name}">'

    for page in Path(app.outdir).rglob("*.html"):
        before = page.read_text(encoding="utf-8")
        after = _NAMED_BY_CONTENT.sub(r"\1", before)
        after = _CITATION_LIST.sub(r"\1\2", after)
        after = _ANIMATION_SLIDER.sub(rf'\1 aria-label="{frame}"', after)
        after = _SECTION_TOGGLE.sub(toggle, after)
        if after != before:
            page.write_text(after, encoding="utf-8")


def print_words(app, doctree, docname):
    """Each web-only sentence of a page (``book/_ext/print_words.py``: a chapter's
    explorer and animation, the landing and teacher's pages' launch button) in a span
    that paper hides, with the words paper prints instead in a span the screen hides; a
    glued sentence (an inline of plain text) too."""
    if app.builder.format != "html":
        return
    from print_words import split

    language = _language(app)
    glued = [inline for inline in doctree.findall(nodes.inline)
             if not {"web-only", "print-only"} & set(inline.get("classes", []))
             and len(inline.children) == 1 and isinstance(inline[0], nodes.Text)]
    for paragraph in list(doctree.findall(nodes.paragraph)) + glued:
        # MyST gives each line (soft break) a Text node of its own: a sentence is
        # matched in the run of plain text it belongs to.
        children: list[nodes.Node] = []
        for child in paragraph.children:
            if isinstance(child, nodes.Text) and children and isinstance(children[-1],
                                                                         nodes.Text):
                children[-1] = nodes.Text(str(children[-1]) + str(child))
            else:
                children.append(child)
        paragraph[:] = children
        for text in [child for child in paragraph.children
                     if isinstance(child, nodes.Text)]:
            pieces = split(str(text), language)
            if all(instead is None for _, instead in pieces):
                continue
            parts: list[nodes.Node] = []
            for words, instead in pieces:
                if instead is None:
                    parts.append(nodes.Text(words))
                    continue
                parts.append(nodes.inline(words, words, classes=["web-only"]))
                if instead:
                    parts.append(nodes.inline(instead, instead, classes=["print-only"]))
            index = paragraph.index(text)
            paragraph[index:index + 1] = parts


def setup(app):
    # after Sphinx's toctree collector has numbered figures (default priority 500)
    app.connect("env-get-updated", exercises_per_chapter, priority=900)
    # after sphinx-book-theme has read `repository` from the config (default priority 500)
    app.connect("config-inited", repository_substitutions, priority=900)
    app.connect("doctree-resolved", run_this_chapter)
    app.connect("builder-inited", sphinx_index_words_in_language)
    app.connect("build-finished", no_fontawesome_script)
    app.connect("build-finished", prerendered_maths)
    app.connect("build-finished", theme_words_in_language)
    app.connect("build-finished", sphinx_words_in_language)
    app.connect("build-finished", accessible_names)
    app.connect("build-finished", edition_switches)
    app.connect("build-finished", paletted_figures)
    # after prerendered_maths, which reads the pages' MathJax tags
    app.connect("build-finished", first_paint_first, priority=900)
    app.connect("doctree-resolved", animation_alt_text)
    app.connect("doctree-resolved", solution_titles)
    app.connect("doctree-resolved", print_words)
    # after sphinx-thebe's own doctree-resolved handler (default priority 500)
    app.connect("doctree-resolved", drop_thebe_config, priority=900)
    # after every extension that registers scripts for a page
    app.connect("html-page-context", offline_and_clean, priority=900)
    app.connect("build-finished", copy_launch_notebooks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
