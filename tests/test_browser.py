"""The built book as a reader meets it, in a real browser, with no internet.

The book is built from the stored outputs into a temporary folder, served from
127.0.0.1, and every page is opened in Debian's headless Chromium (Playwright drives it;
it never downloads a browser of its own). Each page must load with no JavaScript error,
show every image with alt text, render its maths, fetch nothing from outside 127.0.0.1,
and fit a phone's width. Chapters must carry Binder, Colab and download buttons for their
own notebook, and their kernel-free animations must play. Screenshots at desktop and
phone widths go to test-artifacts/screenshots/.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml

# The PDF step drives the same Chromium the same way: one list of flags, one server.
from bookbuild.book_pdf import CHROMIUM, CHROMIUM_ARGS, LOCAL_HOST, serve, toc_pages
from bookbuild.run import ROOT

pytestmark = pytest.mark.xdist_group(name="browser")

WIDTHS = {"desktop": 1280, "phone": 390}
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"

# Console errors still allowed, each a substring of the message, with why. Keep it short;
# everything else (a CDN fetch, a 404, a script error) fails the page.
ALLOWED_CONSOLE_ERRORS: list[tuple[str, str]] = [
    # (none left: the favicon, thebe's duplicate THEBE_JS_URL and the theme's
    #  "invalid theme mode" are fixed in _config.yml and book/_ext/reader_pages.py)
]


# Sphinx's own pages are read too (a reader lands on search from the navbar). The Russian
# edition's pages are the same pages under ru/ (bookbuild/site.py).
ENGLISH_PAGES = toc_pages() + ["search", "genindex"]
RUSSIAN_PAGES = [f"ru/{page}" for page in toc_pages(ROOT / "ru") + ["search", "genindex"]]
PAGES = ENGLISH_PAGES + RUSSIAN_PAGES
CHAPTER_PAGES = [page for page in PAGES if page.split("/")[-2:-1] == ["chapters"]]


def _language(page: str) -> str:
    return "ru" if page.startswith("ru/") else "en"


def _run_helper(script: str) -> None:
    result = subprocess.run(["bash", str(ROOT / "scripts" / script)],
                            capture_output=True, text=True, cwd=ROOT)
    if result.returncode != 0:
        pytest.fail(f"scripts/{script} failed:\n{result.stdout}\n{result.stderr}")


@pytest.fixture(scope="module")
def site(built_site):
    """The book built from stored outputs (both editions, with their offline assets;
    tests/conftest.py builds it once per run), served on 127.0.0.1."""
    import bookbuild.site

    html, result = built_site
    failed = bookbuild.site.failed(result)
    assert not failed, "\n".join(failed)[-8000:]
    with serve(html) as base:
        yield html, base


@pytest.fixture(scope="module")
def browser_context(tmp_path_factory):
    """Debian's Chromium, headless, on a fresh profile."""
    if not CHROMIUM.exists():
        _run_helper("ensure_browser.sh")
    sync_api = pytest.importorskip("playwright.sync_api")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS,
            viewport={"width": WIDTHS["desktop"], "height": 900})
        # Every page is read as on a first visit: nothing kept from the page before.
        context.add_init_script("try { localStorage.clear(); } catch (e) {}")
        yield context
        context.close()


# What the browser saw on each page, gathered once per page and shared by the checks.
_REPORTS: dict[str, dict] = {}

_IMAGES_JS = """async () => {
    const images = Array.from(document.images);
    for (const img of images) {   // lazy images below the fold: load them now
        img.loading = "eager";
        if (!img.complete || img.naturalWidth === 0) { try { await img.decode(); } catch (e) {} }
    }
    return images.map(img => ({
        src: img.getAttribute("src") || "", id: img.id, alt: img.getAttribute("alt"),
        width: img.naturalWidth, complete: img.complete}));
}"""

_MATHS_JS = """async () => {
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
        await MathJax.startup.promise;
    }
    const maths = Array.from(document.querySelectorAll(".math"));
    return {
        mathjax: !!(window.MathJax && MathJax.version), count: maths.length,
        rendered: maths.filter(m => m.querySelector("mjx-container")).length,
        errors: document.querySelectorAll("mjx-merror").length,
        raw_dollars: (document.querySelector("main") || document.body).innerText.includes("$$"),
    };
}"""


# Bytes as the browser received them (the local server does not compress).
_WEIGHT_JS = """() => {
    const html = performance.getEntriesByType("navigation")[0].decodedBodySize;
    const resources = performance.getEntriesByType("resource");
    const sum = list => list.reduce((total, r) => total + r.decodedBodySize, 0);
    return {page: html + sum(resources.filter(r => r.initiatorType === "img")),
            first_visit: html + sum(resources)};
}"""
PAGE_BUDGET = 1_000_000  # bytes: a page with its images (issue 15; make bench prints all)


# axe-core from npm (package.json, installed by scripts/vendor_assets.sh), injected into
# the page under test only: the published site does not carry it.
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# What a reader meets: violations axe rates serious or critical, on the WCAG 2 A/AA rules.
_AXE_JS = """async () => {
    const result = await axe.run(document, {
        runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa",
                                        "best-practice"]},
        resultTypes: ["violations"]});
    return result.violations.filter(v => ["serious", "critical"].includes(v.impact))
        .map(v => ({id: v.id, impact: v.impact, help: v.help,
                    nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ")),
                    count: v.nodes.length}));
}"""


def _accessibility_audit(tab) -> list[dict]:
    """axe-core's serious and critical violations on the page as it is now."""
    tab.add_script_tag(path=str(AXE))
    return tab.evaluate(_AXE_JS)


def _visit(context, base: str, page: str) -> dict:
    """Open ``page`` at each width; record errors, requests, images, maths, screenshots."""
    report = {"console": [], "page_errors": [], "external": [], "failed": [],
              "overflow": {}}
    tab = context.new_page()

    def on_request(request):
        host = urlparse(request.url).hostname
        if request.url.startswith(("data:", "blob:", "about:")):
            return
        if host != LOCAL_HOST:
            report["external"].append(request.url)

    def on_response(response):
        if response.status >= 400:
            report["failed"].append(f"{response.status} {response.url}")

    def on_console(message):
        if message.type == "error":
            report["console"].append(message.text)

    # The machine has no internet; an outside request is refused at once, and recorded.
    tab.route(lambda url: urlparse(url).hostname not in (LOCAL_HOST, None),
              lambda route: route.abort())
    tab.on("request", on_request)
    tab.on("response", on_response)
    tab.on("console", on_console)
    tab.on("pageerror", lambda error: report["page_errors"].append(str(error)))
    tab.add_init_script(_LAYOUT_SHIFT_JS)
    try:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        slug = page.replace("/", "__")
        for label, width in WIDTHS.items():
            tab.set_viewport_size({"width": width, "height": 900})
            tab.goto(f"{base}/{page}.html", wait_until="load")
            if label == "desktop":
                report["images"] = tab.evaluate(_IMAGES_JS)
                report["maths"] = tab.evaluate(_MATHS_JS)
                report["launch"] = tab.evaluate("""() => Array.from(
                    document.querySelectorAll(".article-header-buttons a, .header-article-items a"))
                    .map(a => ({href: a.href, label: a.innerText.trim()}))""")
                report["run_note"] = tab.evaluate("""() => {
                    const note = document.querySelector(".run-this-chapter");
                    return note ? note.textContent : null; }""")
                report["weight"] = tab.evaluate(_WEIGHT_JS)
                report["animations"] = _play_animations(tab, _language(page))
                report["cut_code"] = tab.evaluate(_CUT_CODE_JS)
                report["purged_rules"] = tab.evaluate(_PURGED_RULES_JS)
                report["desktop_wide_tables"] = tab.evaluate(_WIDE_TABLES_JS)
            else:
                tab.evaluate(_MATHS_JS)
                report["wide_maths"] = tab.evaluate(_WIDE_MATHS_JS)
                report["wide_tables"] = tab.evaluate(_WIDE_TABLES_JS)
                report["tall_rows"] = tab.evaluate(_TALL_ROWS_JS)
                tab.wait_for_timeout(500)  # late shifts: fonts, explorers, toggles
                report["layout_shift"] = tab.evaluate("() => window.layoutShift")
            report.setdefault("touching_cells", {})[label] = tab.evaluate(
                _TOUCHING_CELLS_JS, TABLE_GAP_PX)
            report.setdefault("wide_animations", {})[label] = tab.evaluate(
                _WIDE_ANIMATIONS_JS)
            report.setdefault("cut_output", {})[label] = tab.evaluate(_CUT_OUTPUT_JS)
            report.setdefault("figures", {})[label] = _figures(tab)
            report.setdefault("small_print", {})[label] = tab.evaluate(_SMALL_PRINT_JS)
            report.setdefault("axe", {})[label] = _accessibility_audit(tab)
            report["overflow"][label] = tab.evaluate(
                "() => document.documentElement.scrollWidth - window.innerWidth")
            # The first screen, as a reader meets it: the whole page took two seconds
            # a page for a picture no check reads.
            tab.evaluate("scrollTo(0, 0)")
            tab.screenshot(path=str(SCREENSHOTS / f"{slug}-{label}.png"))
    finally:
        tab.close()
    return report


# Cumulative layout shift as Core Web Vitals counts it (shifts not caused by input).
_LAYOUT_SHIFT_JS = """window.layoutShift = {score: 0, sources: []};
new PerformanceObserver(list => {
    for (const entry of list.getEntries()) {
        if (entry.hadRecentInput) continue;
        window.layoutShift.score += entry.value;
        window.layoutShift.sources.push([entry.value, entry.sources.map(s =>
            s.node ? (s.node.className || s.node.nodeName) + "" : "")]);
    }
}).observe({type: "layout-shift", buffered: true});"""

# Rules of the theme's and extensions' stylesheets as written (kept in
# _static/unpurged/ by bookbuild/fast_pages.py) that match an element of the page as it
# is now but that the served, purged stylesheet lost. A rule for a state (:hover,
# ::before) is matched without the state: the element it styles is what must exist.
_PURGED_RULES_JS = r"""async () => {
    const split = text => {  // a selector list at its top-level commas
        const parts = []; let depth = 0, start = 0;
        for (let i = 0; i < text.length; i++) {
            const c = text[i];
            if (c === "(" || c === "[") depth++;
            else if (c === ")" || c === "]") depth--;
            else if (c === "," && depth === 0) {
                parts.push(text.slice(start, i).trim()); start = i + 1; }
        }
        return [...parts, text.slice(start).trim()];
    };
    const selectors = (rules, into) => {
        for (const rule of rules) {
            if (rule.selectorText !== undefined) split(rule.selectorText).forEach(
                selector => into.add(selector));
            if (rule.cssRules) selectors(rule.cssRules, into);
        }
        return into;
    };
    const states = new RegExp("::?(before|after|placeholder|marker|selection|backdrop|"
        + "first-letter|first-line|-webkit-[\\w-]+|-moz-[\\w-]+)"
        + "|:(hover|focus-visible|focus-within|focus|active|visited)", "g");
    const matches = selector => {
        const bare = selector.replace(states, "")
            .replace(/(^|[\s>+~])(?=$|[\s>+~])/g, "$1*");
        try { return document.querySelector(bare) !== null; } catch (e) { return false; }
    };
    const sheet = async url => {
        const parsed = new CSSStyleSheet();
        parsed.replaceSync(await (await fetch(url)).text());
        return parsed.cssRules;
    };
    const lost = [];
    const here = document.querySelector("link[href*='basic.css']");
    const staticRoot = new URL(".", new URL(here.href)).pathname;  // this edition's _static/
    const purged = await (await fetch(`${staticRoot}unpurged/purged.json`)).json();
    for (const path of purged) {
        const kept = selectors(await sheet(staticRoot + path), new Set());
        const whole = selectors(await sheet(`${staticRoot}unpurged/${path}`), new Set());
        for (const selector of whole)
            if (!kept.has(selector) && matches(selector)) lost.push(`${path}: ${selector}`);
    }
    return lost;
}"""

# Code cells whose lines do not show whole (a scroll bar) at this width.
_CUT_CODE_JS = """() => Array.from(document.querySelectorAll(".cell_input div.highlight pre"))
    .filter(pre => pre.scrollWidth > pre.clientWidth + 1)
    .map(pre => ({first: pre.textContent.split("\\n").sort((a, b) => b.length - a.length)[0],
                  scroll: pre.scrollWidth, width: pre.clientWidth}))"""

# Printed output (a cell's stream) whose lines do not show whole at this width: the
# measured sections' summary lines of chapters 6 and 9 scrolled sideways at 390 and at
# 1280 px (issue 41). A block not laid out yet (a phone's content-visibility) is laid
# out first, so that it is measured as the reader will see it.
_CUT_OUTPUT_JS = """() => Array.from(document.querySelectorAll(
        ".cell_output .output.stream pre"))
    .filter(pre => { pre.style.contentVisibility = "visible";
                     return pre.scrollWidth > pre.clientWidth + 1; })
    .map(pre => ({first: pre.textContent.split("\\n").sort((a, b) => b.length - a.length)[0]
                      .slice(0, 80),
                  scroll: pre.scrollWidth, width: pre.clientWidth}))"""

# Each table wider than its box: does its first column stay in view, and is it said?
_WIDE_TABLES_JS = """() => Array.from(document.querySelectorAll(".cell_output table"))
    .map(table => {
        const box = table.closest(".table-scroll");
        const cell = table.querySelector("tr > :first-child");
        const note = box && box.nextElementSibling;
        return {wide: box ? box.scrollWidth > box.clientWidth + 1
                          : table.getBoundingClientRect().width > window.innerWidth,
                boxed: !!box, sticky: !!cell && getComputedStyle(cell).position === "sticky",
                said: !!note && note.classList.contains("table-scrolls-note")
                      && getComputedStyle(note).display !== "none",
                faded: !!box && [getComputedStyle(box).maskImage,
                                 getComputedStyle(box).webkitMaskImage]
                                 .some(mask => mask && mask !== "none"),
                width: Math.round(table.getBoundingClientRect().width),
                column: Math.round((box || table.parentElement).clientWidth),
                head: table.innerText.slice(0, 60), id: table.id};
    }).filter(t => t.wide)"""

# Neighbouring cells of a table row whose texts come closer than TABLE_GAP_PX: at 1 px of
# padding a phone's table ran "0.188.9%" together (issue 41). Each cell's text is measured
# as laid out (a Range over its contents), empty cells are skipped.
TABLE_GAP_PX = 6
_TOUCHING_CELLS_JS = """(gap) => {
    const extent = cell => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        const rects = Array.from(range.getClientRects()).filter(r => r.width > 0);
        if (!rects.length || !cell.innerText.trim()) return null;
        return {left: Math.min(...rects.map(r => r.left)),
                right: Math.max(...rects.map(r => r.right))};
    };
    const found = [];
    for (const row of document.querySelectorAll(".cell_output table tr")) {
        const cells = Array.from(row.children).map(cell => [cell, extent(cell)])
            .filter(([, box]) => box);
        for (let i = 1; i < cells.length; i++) {
            const [before, a] = cells[i - 1], [after, b] = cells[i];
            if (b.left - a.right < gap) found.push({
                between: [before.innerText.trim().slice(0, 30),
                          after.innerText.trim().slice(0, 30)],
                gap: Math.round((b.left - a.right) * 10) / 10});
        }
    }
    return found;
}"""

# An animation's player (frame, slider, buttons) wider than the column it sits in: at
# 390 px the players of chapters 1 and 3 were 374 px wide in a 358-px column, the last
# step label and the + button cut off (issue 41).
_WIDE_ANIMATIONS_JS = """() => Array.from(document.querySelectorAll(".animation"))
    .map(player => {
        const column = (player.closest(".cell_output") || player.parentElement)
            .getBoundingClientRect();
        const parts = [player, ...player.querySelectorAll("img, input, button, label")];
        const out = parts.filter(el => {
            const box = el.getBoundingClientRect();
            return box.width > 0 && (box.right > column.right + 1 || box.left < column.left - 1);
        });
        return {column: Math.round(column.width),
                widest: Math.round(Math.max(...parts.map(el =>
                    el.getBoundingClientRect().right)) - column.left),
                out: out.map(el => el.tagName.toLowerCase() + (el.title ? ` (${el.title})` : ""))};
    }).filter(player => player.out.length)"""

# Table rows more than six lines of text tall at this width (a squeezed column wraps a
# sentence a word to a line).
_TALL_ROWS_JS = """() => Array.from(document.querySelectorAll(".cell_output table tr"))
    .map(row => {
        const cell = row.querySelector("td, th");
        const line = cell ? parseFloat(getComputedStyle(cell).lineHeight) || 24 : 24;
        return {lines: Math.round(row.getBoundingClientRect().height / line),
                row: row.innerText.slice(0, 60)};
    }).filter(r => r.lines > 6)"""

# Display maths wider than its own box at this width: cut off, or only seen by scrolling.
_WIDE_MATHS_JS = """() => Array.from(document.querySelectorAll(
    "mjx-container[display='true']")).filter(m => m.scrollWidth > m.clientWidth + 1)
    .map(m => ({width: m.scrollWidth, box: m.clientWidth,
                text: (m.querySelector("mjx-assistive-mml") || m).textContent.slice(0, 80)}))"""

# Each figure (stored output or animation frame) as drawn: its shown and natural sizes,
# and its address (the frame shown, for an animation) to read its PNG's text from.
# Every figure, scrolled to as a reader does (a figure loads as the reader nears it).
_FIGURES_JS = """async () => {
    const seen = [];
    for (const img of document.querySelectorAll(".cell_output img, img[id^='_anim_img']")) {
        img.scrollIntoView();
        if (!img.complete || img.naturalWidth === 0) {
            try { await img.decode(); } catch (e) {}
        }
        if (img.naturalWidth === 0) continue;
        const box = img.getBoundingClientRect();
        seen.push({src: img.getAttribute("src").slice(0, 60), url: img.src,
                   shown_w: box.width, shown_h: box.height, natural_w: img.naturalWidth,
                   natural_h: img.naturalHeight, column: window.innerWidth});
    }
    return seen;
}"""

# The page's small print: the smallest computed font size, in CSS px, of its code cells'
# text (their input and printed output; other code, as in a note, is set larger).
_SMALL_PRINT_JS = """() => {
    const sizes = Array.from(document.querySelectorAll(".cell_input pre, .cell_output pre"))
        .map(pre => parseFloat(getComputedStyle(pre).fontSize));
    return sizes.length ? Math.min(...sizes) : null; }"""

# Smallest text height (image pixels) of each figure seen, by address: one read per image.
_TEXT_SIZES: dict[str, float | None] = {}


def _smallest_text_px(url: str) -> float | None:
    """The smallest text's height in image pixels that the PNG at ``url`` (the built
    site's, or a data: URL) carries in its text chunks (reliability.notebook's
    TEXT_SIZE_KEY, written when the figure was saved); None if it carries none."""
    import base64
    import hashlib
    import io
    from urllib.request import urlopen

    from PIL import Image

    from reliability.notebook import TEXT_SIZE_KEY

    key = hashlib.sha1(url.encode()).hexdigest()
    if key not in _TEXT_SIZES:
        if url.startswith("data:"):
            data = base64.b64decode(url.split(",", 1)[1])
        else:
            with urlopen(url) as response:
                data = response.read()
        value = getattr(Image.open(io.BytesIO(data)), "text", {}).get(TEXT_SIZE_KEY)
        _TEXT_SIZES[key] = None if value is None else float(value)
    return _TEXT_SIZES[key]


def _figures(tab) -> list[dict]:
    """The page's figures as drawn, each with its smallest text's height in image px."""
    figures = tab.evaluate(_FIGURES_JS)
    for figure in figures:
        figure["text_px"] = _smallest_text_px(figure.pop("url"))
    return figures


def _play_animations(tab, language: str = "en") -> list[dict]:
    """For each jshtml player on the page: does Play move the frame, and the slider too?
    (Its buttons are named in the page's language.)"""
    from reliability import i18n

    with i18n.language(language):
        play, pause, first = (i18n.gettext(w) for w in ("Play", "Pause", "First frame"))
    results = []
    for img in tab.locator("img[id^='_anim_img']").all():
        anim_id = img.get_attribute("id").removeprefix("_anim_img")
        player = tab.locator(f"#_anim_slider{anim_id}").locator("xpath=..")
        img.scroll_into_view_if_needed()
        before = img.get_attribute("src")
        player.get_by_role("button", name=play, exact=True).click()
        try:
            tab.wait_for_function(
                "([id, src]) => document.getElementById(id).getAttribute('src') !== src",
                arg=[f"_anim_img{anim_id}", before], timeout=5000)
            played = True
        except Exception:
            played = False
        player.get_by_role("button", name=pause, exact=True).click()
        paused_at = img.get_attribute("src")
        player.get_by_role("button", name=first, exact=True).click()
        first = img.get_attribute("src")
        slider = tab.locator(f"#_anim_slider{anim_id}")
        slider.evaluate("(s) => { s.value = s.max; s.dispatchEvent(new Event('input')); "
                        "s.dispatchEvent(new Event('change')); }")
        last = img.get_attribute("src")
        results.append({"id": anim_id, "played": played, "frame_moved": paused_at != first,
                        "slider_moved": last != first, "alt": img.get_attribute("alt")})
    return results


@pytest.fixture
def report(request, site, browser_context):
    page = request.param
    if page not in _REPORTS:
        html, base = site
        if not (html / f"{page}.html").exists():
            pytest.fail(f"the build made no page {page}.html")
        _REPORTS[page] = _visit(browser_context, base, page)
    return page, _REPORTS[page]


def _allowed(message: str) -> bool:
    return any(fragment in message for fragment, _why in ALLOWED_CONSOLE_ERRORS)


#: Folders of the build that hold no book pages: the teacher's slide decks are reveal.js
#: documents with their own checks (tests/test_slides.py), not pages of the theme.
NOT_PAGES = {"slides"}


def _built_pages(html: Path) -> list[Path]:
    """Every reader-facing page of the build (not Sphinx's _static or _sources, not
    the slide decks)."""
    return [path for path in html.rglob("*.html")
            if not any(part.startswith("_") or part in NOT_PAGES
                       for part in path.relative_to(html).parts)]


def test_every_built_page_is_checked(site):
    html, _ = site
    built = {str(path.relative_to(html).with_suffix("")) for path in _built_pages(html)}
    # index.html is only a redirect to the root page (in each edition)
    assert built - {"index", "ru/index"} == set(PAGES)


@pytest.mark.parametrize("report", PAGES, indirect=True)
def test_page_has_no_javascript_errors(report):
    page, seen = report
    errors = [m for m in seen["console"] if not _allowed(m)] + seen["page_errors"]
    assert errors == [], f"{page}: {errors}"


@pytest.mark.parametrize("report", PAGES, indirect=True)
def test_page_passes_an_accessibility_audit(report):
    """axe-core finds no serious or critical violation at a desktop's or a phone's width."""
    page, seen = report
    found = {width: violations for width, violations in seen["axe"].items() if violations}
    assert not found, f"{page}:\n" + "\n".join(
        f"{width}: {v['id']} ({v['impact']}, {v['count']} nodes): {v['help']}; {v['nodes']}"
        for width, violations in found.items() for v in violations)


def _deck_pages() -> list[str]:
    from bookbuild.slides import DECKS

    return [f"{edition}slides/{deck}" for edition in ("", "ru/") for deck in DECKS]


#: A deck's size at each width: a desktop's 16:9 screen (reveal.js's slide view) and a
#: phone held upright (its scroll view, the slides one under another).
DECK_VIEWPORTS = {"desktop": (1280, 720), "phone": (390, 844)}


@pytest.mark.parametrize("deck", _deck_pages())
def test_deck_passes_an_accessibility_audit(deck, site, browser_context):
    """axe-core finds no serious or critical violation in a teacher's deck (the
    build's own, under slides/ and ru/slides/) at a desktop's or a phone's width: on a
    phone the deck is a page a student scrolls, and its scrolling region must take the
    keyboard's focus."""
    _, base = site
    tab = browser_context.new_page()
    found = {}
    try:
        for label, (width, height) in DECK_VIEWPORTS.items():
            tab.set_viewport_size({"width": width, "height": height})
            tab.goto(f"{base}/{deck}.html", wait_until="load")
            tab.wait_for_function("window.Reveal && Reveal.isReady()")
            scroll_view = tab.evaluate("Reveal.isScrollView()")
            assert scroll_view == (label == "phone"), (deck, label, scroll_view)
            tab.wait_for_timeout(300)  # the deck's deferred scripts and its first figure
            violations = _accessibility_audit(tab)
            if violations:
                found[label] = violations
    finally:
        tab.close()
    assert not found, f"{deck}:\n" + "\n".join(
        f"{label}: {v['id']} ({v['impact']}, {v['count']} nodes): {v['help']}; {v['nodes']}"
        for label, violations in found.items() for v in violations)


@pytest.mark.parametrize("report", PAGES, indirect=True)
def test_table_cells_keep_their_numbers_apart(report):
    """Neighbouring cells of every table keep their texts at least TABLE_GAP_PX apart at
    a phone's and a desktop's width, so two numbers never read as one ("0.4550.415")."""
    page, seen = report
    found = {width: cells for width, cells in seen["touching_cells"].items() if cells}
    assert not found, f"{page}: " + "; ".join(
        f"{width}: {len(cells)} pairs, e.g. {cells[:3]}" for width, cells in found.items())


@pytest.mark.parametrize("report", PAGES, indirect=True)
def test_animations_fit_the_column(report):
    """An animation's frame, slider and buttons stay inside the column at 390 and
    1280 px: nothing of the player is cut off on a phone."""
    page, seen = report
    found = {width: players for width, players in seen["wide_animations"].items()
             if players}
    assert not found, f"{page}: {found}"


@pytest.mark.parametrize("report", PAGES, indirect=True)
def test_purged_stylesheets_keep_every_rule_the_page_uses(report):
    """The theme's and extensions' stylesheets, purged of rules nothing in the book can
    match (bookbuild/fast_pages.py), still carry every rule that matches an element of
    the page."""
    page, seen = report
    assert seen["purged_rules"] == [], f"{page}: {seen['purged_rules'][:10]}"


@pytest.mark.parametrize("report", CHAPTER_PAGES, indirect=True)
def test_code_shows_whole_on_a_desktop(report):
    """At 1280 px every code cell's lines (at most 88 characters) show without a scroll
    bar."""
    page, seen = report
    assert not seen["cut_code"], (page, seen["cut_code"][:3])


@pytest.mark.parametrize("report", CHAPTER_PAGES, indirect=True)
def test_wide_tables_keep_their_row_names_on_a_phone(report):
    """At 390 px a table wider than the screen scrolls in its own box, its first column
    (what names the row) stays in view, a line says that it scrolls, and its right edge
    fades while columns are hidden there (a cue where the eye is, not only a note)."""
    page, seen = report
    hidden = [t for t in seen["wide_tables"]
              if not (t["boxed"] and t["sticky"] and t["said"] and t["faded"])]
    assert not hidden, (page, hidden[:3])


@pytest.mark.parametrize("report", CHAPTER_PAGES, indirect=True)
def test_printed_lines_wrap_in_their_box(report):
    """A cell's printed lines show whole at 390 and 1280 px: a line longer than the column
    (a measured section's summary, a gap's verdict) wraps rather than scroll sideways."""
    page, seen = report
    found = {width: cut for width, cut in seen["cut_output"].items() if cut}
    assert not found, f"{page}: " + "; ".join(
        f"{width}: {len(cut)} outputs, e.g. {cut[:2]}" for width, cut in found.items())


@pytest.mark.parametrize("report", CHAPTER_PAGES, indirect=True)
def test_every_table_fits_a_desktop(report):
    """At 1280 px every table of every chapter shows whole in the column, in both
    editions: worded headers break, cells keep a tighter padding and the table's font is
    smaller (figures.css). Chapter 4's Russian extrapolation table once scrolled there
    (779 px in 752), and tables of chapters 5, 6 and 9 in English and of chapters 2, 3,
    5, 6, 7 and 9 in Russian did (issue 41). At 390 px a table may be wider than the
    screen, but then it scrolls in its own box
    (test_wide_tables_keep_their_row_names_on_a_phone checks the box)."""
    page, seen = report
    wide = [{k: t[k] for k in ("id", "width", "column", "head")}
            for t in seen["desktop_wide_tables"]]
    assert not wide, (page, wide)


@pytest.mark.parametrize("report", PAGES, indirect=True)
def test_table_rows_stay_a_few_lines_tall_on_a_phone(report):
    """At 390 px no table squeezes a column until its rows are many lines tall: a long
    text column keeps a readable width and the table scrolls in its box instead."""
    page, seen = report
    assert not seen["tall_rows"], (page, seen["tall_rows"][:3])


@pytest.mark.parametrize("report", PAGES, indirect=True)
def test_page_does_not_jump_on_a_phone(report):
    """Loaded at 390 px, the page's layout shift stays under 0.1, Core Web Vitals' "good"
    (a dropdown drawn open and then closed by its script once cost 0.58)."""
    page, seen = report
    shift = seen["layout_shift"]
    assert shift["score"] < 0.1, (page, round(shift["score"], 3), shift["sources"][:3])


@pytest.mark.parametrize("report", PAGES, indirect=True)
def test_page_fetches_nothing_from_outside(report):
    page, seen = report
    assert seen["external"] == [], f"{page} asks outside 127.0.0.1 for {seen['external']}"
    assert seen["failed"] == [], f"{page}: {seen['failed']}"


@pytest.mark.parametrize("report", PAGES, indirect=True)
def test_every_image_loads_and_has_alt_text(report):
    page, seen = report
    broken = [img["src"][:80] for img in seen["images"] if img["width"] == 0]
    no_alt = [img["id"] or img["src"][:80] for img in seen["images"]
              if not (img["alt"] or "").strip()]
    assert broken == [], f"{page}: images that did not load: {broken}"
    assert no_alt == [], f"{page}: images without alt text: {no_alt}"


def test_no_page_links_assets_from_a_cdn(site):
    html, _ = site
    remote = re.compile(r'<(?:script[^>]+src|link[^>]+href)="(?:https?:)?//[^"]+"')
    for page in _built_pages(html):
        text = page.read_text(encoding="utf-8")
        found = [tag for tag in remote.findall(text) if "canonical" not in tag]
        assert found == [], f"{page.relative_to(html)}: {found}"
        assert "require.js" not in text and "@jupyter-widgets" not in text, page.name


def test_every_page_names_a_favicon_that_exists(site):
    # headless Chromium asks for no favicon, so a missing one would never show as a 404
    html, _ = site
    icon = re.compile(r'<link rel="icon" href="([^"]+)"')
    for page in _built_pages(html):
        if page.name == "index.html" and page.parent in (html, html / "ru"):
            continue  # the redirect to the root page
        found = icon.findall(page.read_text(encoding="utf-8"))
        assert found, f"{page.relative_to(html)} names no favicon"
        assert (page.parent / found[0]).is_file(), f"{page.relative_to(html)}: {found[0]}"


@pytest.mark.parametrize("report", PAGES, indirect=True)
def test_page_weighs_at_most_1_mb_with_its_images(report):
    page, seen = report
    assert seen["weight"]["page"] <= PAGE_BUDGET, f"{page}: {seen['weight']}"


@pytest.mark.parametrize("report", PAGES, indirect=True)
def test_maths_renders(report):
    page, seen = report
    maths = seen["maths"]
    assert maths["rendered"] == maths["count"], f"{page}: {maths}"
    assert maths["errors"] == 0 and not maths["raw_dollars"], f"{page}: {maths}"
    # typeset at build time (scripts/prerender_maths.js): the reader downloads no MathJax
    assert not maths["mathjax"], f"{page}: MathJax loaded in the page"


@pytest.mark.parametrize("report", PAGES, indirect=True)
def test_display_maths_fits_a_phone(report):
    """A formula a student has to scroll sideways to read (or cannot read at all) is a
    formula to split over lines."""
    page, seen = report
    assert not seen["wide_maths"], f"{page}: formulas wider than a phone: {seen['wide_maths']}"


@pytest.mark.parametrize("report", PAGES, indirect=True)
def test_page_fits_a_phone(report):
    page, seen = report
    # scrolling sideways inside a wide table or code block is fine; the page itself is not
    assert seen["overflow"]["phone"] <= 1, f"{page} is {seen['overflow']['phone']}px too wide"
    for label in WIDTHS:
        assert (SCREENSHOTS / f"{page.replace('/', '__')}-{label}.png").stat().st_size > 0


@pytest.mark.parametrize("report", CHAPTER_PAGES, indirect=True)
def test_figures_keep_their_shape_and_sharpness_at_every_width(report):
    """A figure shrinks with a phone's column without being squashed (a fixed height would
    distort it), never spills out of the page, and on a desktop is shown at no more than
    half its pixels: twice the screen's density, sharp on a high-density display."""
    page, seen = report
    found = {label: len(figures) for label, figures in seen["figures"].items()}
    assert len(set(found.values())) == 1, f"{page}: figures seen at each width: {found}"
    for label, figures in seen["figures"].items():
        assert figures, f"{page}: no figure found at {label} width"
        for f in figures:
            natural, shown = f["natural_w"] / f["natural_h"], f["shown_w"] / f["shown_h"]
            assert abs(shown / natural - 1) < 0.03, (page, label, f)
            assert f["shown_w"] <= f["column"], (page, label, f)
            if label == "desktop":
                assert f["natural_w"] >= 1.45 * f["shown_w"], (page, label, f)


@pytest.mark.parametrize("report", PAGES, indirect=True)
def test_figure_text_is_no_smaller_than_the_page_small_print(report):
    """Each figure's smallest text, as the browser shows it (its height in the PNG's
    pixels, which the PNG carries, times the shown over the natural width), is at least
    the page's small print (a code cell's font size, measured in the same page), at a
    desktop's width and at a phone's, where the figure shrinks to the column."""
    page, seen = report
    for label, figures in seen["figures"].items():
        small = seen["small_print"][label]
        if not figures:
            continue
        assert small, f"{page}: figures but no code cell to measure small print by"
        for f in figures:
            assert f["text_px"], (f"{page}: figure {f['src']} carries no smallest-text "
                                  "size: was it drawn after reliability.notebook.setup()?")
            shown = f["text_px"] * f["shown_w"] / f["natural_w"]
            # (a twentieth of a pixel is rounding in the stored size)
            assert shown >= small - 0.05, (
                f"{page} at {WIDTHS[label]} px: figure {f['src']} shows its smallest text "
                f"{shown:.1f} px high, under the page's small print ({small:g} px): "
                f"{f['text_px']:.1f} image px x {f['shown_w']:.0f}/{f['natural_w']} "
                "shown/natural width")


@pytest.mark.parametrize("report", CHAPTER_PAGES, indirect=True)
def test_chapter_launch_and_download_buttons(report, site):
    """Binder, Colab and the .ipynb download all open the chapter's launch notebook (plain
    Markdown, numbers filled in), which the site serves as committed in notebooks/."""
    page, seen = report
    edition = "ru/" if _language(page) == "ru" else ""
    launch = f"{edition}notebooks/{Path(page).name}.ipynb"
    hrefs = [link["href"] for link in seen["launch"]]
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    binder = config["launch_buttons"]["binderhub_url"]
    colab = config["launch_buttons"]["colab_url"]
    assert any(h.startswith(binder) and h.endswith(f"urlpath=lab/tree/{launch}")
               for h in hrefs), hrefs
    assert any(h.startswith(colab) and h.endswith(f"/{launch}") for h in hrefs), hrefs
    downloads = [h for h in hrefs if h.endswith(f"/{launch}") and h.startswith("http://")]
    assert downloads, hrefs
    html, _ = site
    assert (html / launch).read_bytes() == (ROOT / launch).read_bytes()
    assert not any(h.endswith(f"_sources/{page}.ipynb") for h in hrefs), \
        "the MyST source is not offered: its prose is raw markup outside the book"


@pytest.mark.parametrize("report", CHAPTER_PAGES, indirect=True)
def test_chapter_says_how_to_run_it(report):
    page, seen = report
    note = seen["run_note"]
    assert note is not None, f"{page} has no 'Run this chapter' note"
    from bookbuild.catalogs import translator

    _ = translator(_language(page), "reader_pages")
    assert f"-m bookbuild rerun {page}.ipynb" in note and "Binder" in note \
        and "Colab" in note
    assert _("Its parameters and the values they accept:") in note, note


@pytest.mark.parametrize("report", CHAPTER_PAGES, indirect=True)
def test_chapter_animations_play_without_a_kernel(report):
    """Every chapter gives the reader something to move with no kernel: a live explorer
    (checked by the live tests below) or an animation or scrubber, whose controls play."""
    page, seen = report
    assert seen["animations"] or page in LIVE_PAGES, \
        f"{page} has no live explorer and no kernel-free animation or scrubber"
    for animation in seen["animations"]:
        assert animation["played"] and animation["frame_moved"], f"{page}: Play: {animation}"
        assert animation["slider_moved"], f"{page}: slider: {animation}"



# --- live explorers (reliability/live.py, book/_static/live.js) ---------------------------

def _live_pages() -> list[str]:
    """Chapters whose stored outputs hold a live explorer."""
    return [page for page in CHAPTER_PAGES
            # (the notebook's JSON escapes the quotes of the stored HTML)
            if 'class=\\"live-explorer\\"' in (ROOT / f"{page}.ipynb").read_text()]


LIVE_PAGES = _live_pages()


def _rebuilt(data: dict, page: str = ""):
    """The explorer the page says it came from, rebuilt by the package (in the page's
    language)."""
    import importlib

    from reliability import i18n

    module, _, function = data["source"][0].rpartition(".")
    with i18n.language(_language(page)):
        return getattr(importlib.import_module(module), function)(**data["source"][1])


def _positions(data: dict) -> list[dict]:
    """Control positions to try: the defaults, every control at its first and at its last
    position, and a few seeded draws in between."""
    import numpy as np

    controls = data["controls"]
    rng = np.random.default_rng(0)
    wanted = [{c["name"]: c["default"] for c in controls},
              {c["name"]: 0 for c in controls},
              {c["name"]: len(c["values"]) - 1 for c in controls}]
    wanted += [{c["name"]: int(rng.integers(len(c["values"]))) for c in controls}
               for _ in range(3)]
    return wanted


def _move_by_keyboard(tab, explorer: str, control: str, index: int, last: int) -> None:
    """Focus the slider and take it to position ``index`` (of 0 to ``last``) with the
    keys a reader would use: Home to the first, End to the last, the arrows from where it
    stands to any other (a walk from Home each time pressed twice the keys for nothing)."""
    slider = tab.locator(f"#live-{explorer}-{control}")
    slider.focus()
    if index in (0, last):
        tab.keyboard.press("Home" if index == 0 else "End")
        return
    now = int(slider.input_value())
    for _ in range(abs(index - now)):
        tab.keyboard.press("ArrowRight" if index > now else "ArrowLeft")


#: The chart's texts that run past its left or right edge, with by how many pixels.
_CLIPPED_TEXTS = """svg => {
  const box = svg.getBoundingClientRect();
  return [...svg.querySelectorAll('text')].map(t => [t.textContent, t.getBoundingClientRect()])
    .filter(([, r]) => r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1))
    .map(([text, r]) => `${text} (${Math.round(Math.max(box.left - r.left,
                                                        r.right - box.right))} px)`);
}"""


# Every English explorer at both widths; a Russian one (the same code and numbers, other
# words) at a phone's width, where its longer words are likeliest not to fit.
LIVE_CASES = [(page, width) for page in LIVE_PAGES for width in WIDTHS
              if _language(page) == "en" or width == "phone"]


def _scroll_to_explorer(tab, root, name: str) -> None:
    """Scroll as a reader does until the explorer is on screen; live.js builds it as it
    nears the view."""
    root.scroll_into_view_if_needed()
    try:
        root.locator("svg.live-svg").wait_for(timeout=5_000)
    except Exception as error:
        raise AssertionError(f"{name}: the script did not build the explorer on screen") \
            from error
    assert "live-ready" in root.get_attribute("class"), f"{name}: the script did not run"


#: Where each explorer is, in screens below the top of the page, and whether it is built.
_EXPLORERS_STATE_JS = """() => [...document.querySelectorAll('.live-explorer')].map(r => ({
    screens: (r.getBoundingClientRect().top + scrollY) / innerHeight,
    built: r.classList.contains('live-ready') && !!r.querySelector('svg.live-svg')}))"""


@pytest.mark.skipif(not LIVE_PAGES, reason="no chapter has a live explorer yet")
@pytest.mark.parametrize("page", [p for p in LIVE_PAGES if _language(p) == "en"])
def test_an_explorer_is_built_as_it_nears_the_screen_and_all_are_for_paper(
        page, site, browser_context):
    """On a phone the page opens without building the explorers far below (a chapter's
    main thread spent 300 ms on them before the reader could scroll), builds one when
    the reader comes within a screen and a half of it, and builds every one for print."""
    _, base = site
    tab = browser_context.new_page()
    tab.set_viewport_size({"width": WIDTHS["phone"], "height": 800})
    tab.goto(f"{base}/{page}.html", wait_until="load")
    tab.wait_for_timeout(300)   # an observer's first report comes after the first frame
    state = tab.evaluate(_EXPLORERS_STATE_JS)
    for explorer in state:
        if explorer["screens"] > 3:
            assert not explorer["built"], f"{page}: an explorer {explorer['screens']:.0f} "\
                "screens down was built as the page opened"
        if explorer["screens"] < 1:
            assert explorer["built"], f"{page}: an explorer on the first screen was not built"
    far = [i for i, e in enumerate(state) if not e["built"]]
    if far:
        target = tab.locator(".live-explorer").nth(far[0])
        # a screen and a bit above it: inside the observer's margin, not yet in view
        tab.evaluate("y => scrollTo(0, y)", tab.evaluate(
            "r => r.getBoundingClientRect().top + scrollY - 2.2 * innerHeight",
            target.element_handle()))
        tab.wait_for_function("r => r.classList.contains('live-ready')",
                              arg=target.element_handle(), timeout=5_000)
    tab.evaluate("scrollTo(0, 0)")
    tab.emulate_media(media="print")
    tab.wait_for_function("() => [...document.querySelectorAll('.live-explorer')]"
                          ".every(r => r.classList.contains('live-ready'))", timeout=5_000)
    tab.close()


@pytest.mark.skipif(not LIVE_PAGES, reason="no chapter has a live explorer yet")
@pytest.mark.parametrize(("page", "width"), LIVE_CASES,
                         ids=[f"{width}-{page}" for page, width in LIVE_CASES])
def test_live_explorers_show_the_packages_numbers(page, width, site, browser_context):
    """Move every control by keyboard to sampled positions: the sentence on the page must
    be the package's, character for character; the URL must carry the setting, and
    opening that URL must show it again."""
    import json

    _, base = site
    tab = browser_context.new_page()
    tab.set_viewport_size({"width": WIDTHS[width], "height": 900})
    tab.goto(f"{base}/{page}.html")
    roots = tab.locator(".live-explorer")
    assert roots.count() >= 1
    for root in roots.all():
        data = json.loads(root.locator("script.live-data").text_content())
        explorer = _rebuilt(data, page)
        name = data["name"]
        _scroll_to_explorer(tab, root, name)
        for c in data["controls"]:
            assert tab.locator(f"label[for='live-{name}-{c['name']}']").count() == 1, \
                f"{name}: control {c['name']} has no label"
        chart = root.locator("svg.live-svg")
        assert chart.get_attribute("role") == "img" and chart.get_attribute("aria-label")
        assert root.locator(".live-text").get_attribute("aria-live") == "polite"
        for wanted in _positions(data):
            for c in data["controls"]:
                _move_by_keyboard(tab, name, c["name"], wanted[c["name"]],
                                  len(c["values"]) - 1)
            values = {c["name"]: c["values"][wanted[c["name"]]] for c in data["controls"]}
            shown = root.locator(".live-text").text_content()
            with __import__("reliability").i18n.language(_language(page)):
                assert shown == explorer.sentence(**values), (name, values)
            for c in data["controls"]:
                slider = tab.locator(f"#live-{name}-{c['name']}")
                assert slider.get_attribute("aria-valuetext") == \
                    c["shown"][wanted[c["name"]]]
        overflow = root.evaluate("r => r.scrollWidth - r.clientWidth")
        assert overflow <= 1, f"{name}: {overflow}px wider than the column at {width}"
        # an SVG clips what runs past its edge without widening the page: each of the
        # chart's words (its title above all, longer in Russian) must lie inside it
        clipped = chart.evaluate(_CLIPPED_TEXTS)
        assert not clipped, f"{name}: text cut at the chart's edge at {width}: {clipped}"
        link = tab.url
        assert all(f"{name}.{c['name']}=" in link for c in data["controls"]), link
        shared = browser_context.new_page()
        shared.set_viewport_size({"width": WIDTHS[width], "height": 900})
        shared.goto(link)
        _scroll_to_explorer(shared, shared.locator(f"#live-{name}"), name)
        assert shared.locator(f"#live-{name} .live-text").text_content() == shown, \
            f"{name}: the shared link does not reproduce the setting"
        shared.close()
    tab.close()


@pytest.mark.skipif(not LIVE_PAGES, reason="no chapter has a live explorer yet")
@pytest.mark.parametrize("page", LIVE_PAGES)
def test_live_explorers_without_their_script_still_state_the_default(page, site,
                                                                     browser_context):
    """With live.js blocked (as with JavaScript off), the page still gives the default
    sentence and says where the default figure is."""
    import json

    _, base = site
    tab = browser_context.new_page()
    tab.route("**/live.js*", lambda route: route.abort())
    tab.goto(f"{base}/{page}.html")
    for root in tab.locator(".live-explorer").all():
        data = json.loads(root.locator("script.live-data").text_content())
        assert "live-ready" not in (root.get_attribute("class") or "")
        explorer = _rebuilt(data, page)
        with __import__("reliability").i18n.language(_language(page)):
            assert root.locator(".live-text").text_content() == explorer.sentence()
        assert root.locator(".live-fallback").is_visible()
    tab.close()


# --- the Russian edition -----------------------------------------------------------------

def test_every_page_says_its_language_and_links_to_itself_in_the_other(site):
    """lang="ru" under ru/, "en" elsewhere; the link at the top of each page opens the
    same page in the other edition, whose own link comes back."""
    html, _ = site
    switch = re.compile(r'<p class="edition-switch"><a href="([^"]+)" hreflang="(\w+)"')
    for path in _built_pages(html):
        page = path.relative_to(html).with_suffix("").as_posix()
        if page in ("index", "ru/index"):
            continue  # redirects to the root page
        text = path.read_text(encoding="utf-8")
        language = _language(page)
        assert re.search(f'<html lang="{language}"', text), f"{page}: not lang={language}"
        found = switch.search(text)
        assert found, f"{page} has no link to the other edition"
        target = (path.parent / found[1]).resolve()
        assert target.is_file(), f"{page}: {found[1]} does not exist"
        other = target.relative_to(html.resolve()).with_suffix("").as_posix()
        assert other.removeprefix("ru/") == page.removeprefix("ru/"), (page, other)
        back = switch.search(target.read_text(encoding="utf-8"))
        assert (target.parent / back[1]).resolve() == path.resolve(), (page, other)


# Inflected forms of words the Russian pages use, and a page each must find: Sphinx's
# Russian stemmer (snowball) indexes stems, and search.html stems the query the same way.
SEARCHES = {"лестницей деградации": "ru/chapters/08_degradation_ladder",
            "повторами": "ru/chapters/02_retries",
            "верификаторов": "ru/chapters/03_verifiers"}


@pytest.mark.parametrize("query", SEARCHES)
def test_russian_search_finds_inflected_forms(query, site, browser_context):
    _, base = site
    tab = browser_context.new_page()
    tab.goto(f"{base}/ru/search.html?q={query}")
    tab.wait_for_selector("#search-results ul.search li a", timeout=15000)
    found = tab.eval_on_selector_all("#search-results ul.search li a",
                                     "links => links.map(a => a.getAttribute('href'))")
    tab.close()
    assert any(SEARCHES[query].removeprefix("ru/") in href for href in found), found


_GLYPHS_JS = """(text) => {
    // Each letter drawn in the page's own font, against a code point no font has (drawn
    // as a missing-glyph box): a letter that looks like the box did not render.
    const font = getComputedStyle(document.querySelector("main p") || document.body).font;
    const draw = (ch) => {
        const canvas = document.createElement("canvas");
        canvas.width = 48; canvas.height = 48;
        const ctx = canvas.getContext("2d");
        ctx.font = font.replace(/\\d+(\\.\\d+)?px/, "32px");
        ctx.fillText(ch, 4, 36);
        return Array.from(ctx.getImageData(0, 0, 48, 48).data).join(",");
    };
    const missing = draw("\\u0378");
    const letters = Array.from(new Set(text.replace(/\\s/g, "")));
    return {font: font, boxes: letters.filter(ch => draw(ch) === missing),
            distinct: new Set(letters.map(draw)).size, letters: letters.length};
}"""


def test_cyrillic_renders_in_the_browser(site, browser_context):
    """The Russian pages' letters are drawn from a font that has them (the screenshots in
    test-artifacts/screenshots/ru__* show them), not as missing-glyph boxes."""
    _, base = site
    tab = browser_context.new_page()
    tab.goto(f"{base}/ru/chapters/08_degradation_ladder.html")
    seen = tab.evaluate(_GLYPHS_JS, "абвгдеёжзийклмнопрстуфхцчшщъыьэюя")
    tab.close()
    assert not seen["boxes"], f"drawn as missing glyphs in {seen['font']}: {seen['boxes']}"
    assert seen["distinct"] == seen["letters"], seen


@pytest.mark.parametrize("page", ["chapters/01_chain_decay", "ru/chapters/01_chain_decay"])
def test_the_edition_switch_keeps_the_readers_place(page, site, browser_context):
    """A reader in the middle of a section, with an explorer moved (both in the URL),
    who switches language lands on the same section with the same setting."""
    _, base = site
    tab = browser_context.new_page()
    try:
        tab.goto(f"{base}/{page}.html?ch1-decay.p=0.9#the-horizon")
        link = tab.locator(".edition-switch a")
        link.focus()
        href = link.get_attribute("href")
        assert href.endswith("01_chain_decay.html?ch1-decay.p=0.9#the-horizon"), href
        link.click()
        tab.wait_for_load_state("load")
        assert tab.url.endswith("?ch1-decay.p=0.9#the-horizon"), tab.url
        assert ("/ru/" in tab.url) != page.startswith("ru/"), tab.url
        assert tab.locator("#the-horizon").count() == 1  # the section exists there too
    finally:
        tab.close()
