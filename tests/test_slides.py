"""The teacher's slide decks (bookbuild/slides.py) in headless Chromium, in both editions.

The decks are the ones the book's build wrote into its site (tests/conftest.py's
``built_site``, with reveal.js vendored from npm in the site's ``_static``), served on
127.0.0.1. A teacher steps through it with the arrow keys: every slide is
visited with ``Reveal.next()``, nothing on a slide leaves its 1280 x 720 box, no script
fails, nothing is fetched from another host, every figure loads and every formula is
typeset, and no text on a slide (its words, its formulas, its explorer's chart, its
figure's labels) shows under 20 px. Each live explorer answers its control on the
slide, and the speaker notes say the plan's talking points with the chapters' numbers,
as the teacher's guide does.
"""

from __future__ import annotations

import json
import subprocess
from urllib.parse import urlparse

import nbformat
import pytest

from bookbuild.book_pdf import CHROMIUM, CHROMIUM_ARGS, serve
from bookbuild.run import ROOT

pytestmark = pytest.mark.xdist_group(name="browser")

EDITIONS = {"en": "slides", "ru": "ru/slides"}
DECKS = ["one-class", "two-class"]
WIDTH, HEIGHT = 1280, 720
#: The smallest text a slide may show at 1280 x 720, in CSS px (issue 40: read from the
#: back of a room; a phone-sized figure squeezed onto a slide showed 5-7 px).
ROOM_TEXT_PX = 20


@pytest.fixture(scope="module")
def decks(built_site):
    """Both editions' decks as the book's build wrote them (bookbuild.slides.write_decks,
    into the site tests/conftest.py builds once per run: the decks beside the pages and
    the site's own ``_static``), served; yields the site and its URL. (This module used
    to write both editions' decks a second time into a site of its own.)"""
    html, result = built_site
    assert "slides" in result, "the book's build stopped before the decks:\n" + "\n".join(
        f"{step}: {value['log'][-3000:]}" for step, value in result.items()
        if isinstance(value, dict) and value["returncode"] != 0)
    assert result["slides"]["returncode"] == 0, result["slides"]["log"]
    with serve(html) as base:
        yield html, base


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        subprocess.run(["bash", str(ROOT / "scripts" / "ensure_browser.sh")],
                       check=True)
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                              headless=True, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


# Everything on the current slide (its speaker notes aside) inside the slide's box, in
# slide pixels (reveal.js scales the 1280 x 720 slide to the window).
_OVERFLOW_JS = """([width, height]) => {
    const slide = Reveal.getCurrentSlide(), box = slide.getBoundingClientRect();
    const scale = Reveal.getScale(), out = [];
    slide.querySelectorAll("*").forEach(element => {
        if (element.closest("aside.notes")) return;
        const r = element.getBoundingClientRect();
        if (!r.width && !r.height) return;
        const edges = [(r.left - box.left) / scale, (r.top - box.top) / scale,
                       (r.right - box.left) / scale, (r.bottom - box.top) / scale];
        if (edges[0] < -1 || edges[1] < -1
                || edges[2] > width + 1 || edges[3] > height + 1) {
            out.push(`${element.tagName.toLowerCase()}.${element.className}: ` +
                     edges.map(Math.round).join(","));
        }
    });
    return out;
}"""

# Every piece of text the current slide draws (not its notes, nor a fragment still
# hidden), at the size it shows: its computed font size times reveal.js's scale (the
# chart's SVG and MathJax's glyphs, drawn in CSS px, included); and its figures, each
# with the width it shows at (the PNG carries its smallest text's height).
_TEXT_SIZES_JS = """() => {
    const slide = Reveal.getCurrentSlide(), scale = Reveal.getScale(), texts = [];
    const shown = element => {
        const style = getComputedStyle(element);
        return style.visibility !== "hidden" && parseFloat(style.opacity) > 0
            && !element.closest("aside.notes, script, style, .live-fallback");
    };
    const note = (element, text) => texts.push({
        px: parseFloat(getComputedStyle(element).fontSize) * scale,
        text: text.slice(0, 50),
        where: element.tagName.toLowerCase() + "." + element.getAttribute("class")});
    const walker = document.createTreeWalker(slide, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        if (node.textContent.trim() && range.getClientRects().length
                && shown(node.parentElement)) note(node.parentElement, node.textContent.trim());
    }
    slide.querySelectorAll("mjx-c").forEach(glyph => {
        if (glyph.getClientRects().length && shown(glyph)) note(glyph, "(formula glyph)");
    });
    const figures = Array.from(slide.querySelectorAll("img")).map(img => ({
        file: img.getAttribute("data-src") || img.getAttribute("src"),
        shown: img.getBoundingClientRect().width, natural: img.naturalWidth}));
    return {texts, figures};
}"""


def _figure_text_px(path) -> float | None:
    """The smallest text's height in image px that a deck's PNG carries."""
    from PIL import Image

    from reliability.notebook import TEXT_SIZE_KEY

    value = Image.open(path).text.get(TEXT_SIZE_KEY)
    return None if value is None else float(value)


def _small_text(tab, folder) -> list[str]:
    """What the current slide shows under ROOM_TEXT_PX, one line each."""
    seen = tab.evaluate(_TEXT_SIZES_JS)
    small = [f"{t['px']:.1f} px: {t['text']!r} ({t['where']})" for t in seen["texts"]
             if t["px"] < ROOM_TEXT_PX - 0.05]
    for figure in seen["figures"]:
        text_px = _figure_text_px(folder / figure["file"])
        if text_px is None:
            small.append(f"figure {figure['file']} carries no smallest-text size")
            continue
        px = text_px * figure["shown"] / figure["natural"]
        if px < ROOM_TEXT_PX - 0.05:
            small.append(f"{px:.1f} px: figure {figure['file']}'s smallest text "
                         f"({text_px:g} image px, shown {figure['shown']:.0f} of "
                         f"{figure['natural']} px wide)")
    return small


_IMAGES_LOADED_JS = """() => Array.from(Reveal.getCurrentSlide()
    .querySelectorAll("img")).every(img => img.complete)"""
_AT_THE_END_JS = "() => Reveal.isLastSlide() && !Reveal.availableFragments().next"
_SLIDE_JS = """() => {
    const slide = Reveal.getCurrentSlide();
    return {index: Reveal.getIndices().h, kind: slide.className,
            images: Array.from(slide.querySelectorAll("img")).map(
                img => img.complete && img.naturalWidth > 0),
            formulas: slide.querySelectorAll(".formula").length,
            typeset: slide.querySelectorAll(".formula mjx-container").length,
            errors: slide.querySelectorAll("mjx-merror").length,
            notes: Reveal.getSlideNotes(slide) || ""};
}"""


def _open(browser, base: str, path: str):
    tab = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
    trouble = []
    tab.on("pageerror", lambda error: trouble.append(f"script error: {error}"))
    tab.on("console", lambda message: trouble.append(f"console: {message.text}")
           if message.type == "error" else None)
    tab.on("response", lambda response: trouble.append(
        f"{response.status}: {response.url}") if response.status >= 400 else None)

    def outside(route):
        trouble.append(f"outside request: {route.request.url}")
        route.abort()

    tab.route(lambda url: urlparse(url).hostname not in ("127.0.0.1", "localhost"),
              outside)
    tab.goto(f"{base}/{path}")
    tab.wait_for_function("window.Reveal && Reveal.isReady()")
    return tab, trouble


@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("language", list(EDITIONS))
def test_every_slide_fits_and_loads(language, deck, decks, browser):
    """Step through the deck as a teacher does: each slide within 1280 x 720, its
    figure loaded, its formulas typeset, its notes present, no text under 20 px (its
    figure's included), no error and nothing from another host."""
    site, base = decks
    tab, trouble = _open(browser, base, f"{EDITIONS[language]}/{deck}.html")
    try:
        total = tab.evaluate("Reveal.getTotalSlides()")
        assert total > 10, f"{deck}: only {total} slides"
        seen, kinds, problems = set(), set(), []
        for _ in range(4 * total):  # slides and their fragments
            tab.wait_for_timeout(20)
            slide = tab.evaluate(_SLIDE_JS)
            if slide["index"] not in seen:
                seen.add(slide["index"])
                kinds.update(k for k in slide["kind"].split() if k.startswith("slide-"))
                where = f"{language}/{deck} slide {slide['index']} ({slide['kind']})"
                tab.wait_for_function(_IMAGES_LOADED_JS)
                if "slide-explorer" in slide["kind"]:  # its chart drawn for the slide
                    tab.locator(".present .live-explorer.live-ready svg").wait_for()
                slide = tab.evaluate(_SLIDE_JS)
                problems += [f"{where}: text {line}" for line in
                             _small_text(tab, site / EDITIONS[language])]
                problems += [f"{where}: {o}" for o in tab.evaluate(_OVERFLOW_JS,
                                                                    [WIDTH, HEIGHT])]
                if not all(slide["images"]):
                    problems.append(f"{where}: a figure did not load")
                if slide["typeset"] != slide["formulas"] or slide["errors"]:
                    problems.append(f"{where}: formulas not typeset")
                if "slide-part" not in slide["kind"] and not slide["notes"].strip():
                    problems.append(f"{where}: no speaker notes")
            if tab.evaluate(_AT_THE_END_JS):
                break
            tab.evaluate("Reveal.next()")
        missed = set(range(total)) - seen
        assert not missed, f"slides never reached: {sorted(missed)}"
        assert {"slide-figure", "slide-formulas", "slide-output",
                "slide-explorer"} <= kinds, kinds
        assert not problems, "\n".join(problems[:20])
        assert not trouble, "\n".join(trouble)
    finally:
        tab.close()


@pytest.mark.parametrize("language", list(EDITIONS))
def test_a_deck_opened_on_a_phone_reads_as_a_scrolling_page(language, decks, browser):
    """A student who follows the deck's link on a phone gets reveal.js's scroll view
    (below 435 px): the first slide's title on the first screen, no explorer's data
    fetched before the student nears it, each figure loads as the student nears it, the
    page scrolls to the last slide and its explorers answer, with no script error on
    the way (the deck's own resize hook once called reveal.js back until the stack
    overflowed)."""
    _, base = decks
    tab = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True,
                           has_touch=True, device_scale_factor=2)
    errors, data = [], []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.on("request", lambda request: data.append(request.url)
           if "/explorer-" in request.url else None)
    try:
        tab.goto(f"{base}/{EDITIONS[language]}/one-class.html")
        tab.wait_for_function("window.Reveal && Reveal.isReady()")
        tab.wait_for_timeout(300)
        assert not data, f"explorer data fetched before any explorer neared: {data}"
        assert tab.evaluate("Reveal.isScrollView()"), "no scroll view on a phone"
        title = tab.locator(".slides section h1").first
        assert title.is_visible() and title.inner_text().strip()
        box = title.bounding_box()
        assert box and 0 <= box["y"] < 844 and box["width"] <= 390, box
        explorer = tab.locator(".live-explorer").last
        explorer.scroll_into_view_if_needed()
        tab.locator(".live-explorer.live-ready").last.wait_for(timeout=5_000)
        assert "live-ready" in explorer.get_attribute("class")
        assert data, "the explorer answered without its data file"
        control = explorer.locator("input[type=range]").first
        before = explorer.locator(".live-text").inner_text()
        control.focus()
        tab.keyboard.press("End" if control.input_value() != control.get_attribute(
            "max") else "Home")
        assert explorer.locator(".live-text").inner_text() != before
        for figure in tab.locator("img.key-figure").all():  # loaded as they near
            figure.scroll_into_view_if_needed()
            tab.wait_for_function("img => img.complete && img.naturalWidth > 0",
                                  arg=figure.element_handle(), timeout=5_000)
        tab.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        tab.wait_for_timeout(300)
        assert tab.evaluate("Reveal.isLastSlide()"), "the end of the page is not the end"
        assert not errors, "\n".join(errors[:3])
    finally:
        tab.close()


@pytest.mark.parametrize("language", list(EDITIONS))
def test_speaker_notes_say_the_plans_talking_points(language, decks):
    """The notes carry each block's talking points with the chapters' glued numbers,
    the same words and numbers as the teacher's guide (teacher_page makes both)."""
    import html

    from bookbuild import slides
    from bookbuild import teacher_page
    from bookbuild.catalogs import translator

    site, _ = decks
    numbers = teacher_page.plan_numbers()
    _ = translator(language, "teacher_page")
    for deck, plans in slides.DECKS.items():
        page = html.unescape((site / EDITIONS[language] / f"{deck}.html").read_text())
        notes = " ".join(part.split("</aside>")[0]
                         for part in page.split('<aside class="notes">')[1:])
        for plan in plans:
            for _minutes, block in teacher_page.PLANS[plan]:
                points = teacher_page.fill_numbers(
                    _(teacher_page.IDEAS[block].points), numbers, language)
                assert points in notes, f"{language}/{deck}: {block}'s talking points"
    # the Russian decks speak Russian, the chapters' numbers above with a decimal comma
    ru = (site / "ru" / "slides" / "one-class.html").read_text()
    assert "Урок 16" in ru and "Lesson 16" not in ru


@pytest.mark.parametrize("language", list(EDITIONS))
def test_each_key_figure_carries_its_chapters_alt_text(language, decks):
    """A figure on a slide says what it shows in the words the chapter gives it (its
    cell's alt text, in the edition's language), not only its section's heading."""
    import html
    import re

    site, _ = decks
    folder = "chapters" if language == "en" else "ru/chapters"
    stored = {cell.metadata["mystnb"]["image"]["alt"]
              for path in (ROOT / folder).glob("*.ipynb")
              for cell in nbformat.read(str(path), as_version=4).cells
              if cell.metadata.get("mystnb", {}).get("image", {}).get("alt")}
    for deck in DECKS:
        page = (site / EDITIONS[language] / f"{deck}.html").read_text()
        alts = [html.unescape(alt) for alt in
                re.findall(r'<img class="key-figure" data-src="[^"]+" alt="([^"]*)"',
                           page)]
        assert alts, f"{language}/{deck} shows no key figure"
        missing = [alt for alt in alts if alt not in stored]
        assert missing == [], f"{language}/{deck}: figures without the chapter's alt text"


@pytest.mark.parametrize("language", list(EDITIONS))
def test_live_explorers_respond_on_their_slides(language, decks, browser):
    """On every explorer slide, moving the first control (from the keyboard, as in
    class) redraws the chart and rewrites the sentence; the deck stays on its slide."""
    _, base = decks
    tab, trouble = _open(browser, base, f"{EDITIONS[language]}/one-class.html")
    try:
        indices = tab.evaluate("""() => Reveal.getSlides().map((s, i) => [s, i])
            .filter(([s]) => s.classList.contains("slide-explorer"))
            .map(([, i]) => i)""")
        assert len(indices) >= 5, indices
        for index in indices:
            tab.evaluate(f"Reveal.slide({index})")
            explorer = tab.locator(".present .live-explorer.live-ready")
            # built as its slide nears: already, or within a frame after a jump
            explorer.wait_for(timeout=5_000)
            assert explorer.count() == 1, f"slide {index}: the explorer did not start"
            before = (explorer.locator(".live-text").inner_text(),
                      explorer.locator("svg").inner_html())
            control = explorer.locator("input[type=range]").first
            control.focus()
            start = control.input_value()
            at_the_end = start == control.get_attribute("max")
            tab.keyboard.press("Home" if at_the_end else "End")
            assert control.input_value() != start, f"slide {index}: no move"
            after = (explorer.locator(".live-text").inner_text(),
                     explorer.locator("svg").inner_html())
            assert after[0] != before[0], f"slide {index}: the sentence did not change"
            assert after[1] != before[1], f"slide {index}: the chart did not change"
            assert tab.evaluate("Reveal.getIndices().h") == index, "the deck moved"
        assert not trouble, "\n".join(trouble)
    finally:
        tab.close()


@pytest.mark.parametrize("language", list(EDITIONS))
def test_the_teachers_guide_links_every_deck(language, decks):
    """Both editions of the guide link each deck, at the path the build writes it."""
    import re

    site, _ = decks
    guide = ROOT / ("book" if language == "en" else "ru/book") / "teaching.md"
    linked = set(re.findall(r'href="\.\./slides/([\w-]+)\.html"', guide.read_text()))
    assert linked == set(DECKS)
    for deck in linked:  # the guide sits in book/, one folder below the site root
        assert (site / EDITIONS[language] / f"{deck}.html").is_file()


def test_the_speaker_view_opens_from_the_file_system(decks, browser):
    """Opened as a file (no server, no network), a deck runs its explorers and typesets
    its maths, and 's' opens the speaker view with the block's talking points."""
    from bookbuild import teacher_page
    from bookbuild.catalogs import translator

    site, _ = decks
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    errors = []
    try:
        tab = context.new_page()
        tab.on("pageerror", lambda error: errors.append(str(error)))
        tab.goto((site / "ru" / "slides" / "one-class.html").as_uri() + "#/2")
        tab.wait_for_function("window.Reveal && Reveal.isReady()")
        assert tab.locator(".formula mjx-container").count() >= 5
        # an explorer's data is a script file beside the deck: it loads from a file too
        tab.evaluate("""Reveal.slide(Reveal.getSlides().findIndex(
            s => s.classList.contains("slide-explorer")))""")
        tab.locator(".present .live-explorer.live-ready").wait_for(timeout=5_000)
        tab.wait_for_function("Reveal.hasPlugin('notes')")  # loaded after the deck
        with context.expect_page() as opened:
            tab.keyboard.press("s")
        speaker = opened.value
        points = teacher_page.fill_numbers(
            translator("ru", "teacher_page")(teacher_page.IDEAS["chain"].points),
            teacher_page.plan_numbers(), "ru")
        speaker.wait_for_function("text => document.body.innerText.includes(text)",
                                  arg=points.split(":")[0][:60], timeout=10_000)
        # the view's own controls speak the deck's language too (reveal.js's are English)
        words = translator("ru", "slides")
        assert speaker.evaluate("document.documentElement.lang") == "ru"
        assert speaker.locator("#upcoming-slide .label").inner_text() == words("Upcoming")
        assert speaker.locator(".speaker-layout-label").inner_text().startswith(
            words("Layout"))
        options = speaker.locator(".speaker-layout-dropdown option").all_inner_texts()
        assert words("Notes only") in options, options
        shown = speaker.evaluate("document.body.innerText")
        english = [w for w in ("Upcoming", "Click to Reset", "Layout", "Notes only",
                               "Pacing", " AM", " PM", "Default") if w in shown]
        assert not english, f"the Russian speaker view shows English: {english}"
        assert not errors, errors
    finally:
        context.close()


def test_a_slide_figure_is_the_chapters_own_call_drawn_for_the_slide():
    """The deck builder adds ``medium=`` to the chapter's one call of a figure function
    and changes nothing else; a cell with no such call, or two, is refused."""
    import ast

    from bookbuild.slides import with_medium

    cell = ('fig = fig_chain.plot_horizon(ladder, target=0.5)\n'
            'table = fig_chain.decay_table(flows, lengths, runs=9, seed=1)\nplt.show()')
    drawn = with_medium(cell, "slide")
    calls = [node for node in ast.walk(ast.parse(drawn)) if isinstance(node, ast.Call)]
    keywords = {node.func.attr if hasattr(node.func, "attr") else node.func.id:
                {k.arg: ast.literal_eval(k.value) for k in node.keywords
                 if isinstance(k.value, ast.Constant)} for node in calls}
    assert keywords["plot_horizon"] == {"target": 0.5, "medium": "slide"}
    assert "medium" not in keywords["decay_table"]
    assert ast.dump(ast.parse(with_medium(drawn, "phone"))) == ast.dump(
        ast.parse(cell.replace("target=0.5)", "target=0.5, medium='phone')")))
    for wrong in ("plt.show()", "a = fig_x.plot_a(1)\nb = fig_x.plot_b(2)"):
        with pytest.raises(ValueError, match="one call of a figure function"):
            with_medium(wrong, "slide")


def test_a_figure_function_refuses_a_medium_it_does_not_know():
    from reliability.figures import _media
    from reliability.figures import chain as fig_chain

    with pytest.raises(ValueError, match="medium must be one of 'phone', 'slide'"):
        fig_chain.plot_horizon([0.9, 0.99], medium="poster")
    assert _media.panels("phone", [1, 2, 3]) == [[1, 2, 3]]
    assert _media.panels("slide", [1, 2, 3]) == [[1, 2], [3]]


@pytest.mark.parametrize("language", list(EDITIONS))
def test_drawn_for_a_phone_the_deck_builder_draws_what_the_chapter_stores(language):
    """Re-run by the deck builder with ``medium="phone"`` (the default), chapter 1's
    key figure is byte for byte the PNG the chapter stores: the slide's figure comes
    from the same cell, the same numbers and the same function as the page's."""
    from bookbuild import slides

    chapter = slides.Chapter(1, language)
    index, stored, unused = chapter.figure(slides.KEYS["chain"].figure)
    drawn = slides.draw_for_medium(chapter.path, [index], "phone")
    assert drawn[index] == stored, f"{chapter.path}: cell {index} drawn otherwise"


def test_an_animation_is_drawn_for_the_page_at_its_last_frame():
    """Chapter 1's animation cell, drawn for the PDF's page: the chapter's own runs at the
    page's width, on the frame the player ends on (every step drawn), not its first:
    the first draw of a figure would start the animation over."""
    from bookbuild import slides
    from reliability.figures import _media

    path = ROOT / "chapters" / "01_chain_decay.ipynb"
    nb = nbformat.read(str(path), as_version=4)
    index = next(i for i, cell in enumerate(nb.cells) if cell.cell_type == "code"
                 and slides.figure_call(cell.source) == ("chain", "animate_runs"))
    seen = {}

    def each(medium, unused, fig):
        slides.legibility_problems(fig, medium)   # a first draw, as the build's audit
        seen["width"] = fig.get_figwidth()
        seen["x label"] = fig.axes[0].get_xlabel()

    slides._figures_for_media(path, {"page": [index]}, each)
    assert seen["width"] == _media.PAGE_WIDTH_IN
    assert "10 of 10" in seen["x label"], seen["x label"]


@pytest.mark.parametrize("medium", ["phone", "slide"])
def test_the_outage_figure_reads_in_every_medium(medium):
    """Chapter 8's outage figure, drawn for the deck as for the page: no title over a
    y label or a tick label (each panel's title kept within its axes), measured at the
    width the medium shows it, as the deck builder's audit does; the outage is hatched
    between solid edges, not a tint the stacked areas hide."""
    from bookbuild.slides import legibility_problems
    from reliability.figures import ladder as fig_ladder
    from reliability.harness import BreakerConfig, Scenario, simulate_day
    from reliability.notebook import setup

    setup()
    outage = Scenario(outage_start=10.0, outage_hours=2.0)
    without = simulate_day(outage, conversations=8000, seed=20261208)
    with_breaker = simulate_day(outage, breaker=BreakerConfig(5, 60.0),
                                conversations=8000, seed=20261208)
    fig = fig_ladder.plot_outage(without, with_breaker, start=8.0, end=16.0,
                                 medium=medium)
    assert not legibility_problems(fig, medium)
    for ax in fig.axes:
        assert any(patch.get_hatch() for patch in ax.patches), "the outage is not hatched"


def _key_figures():
    from bookbuild import slides

    for language in EDITIONS:
        for name in slides.KEYS:
            yield pytest.param(language, name, id=f"{language}-{name}")


@pytest.mark.parametrize("language, name", list(_key_figures()))
def test_every_key_figure_reads_on_its_slide(language, name, built_site):
    """Each deck's key figure, drawn for the slide by the deck builder (the chapter's own
    call with ``medium="slide"``), passes the legibility audit at the width a slide
    shows it: no text over text, under 13 px or past an edge, no legend over data. The
    audit is the one the book's build made as it drew the figure (kept beside it,
    slides.figure_audits), made here only for a figure the build has not drawn."""
    from bookbuild import slides

    chapter = slides.Chapter(slides.KEYS[name].chapter, language)
    index, unused, alt = chapter.figure(slides.KEYS[name].figure)
    found = slides.figure_audits({chapter.path: [index]}, "slide")[chapter.path, index]
    assert not found, (f"{name}'s slide figure ({chapter.path.name}, cell {index}) is "
                       "hard to read:\n" + "\n".join(found))


def _printed_chapters():
    for language in EDITIONS:
        folder = ROOT / ("chapters" if language == "en" else "ru/chapters")
        for path in sorted(folder.glob("[0-9][0-9]_*.ipynb")):
            yield pytest.param(path, id=f"{language}-{path.stem}")


@pytest.mark.parametrize("path", list(_printed_chapters()))
def test_every_figure_the_pdf_prints_reads_on_the_page(path, built_site):
    """Each figure the book's PDF draws again for the page (bookbuild.book_pdf's
    ``page_figures``: the chapter's own call with ``medium="page"``) passes the
    legibility audit at the width the sheet prints it: chapter 9's Russian dashboard,
    drawn for the page, ran its right column's title and x label 4 and 7 px past the
    figure's edge, and the build only warned (issue 41). The audit is the build's, as
    above."""
    from bookbuild import slides
    from bookbuild.book_pdf import printed_figure_cells

    indices = printed_figure_cells(path)
    found = slides.figure_audits({path: indices}, "page") if indices else {}
    bad = {index: problems for (unused, index), problems in found.items() if problems}
    assert not bad, (f"{path.parent.name}/{path.name}: figures hard to read on the "
                     "printed page:\n" + "\n".join(f"cell {index}: {problems}"
                                                     for index, problems in bad.items()))


def test_one_run_of_a_chapter_draws_each_medium_as_a_run_of_its_own(tmp_path,
                                                                   monkeypatch):
    """The build draws a chapter's figures for the slide and the page in one run of the
    chapter (slides.media_figures): each picture, and its audit, is the one a run for
    that medium alone draws. The audit is kept beside the picture, and what is kept
    there is what a test reads (a figure that did not read would keep its problems)."""
    from bookbuild import slides

    chapter = slides.Chapter(slides.KEYS["chain"].chapter, "en")
    index = chapter.figure(slides.KEYS["chain"].figure)[0]
    together = slides.draw_for_media(chapter.path, {"slide": [index], "page": [index]})
    page, audit = together["page"][index]
    assert page == slides.draw_for_medium(chapter.path, [index], "page")[index]
    assert together["slide"][index][0] != page
    monkeypatch.setattr(slides, "FIGURE_CACHE", tmp_path)
    wanted = {chapter.path: [index]}
    assert slides.figure_audits(wanted, "page") == {(chapter.path, index): audit}
    kept, = tmp_path.glob("*.json")
    assert kept.with_suffix(".png").read_bytes() == page
    kept.write_text(json.dumps(["text 4 px past the right edge"]))
    assert slides.figure_audits(wanted, "page") == {
        (chapter.path, index): ["text 4 px past the right edge"]}


def test_the_page_audit_finds_text_past_the_figures_edge():
    """The check above can fail: a label wider than a page figure's right column."""
    import matplotlib.pyplot as plt

    from bookbuild.slides import legibility_problems
    from reliability.figures import _media

    fig, axes = plt.subplots(1, 2, figsize=(_media.PAGE_WIDTH_IN, 4))
    axes[1].set_xlabel("a label much too long for the right-hand panel of a page figure")
    fig.tight_layout()
    try:
        found = legibility_problems(fig, "page")
    finally:
        plt.close(fig)
    assert any("past the figure's right edge" in problem for problem in found), found


def test_drawing_a_russian_chapter_leaves_the_language_as_it_was():
    """The deck builder runs a chapter's code in its own process, and a Russian chapter's
    setup() switches the package to Russian: the language is put back after, so nothing
    drawn or printed later in the same process (the next test on a worker) turns Russian."""
    from bookbuild import slides
    from reliability import i18n

    chapter = slides.Chapter(1, "ru")
    index, _stored, _alt = chapter.figure(slides.KEYS["chain"].figure)
    assert i18n.get_language() == "en"
    slides.draw_for_medium(chapter.path, [index], "phone")
    assert i18n.get_language() == "en"
