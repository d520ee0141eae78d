"""How fast does each page of the book paint on a phone? Lighthouse over every page.

    .venv/bin/python benchmarks/lighthouse.py [--html _build/html] [--pages ch03 ...]

Without ``--html`` both editions are built from their stored outputs (nothing executes)
into a fresh temporary folder. The site is then served from a small local server that
compresses text with gzip, as GitHub Pages does, and Lighthouse (pinned in package.json,
run by Node from node_modules; scripts/vendor_assets.sh installs it) loads every page of
both editions in Debian's headless Chromium with its default mobile profile: a mid-range
phone on a slow 4G connection, simulated. Each page is loaded three times (``--runs``)
and the run with the median performance score is printed, one line per page:

* performance: Lighthouse's score, 0-100 (wanted: 90 or more);
* first paint (FCP): when the first words or image appear;
* largest paint (LCP): when the largest block of the first screen appears
  (Core Web Vitals' "good": 2.5 s or less);
* layout shift (CLS): how far the page jumps while it loads ("good": 0.1 or less; it
  does not depend on the machine, and tests/test_browser.py holds every page under it);
* blocking (TBT): how long scripts keep the page from answering a tap (wanted: under
  200 ms).

The times are simulated from what the page asks for and in which order, so they move
little with the machine's load; a busy machine still adds some. Measured, not asserted.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import shutil
import subprocess
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from bookbuild.book_pdf import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parent.parent

LIGHTHOUSE = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"
# What GitHub Pages compresses: text, not images or woff2 fonts (already compressed).
COMPRESSED = (".html", ".css", ".js", ".json", ".svg", ".txt", ".xml", ".map")
AUDITS = {"fcp": "first-contentful-paint", "lcp": "largest-contentful-paint",
          "cls": "cumulative-layout-shift", "tbt": "total-blocking-time"}


class _Pages(SimpleHTTPRequestHandler):
    """Serve a folder as Pages does: gzip for text when the browser accepts it, and a
    ten-minute cache lifetime."""

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.suffix in COMPRESSED and path.is_file()):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), compresslevel=6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")
        self.end_headers()
        self.wfile.write(body)
        return None

    def end_headers(self):
        if not any(line.startswith(b"Cache-Control") for line in self._headers_buffer):
            self.send_header("Cache-Control", "max-age=600")
        super().end_headers()

    def log_message(self, *args):
        pass


def serve(html_root: Path) -> tuple[ThreadingHTTPServer, str]:
    handler = functools.partial(_Pages, directory=str(html_root))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def pages(html_root: Path) -> list[str]:
    """Every reader's page of both editions (not the root's redirect, not _static)."""
    found = []
    for page in sorted(html_root.rglob("*.html")):
        relative = page.relative_to(html_root).as_posix()
        if any(part.startswith("_") for part in relative.split("/")):
            continue
        head = page.read_text(encoding="utf-8", errors="replace")[:2000]
        if 'http-equiv="Refresh"' in head:
            continue  # a redirect, nothing to paint
        found.append(relative)
    return found


def measure(url: str) -> dict:
    """Lighthouse's performance score and the four timings of one page."""
    flags = " ".join(CHROMIUM_ARGS)
    result = subprocess.run(
        ["node", str(LIGHTHOUSE), url, "--only-categories=performance",
         "--output=json", "--output-path=stdout", "--quiet", f"--chrome-flags={flags}"],
        capture_output=True, text=True, env={"CHROME_PATH": str(CHROMIUM),
                                             "PATH": "/usr/bin:/bin", "HOME": "/tmp"},
        timeout=300)
    if result.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url}: "
                           f"{result.stderr.strip()[-500:]}")
    report = json.loads(result.stdout)
    score = report["categories"]["performance"]["score"]
    values = {key: report["audits"][audit].get("numericValue")
              for key, audit in AUDITS.items()}
    values["performance"] = None if score is None else round(100 * score)
    return values


def median_run(url: str, runs: int) -> dict:
    """The run with the median performance score of ``runs`` (Lighthouse's advice: one
    run's simulation varies with what the browser happened to observe)."""
    results = sorted((measure(url) for _ in range(runs)),
                     key=lambda values: values["performance"] or 0)
    return results[len(results) // 2]


def _seconds(ms):
    return "-" if ms is None else f"{ms / 1000:.1f} s"


def row(page: str, values: dict) -> str:
    score, cls, tbt = values["performance"], values["cls"], values["tbt"]
    return " | ".join(["", page, "-" if score is None else str(score),
                       _seconds(values["fcp"]), _seconds(values["lcp"]),
                       "-" if cls is None else f"{cls:.3f}",
                       "-" if tbt is None else f"{tbt:.0f} ms", ""]).strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=Path,
                        help="an already built _build/html to measure")
    parser.add_argument("--pages", nargs="*", default=[],
                        help="only pages whose path contains one of these words")
    parser.add_argument("--runs", type=int, default=3,
                        help="runs per page; the run with the median score is printed")
    args = parser.parse_args()
    if args.runs < 1:
        raise ValueError(f"--runs must be 1 or more, not {args.runs}")
    if not LIGHTHOUSE.is_file():
        print("lighthouse: node_modules/lighthouse is missing; "
              "run scripts/vendor_assets.sh",
              file=sys.stderr)
        return 1
    tmp = None
    html_root = args.html
    if html_root is None:
        import bookbuild.site

        tmp = tempfile.mkdtemp(prefix="lighthouse-")
        result = bookbuild.site.build(Path(tmp), pdf=False)
        if bookbuild.site.failed(result):
            print(f"lighthouse: the build failed: {bookbuild.site.failed(result)}",
                  file=sys.stderr)
            return 1
        html_root = bookbuild.site.site(Path(tmp))
    server, base = serve(html_root)
    try:
        chosen = [p for p in pages(html_root)
                  if not args.pages or any(word in p for word in args.pages)]
        print(f"Lighthouse 12 (mobile: simulated slow 4G, mid-range phone), served "
              f"with gzip; the median of {args.runs} runs per page")
        print("| page | performance | first paint | largest paint | layout shift "
              "| blocking |")
        print("| --- | --- | --- | --- | --- | --- |")
        worst = []
        for page in chosen:
            values = median_run(base + page, args.runs)
            print(row(page, values), flush=True)
            worst.append(values)
        good = [v for v in worst if (v["lcp"] or 1e9) <= 2500 and (v["cls"] or 0) <= 0.1
                and (v["performance"] or 0) >= 90]
        print(f"{len(good)} of {len(worst)} pages good (largest paint <= 2.5 s, layout "
              "shift <= 0.1, performance >= 90)")
    finally:
        server.shutdown()
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
