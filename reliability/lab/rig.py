"""The rig's published stages, each mirrored by a lab scenario whose profile fails the
way the rig's model did, at the rig's own sample size.

The rig's numbers come from ``data/forge_gap.csv`` (passed in as a DataFrame); nothing
here types one in. The mirror can show that a mechanism produces a gap of that kind; it
cannot confirm the rig's size of gap, because the lab's profiles are hand-set knobs.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import _validate
from ..i18n import N_

from .agent import PROFILES
from .arms import Gap, Scenario, compare, run_arm
from .guardrails import Guardrails

__all__ = ["STAGES", "StageMirror", "mirror_stages"]

#: stage -> (label, lab scenario, reference arm, treated arm, rig's reference and treated
#: condition names in the CSV).
STAGES = {
    "S4": ("transient 503, error recovery (injected)",
           dict(profile=PROFILES["clean"], fault_rate=0.6),
           Guardrails(), Guardrails(error_recovery=True), ("baseline", "+error_recovery")),
    "S6": ("malformed call, retry nudge (injected)",
           dict(profile=PROFILES["strong"], malformed_rate=0.6),
           Guardrails(), Guardrails(retry_nudge=True), ("baseline", "+retry_nudge")),
    "S8": ("never submits, submit nudge (natural)", dict(profile=PROFILES["medium"]),
           Guardrails(), Guardrails(submit_nudge=True), ("baseline", "+submit_nudge")),
    "S9": ("wrong answer, validation on nudge (natural)", dict(profile=PROFILES["medium"]),
           Guardrails(submit_nudge=True), Guardrails(submit_nudge=True, validation=True),
           ("+submit_nudge", "+submit_nudge +validation")),
    "S10": ("wrong answer, validation (natural)", dict(profile=PROFILES["weak"]),
            Guardrails(), Guardrails(validation=True), ("baseline", "+validation")),
}


#: The stages' labels as the figures show them (the label before its parenthesis).
STAGE_NAMES = (N_("transient 503, error recovery"), N_("malformed call, retry nudge"),
               N_("never submits, submit nudge"), N_("wrong answer, validation on nudge"),
               N_("wrong answer, validation"))


@dataclass(frozen=True)
class StageMirror:
    """One stage: the rig's gap (from the CSV, in percentage points) and the lab's."""

    stage: str
    label: str
    model: str
    trials: int
    rig_gap: float
    rig_low: float
    rig_high: float
    lab: Gap

    def __post_init__(self):
        for name in ("stage", "label", "model"):
            _validate.text(name, getattr(self, name))
        _validate.whole("trials", self.trials, minimum=1)
        for name in ("rig_gap", "rig_low", "rig_high"):
            _validate.real(name, getattr(self, name))
        _validate.instance("lab", self.lab, Gap)

    @property
    def rig_verdict(self) -> str:
        return N_("result") if self.rig_low > 0 or self.rig_high < 0 else N_("null")


def mirror_stages(rig, *, seed=0) -> list[StageMirror]:
    """Run every stage's two lab arms over the same seeds at the rig's N for that stage."""
    import pandas as pd

    if not isinstance(rig, pd.DataFrame) or not {"metric", "stage", "trials", "model", "value",
                                                  "low", "high"} <= set(rig.columns):
        raise ValueError("rig must be a DataFrame with the columns metric, stage, trials, "
                         f"model, value, low and high (data/forge_gap.csv), got {rig!r}")
    _validate.seed(seed)
    gaps = rig[rig.metric == "gap closed"].set_index("stage")
    counts = rig[rig.metric == "success rate"]
    mirrors = []
    for stage, (label, settings, reference, treated, unused) in STAGES.items():
        trials = int(counts[counts.stage == stage].trials.max())
        scenario = Scenario(**settings)
        a = run_arm(scenario, reference, runs=trials, seed=seed, label=reference.label)
        b = run_arm(scenario, treated, runs=trials, seed=seed, label=treated.label)
        row = gaps.loc[stage]
        mirrors.append(StageMirror(stage, label, row.model, trials, float(row.value),
                                   float(row.low), float(row.high), compare(a, b)))
    return mirrors
