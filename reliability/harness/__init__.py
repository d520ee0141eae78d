"""Small guardrail building blocks a reader could lift into real code: budgets, loop
detection, a degradation ladder, a circuit breaker. All take an injectable clock, so the
simulations that use them are deterministic."""
