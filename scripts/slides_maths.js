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
const startMathJax = require("./mathjax_node");
const fontURL = process.argv[2];
if (!fontURL) {
  console.error("slides_maths: give the fonts' URL relative to the stylesheet");
  process.exit(2);
}

const ready = startMathJax({fontURL});

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  ready.then(() => {
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
