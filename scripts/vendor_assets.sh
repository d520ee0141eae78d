#!/usr/bin/env bash
# Copy the assets a page would otherwise fetch from a CDN into book/_static/vendor, from the
# npm packages pinned in package-lock.json, so the built book reads offline.
#   book/_static/vendor/mathjax       MathJax 3 (mathjax_path in _config.yml)
#   book/_static/vendor/font-awesome  Font Awesome 4 (the icons of matplotlib's animation player)
set -euo pipefail
cd "$(dirname "$0")/.."

VENDOR=book/_static/vendor
STAMP="$VENDOR/.from-$(sha1sum package-lock.json | cut -c1-12)"
[ -f "$STAMP" ] && exit 0

if ! command -v npm >/dev/null 2>&1; then
    echo "vendor_assets: npm is missing; install Node.js and npm (Debian: apt-get install -y nodejs npm)," >&2
    echo "vendor_assets: then re-run scripts/vendor_assets.sh. Without it MathJax is not served." >&2
    exit 1
fi

npm ci --no-audit --no-fund --loglevel=error

rm -rf "$VENDOR"
mkdir -p "$VENDOR/mathjax" "$VENDOR/font-awesome"
# Only the combined TeX+MathML bundle and what it loads at run time (fonts, autoloaded
# TeX extensions, the accessibility menu and its speech engine), not the other bundles.
MJ=node_modules/mathjax/es5
cp "$MJ/tex-mml-chtml.js" "$VENDOR/mathjax/"
for part in output input a11y ui sre adaptors; do
    cp -r "$MJ/$part" "$VENDOR/mathjax/"
done
cp -r node_modules/font-awesome/css node_modules/font-awesome/fonts "$VENDOR/font-awesome/"
cp node_modules/mathjax/LICENSE "$VENDOR/mathjax/LICENSE"
touch "$STAMP"
echo "vendor_assets: MathJax $(node -p 'require("./node_modules/mathjax/package.json").version') and Font Awesome $(node -p 'require("./node_modules/font-awesome/package.json").version') copied to $VENDOR"
