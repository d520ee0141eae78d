"""Make the built pages light on a phone's first load (issue 29; ``make bench`` measures
it with Lighthouse). Run by bookbuild/site.py on the built site, both editions,
after Sphinx and before the PDFs; each step leaves a page it already changed as it is,
so a second pass over the same site changes nothing.

* Icon fonts and their stylesheets carry only the icons the book shows. Font Awesome's
  fonts (the theme's
  6.x, 270 KB, and 4.7's for the animation player, 77 KB) hold thousands of icons; the
  pages show a few dozen. Each font gets a subset with just the icons any page, script
  or stylesheet of the site names (fontTools, a few KB), declared after the full font
  with a ``unicode-range``: the browser draws with the subset, and would fetch the full
  font only for an icon the subset lacks, so no icon can go missing. The stylesheets'
  rules for icons no page or script names (``.fa-yelp:before``: two thousand of them,
  a third of the theme's stylesheet) are dropped.
* Animations' frames are files, not text in the page. matplotlib's player stores each
  frame in the page as base64 (ch01 and ch03: about 200 KB a page that the first paint
  waited for); the frames go to ``_images`` as PNG files that the player loads by URL
  (it fetches them all when it starts, so playing never waits), and the player's image
  gets the frame's width and height, so its space is kept before the frame arrives.
  The player fetched every frame as it started, before the page's first paint (ch03:
  180 KB that a phone's first screen waited behind); it now shows a frame by its URL
  and fetches the others once the page has loaded, so playing still never waits.
* Code is drawn on a phone only when it nears the screen. A chapter's code cells are
  most of its elements (each token of the highlighting is a ``<span>``: three thousand
  in ch03), and laying them all out before the first paint cost a phone a second.
  figures.css gives each code block ``content-visibility: auto`` on narrow screens,
  with the height it will have (``--lines``, written here into each ``<pre>``) kept
  until it is drawn, so the page's length and the place of every section stay as they
  are. A desktop draws everything at once, as before.
* Stylesheets carry only rules the edition can use. The theme's stylesheet is all of
  Bootstrap (forms, navbars, offcanvas, validation, three dark modes) and every
  extension's feature: 46 KB of compressed CSS that every page waited for before its
  first paint, of which Lighthouse found 40 KB unused, and that the browser matched
  against each of a chapter's five thousand elements. PurgeCSS (``scripts/purge_css.mjs``)
  keeps each rule whose classes, ids and tags appear as words in some page or script of
  the edition (so the rules for a class a script adds later stay); the untouched
  stylesheets are kept in ``_static/unpurged/``, and the browser tests check on every
  page that no rule of theirs matching an element of the page was dropped.
* The theme measures before it writes. pydata-sphinx-theme gives every block that
  scrolls a tab stop as the page loads, measuring each block right after writing the
  last one's, so the browser laid the page out once per block (the API page: 39
  layouts, 0.7 s with the processor slowed four times, as Lighthouse's phone is). Its
  pinned script is changed to measure them all, then write them all; the build fails
  if a new theme no longer has that loop.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

from bookbuild.fonts import subset_font, unicode_ranges
from bookbuild.run import ROOT

#: A stylesheet's rule that only names an icon's glyph:
#: ``.fa-play:before{content:"\\f04b"}``
_ICON_RULE = re.compile(r'(?<![^}\s/])((?:\.fa-[a-z0-9-]+:{1,2}before\s*,?\s*)+)'
                        r'\{\s*content:\s*"\\([0-9a-fA-F]{2,6})"\s*;?\s*\}')
_ICON_CLASS = re.compile(r"\.(fa-[a-z0-9-]+)")
_USED_CLASS = re.compile(r"\bfa-[a-z0-9-]+")
_ESCAPE = re.compile(r'"\\([0-9a-fA-F]{2,6})"')
_FONT_FACE = re.compile(r"@font-face\s*\{[^}]*\}")
_FAMILY = re.compile(r"font-family:\s*([^;}]+)")
_TTF = re.compile(r"""url\(\s*['"]?([^'")?#]+\.ttf)[^)]*\)""")
#: Where the full fonts' icons live: Unicode's private use areas.
_PRIVATE_USE = "U+E000-F8FF,U+F0000-FFFFD"


def _static_folders(site: Path) -> list[Path]:
    """The ``_static`` of each edition: the site's own and its ``ru/``'s."""
    return [folder for folder in [site / "_static", *site.glob("*/_static")]
            if folder.is_dir()]


def _pages(edition: Path) -> list[Path]:
    """An edition's pages: not its _static or _sources, nor another edition's pages (the
    Russian book in ``ru/`` has its own ``_static`` and ``_images``; it is printed to
    its PDF served on its own)."""
    others = [static.parent for static in edition.glob("*/_static")]
    return [page for page in edition.rglob("*.html")
            if not any(part.startswith("_") for part in page.relative_to(edition).parts)
            and not any(other in page.parents for other in others)]


def _private_use(text: str) -> set[int]:
    return {ord(char) for char in set(text)
            if 0xE000 <= ord(char) <= 0xF8FF or ord(char) >= 0xF0000}


def _icon_glyphs(css_files: list[Path]) -> tuple[dict[str, int], set[int]]:
    """Each icon class's code point, and the code points stylesheets draw by themselves
    (an icon in a ``content`` of any other rule, or in a custom property)."""
    classes: dict[str, int] = {}
    drawn: set[int] = set()
    for css in css_files:
        text = css.read_text(encoding="utf-8", errors="replace")
        for match in _ICON_RULE.finditer(text):
            for name in _ICON_CLASS.findall(match[1]):
                classes[name] = int(match[2], 16)
        rest = _ICON_RULE.sub("", text)
        drawn.update(int(code, 16) for code in _ESCAPE.findall(rest))
        drawn.update(_private_use(rest))     # an icon written as itself: "\uf05a"
    return classes, drawn


def subset_icon_fonts(site: Path) -> int:
    """Give every Font Awesome font of the site a subset of the icons the site uses (see
    the module docstring). Returns the number of fonts subset."""
    done = 0
    for static in _static_folders(site):
        # files only: a vendored folder may be named like one (reveal.js/)
        css_files = sorted(path for path in static.rglob("*.css") if path.is_file())
        classes, drawn = _icon_glyphs(css_files)
        named: set[str] = set()
        edition = static.parent
        texts = [page.read_text(encoding="utf-8", errors="replace")
                 for page in _pages(edition)]
        texts += [script.read_text(encoding="utf-8", errors="replace")
                  for script in static.rglob("*.js") if script.is_file()]
        for text in texts:
            named.update(_USED_CLASS.findall(text))
            drawn |= _private_use(text)
        wanted = drawn | {classes[name] for name in named if name in classes}
        for css in css_files:
            text = css.read_text(encoding="utf-8", errors="replace")
            subset_already = "unicode-range" in text and "-subset-" in text

            def add_subset(match):
                nonlocal done
                face = match[0]
                family = _FAMILY.search(face)
                ttf = _TTF.search(face)
                if subset_already or not (family and "awesome" in family[1].lower()
                                          and ttf):
                    return face
                source = (css.parent / ttf[1]).resolve()
                if not source.is_file():
                    return face
                data, kept = subset_font(source, wanted)
                digest = hashlib.sha1(data).hexdigest()[:10]
                target = source.with_name(f"{source.stem}-subset-{digest}.woff")
                target.write_bytes(data)
                relative = Path(ttf[1]).with_name(target.name).as_posix()
                body = face[face.index("{") + 1:-1]
                kept_body = re.sub(r"src:[^;}]*;?", "", body).strip().rstrip(";")
                full = (face[:-1].rstrip().rstrip(";")
                        + f";unicode-range:{_PRIVATE_USE}}}")
                small = (f"@font-face{{{kept_body};"
                         f"src:url({relative}) format(\"woff\");"
                         f"unicode-range:{unicode_ranges(kept)}}}")
                done += 1
                return full + small

            updated = _FONT_FACE.sub(add_subset, text)
            updated = _ICON_RULE.sub(
                lambda m: m[0] if set(_ICON_CLASS.findall(m[1])) & named else "",
                updated)
            if updated != text:
                css.write_text(updated, encoding="utf-8")
    return done


# matplotlib's jshtml player: frames[3] = "data:image/png;base64,...."
_FRAME = re.compile(r'(frames\[\d+\] = ")data:image/png;base64,'
                    r'([A-Za-z0-9+/=\\\n]+)(")')
_PLAYER_IMG = re.compile(r'<img id="(_anim_img[0-9a-f]+)"(?![^>]*\bwidth=")([^>]*)>')


def animation_frames_to_files(site: Path) -> int:
    """Move every animation frame stored in a page into a PNG file of the edition's
    ``_images`` (see the module docstring). Returns the number of frames moved."""
    from PIL import Image

    moved = 0
    for static in _static_folders(site):
        edition = static.parent
        images = edition / "_images"
        for page in _pages(edition):
            text = page.read_text(encoding="utf-8")
            if "data:image/png;base64," not in text or "frames[" not in text:
                continue
            prefix = "../" * (len(page.relative_to(edition).parts) - 1)
            sizes: list[tuple[int, int]] = []

            def to_file(match):
                nonlocal moved
                data = base64.b64decode(match[2].replace("\\n", "").replace("\n", ""))
                name = f"frame-{hashlib.sha1(data).hexdigest()[:16]}.png"
                images.mkdir(exist_ok=True)
                target = images / name
                if not target.exists():
                    target.write_bytes(data)
                if not sizes:
                    with Image.open(io.BytesIO(data)) as frame:
                        sizes.append(frame.size)
                moved += 1
                return f"{match[1]}{prefix}_images/{name}{match[3]}"

            # each player's frames follow its image: size the image from its first frame
            parts = re.split(r'(?=<img id="_anim_img)', text)
            out = [parts[0]]
            for part in parts[1:]:
                sizes.clear()
                part = _FRAME.sub(to_file, part)
                if sizes:
                    width, height = sizes[0]
                    part = _PLAYER_IMG.sub(
                        lambda m: f'<img id="{m[1]}" width="{width}" height="{height}"'
                                  f'{m[2]}>', part, count=1)
                out.append(part)
            updated = "".join(out)
            if updated != text:
                page.write_text(updated, encoding="utf-8")
    return moved


# A highlighted code block as Pygments writes it: <div class="highlight"><pre>...</pre>
_CODE_BLOCK = re.compile(r'(<div class="highlight"><pre)>(.*?</pre>)', re.S)


def code_block_heights(site: Path) -> int:
    """Write each code block's number of lines into its ``<pre>`` as ``--lines`` (see
    the module docstring; figures.css turns it into the block's height). Returns the
    number of blocks marked."""
    marked = 0
    for static in _static_folders(site):
        for page in _pages(static.parent):
            text = page.read_text(encoding="utf-8")

            def mark(match):
                nonlocal marked
                marked += 1
                lines = match[2].removesuffix("</pre>").rstrip("\n").count("\n") + 1
                return f'{match[1]} style="--lines:{lines}">{match[2]}'

            updated = _CODE_BLOCK.sub(mark, text)
            if updated != text:
                page.write_text(updated, encoding="utf-8")
    return marked


# matplotlib's player, as it starts: every frame fetched at once
_PRELOAD = re.compile(r"this\.frames\[i\] = new Image\(\);\s*"
                      r"this\.frames\[i\]\.src = frames\[i\];")
_LAZY = """this.frames[i] = {src: frames[i]};  /* shown by its URL: fast_pages.py */
     if (i === 0) (function (urls) {
       function fetchAll() { urls.forEach(function (url) { new Image().src = url; }); }
       if (document.readyState === "complete") fetchAll();
       else window.addEventListener("load", fetchAll);
     })(frames);"""


def frames_after_load(site: Path) -> int:
    """Make every animation player fetch its frames once the page has loaded instead of
    as it starts (see the module docstring). Returns the number of players changed."""
    changed = 0
    for static in _static_folders(site):
        for page in _pages(static.parent):
            text = page.read_text(encoding="utf-8")
            if "function Animation(" not in text:
                continue
            updated, count = _PRELOAD.subn(_LAZY, text)
            if count:
                changed += count
                page.write_text(updated, encoding="utf-8")
    return changed


#: pydata-sphinx-theme's tab stops for blocks that scroll, as its pinned, minified script
#: has them: each block's size is read just after the block before it was given a
#: ``tabIndex``, so the browser lays the whole page out again for every block.
_THEME_TAB_STOPS = re.compile(
    r"document\.querySelectorAll\((\[[^\]]*\]\.join\(\", \"\))\)"
    r"\.forEach\(e=>\{e\.tabIndex=(e\.scrollWidth>e\.clientWidth\|\|"
    r"e\.scrollHeight>e\.clientHeight)\?0:-1\}\)")
_BATCHED_TAB_STOPS = ("Array.from(document.querySelectorAll(\\1)).map(e=>[e,\\2])"
                      ".forEach(([e,s])=>{e.tabIndex=s?0:-1})/*fast_pages*/")
THEME_SCRIPT = "scripts/pydata-sphinx-theme.js"


def theme_tab_stops_in_one_layout(site: Path) -> int:
    """Let the theme measure every scrolling block first and set their tab stops after,
    in one layout instead of one per block (see the module docstring; it runs again
    whenever the page changes, as when an explorer is built). What
    each block gets is unchanged. Returns the number of scripts changed; raises if the
    theme's script no longer has the loop, so a new theme version is looked at."""
    changed = 0
    for static in _static_folders(site):
        script = static / THEME_SCRIPT
        if not script.is_file():
            continue
        text = script.read_text(encoding="utf-8")
        if "/*fast_pages*/" in text:
            continue
        updated, count = _THEME_TAB_STOPS.subn(_BATCHED_TAB_STOPS, text)
        if count != 1:
            raise RuntimeError(f"{script}: the theme's tab-stop loop was not found "
                               "(a new pydata-sphinx-theme?); update _THEME_TAB_STOPS")
        script.write_text(updated, encoding="utf-8")
        changed += 1
    return changed


#: The stylesheets every page loads before its first paint that are mostly rules for
#: features the book does not use (paths inside an edition's ``_static``; the
#: extensions' names carry a hash or not, hence the patterns). The book's own
#: stylesheets (figures.css, live.css, ...) are all used and stay as written.
PURGED_STYLESHEETS = ("styles/pydata-sphinx-theme.css", "sphinx-design.min.css",
                      "mystnb.*.css", "basic.css")
#: Where each edition keeps its stylesheets as the theme and extensions wrote them.
UNPURGED = "unpurged"


def purge_stylesheets(site: Path) -> int:
    """Each edition's theme and extension stylesheets without the rules nothing in it
    can match; returns how many stylesheets were written. The originals stay in
    ``_static/unpurged/`` and every pass purges from them, so a second pass writes the
    same bytes."""
    written = 0
    for static in _static_folders(site):
        pairs, names = [], []
        for pattern in PURGED_STYLESHEETS:
            for css in sorted(static.glob(pattern)):
                original = static / UNPURGED / css.relative_to(static)
                if not original.exists():
                    original.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(css, original)
                pairs.append(f"{original}={css}")
                names.append(css.relative_to(static).as_posix())
        if not pairs:
            continue
        # which stylesheets were purged, for the browser tests' check of every page
        (static / UNPURGED / "purged.json").write_text(json.dumps(names) + "\n",
                                                       encoding="utf-8")
        result = subprocess.run(["node", str(ROOT / "scripts" / "purge_css.mjs"),
                                 str(static.parent), *pairs],
                                cwd=ROOT, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"purge_css.mjs failed on {static.parent}:\n"
                               f"{result.stderr[-2000:]}")
        written += len(pairs)
    return written


def optimise(site: Path) -> dict:
    """Every step above over a built site (both editions); how much each did."""
    site = Path(site)
    return {"frames": animation_frames_to_files(site),
            "frames_after_load": frames_after_load(site),
            "fonts": subset_icon_fonts(site),
            "code_blocks": code_block_heights(site),
            "stylesheets": purge_stylesheets(site),
            "theme_tab_stops": theme_tab_stops_in_one_layout(site)}


if __name__ == "__main__":
    import sys

    print(optimise(Path(sys.argv[1])))
