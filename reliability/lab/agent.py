r"""A simulated tool-calling agent and the harness loop that runs it against the task.

The agent is a behaviour profile, not a language model: at each decision it makes one of
the failures the rig saw real models make, each with its own probability, and otherwise
does the right thing. Per run it

* calls a lookup with a wrong argument name with probability ``malformed`` (per tool);
  after a 400 it repairs the call from the hint with probability ``heal`` (``heeds`` when
  a retry nudge asked it to);
* skips the rate lookup with probability ``skip_lookup`` or fetches the wrong zone's
  record with probability ``wrong_record``;
* at each answer turn ends in prose instead of calling ``submit_answer`` with probability
  ``no_submit`` (after a submit nudge it submits with probability ``heeds``);
* submits a non-numeric string, a made-up number, or the item total alone (an arithmetic
  slip) with probabilities ``non_numeric``, ``made_up`` and ``slip``, else the sum of what it
  retrieved; after validation sends the parts back it adds them with probability ``heeds``.

The harness gives it at most ``max_turns`` turns (one model response each). A transient
503 that reaches the model costs it a turn to retry; with error recovery on, the harness
retries silently and the 503 never enters the history.

With no failure but transient faults at rate :math:`r` and :math:`T` turns, a run needs two
good lookups in its first :math:`T - 1` turns, so it succeeds with
:math:`P[\mathrm{Bin}(T-1, q) \ge 2]`, :math:`q = 1 - r^{A+1}` for :math:`A` silent retries
(:math:`A = 0` without error recovery): see :func:`transient_success`.
"""

from __future__ import annotations

import functools
import json
import math
import os
from dataclasses import asdict, dataclass, field, fields

import numpy as np

from .. import _validate
from ..i18n import N_, _, get_language, translate
from ..numbers import fmt, said
from .faults import LOOKUPS, MalformedFaults, TransientFaults, check_arguments
from .guardrails import GUARDRAILS, Guardrails, validate
from .task import ORDER_KEY, ZONE_KEY, Task, oracle

__all__ = ["Profile", "PROFILES", "Action", "Event", "Trajectory", "SimulatedAgent",
           "run_episode", "episode_streams", "transient_success", "write_jsonl"]


@dataclass(frozen=True)
class Profile:
    """How often the simulated agent fails on its own; every field a probability."""

    malformed: float = 0.0
    heal: float = 1.0
    skip_lookup: float = 0.0
    wrong_record: float = 0.0
    no_submit: float = 0.0
    non_numeric: float = 0.0
    made_up: float = 0.0
    slip: float = 0.0
    heeds: float = 1.0

    def __post_init__(self):
        for f in fields(self):
            object.__setattr__(self, f.name, _validate.probability(f.name, getattr(self, f.name)))
        if self.skip_lookup + self.wrong_record > 1 + 1e-12:
            raise ValueError("skip_lookup + wrong_record must be at most 1 (one plan per run), "
                             f"got {self.skip_lookup} + {self.wrong_record}")
        answer = self.non_numeric + self.made_up + self.slip
        if answer > 1 + 1e-12:
            raise ValueError("non_numeric + made_up + slip must be at most 1 (one answer per "
                             f"submission), got {answer}")


#: The lab's named profiles. ``clean`` never fails on its own; the ladder's three run from
#: strong to weak. The numbers are the lab's choices, set by hand to show each mechanism.
PROFILES = {
    "clean": Profile(),
    "strong": Profile(malformed=0.05),
    "medium": Profile(no_submit=0.9, slip=0.25, heeds=0.95),
    "weak": Profile(malformed=0.1, heal=0.6, skip_lookup=0.35, wrong_record=0.1,
                    no_submit=0.03, non_numeric=0.08, made_up=0.85, heeds=0.9),
}


@dataclass(frozen=True)
class Action:
    """One model turn: a tool ``call`` (tool, args), a ``submit`` (value) or ``prose``."""

    kind: str
    tool: str | None = None
    args: dict = field(default_factory=dict)
    value: object = None
    text: str = ""

    def __post_init__(self):
        _validate.text("kind", self.kind, choices=("call", "submit", "prose"))
        _validate.text("tool", self.tool, optional=True)
        _validate.mapping("args", self.args, what="argument names to values")
        _validate.text("text", self.text)


@dataclass(frozen=True)
class Event:
    """One line of a trajectory: who acted, on which turn, what happened."""

    turn: int
    source: str  # model, tool, harness, grader
    kind: str
    text: str

    def __post_init__(self):
        _validate.whole("turn", self.turn, minimum=0)
        _validate.text("source", self.source)
        _validate.text("kind", self.kind)
        _validate.text("text", self.text)

    def __str__(self):
        # The columns are as wide as the longest word in the page's language (7 in English).
        width = max(len(translate(s)) for s in SOURCES)
        # a guardrail's event reads as its name in words ("submit nudge")
        kind = translate(self.kind) if self.kind in KINDS else said(self.kind)
        return _("turn {turn} | {source} | {kind:<16} | {text}").format(
            turn=self.turn, source=translate(self.source).ljust(width), kind=kind,
            text=self.text)


#: Who acts in a trajectory, and the kinds of event that are words (the others are status
#: codes and guardrail names), marked for translation.
SOURCES = (N_("model"), N_("tool"), N_("harness"), N_("grader"))
KINDS = (N_("call"), N_("prose"), N_("submit"), N_("PASS"), N_("FAIL"))
#: How a run ended, as the grader's line says it.
ENDINGS = (N_("submitted"), N_("no_submit"), N_("turn_limit"))


def _shown(value) -> str:
    """A submitted answer as the trace prints it: a number in the page's language, any
    other value (the model may submit a string) as Python writes it, and no answer at
    all as "nothing" («ничего»)."""
    if value is None:
        return _("nothing")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return fmt(value, "g")
    return repr(value)


@dataclass(frozen=True)
class Trajectory:
    """A run, as the grader and a reader see it.

    ``ending``: ``submitted``, ``no_submit`` (stopped in prose) or ``turn_limit``.
    ``fired``: how often each guardrail acted. ``retrieved``: the tool results the run got.
    """

    ending: str
    submitted: object
    passed: bool
    turns: int
    fired: dict
    retrieved: dict
    rejected: int
    events: tuple = field(repr=False)

    def __post_init__(self):
        _validate.text("ending", self.ending, choices=("submitted", "no_submit", "turn_limit"))
        _validate.flag("passed", self.passed)
        _validate.whole("turns", self.turns, minimum=0)
        _validate.mapping("fired", self.fired, what="guardrail names to counts")
        _validate.mapping("retrieved", self.retrieved, what="tool names to results")
        _validate.whole("rejected", self.rejected, minimum=0)
        _validate.sequence("events", self.events, of=Event, what="Events")

    def lines(self) -> list[str]:
        return [str(e) for e in self.events]

    def records(self) -> list[dict]:
        return [asdict(e) for e in self.events]


class SimulatedAgent:
    """The profile as an agent: ``act(observations)`` returns the next :class:`Action`.

    ``observations`` are the messages the harness added since the agent's last turn
    (tool results, nudges, validation feedback): the same interface a real model's
    adapter would implement on a chat history.
    """

    def __init__(self, profile: Profile, rng: np.random.Generator, *, zones, order_id: str):
        if not isinstance(profile, Profile):
            raise ValueError(f"profile must be a Profile, got {profile!r}")
        _validate.instance("rng", rng, np.random.Generator)
        _validate.text("order_id", order_id)
        zones = _validate.sequence("zones", zones, of=str, what="zone names", minimum=2)
        self.p, self.rng, self.order_id = profile, rng, order_id
        self.zones = tuple(zones)
        u = rng.random(4)
        self.skip = u[0] < profile.skip_lookup
        self.wrong = (not self.skip) and u[0] < profile.skip_lookup + profile.wrong_record
        malformed_key = {"get_order": "orderId", "get_ship_rate": "zone_name"}
        self.key = {tool: (malformed_key[tool] if u[1 + i] < profile.malformed else documented)
                    for i, (tool, documented) in enumerate(LOOKUPS.items())}
        self.order = self.rate = None
        self.hint: dict[str, tuple[str, float]] = {}
        self.asked_to_submit = False
        self.parts = None

    def _observe(self, message: dict) -> None:
        kind = message["kind"]
        if kind == "tool_result":
            result, tool = message["result"], message["tool"]
            if result.ok:
                if tool == "get_order":
                    self.order = result.data
                else:
                    self.rate = result.data
            elif result.status == 400:
                self.hint[tool] = (result.error.split("use '")[1].split("'")[0], self.p.heal)
        elif kind == "retry_nudge":
            key, chance = self.hint[message["tool"]]
            self.hint[message["tool"]] = (key, max(chance, self.p.heeds))
        elif kind == "submit_nudge":
            self.asked_to_submit = True
        elif kind == "validation":
            self.parts = message["parts"]

    def _call(self, tool: str, value) -> Action:
        if tool in self.hint:
            key, chance = self.hint.pop(tool)
            if self.rng.random() < chance:
                self.key[tool] = key
        return Action("call", tool, {self.key[tool]: value})

    def _answer(self):
        item = self.order["item_total_usd"]
        u = self.rng.random()
        p = self.p
        if u < p.non_numeric:
            return "item_total_usd + ship_rate"
        if u < p.non_numeric + p.made_up:
            return round(float(self.rng.uniform(200, 2000)), 2)
        if u < p.non_numeric + p.made_up + p.slip or self.rate is None:
            return item
        return item + self.rate["rate_usd"]

    def act(self, observations) -> Action:
        for message in _observations(observations):
            self._observe(message)
        if self.order is None:
            return self._call("get_order", self.order_id)
        if self.rate is None and not self.skip:
            zone = self.order["zone"]
            if self.wrong:
                zone = next(z for z in self.zones if z != zone)
            return self._call("get_ship_rate", zone)
        if self.parts is not None:
            parts, self.parts = self.parts, None
            if self.rng.random() < self.p.heeds:
                return Action("submit", value=sum(parts))
            return Action("submit", value=self._answer())
        chance_of_prose = (1 - self.p.heeds) if self.asked_to_submit else self.p.no_submit
        if self.rng.random() < chance_of_prose:
            return Action("prose", text=_("The total is computed; calling submit_answer "
                                          "now..."))
        return Action("submit", value=self._answer())


def _observations(observations) -> list:
    """The harness's messages: a list of dicts, each with a ``kind``."""
    if not isinstance(observations, (list, tuple)) or not all(
            isinstance(m, dict) and "kind" in m for m in observations):
        raise ValueError(f"observations must be a list of message dicts with a 'kind', "
                         f"got {observations!r}")
    return list(observations)


def episode_streams(seed, index: int) -> tuple[np.random.Generator, np.random.Generator]:
    """The two independent streams of run ``index``: (agent behaviour, injected faults).

    Derived from ``(seed, index)`` alone, so run ``index`` of every arm faces the same
    faults and starts from the same behaviour draws: the arms are paired.
    """
    seed = _validate.seed_integer(seed)
    index = _validate.whole("index", index, minimum=0)
    behaviour, faults = np.random.SeedSequence([seed, index]).spawn(2)
    return np.random.default_rng(behaviour), np.random.default_rng(faults)


# --- a whole arm's streams at once --------------------------------------------------------
# numpy's SeedSequence, written over arrays (numpy/random/bit_generator.pyx: hashmix, mix,
# mix_entropy, generate_state): an arm derives two streams for each of its runs, and the
# per-run objects (a SeedSequence, two children, two bit generators) were a quarter of a
# run's time. The words are numpy's to the bit (tests/test_lab.py holds them equal).
_INIT_A, _MULT_A, _INIT_B, _MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R, _MASK = 0xCA01F9DD, 0x4973F715, 0xFFFFFFFF
_POOL = 4


def _words(number: int) -> list[int]:
    """``number`` as SeedSequence reads it: 32-bit words, least significant first."""
    words = [number & _MASK]
    number >>= 32
    while number:
        words.append(number & _MASK)
        number >>= 32
    return words


class _Hash:
    """SeedSequence's running hash constant, applied to arrays of uint32 words."""

    def __init__(self, start: int):
        self.const = start

    def mix(self, value):
        value = value ^ np.uint32(self.const)
        self.const = (self.const * _MULT_A) & _MASK
        value = value * np.uint32(self.const)
        return value ^ (value >> np.uint32(16))


def _mix(x, y):
    result = np.uint32(_MIX_L) * x - np.uint32(_MIX_R) * y
    return result ^ (result >> np.uint32(16))


def _states(entropy: np.ndarray) -> np.ndarray:
    """The four 64-bit words PCG64 is seeded with, for each row of ``entropy`` (uint32
    words, the assembled entropy of one SeedSequence per row: a spawned child's is
    padded to the pool's four words before its spawn key, so it fills the pool)."""
    hash_a = _Hash(_INIT_A)
    pool = [hash_a.mix(entropy[:, i]) for i in range(_POOL)]
    for source in range(_POOL):
        for target in range(_POOL):
            if source != target:
                pool[target] = _mix(pool[target], hash_a.mix(pool[source]))
    for source in range(_POOL, entropy.shape[1]):
        for target in range(_POOL):
            pool[target] = _mix(pool[target], hash_a.mix(entropy[:, source]))
    const, state = _INIT_B, []
    for word in range(8):              # four 64-bit words: eight 32-bit ones
        const_now = (const * _MULT_B) & _MASK
        value = (pool[word % _POOL] ^ np.uint32(const)) * np.uint32(const_now)
        state.append(value ^ (value >> np.uint32(16)))
        const = const_now
    low, high = np.array(state[0::2], dtype=np.uint64), np.array(state[1::2], dtype=np.uint64)
    return np.ascontiguousarray((low | (high << np.uint64(32))).T)


class _Seeded:
    """A seed sequence whose state is already known (numpy asks it for four words)."""

    __slots__ = ("state",)

    def __init__(self, state: np.ndarray):
        self.state = state

    def generate_state(self, n_words, dtype=np.uint32):
        # PCG64 asks for four 64-bit words; anything else would be read wrong
        if n_words != 4 or np.dtype(dtype) != np.uint64:
            raise ValueError(f"a run's stream holds 4 uint64 words, not {n_words} {dtype}")
        return self.state


np.random.bit_generator.ISeedSequence.register(_Seeded)


def _arm_streams(seed: int, first: int, runs: int):
    """The pairs :func:`episode_streams` gives for ``(seed, i)``, ``i`` from ``first`` to
    ``first + runs - 1``: the same generators, their seed words derived for all runs at
    once."""
    last = first + runs - 1
    if last >> 32:   # an index of two words: one run at a time, as numpy does it
        for index in range(first, last + 1):
            yield episode_streams(seed, index)
        return
    head = _words(seed)
    entropy = np.zeros((runs, max(_POOL, len(head) + 1) + 1), dtype=np.uint32)
    entropy[:, :len(head)] = head
    entropy[:, len(head)] = np.arange(first, last + 1, dtype=np.uint32)
    states = []
    for key in (0, 1):                   # spawn(2): behaviour, then faults
        entropy[:, -1] = key
        states.append(_states(entropy))
    for behaviour, faults in zip(*states):
        yield (np.random.Generator(np.random.PCG64(_Seeded(behaviour))),
               np.random.Generator(np.random.PCG64(_Seeded(faults))))


#: Most turns one episode may take (each is a model call; a real budget is a handful).
MAX_TURNS = 10_000


def run_episode(task: Task = Task(), profile: Profile = Profile(),
                guardrails: Guardrails = Guardrails(), *, fault_rate: float = 0.0,
                malformed_rate: float = 0.0, max_turns: int = 6, seed=0,
                index: int = 0, agent=None, record: bool = True) -> Trajectory:
    """Run the agent on ``task`` until it submits, stops, or uses ``max_turns`` turns.

    The harness applies ``guardrails``; ``fault_rate`` and ``malformed_rate`` set the
    injectors; the run's randomness comes from :func:`episode_streams` ``(seed, index)``.
    ``agent`` replaces the simulated agent with any object that has ``act(observations)``
    (e.g. the optional :class:`~reliability.lab.chat_adapter.ChatAgent`); ``profile`` is
    then unused. ``record=False`` leaves the trajectory's events out (an arm's runs that
    no one reads line by line: at a high fault rate the lines were most of a run's time);
    every draw, and so every outcome, is the same either way.
    """
    if not isinstance(task, Task):
        raise ValueError(f"task must be a Task, got {task!r}")
    if not isinstance(guardrails, Guardrails):
        raise ValueError(f"guardrails must be a Guardrails, got {guardrails!r}")
    if not isinstance(profile, Profile):
        raise ValueError(f"profile must be a Profile, got {profile!r}")
    max_turns = _validate.whole("max_turns", max_turns, minimum=1, maximum=MAX_TURNS)
    record = _validate.flag("record", record)
    faults = TransientFaults(fault_rate), MalformedFaults(malformed_rate)
    return _episode(task, profile, guardrails, faults, max_turns,
                    episode_streams(seed, index), agent, record)


def _episode(task, profile, guardrails, faults, max_turns, streams, agent,
             record) -> Trajectory:
    """:func:`run_episode` on checked arguments, with its run's two streams."""
    (transient, malformed), (rng_agent, rng_faults) = faults, streams
    if agent is None:
        agent = SimulatedAgent(profile, rng_agent, zones=sorted(task.rates),
                               order_id=task.order_id)
    elif not callable(getattr(agent, "act", None)):
        raise ValueError(f"agent must have an act(observations) method, got {agent!r}")
    accepted = malformed.arm(rng_faults)
    tools = {"get_order": (task.get_order, ORDER_KEY), "get_ship_rate": (task.get_ship_rate, ZONE_KEY)}
    fired = dict.fromkeys(GUARDRAILS, 0)
    retrieved: dict = {}
    events: list[Event] = []
    inbox: list[dict] = []
    ending, submitted, rejected, turn = "turn_limit", None, 0, 0

    while turn < max_turns:
        turn += 1
        action = agent.act(inbox)
        inbox = []
        if action.kind == "call":
            if record:
                events.append(Event(turn, "model", "call", f"{action.tool}({action.args})"))
            result = transient.strike(rng_faults)
            retries = 0
            while result is not None and guardrails.error_recovery \
                    and retries < guardrails.recovery_retries:
                retries += 1
                fired["error_recovery"] += 1
                if record:
                    events.append(Event(turn, "harness", "error_recovery",
                                        _absorbed(retries, get_language())))
                result = transient.strike(rng_faults)
            if result is None:
                result = check_arguments(action.tool, action.args, accepted[action.tool])
            if result is None:
                function, documented = tools[action.tool]
                result = function({documented: action.args[accepted[action.tool]]})
            if result.ok:
                retrieved[action.tool] = result.data
            if record:
                events.append(Event(turn, "tool", str(result.status),
                                    json.dumps(result.data) if result.ok else result.error))
            inbox.append({"kind": "tool_result", "tool": action.tool, "result": result})
            if result.status == 400 and guardrails.retry_nudge:
                fired["retry_nudge"] += 1
                if record:
                    events.append(Event(turn, "harness", "retry_nudge",
                                        _("Your last tool call failed; read the error and "
                                          "correct the arguments.")))
                inbox.append({"kind": "retry_nudge", "tool": action.tool})
        elif action.kind == "prose":
            if record:
                events.append(Event(turn, "model", "prose", action.text))
            if guardrails.submit_nudge:
                fired["submit_nudge"] += 1
                if record:
                    events.append(Event(turn, "harness", "submit_nudge",
                                        _("You have not called submit_answer; call it with "
                                          "your total.")))
                inbox.append({"kind": "submit_nudge"})
            else:
                ending = "no_submit"
                break
        else:
            if record:
                events.append(Event(turn, "model", "submit",
                                    f"submit_answer({_shown(action.value)})"))
            if guardrails.validation:
                check = validate(action.value, retrieved)
                if not check.accepted:
                    fired["validation"] += 1
                    rejected += 1
                    if record:
                        events.append(Event(turn, "harness", "validation",
                                            _("rejected: your retrieved parts are {item:g} and "
                                              "{rate:g}; recompute the total").format(
                                                item=check.parts[0], rate=check.parts[1])))
                    inbox.append({"kind": "validation", "parts": check.parts})
                    continue
            ending, submitted = "submitted", action.value
            break
    passed = ending == "submitted" and oracle(task, submitted)
    if record:
        events.append(Event(turn, "grader", "PASS" if passed else "FAIL",
                            _graded(ending, submitted, task.answer, get_language())))
    return Trajectory(ending, submitted, passed, turn, fired, retrieved, rejected, tuple(events))


@functools.lru_cache(maxsize=256)
def _absorbed(count: int, language: str) -> str:
    """The harness's line for its ``count``-th silent retry, in ``language`` (the current
    one: it is the cache's key). A run at a high fault rate writes it millions of times."""
    return _("503 absorbed, silent retry {count} (not shown to model)").format(count=count)


@functools.lru_cache(maxsize=1024, typed=True)
def _graded(ending: str, submitted, answer: float, language: str) -> str:
    """The grader's line for a run, in ``language`` (the current one). Typed, so that a
    submitted ``True`` is not read from the cache as ``1``."""
    return _("{ending}; submitted {value}, answer key {answer:g}").format(
        ending=said(ending), value=_shown(submitted), answer=answer)


def transient_success(fault_rate: float, max_turns: int = 6, retries: int = 0) -> float:
    r"""Closed-form success of a fault-free agent under transient faults only.

    .. math::  P = \sum_{j \ge 2} \binom{T-1}{j} q^j (1-q)^{T-1-j},\quad q = 1 - r^{A+1}
    """
    r = _validate.probability("fault_rate", fault_rate)
    turns = _validate.whole("max_turns", max_turns, minimum=1, maximum=MAX_TURNS) - 1
    retries = _validate.whole("retries", retries, minimum=0)
    q = 1.0 - r ** (retries + 1)
    return float(sum(math.comb(turns, j) * q ** j * (1 - q) ** (turns - j)
                     for j in range(2, turns + 1)))


def write_jsonl(trajectories, path) -> int:
    """Write every event of every trajectory as one JSON line (with its run number);
    returns the number of lines."""
    if not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"path must be a file path (str or os.PathLike), got {path!r}")
    trajectories = _validate.sequence("trajectories", trajectories, of=Trajectory,
                                      what="Trajectories")
    count = 0
    with open(path, "w", encoding="utf-8") as handle:
        for run, trajectory in enumerate(trajectories):
            for record in trajectory.records():
                handle.write(json.dumps({"run": run, **record}) + "\n")
                count += 1
    return count
