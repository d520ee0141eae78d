// MathJax from npm (scripts/vendor_assets.sh installs it), loaded in Node to typeset TeX
// into CHTML at build time, with hidden MathML for screen readers. Shared by
// scripts/prerender_maths.js (the book's pages) and scripts/slides_maths.js (the decks),
// so both typeset with the same packages.
//
//   const startMathJax = require("./mathjax_node");
//   startMathJax({fontURL, scale}).then(() => MathJax.tex2chtml(tex, {display: true}));
//
// fontURL is where the stylesheet finds MathJax's fonts, relative to the stylesheet.
"use strict";
const path = require("path");

const mathjax = path.resolve(__dirname, "..", "node_modules", "mathjax", "es5");

module.exports = function startMathJax({fontURL, scale = 1}) {
  global.MathJax = {
    loader: {
      paths: {mathjax},
      load: ["adaptors/liteDOM", "input/tex-base", "[tex]/ams", "[tex]/noundefined",
             "output/chtml", "a11y/assistive-mml"],
      require,
    },
    tex: {packages: {"[+]": ["ams", "noundefined"]}},
    chtml: {fontURL, scale},
    startup: {typeset: false},
  };
  require(path.join(mathjax, "startup.js"));
  return global.MathJax.startup.promise;
};
