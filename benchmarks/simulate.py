"""How fast is Workflow.simulate? Three timings of the same work and their ratios.

    make bench

1. ``Workflow(steps=10, attempts=3).simulate(runs=200_000)``;
2. a plain Python loop doing the same attempt-by-attempt work (on fewer runs, scaled up);
3. the floor: numpy drawing one uniform per attempt the simulation actually makes (its
   ``total_attempts``; two per attempt with a verifier), which is what the work needs.

The spine asks for (2)/(1) >= 8 and (1)/(3) <= 2. (1) and (3) are timed in turns, many
times, and each keeps its best time, so load from other processes (which comes and goes)
weighs on both alike.
"""

from __future__ import annotations

import random
import time

import numpy as np

from reliability import Workflow

RUNS = 200_000
LOOP_RUNS = 20_000
REPEATS = 25


def best_of(fn, repeats=REPEATS):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def best_in_turns(*fns, repeats=REPEATS):
    """The best time of each function, timed in turns: a, b, a, b, ..."""
    best = [float("inf")] * len(fns)
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            best[i] = min(best[i], best_of(fn, repeats=1))
    return best


def python_loop(wf: Workflow, runs: int, seed: int = 0) -> tuple[int, int]:
    """The same attempt-by-attempt rules, one uniform per attempt, in plain Python."""
    rng = random.Random(seed)
    successes = attempts = 0
    for _ in range(runs):
        ok = True
        for _step in range(wf.steps):
            for _attempt in range(wf.attempts):
                attempts += 1
                u = rng.random()
                if u < wf.error:
                    continue
                ok = ok and u >= wf.error + wf.silent
                break
            else:
                ok = False
                break
        successes += ok
    return successes, attempts


def main() -> None:
    wf = Workflow(steps=10, attempts=3)
    made = wf.simulate(runs=RUNS, seed=1).total_attempts
    uniforms = made * (2 if wf.verifier is not None else 1)  # what the attempts made need
    vectorised, floor = best_in_turns(lambda: wf.simulate(runs=RUNS, seed=1),
                                      lambda: np.random.default_rng(1).random(uniforms))
    loop = best_of(lambda: python_loop(wf, LOOP_RUNS), repeats=2) * RUNS / LOOP_RUNS
    print(f"simulate(runs={RUNS:,}):             {vectorised * 1e3:8.1f} ms")
    print(f"plain Python loop (scaled):          {loop * 1e3:8.1f} ms")
    print(f"numpy drawing {uniforms:,} uniforms: {floor * 1e3:8.1f} ms")
    print(f"speed-up over the loop:  {loop / vectorised:6.1f}x  (wanted >= 8)")
    print(f"cost over the floor:     {vectorised / floor:6.2f}x  (wanted <= 2)")


if __name__ == "__main__":
    main()
