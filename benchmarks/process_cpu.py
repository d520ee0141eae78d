"""Where a command's processor time goes, by kind of process, and how busy the machine was.

    .venv/bin/python benchmarks/process_cpu.py -- .venv/bin/python -m pytest -n 2 \
        --dist loadscope -p no:cacheprovider tests

Runs the command and, every ``--every`` seconds until it ends, reads every process's
processor time from Linux's ``/proc`` (the command's and whatever else runs beside it, so
run it on a quiet machine). At the end it prints the seconds of processor time by kind of
process (Chromium, kernels, pytest's workers, the build's figure runs, pip, the real
model), and the share of the machine's processors that were busy. ``time`` cannot say
this: a browser's or a kernel's children that are killed, not waited for, never add their
time to the command's. A process that lives less than one interval may be missed; a
forked child keeps its parent's name until it runs something else.
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import time

#: Kinds of process, by a word of their command line: the first that matches names it.
KINDS = (("chromium", "Chromium (pages, PDFs, JupyterLab's page)"),
         ("ipykernel", "kernels (chapters, launch notebooks)"),
         ("jupyter-lab", "JupyterLab's server"),
         ("jupyterhub", "JupyterHub"),
         ("bookbuild.slides", "the build's figure runs"),
         ("bookbuild", "the build"),
         ("sphinx", "the build"),
         ("pytest", "pytest and its workers"),
         ("xdist", "pytest and its workers"),
         ("playwright", "Playwright's driver"),
         ("llama", "the real model's server"),
         ("pip", "pip (environment emulations)"))


def kind(command: str) -> str:
    for word, name in KINDS:
        if word in command:
            return name
    return "other: " + (os.path.basename(command.split(" ")[0]) or "(unnamed)")


def _processes(clock_ticks: int) -> dict[tuple[str, str], tuple[str, float]]:
    """Every process now: (pid, start time) -> (command line, processor seconds)."""
    found = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as stat:
                text = stat.read()
            fields = text[text.rindex(")") + 2:].split()
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, ValueError):
            continue   # ended between the listing and the read
        seconds = (int(fields[11]) + int(fields[12])) / clock_ticks
        found[(pid, fields[19])] = (command.strip(), seconds)
    return found


def _busy() -> tuple[int, int]:
    """The machine's processor ticks so far: (busy, all)."""
    with open("/proc/stat") as stat:
        ticks = [int(x) for x in stat.readline().split()[1:9]]
    return sum(ticks) - ticks[3] - ticks[4], sum(ticks)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=float, default=2.0,
                        help="seconds between two readings (default 2)")
    parser.add_argument("command", nargs=argparse.REMAINDER,
                        help="the command to run, after --")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to measure after --")
    if not sys.platform.startswith("linux"):
        parser.error("this reads Linux's /proc")
    ticks = os.sysconf("SC_CLK_TCK")
    already = set(_processes(ticks))
    seen: dict[tuple[str, str], tuple[str, float]] = {}
    busy_before, all_before = _busy()
    started = time.monotonic()
    run = subprocess.Popen(command)
    while run.poll() is None:
        for key, (line, seconds) in _processes(ticks).items():
            if key not in already:
                # the first command line seen names it, unless it was still a fork then
                name = seen.get(key, (line, 0.0))[0] or line
                seen[key] = (name, seconds)
        time.sleep(args.every)
    busy_after, all_after = _busy()
    by_kind = collections.Counter()
    for line, seconds in seen.values():
        by_kind[kind(line)] += seconds
    total = sum(by_kind.values())
    print(f"\n{time.monotonic() - started:.0f} s on the clock, the processors "
          f"{(busy_after - busy_before) / max(all_after - all_before, 1):.0%} busy; "
          f"processor time by kind of process ({total:.0f} s in all):")
    for name, seconds in by_kind.most_common(12):
        print(f"{seconds:8.0f} s {seconds / max(total, 1e-9):6.1%}  {name}")
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
