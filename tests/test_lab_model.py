"""The real thing: ``python -m reliability.lab.measure`` with no endpoint in the
environment starts llama.cpp's server on the packaged SmolLM2-135M file, runs episodes
over real HTTP, and stops the server; killed half-way, it leaves no server behind and a
rerun completes the file with each trial once.

The model's environment is .venv-model, as `make measure` makes it (the extra `model`).
When it is missing or older than pyproject.toml this test makes it (`make model`): pip
builds llama.cpp from source the first time on a machine (minutes) and takes the built
wheel from its cache after that.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from reliability.lab import measure as m

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / ".venv-model"
PYTHON = MODEL / "bin" / "python"
ARMS = ["baseline", "submit_nudge"]
TRIALS = 2
#: A short episode: the check is that the packaged model answers over real HTTP and a
#: killed run resumes, not what it answers (three turns of 64 tokens: the test took 26 s
#: on a quiet machine, 35 s with six turns of 128; starting the server twice is the rest)
TURNS, TOKENS = 3, 64


def _stamp() -> Path:
    # the Makefile's stamp: the first 12 hex digits of pyproject.toml's SHA-1
    digest = hashlib.sha1((ROOT / "pyproject.toml").read_bytes()).hexdigest()[:12]
    return MODEL / f".installed-{digest}"


@pytest.fixture(scope="module")
def model_python():
    if not _stamp().exists():
        # the Makefile's recipe, with its build flags for llama.cpp
        subprocess.run(["make", "--no-print-directory", "model", f"PYTHON={sys.executable}"],
                       cwd=ROOT, check=True, timeout=3600)
    assert _stamp().exists()
    return PYTHON


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc")
def test_the_packaged_model_runs_over_real_http_and_a_killed_run_resumes(model_python,
                                                                          tmp_path):
    path = tmp_path / "smollm2.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith("RELIABILITY_LAB_")}
    env["PYTHONPATH"] = str(ROOT)
    command = [str(model_python), "-m", "reliability.lab.measure", "--trials", str(TRIALS),
               "--arms", *ARMS, "--out", str(path), "--max-tokens", str(TOKENS),
               "--max-turns", str(TURNS), "--timeout", "120"]
    run = subprocess.Popen(command, env=env, cwd=tmp_path, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 600
    while not (path.exists() and path.read_text().count("\n") >= 1):
        assert run.poll() is None, run.stderr.read()
        assert time.monotonic() < deadline, "no trial finished in 10 minutes"
        time.sleep(0.2)
    servers = _children(run.pid)
    assert servers, "the runner has no server process"
    run.send_signal(signal.SIGKILL)
    run.wait()
    run.stdout.close()
    run.stderr.close()
    # the kernel stops the server with its parent (PR_SET_PDEATHSIG)
    deadline = time.monotonic() + 30
    while any(_alive(p) for p in servers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(_alive(p) for p in servers), "a killed run left its server running"
    before = _records(path)
    assert 1 <= len(before) < TRIALS * len(ARMS)

    done = subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True,
                          timeout=1800)
    assert done.returncode == 0, done.stderr
    records = _records(path)
    assert records[:len(before)] == before
    assert Counter((r["arm"], r["index"]) for r in records) == Counter(
        {(a, i): 1 for a in ARMS for i in range(TRIALS)})
    for r in records:
        assert r["model"] == "SmolLM2-135M-Instruct.Q4_1.gguf"
        assert r["server"] == "llama-cpp-python" and r["server_version"] == "0.3.36"
        assert len(r["model_sha256"]) == 64 and r["max_tokens"] == TOKENS
        # the model answered over HTTP: its replies are in the record, whatever they were
        assert r["outcome"] == "error" or any(msg["role"] == "assistant"
                                              for msg in r["messages"])
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Model SmolLM2-135M-Instruct.Q4_1.gguf (llama-cpp-python)")
    assert lines[1].startswith("baseline: ") and f" of {TRIALS} succeeded, " in lines[1]
    gate = [line for line in lines if line.startswith("+submit nudge vs baseline: ")]
    assert len(gate) == 1 and gate[0].endswith(("a result", "a null"))
    assert len(done.stderr.strip().splitlines()) == TRIALS * len(ARMS) - len(before)
    assert m.summary(records) == lines
