"""Optional: a real model behind the lab's agent interface, through any OpenAI-compatible
chat-completions endpoint (OpenRouter, a local vLLM or llama.cpp server, ...).

Nothing in the book or the tests calls a network. A reader with a key can write

    agent = ChatAgent(url="https://openrouter.ai/api/v1/chat/completions",
                      model="mistralai/mistral-nemo", key=os.environ["OPENROUTER_API_KEY"])
    run_episode(guardrails=Guardrails(submit_nudge=True), agent=agent)

and the harness, injectors, guardrails and oracle are exactly the simulated lab's. The
standard library's ``urllib`` does the HTTP, so the adapter needs no extra package; pass
``post`` to replace it (the tests do, with canned replies).
"""

from __future__ import annotations

import json
import urllib.request

from .. import _validate
from .agent import Action, _observations
from .faults import LOOKUPS

__all__ = ["ChatAgent", "TOOLS"]

_SCHEMA = {"type": "object", "additionalProperties": True}
#: The tool declarations sent with every request (documented argument names only).
TOOLS = [
    {"type": "function", "function": {"name": "get_order", "description": "Look up an order: item total (USD) and shipping zone.",
     "parameters": {**_SCHEMA, "properties": {LOOKUPS["get_order"]: {"type": "string"}}}}},
    {"type": "function", "function": {"name": "get_ship_rate", "description": "Shipping rate (USD) of a zone.",
     "parameters": {**_SCHEMA, "properties": {LOOKUPS["get_ship_rate"]: {"type": "string"}}}}},
    {"type": "function", "function": {"name": "submit_answer", "description": "Submit the order's total cost (items plus shipping).",
     "parameters": {**_SCHEMA, "properties": {"value": {"type": "number"}}}}},
]

_NUDGES = {"retry_nudge": "Your last tool call failed. Read the error and correct the arguments.",
           "submit_nudge": "You have not called submit_answer. Call it now with your total."}


def _urllib_post(url: str, payload: dict, headers: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(payload).encode(), headers=headers)
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


class ChatAgent:
    """``act(observations)`` for a chat model: observations become messages, the reply's
    first tool call (or its prose) becomes an :class:`~reliability.lab.agent.Action`."""

    def __init__(self, *, url: str, model: str, key: str = "", order_id: str = "A-1001",
                 temperature: float = 0.7, max_tokens: int = 512, seed: int | None = None,
                 post=_urllib_post):
        for name, value in (("url", url), ("model", model), ("key", key), ("order_id", order_id)):
            _validate.text(name, value)
        temperature = _validate.real("temperature", temperature, minimum=0.0, maximum=2.0)
        # every request is capped: a model that rambles costs a bounded number of tokens
        self.max_tokens = _validate.whole("max_tokens", max_tokens, minimum=1, maximum=1 << 20)
        self.seed = None if seed is None else _validate.whole("seed", seed, minimum=0)
        _validate.function("post", post)
        self.url, self.model, self.temperature, self.post = url, model, temperature, post
        self.headers = {"Content-Type": "application/json",
                        **({"Authorization": f"Bearer {key}"} if key else {})}
        self.messages = [{"role": "user", "content":
                          f"What is the total cost of order {order_id}, items plus shipping? "
                          "Use the tools, then call submit_answer with the number."}]
        self.pending_call = None

    def _add(self, message: dict) -> None:
        kind = message["kind"]
        if kind == "tool_result":
            result = message["result"]
            content = json.dumps(result.data) if result.ok else result.error
            self.messages.append({"role": "tool", "tool_call_id": self.pending_call,
                                  "content": content})
        elif kind in _NUDGES:
            self.messages.append({"role": "user", "content": _NUDGES[kind]})
        elif kind == "validation":
            parts = message["parts"]
            if self.pending_call:
                self.messages.append({"role": "tool", "tool_call_id": self.pending_call,
                                      "content": "rejected"})
            self.messages.append({"role": "user", "content":
                                  f"That total does not match your retrieved values {parts[0]:g} "
                                  f"and {parts[1]:g}. Recompute it and submit again."})

    def act(self, observations) -> Action:
        for message in _observations(observations):
            self._add(message)
        # "auto" said outright: it is OpenAI's default with tools, but llama.cpp's Python
        # server (chatml-function-calling) drops the tools from the prompt without it
        payload = {"model": self.model, "messages": self.messages, "tools": TOOLS,
                   "tool_choice": "auto", "temperature": self.temperature,
                   "max_tokens": self.max_tokens}
        if self.seed is not None:
            payload["seed"] = self.seed
        reply = self.post(self.url, payload, self.headers)
        message = reply["choices"][0]["message"]
        calls = message.get("tool_calls") or []
        # "content" kept, as text, beside tool calls: llama.cpp's Python server renders
        # the history with a strict template that fails (HTTP 500) on an assistant
        # message without it, and its request schema refuses a null
        kept = {k: v for k, v in message.items() if v is not None}
        kept.setdefault("content", "")
        self.messages.append(kept)
        if not calls:
            self.pending_call = None
            return Action("prose", text=message.get("content") or "")
        call = calls[0]
        self.pending_call = call.get("id")
        try:
            args = json.loads(call["function"].get("arguments") or "{}")
        except json.JSONDecodeError:
            args = {}
        if not isinstance(args, dict):  # a JSON array parses but is no argument object
            args = {}
        name = call["function"]["name"]
        if name == "submit_answer":
            return Action("submit", value=args.get("value"))
        if name not in LOOKUPS:
            return Action("prose", text=f"called an unknown tool {name!r}")
        return Action("call", name, args)
