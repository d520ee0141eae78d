"""The real-model runner (reliability.lab.measure) against a real HTTP server on
127.0.0.1: a scripted OpenAI-compatible endpoint that answers well, badly, with 500s,
timeouts, garbage and context overflows. No model here; test_lab_model.py runs the real one.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from reliability.i18n import language
from reliability.lab import measure as m

ROOT = Path(__file__).resolve().parents[1]


def _tool_call(name, arguments):
    return {"role": "assistant", "content": None, "tool_calls": [{
        "id": f"call-{name}", "type": "function",
        "function": {"name": name, "arguments": arguments}}]}


def _competent(messages, *, submits=True):
    """A model that does the task: look the order up, then its zone's rate, then submit
    the sum; it repairs a call from a 400's hint. ``submits=False``: it states the total
    in prose unless a user message has asked it to call submit_answer."""
    order = rate = None
    for message in messages:
        if message["role"] == "tool" and message["content"].startswith("{"):
            data = json.loads(message["content"])
            order = data if "item_total_usd" in data else order
            rate = data if "rate_usd" in data else rate
    last = messages[-1]
    key = "id" if last["role"] == "tool" and "use 'id'" in last["content"] else None
    if order is None:
        return _tool_call("get_order", json.dumps({key or "order_id": "A-1001"}))
    if rate is None:
        return _tool_call("get_ship_rate", json.dumps({key or "zone": order["zone"]}))
    total = order["item_total_usd"] + rate["rate_usd"]
    nudged = last["role"] == "user" and "submit_answer" in last["content"]
    if submits or nudged:
        return _tool_call("submit_answer", json.dumps({"value": total}))
    return {"role": "assistant", "content": f"The total is {total}."}


def _form_reply(payload):
    """A model whose free calls break half the time (an even seed: prose around the
    JSON) and are right otherwise; under a grammar its form always holds, but from the
    second step on it gets the arguments wrong (the zone of another record, a zero)."""
    turns = len(payload["messages"])  # system and question, then two more a step
    step = ("get_order", "get_ship_rate", "submit_answer")[(turns - 2) // 2]
    right = {"get_order": {"order_id": "A-1001"}, "get_ship_rate": {"zone": "B"},
             "submit_answer": {"value": 158}}[step]
    if "response_format" in payload:
        wrong = {"get_order": right, "get_ship_rate": {"zone": "A"},
                 "submit_answer": {"value": 0}}[step]
        return json.dumps({"name": step, "arguments": wrong})
    call = json.dumps({"name": step, "arguments": right})
    return f"Sure! Here is the call: {call}" if payload["seed"] % 2 == 0 else call


#: What the scripted endpoint does, by model name; "mixed" picks one by the trial's seed.
BEHAVIOURS = ("good", "500", "slow", "garbage", "overflow", "bad_arguments")


class _Handler(BaseHTTPRequestHandler):
    delay = 0.0

    def log_message(self, *args):  # the test's output stays the test's
        pass

    def _send(self, status, body: bytes):
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:  # the client gave up (a timeout trial): nothing to answer
            pass

    def do_POST(self):
        payload = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(payload)
        assert payload["max_tokens"] > 0 and "seed" in payload
        # what llama.cpp's Python server needs (a failed assertion drops the connection,
        # and the trial ends as a connection error): tool_choice said, or it shows the
        # model no tools; an assistant message's content as text, never missing or null
        assert "tools" not in payload or payload["tool_choice"] == "auto"
        assert all(isinstance(m.get("content"), str) for m in payload["messages"]
                   if m["role"] == "assistant")
        # a request counts as in flight only until its reply starts: counted to the end of
        # the reply, the client's next request may arrive before this thread counts down
        with self.server.lock:
            self.server.busy += 1
            self.server.most = max(self.server.most, self.server.busy)
        try:
            time.sleep(self.delay)
        finally:
            with self.server.lock:
                self.server.busy -= 1
        self._answer(payload)

    def _answer(self, payload):
        model = payload["model"]
        if "tools" not in payload:  # the form-against-content mode asks for a JSON call
            content = _form_reply(payload)
            return self._send(200, json.dumps({"choices": [{"message": {
                "role": "assistant", "content": content}}]}).encode())
        if model == "mixed":
            model = BEHAVIOURS[payload["seed"] % len(BEHAVIOURS)]
        if model == "500":
            return self._send(500, b'{"error": "internal"}')
        if model == "slow":
            time.sleep(2.0)
        if model == "garbage":
            return self._send(200, b"<html>not json")
        if model == "overflow":
            return self._send(400, b'{"error": {"message": "Requested tokens (5000) exceed '
                                   b'context window of 4096"}}')
        if model == "bad_arguments":
            message = _tool_call("get_order", '{"order_id": A-1001')
        else:
            message = _competent(payload["messages"], submits=model != "lazy")
        self._send(200, json.dumps({"choices": [{"message": message,
                                                 "finish_reason": "stop"}]}).encode())


@pytest.fixture
def endpoint():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.requests = []
    server.lock, server.busy, server.most = threading.Lock(), 0, 0
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server, f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def _lines(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


def test_every_trial_is_recorded_with_its_reason(endpoint, tmp_path):
    server, url = endpoint
    path = tmp_path / "mixed.jsonl"
    records = m.measure(m.Endpoint(url, "mixed"), path, trials=12, arms=["baseline"],
                        timeout=0.5)
    written = _lines(path)
    assert written == records and len(written) == 12
    # each trial asked for its own seed; the behaviour that seed picked decides the ending
    seen = {}
    for r in written:
        behaviour = BEHAVIOURS[r["model_seed"] % len(BEHAVIOURS)]
        seen.setdefault(behaviour, set()).add((r["outcome"], r["reason"]))
    expected = {"good": {("success", None)}, "500": {("error", "server_error")},
                "slow": {("error", "timeout")}, "garbage": {("error", "malformed_reply")},
                "overflow": {("error", "context_overflow")},
                # unparseable arguments are the model's malformed call, answered by a 400
                "bad_arguments": {("turn_limit", "turn_limit")}}
    assert {b: seen[b] for b in seen} == {b: expected[b] for b in seen}
    assert len(seen) >= 4, seen
    for r in written:
        assert r["messages"][0]["role"] == "user" and r["model"] == "mixed"
        assert r["max_tokens"] == 256 and r["seconds"] >= 0
    assert all(p["max_tokens"] == 256 for p in server.requests)


def test_the_summary_gives_intervals_and_the_gate_says_result_or_null(endpoint, tmp_path):
    _, url = endpoint
    records = m.measure(m.Endpoint(url, "lazy"), tmp_path / "lazy.jsonl", trials=8,
                        arms=["baseline", "submit_nudge", "validation"])
    lines = m.summary(records)
    assert "0 of 8 succeeded, 0.0% [0.0%, 32.4%]; failed: stopped in prose, no submission (8)" in lines[1]
    assert lines[2].startswith("+submit nudge: 8 of 8 succeeded, 100.0% [67.6%, 100.0%]")
    gaps = [line for line in lines if " vs " in line]
    assert gaps[0].startswith("+submit nudge vs baseline: +100.0 pp [")
    assert gaps[0].endswith("the interval excludes zero: a result")
    assert gaps[1].startswith("+validation vs baseline: +0.0 pp [")
    assert gaps[1].endswith("the interval contains zero: a null")
    with language("ru"):
        ru = m.summary(records)
    assert ru[1] == "база: успешно 0 из 8, 0,0% [0,0%; 32,4%]; неудачи: остановка на тексте, нет отправки (8)"
    assert ru[-1].endswith("интервал содержит ноль: нулевой результат")


def test_a_rerun_resumes_and_a_file_of_another_run_is_refused(endpoint, tmp_path):
    server, url = endpoint
    path = tmp_path / "good.jsonl"
    m.measure(m.Endpoint(url, "good"), path, trials=2, arms=["baseline"])
    asked = len(server.requests)
    with open(path, "a") as handle:  # a record cut short by a killed process
        handle.write('{"arm": "baseline", "ind')
    records = m.measure(m.Endpoint(url, "good"), path, trials=3, arms=["baseline"])
    assert [(r["arm"], r["index"]) for r in _lines(path)] == [("baseline", i) for i in range(3)]
    assert len(records) == 3 and len(server.requests) - asked == 3  # one trial, three turns
    with pytest.raises(ValueError, match="path .* another run .*temperature"):
        m.measure(m.Endpoint(url, "good"), path, trials=3, temperature=0.2)


def test_a_killed_run_resumes_with_each_trial_once(endpoint, tmp_path):
    server, url = endpoint
    _Handler.delay = 0.05
    path = tmp_path / "killed.jsonl"
    env = {**os.environ, m.ENV_URL: url, m.ENV_MODEL: "good", "PYTHONPATH": str(ROOT)}
    arms = ["baseline", "submit_nudge", "validation"]
    command = [sys.executable, "-m", "reliability.lab.measure", "--trials", "4",
               "--arms", *arms, "--out", str(path)]
    try:
        run = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while (not path.exists() or len(path.read_text().splitlines()) < 5) \
                and time.monotonic() < deadline:
            time.sleep(0.02)
        run.send_signal(signal.SIGKILL)
        run.wait()
        before = len(_lines(path))
        assert 5 <= before < 4 * len(arms)
        done = subprocess.run(command + ["--language", "ru"], env=env, capture_output=True,
                              text=True, timeout=120)
    finally:
        _Handler.delay = 0.0
    assert done.returncode == 0, done.stderr
    keys = Counter((r["arm"], r["index"]) for r in _lines(path))
    assert set(keys.values()) == {1} and len(keys) == 4 * len(arms)
    progress = done.stderr.splitlines()
    assert progress[0].startswith(f"испытаний готово: {before + 1}/{4 * len(arms)}, ")
    assert progress[-1].endswith("осталось около 0 мин")
    out = done.stdout.splitlines()
    assert out[1] == "база: успешно 4 из 4, 100,0% [51,0%; 100,0%]"
    assert len(out) == 1 + 3 + 2 + 1  # header, arms, gaps, "cannot be told apart"
    assert out[-1].startswith("Ни один интервал разрыва не исключает ноль")


#: ``python -m reliability.lab.measure`` as a terminal starts it, Ctrl-C raising
#: KeyboardInterrupt. A process that inherits SIGINT ignored keeps it ignored (Python
#: installs its handler only over the default), and a test worker can pass that on: two
#: full test runs started in the background failed here after ten seconds, as the test
#: does when pytest itself starts with SIGINT ignored; started this way it passes then.
AS_FROM_A_TERMINAL = ("import runpy, signal; "
                      "signal.signal(signal.SIGINT, signal.default_int_handler); "
                      "runpy.run_module('reliability.lab.measure', run_name='__main__', "
                      "alter_sys=True)")


def test_ctrl_c_stops_at_once_and_keeps_every_finished_trial(endpoint, tmp_path):
    _, url = endpoint
    _Handler.delay = 0.3
    path = tmp_path / "interrupted.jsonl"
    env = {**os.environ, m.ENV_URL: url, m.ENV_MODEL: "good", "PYTHONPATH": str(ROOT)}
    try:
        run = subprocess.Popen([sys.executable, "-c", AS_FROM_A_TERMINAL, "--trials",
                                "20", "--arms", "baseline", "--out", str(path)], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while (not path.exists() or not path.read_text().count("\n")) \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=10)  # not after the trial in flight ends
    finally:
        _Handler.delay = 0.0
    assert run.returncode == 130, err
    assert f"every finished trial is in {path}" in err
    assert 1 <= len(_lines(path)) < 20


def test_trials_run_concurrently_and_each_is_written_once(endpoint, tmp_path):
    server, url = endpoint
    _Handler.delay = 0.1
    try:
        records = m.measure(m.Endpoint(url, "good"), tmp_path / "c.jsonl", trials=4,
                            arms=["baseline", "submit_nudge"], concurrency=3)
    finally:
        _Handler.delay = 0.0
    assert server.most == 3  # three trials in flight at once, never more
    assert sorted((r["arm"], r["index"]) for r in _lines(tmp_path / "c.jsonl")) == sorted(
        (a, i) for a in ("baseline", "submit_nudge") for i in range(4))
    assert all(r["passed"] for r in records)


def test_bad_settings_are_refused_before_any_request(endpoint, tmp_path):
    server, url = endpoint
    with pytest.raises(ValueError, match="arms must be labels among"):
        m.measure(m.Endpoint(url, "good"), tmp_path / "x.jsonl", arms=["nudge"])
    with pytest.raises(ValueError, match="url must start with http"):
        m.Endpoint("localhost:8080", "good")
    assert server.requests == [] and not (tmp_path / "x.jsonl").exists()


def test_form_against_content_counts_what_parses_and_what_is_right(endpoint, tmp_path):
    server, url = endpoint
    path = tmp_path / "form.jsonl"
    records = m.measure_form(m.Endpoint(url, "sloppy"), path, calls=12)
    assert _lines(path) == records and len(records) == 24
    # the same call, seed and prompt in both arms; only the grammar differs
    asked = {}
    for payload in server.requests:
        arm = "grammar_enforced" if "response_format" in payload else "prompted"
        asked.setdefault(payload["seed"], {})[arm] = payload
    for pair in asked.values():
        assert pair["prompted"]["messages"] == pair["grammar_enforced"]["messages"]
        schema = pair["grammar_enforced"]["response_format"]["schema"]
        assert [o["properties"]["name"]["const"] for o in schema["anyOf"]] == [
            "get_order", "get_ship_rate", "submit_answer"]
    free = [r for r in records if r["arm"] == "prompted"]
    strict = [r for r in records if r["arm"] == "grammar_enforced"]
    odd = sum(r["model_seed"] % 2 for r in free)
    assert 0 < odd < 12
    assert [r["form"] for r in free] == [r["content"] for r in free] == [
        bool(r["model_seed"] % 2) for r in free]
    assert {r["reason"] for r in free if not r["form"]} == {"not_json"}
    assert all(r["form"] for r in strict)
    assert [r["content"] for r in strict] == [r["step"] == "get_order" for r in strict]
    assert {r["reason"] for r in strict if not r["content"]} == {"wrong_call"}
    lines = m.form_summary(records)
    assert lines[0] == (f"schema in the prompt: valid form {odd} of 12, "
                        f"{100 * odd / 12:.1f}% [") + lines[0].split("% [", 1)[1]
    assert lines[1].startswith("schema enforced by the grammar: valid form 12 of 12, "
                               "100.0% [75.8%, 100.0%]; right call 4 of 12, 33.3% [")
    form_gap, content_gap = lines[2], lines[3]
    def pp(x):
        return f"{x:+.1f}".replace("-", "\u2212")  # the page's minus sign
    assert form_gap.startswith("valid form: schema enforced by the grammar vs schema in "
                               f"the prompt: {pp(100 * (12 - odd) / 12)} pp [")
    assert content_gap.startswith("right call: schema enforced by the grammar vs schema "
                                  f"in the prompt: {pp(100 * (4 - odd) / 12)} pp [")
    for line in (form_gap, content_gap):
        assert line.endswith(("a result", "a null"))
    with language("ru"):
        ru = m.form_summary(records)
    assert ru[1].startswith("схема, навязанная грамматикой: верная форма 12 из 12, 100,0% [")
    # a rerun asks nothing again; a file of another mode is refused
    before = len(server.requests)
    m.measure_form(m.Endpoint(url, "sloppy"), path, calls=12)
    assert len(server.requests) == before
    with pytest.raises(ValueError, match="path .* another run"):
        m.measure(m.Endpoint(url, "sloppy"), path, trials=1, max_turns=1)
    with pytest.raises(ValueError, match="calls must be"):
        m.measure_form(m.Endpoint(url, "sloppy"), tmp_path / "y.jsonl", calls=0)


def test_the_stored_table_gives_the_summary_the_run_printed(endpoint, tmp_path):
    import pandas as pd

    _, url = endpoint
    trials = m.measure(m.Endpoint(url, "mixed"), tmp_path / "t.jsonl", trials=6,
                       arms=["baseline", "submit_nudge"], timeout=0.5)
    calls = m.measure_form(m.Endpoint(url, "sloppy"), tmp_path / "f.jsonl", calls=6)
    for records, summarise in ((trials, m.summary), (calls, m.form_summary)):
        path = tmp_path / "stored.csv"
        pd.DataFrame(m.stored_rows(records)).to_csv(path, index=False)
        table = pd.read_csv(path)
        assert summarise(m.stored_records(table)) == summarise(records)
        assert table["value"].sum() == len(records)
        assert table["model"].eq(records[0]["model"]).all()  # every row names its run
        assert table["command"].str.startswith("python -m reliability.lab.measure").all()
    with pytest.raises(ValueError, match="records must come from one run"):
        m.stored_rows(trials + [dict(trials[0], temperature=0.1)])


def test_in_brief_says_a_run_with_no_success_once_with_the_interval_it_leaves():
    """Chapter 9 printed seven arms' "0 of 6 succeeded" and four identical null gaps
    (issue 41): with no success anywhere and equal trials an arm, one sentence says it,
    with what a 0 of N can still hide; any success brings the arm-by-arm lines back."""
    from reliability.datasets import load

    records = m.stored_records(load("smollm2_lab"))
    brief = m.in_brief(records)
    assert brief[0] == m.summary(records)[0] and len(brief) == 2
    assert brief[1].startswith("No arm succeeded in any of its 6 trials (42 in all;")
    assert "0 of 6 is 0.0% [0.0%, 39.0%] (95% Wilson interval)" in brief[1]
    assert "Every gap is +0.0 pp [−39.0, +39.0] (95% Newcombe interval), a null" in brief[1]
    with language("ru"):
        ru = m.in_brief(records)[1]
    assert "0 из 6" in ru and "[0,0%; 39,0%]" in ru and "нулевой результат" in ru
    one_passed = [dict(records[0], passed=True, outcome="pass")] + records[1:]
    assert m.in_brief(one_passed) == m.summary(one_passed)
