#!/usr/bin/env bash
# Copy the assets a page would otherwise fetch from a CDN into book/_static/vendor, from the
# npm packages pinned in package-lock.json, so the built book reads offline.
#   book/_static/vendor/mathjax       MathJax 3 (mathjax_path and mathjax3_config in _config.yml)
#   book/_static/vendor/font-awesome  Font Awesome 4 (the icons of matplotlib's animation player)
#   book/_static/vendor/reveal.js     reveal.js 5 (the teacher's slide decks, bookbuild/slides.py)
set -euo pipefail
cd "$(dirname "$0")/.."

VENDOR=book/_static/vendor
# The stamp names the lock file and this script: a change to either copies again.
STAMP="$VENDOR/.from-$(cat package-lock.json "$0" | sha1sum | cut -c1-12)"
# (and node_modules, which the maths prerendering at build time needs, is still there)
[ -f "$STAMP" ] && [ -d node_modules/mathjax ] && exit 0

if ! command -v npm >/dev/null 2>&1; then
    echo "vendor_assets: npm is missing; install Node.js and npm (Debian: apt-get install -y nodejs npm)," >&2
    echo "vendor_assets: then re-run scripts/vendor_assets.sh. Without it MathJax is not served." >&2
    exit 1
fi

npm ci --no-audit --no-fund --loglevel=error

rm -rf "$VENDOR"
mkdir -p "$VENDOR/mathjax" "$VENDOR/font-awesome" "$VENDOR/reveal.js"
# The loader (startup.js) and the components _config.yml's mathjax3_config asks it for:
# the core, TeX input with the few packages the book uses, HTML output and its fonts, and
# the hidden MathML a screen reader reads. About 0.75 MB, against 1.2 MB for the combined
# TeX+MathML bundle, which carries a menu and input formats no page uses.
MJ=node_modules/mathjax/es5
cp "$MJ/startup.js" "$MJ/core.js" "$VENDOR/mathjax/"
for part in output input a11y adaptors; do
    cp -r "$MJ/$part" "$VENDOR/mathjax/"
done
cp -r node_modules/font-awesome/css node_modules/font-awesome/fonts "$VENDOR/font-awesome/"
cp node_modules/mathjax/LICENSE "$VENDOR/mathjax/LICENSE"
# reveal.js: the script, its stylesheet, the white theme with its one font (WOFF only: every
# browser that runs reveal.js 5 reads it) and the speaker-notes plugin ('s' on a deck).
RV=node_modules/reveal.js
FONT=dist/theme/fonts/source-sans-pro
mkdir -p "$VENDOR/reveal.js/$FONT" "$VENDOR/reveal.js/plugin/notes"
cp "$RV/dist/reveal.js" "$RV/dist/reveal.css" "$VENDOR/reveal.js/dist/"
cp "$RV/dist/theme/white.css" "$VENDOR/reveal.js/dist/theme/"
cp "$RV/$FONT/source-sans-pro.css" "$RV/$FONT/"*.woff "$RV/$FONT/LICENSE" "$VENDOR/reveal.js/$FONT/"
cp "$RV/plugin/notes/notes.js" "$VENDOR/reveal.js/plugin/notes/"
cp "$RV/LICENSE" "$VENDOR/reveal.js/LICENSE"
touch "$STAMP"
echo "vendor_assets: MathJax $(node -p 'require("./node_modules/mathjax/package.json").version'), Font Awesome $(node -p 'require("./node_modules/font-awesome/package.json").version') and reveal.js $(node -p 'require("./node_modules/reveal.js/package.json").version') copied to $VENDOR"
