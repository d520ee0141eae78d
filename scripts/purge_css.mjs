// Drop the rules of a built edition's stylesheets that nothing in it can match
// (bookbuild/fast_pages.py's purge_stylesheets calls this; issue 29).
//
//   node scripts/purge_css.mjs EDITION_FOLDER SOURCE.css=TARGET.css ...
//
// PurgeCSS (pinned in package.json) reads every page of the edition and every script in
// its _static, and keeps a rule when each class, id and tag its selector names appears
// there as a word: a class that a script adds later (Bootstrap's "show", the theme's
// dark mode) is a word of that script, so its rules stay. Keyframes, font faces,
// custom properties and selectors of pseudo-classes alone all stay. Each SOURCE is the
// untouched stylesheet; the purged rules go to its TARGET. Prints one line: how many
// bytes each stylesheet kept.
import { PurgeCSS } from "purgecss";
import { readFileSync, writeFileSync } from "node:fs";

const [edition, ...pairs] = process.argv.slice(2);
if (!edition || pairs.length === 0) {
  console.error("usage: purge_css.mjs EDITION_FOLDER SOURCE.css=TARGET.css ...");
  process.exit(2);
}
const content = [`${edition}/**/*.html`, `${edition}/_static/**/*.js`];
const files = pairs.map((pair) => pair.split("="));  // [source, target] each
// One call reads the edition's pages once for every stylesheet; results keep their order.
const results = await new PurgeCSS().purge({
  content,
  css: files.map(([source]) => ({ raw: readFileSync(source, "utf-8") })),
  keyframes: false,
  fontFace: false,
  variables: false,
  // PurgeCSS drops a selector of pseudo-classes alone (the theme's keyboard-focus
  // outline, `:focus-visible{...}`): keep those.
  safelist: { standard: [/^:/] },
});
results.forEach((result, index) => writeFileSync(files[index][1], result.css));
console.log(results.map((result, index) => `${files[index][1]}: ${result.css.length}`)
  .join("; "));
