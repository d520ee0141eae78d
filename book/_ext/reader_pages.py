"""What every page of the book needs for its readers, added at build time.

* Each chapter page gets a "Run this chapter" note: launch it on Binder or Colab, or
  re-run it with other parameters with papermill, using that chapter's own file name and
  parameters (read from its ``parameters`` cell and ``metadata.reliability``).
* The page works offline: asset URLs that stored outputs point at a CDN (the Font Awesome
  stylesheet in matplotlib's animation player) are rewritten to copies in
  ``_static/vendor`` (see ``scripts/vendor_assets.sh``).
* A kernel-free animation takes the alt text of its cell's metadata, like a figure.
* No console errors of the book's own making: script tags registered twice (sphinx-thebe's
  ``const THEBE_JS_URL`` would be declared twice, a SyntaxError) are emitted once, and
  thebe's assets are left out altogether when no thebe launch button is configured.
"""

from __future__ import annotations

import ast
import html
import json
import re
from pathlib import Path
from urllib.parse import urlparse

from docutils import nodes

#: CDN assets found in stored outputs -> their copy under the book's _static.
OFFLINE_ASSETS = {
    "https://maxcdn.bootstrapcdn.com/font-awesome/4.4.0/css/font-awesome.min.css":
        "_static/vendor/font-awesome/css/font-awesome.min.css",
}

CHAPTER_PREFIX = "chapters/"


def _parameter_names(notebook: dict) -> list[str]:
    """Names assigned in the cell tagged ``parameters``, in order."""
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "code" and "parameters" in cell.get("metadata", {}).get("tags", []):
            tree = ast.parse("".join(cell.get("source", "")))
            return [target.id for node in tree.body if isinstance(node, ast.Assign)
                    for target in node.targets if isinstance(target, ast.Name)]
    return []


def _launch_urls(theme_options: dict, path: str) -> dict[str, str]:
    """The Binder and Colab URLs sphinx-book-theme puts behind its launch button."""
    repo_url = theme_options.get("repository_url", "").rstrip("/")
    branch = theme_options.get("repository_branch", "main")
    launch = theme_options.get("launch_buttons", {})
    org_repo = urlparse(repo_url).path.strip("/")
    urls = {}
    if launch.get("binderhub_url"):
        urls["Binder"] = (f"{launch['binderhub_url'].rstrip('/')}/v2/gh/{org_repo}/{branch}"
                          f"?urlpath=tree/{path}")
    if launch.get("colab_url"):
        urls["Colab"] = f"{launch['colab_url'].rstrip('/')}/github/{org_repo}/blob/{branch}/{path}"
    return urls


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
    path = source.relative_to(app.srcdir).as_posix()
    notebook = json.loads(source.read_text(encoding="utf-8"))
    names = _parameter_names(notebook)
    changed = notebook.get("metadata", {}).get("reliability", {}).get("test_parameters", {})
    options = app.config.html_theme_options
    repo_url = options.get("repository_url", "").rstrip("/")
    folder = urlparse(repo_url).path.rstrip("/").rsplit("/", 1)[-1] or "book"

    note = nodes.admonition(classes=["tip", "dropdown", "run-this-chapter"])
    note += nodes.title("", "Run this chapter")
    items = nodes.bullet_list()
    urls = _launch_urls(options, path)
    if "Binder" in urls:
        items += nodes.list_item("", _paragraph(
            _link("Open it on Binder", urls["Binder"]),
            ": Binder installs the pinned requirements.txt, so a re-run gives the stored "
            "numbers; the first start takes a few minutes."))
    if "Colab" in urls:
        setup = f"!git clone --depth 1 {repo_url} {folder} && cd {folder} && pip install -q -r requirements.txt"
        items += nodes.list_item("", _paragraph(
            _link("Open it in Colab", urls["Colab"]),
            ": Colab opens the notebook alone, so first run ",
            nodes.literal(setup, setup), " and ",
            nodes.literal(f"%cd {folder}/chapters", f"%cd {folder}/chapters"),
            " in a new cell at the top."))
    items += nodes.list_item("", _paragraph(
        "Or use the download button at the top of the page for the notebook itself."))
    note += items

    out = f"/tmp/{source.stem}-rerun.ipynb"
    flags = " ".join(f"-p {key} {json.dumps(value)}" for key, value in changed.items())
    command = f".venv/bin/papermill {path} {out} {flags} --cwd chapters".replace("  ", " ")
    if names:
        listed = ", ".join(names)
        note += _paragraph("To re-run it with other values, change the parameters of its "
                           f"first code cell ({listed}) with papermill, from a clone of the "
                           "repository after ", nodes.literal("make book", "make book"), ":")
    else:
        note += _paragraph("To re-run it, use papermill from a clone of the repository:")
    note += nodes.literal_block(command, command, language="bash")
    how_to = app.builder.get_relative_uri(docname, "book/how_to_use")
    if "book/how_to_use" in app.env.all_docs:
        note += _paragraph("More in ", _link("How to use this book", how_to), ".")

    section = next(iter(doctree.findall(nodes.section)), None)
    if section is None:
        doctree.insert(0, note)
        return
    title = next((i for i, child in enumerate(section.children)
                  if isinstance(child, nodes.title)), -1)
    section.insert(title + 1, note)


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
    if not thebe_wanted:
        context["css_files"] = [css for css in context.get("css_files", [])
                                if "thebe" not in str(getattr(css, "filename", css))]

    body = context.get("body")
    if body:
        for remote, local in OFFLINE_ASSETS.items():
            if remote in body:
                body = body.replace(remote, context["pathto"](local, 1))
        context["body"] = body


def drop_thebe_config(app, doctree, docname):
    """sphinx-thebe adds a config block (naming a Binder repository) to every page."""
    if app.config.html_theme_options.get("launch_buttons", {}).get("thebe"):
        return
    for node in list(doctree.findall(nodes.raw)):
        if "text/x-thebe-config" in node.astext():
            node.parent.remove(node)


def setup(app):
    app.connect("doctree-resolved", run_this_chapter)
    app.connect("doctree-resolved", animation_alt_text)
    # after sphinx-thebe's own doctree-resolved handler (default priority 500)
    app.connect("doctree-resolved", drop_thebe_config, priority=900)
    # after every extension that registers scripts for a page
    app.connect("html-page-context", offline_and_clean, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
