// Typeset the formulas of the teacher's slide decks (scripts/slides.py) once, at build
// time, with the npm MathJax that scripts/vendor_assets.sh installs, as
// scripts/prerender_maths.js does for the book's pages: a deck carries finished CHTML
// markup (with hidden MathML for screen readers) and loads no MathJax.
//
//   node scripts/slides_maths.js FONT_URL < formulas.json > typeset.json
//
// Reads a JSON list of TeX strings (display maths), writes {"html": [...], "css": "..."}:
// each formula's markup, and the stylesheet for all of them, whose fonts are fetched from
// FONT_URL (relative to the stylesheet). A formula MathJax cannot parse is an error.
"use strict";
const path = require("path");

const mathjax = path.resolve(__dirname, "..", "node_modules", "mathjax", "es5");
const fontURL = process.argv[2];
if (!fontURL) {
  console.error("slides_maths: give the fonts' URL relative to the stylesheet");
  process.exit(2);
}

global.MathJax = {
  loader: {
    paths: {mathjax},
    load: ["adaptors/liteDOM", "input/tex-base", "[tex]/ams", "[tex]/noundefined",
           "output/chtml", "a11y/assistive-mml"],
    require,
  },
  tex: {packages: {"[+]": ["ams", "noundefined"]}},
  chtml: {fontURL, scale: 1},
  startup: {typeset: false},
};
require(path.join(mathjax, "startup.js"));

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  MathJax.startup.promise.then(() => {
    const adaptor = MathJax.startup.adaptor;
    const html = JSON.parse(input).map((tex) => {
      const markup = adaptor.outerHTML(MathJax.tex2chtml(tex, {display: true}));
      if (markup.includes("mjx-merror")) throw new Error(`cannot typeset ${tex}`);
      return markup;
    });
    const css = adaptor.textContent(MathJax.chtmlStylesheet());
    process.stdout.write(JSON.stringify({html, css}));
  }).catch((error) => {
    console.error(`slides_maths: ${error.message || error}`);
    process.exit(1);
  });
});
