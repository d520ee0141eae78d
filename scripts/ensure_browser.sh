#!/usr/bin/env bash
# The browser tests drive Debian's Chromium; Playwright must never download a browser of
# its own (the test machines reach no browser download host). Install it where missing.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "ensure_browser: $CHROMIUM is missing and this is not root." >&2
    echo "ensure_browser: install it with: sudo apt-get update && sudo apt-get install -y chromium chromium-driver" >&2
    exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure_browser: $CHROMIUM is missing and there is no apt-get to install it;" >&2
    echo "ensure_browser: install Chromium so that $CHROMIUM exists, then re-run." >&2
    exit 1
fi

echo "ensure_browser: $CHROMIUM is missing; installing Debian's chromium with apt-get"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium chromium-driver >/dev/null

if [ ! -x "$CHROMIUM" ]; then
    echo "ensure_browser: apt-get finished but $CHROMIUM is still missing." >&2
    exit 1
fi
echo "ensure_browser: $("$CHROMIUM" --version 2>/dev/null || echo chromium) installed"
