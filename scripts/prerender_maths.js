// Typeset every formula of the built book once, at build time, with the MathJax that
// scripts/vendor_assets.sh installs from npm: the pages then carry finished CHTML markup
// (with hidden MathML for screen readers) and one shared stylesheet, and no reader has to
// download and run 0.75 MB of MathJax to see them.
//
//   node scripts/prerender_maths.js _build/html
//
// Sphinx writes inline maths as <span class="math ...">\(...\)</span> and display maths as
// <div class="math ...">\[...\]</div>; the wrappers stay, their TeX is replaced. The MathJax
// configuration and loader tags are removed and _static/mathjax-chtml.css is linked
// instead. A formula MathJax cannot parse fails the build, naming the page.
"use strict";
const fs = require("fs");
const path = require("path");

const root = path.resolve(process.argv[2] || "_build/html");
const startMathJax = require("./mathjax_node");
const STYLESHEET = path.join(root, "_static", "mathjax-chtml.css");

// fontURL is relative to the stylesheet, which sits in _static beside vendor/. In a
// browser MathJax scales formulas to the text's x-height, which a build cannot measure;
// 1.273 is the factor it picks for the theme's body font in Chromium.
const ready = startMathJax({fontURL: "vendor/mathjax/output/chtml/fonts/woff-v2",
                            scale: 1.273});

// Sphinx escapes the TeX it writes into the HTML, with named entities and with numeric
// ones (an "@" becomes &#64;): MathJax must read the TeX itself, so every entity is
// decoded here, numeric ones included (tests/test_maths_text.py reads the result).
const ENTITIES = {amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0"};
const unescape = (text) => text.replace(
  /&(?:#(\d+)|#[xX]([0-9a-fA-F]+)|(amp|lt|gt|quot|apos|nbsp));/g,
  (match, decimal, hex, name) => decimal ? String.fromCodePoint(parseInt(decimal, 10))
    : hex ? String.fromCodePoint(parseInt(hex, 16)) : ENTITIES[name]);
const INLINE = /(<span class="math notranslate nohighlight">)\\\(([\s\S]*?)\\\)(<\/span>)/g;
const DISPLAY = /(<div class="math notranslate nohighlight"[^>]*>)\s*\\\[([\s\S]*?)\\\]\s*(<\/div>)/g;
const MATHJAX_TAGS = [
  /<script>window\.MathJax = [\s\S]*?<\/script>\s*/g,
  /<script[^>]*src="[^"]*vendor\/mathjax\/startup\.js[^"]*"[^>]*><\/script>\s*/g,
];

function pages(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, {withFileTypes: true})) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!(dir === root && entry.name.startsWith("_"))) out.push(...pages(full));
    } else if (entry.name.endsWith(".html")) {
      out.push(full);
    }
  }
  return out;
}

ready.then(() => {
  const adaptor = MathJax.startup.adaptor;
  let formulas = 0;
  for (const page of pages(root)) {
    let text = fs.readFileSync(page, "utf8");
    if (!text.includes('class="math notranslate nohighlight"')) continue;
    const render = (display) => (match, open, tex, close) => {
      const node = MathJax.tex2chtml(unescape(tex), {display});
      const html = adaptor.outerHTML(node);
      if (html.includes("mjx-merror")) {
        throw new Error(`${path.relative(root, page)}: MathJax cannot typeset ${tex}`);
      }
      formulas += 1;
      return open + html + close;
    };
    text = text.replace(DISPLAY, render(true)).replace(INLINE, render(false));
    for (const tag of MATHJAX_TAGS) text = text.replace(tag, "");
    const href = path.relative(path.dirname(page), STYLESHEET).split(path.sep).join("/");
    text = text.replace("</head>", `<link rel="stylesheet" href="${href}" />\n</head>`);
    fs.writeFileSync(page, text);
  }
  fs.writeFileSync(STYLESHEET, adaptor.textContent(MathJax.chtmlStylesheet()));
  console.log(`prerender_maths: ${formulas} formulas typeset, ${path.relative(root, STYLESHEET)}`);
}).catch((error) => {
  console.error(`prerender_maths: ${error.message || error}`);
  process.exit(1);
});
