"""Maths checked by what it says: every typeset formula of every built page of both
editions reads as maths, with no HTML entity (``pass&#64;k``, once) or raw markup inside.

The formulas are read from the hidden MathML that scripts/prerender_maths.js leaves beside
each typeset formula (what a screen reader says, and the same text MathJax drew): each
token (``mi``, ``mo``, ``mn``, ``mtext``, ``ms``) is one symbol, number or run of words.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess

import pytest

from bookbuild.run import ROOT

pytestmark = pytest.mark.xdist_group(name="book")

ASSISTIVE = re.compile(r"<mjx-assistive-mml[^>]*>(.*?)</mjx-assistive-mml>", re.S)
TOKEN = re.compile(r"<(mi|mo|mn|mtext|ms)\b[^>]*>(.*?)</\1>", re.S)
#: What never belongs inside a formula's token once typeset: an HTML entity (escaped
#: twice, so it reached MathJax as text), a tag, or a TeX command MathJax did not read.
RAW = re.compile(r"&(#\d+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);|</?[a-zA-Z][\w-]*[\s/>]"
                 r"|\\[a-zA-Z]+")


def formula_problems(page: str) -> list[str]:
    """Each typeset formula's token on ``page`` that holds an entity or raw markup."""
    problems = []
    for formula in ASSISTIVE.findall(page):
        for _, inner in TOKEN.findall(formula):
            text = html.unescape(inner)
            if "<" in inner.replace("&lt;", "") or RAW.search(text):
                problems.append(text)
    return problems


def test_an_escaped_character_reaches_the_formula_as_itself(tmp_path):
    """A page as Sphinx writes it (``@`` as ``&#64;``, ``<`` as ``&lt;``), typeset by the
    build's own step: the formula says pass@k and p < q, not an entity."""
    if shutil.which("node") is None or not (ROOT / "node_modules" / "mathjax").is_dir():
        pytest.fail("node and node_modules/mathjax are needed (bash scripts/vendor_assets.sh)")
    (tmp_path / "_static").mkdir()
    page = tmp_path / "page.html"
    page.write_text(
        '<html><head></head><body><div class="math notranslate nohighlight">'
        r"\[\begin{aligned}\text{pass&#64;}k &amp;= 1 - (1-p)^k,\ p &lt; q"
        r'\end{aligned}\]</div><span class="math notranslate nohighlight">'
        r"\(\text{a&#x40;b}\)</span></body></html>")
    ran = subprocess.run(["node", str(ROOT / "scripts" / "prerender_maths.js"),
                          str(tmp_path)], capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    typeset = page.read_text()
    tokens = [html.unescape(t) for _, t in TOKEN.findall(" ".join(ASSISTIVE.findall(typeset)))]
    assert "pass@" in tokens and "a@b" in tokens and "<" in tokens, tokens
    assert formula_problems(typeset) == []


def test_the_check_finds_an_entity_or_markup_in_a_formula():
    def page(token):
        return f'<mjx-assistive-mml display="block"><math>{token}<mi>k</mi></math>' \
               "</mjx-assistive-mml>"
    assert formula_problems(page("<mtext>pass&amp;#64;</mtext>")) == ["pass&#64;"]
    assert formula_problems(page(r"<mtext>\text{x}</mtext>")) == [r"\text{x}"]
    assert formula_problems(page("<mtext>&lt;b&gt;x</mtext>")) == ["<b>x"]
    assert formula_problems(page("<mo>&lt;</mo><mtext>pass@</mtext>")) == []


def test_every_formula_of_both_editions_reads_as_maths(built_site):
    site, result = built_site
    pages = sorted(site.rglob("*.html"))
    assert any((site / "ru").rglob("*.html")), "the Russian edition is part of the site"
    typeset, found = 0, {}
    for path in pages:
        text = path.read_text()
        typeset += len(ASSISTIVE.findall(text))
        problems = formula_problems(text)
        if problems:
            found[str(path.relative_to(site))] = sorted(set(problems))
    assert typeset > 100, f"only {typeset} typeset formulas in the built site"
    assert not found, f"formulas holding an entity or raw markup: {found}"
