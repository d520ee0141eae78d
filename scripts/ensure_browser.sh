#!/usr/bin/env bash
# The browser tests drive Debian's Chromium; Playwright must never download a browser of
# its own (the test machines reach no browser download host). Install it where missing,
# with poppler-utils: tests/test_pdf.py reads the printed PDFs' layout with pdftotext, as
# a reader's viewer lays the text out (pypdf's extraction does not keep columns).
set -euo pipefail

CHROMIUM=/usr/bin/chromium

# The Russian edition needs a font with Cyrillic letters (DejaVu has them), or Chromium
# draws empty boxes in the pages and the PDF.
has_cyrillic_font() { command -v fc-list >/dev/null 2>&1 && [ -n "$(fc-list :lang=ru 2>/dev/null)" ]; }

if [ -x "$CHROMIUM" ] && has_cyrillic_font && command -v pdftotext >/dev/null 2>&1; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "ensure_browser: $CHROMIUM, a Cyrillic font or pdftotext is missing and this is not root." >&2
    echo "ensure_browser: install them with: sudo apt-get update && sudo apt-get install -y chromium chromium-driver fonts-dejavu-core poppler-utils" >&2
    exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure_browser: $CHROMIUM is missing and there is no apt-get to install it;" >&2
    echo "ensure_browser: install Chromium so that $CHROMIUM exists, then re-run." >&2
    exit 1
fi

echo "ensure_browser: $CHROMIUM, a Cyrillic font or pdftotext is missing; installing Debian's chromium, fonts-dejavu-core and poppler-utils with apt-get"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium chromium-driver fonts-dejavu-core fontconfig poppler-utils >/dev/null

if [ ! -x "$CHROMIUM" ] || ! command -v pdftotext >/dev/null 2>&1; then
    echo "ensure_browser: apt-get finished but $CHROMIUM or pdftotext is still missing." >&2
    exit 1
fi
echo "ensure_browser: $("$CHROMIUM" --version 2>/dev/null || echo chromium) installed"
