"""Controllers choose one action per role from its validated slate and decide when to commit.

- RandomController: a seeded random choice (the ablation floor);
- HeuristicTeacher: simulates each candidate on the frozen graph, recomputes the signals, and picks
  the one that best reduces the dominant deficit (grounding, contradiction or completeness)
  while preserving maturity; commits from round 3 once the graph is mature;
- LearnedController: the two-head critic scores candidates and the post-round graph, with a
  bounded calibration from the signals, a round-3 commit gate and the runtime safeguards (the
  heuristic decides when the critic's inputs are missing or unmapped, or keeps its pick against a
  low-margin swap of kind).
"""

from __future__ import annotations

import math
import random

from .graph import Action, IdeaGraph, apply, signals

COMMIT_GATE = 3
COMMIT_MATURITY = 0.7
COMMIT_MAX_LOAD = 0.25


def deficits(sig: dict[str, float]) -> dict[str, float]:
    return {"grounding": 1 - sig["grounding"], "contradiction": sig["contradiction_load"], "completeness": 1 - sig["completeness"]}


def structural_bonus(a: Action) -> float:
    """What the signals cannot see: recording an evidence gap the store cannot fill, or refining a
    node into something the store records (with its evidence), is progress over doing nothing."""
    new = a.payload.get("new_node") or {}
    if a.kind != "add_dependency_edge" or not new:
        return 0.0
    if a.payload.get("edge") == "requires_evidence":
        return 0.1
    return 0.1 if a.payload.get("edge") == "refines" and new.get("evidence") else 0.0


def simulate(graph: IdeaGraph, action: Action) -> dict[str, float]:
    g = graph.model_copy(deep=True)
    apply(g, action)
    return signals(g)


class RandomController:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, graph: IdeaGraph, slate: list[Action]) -> Action:
        return self.rng.choice(slate)

    def commit(self, graph: IdeaGraph, rnd: int) -> bool:
        return rnd >= COMMIT_GATE and self.rng.random() < 0.5


class HeuristicTeacher:
    name = "heuristic"

    def choose(self, graph: IdeaGraph, slate: list[Action]) -> Action:
        before = signals(graph)
        if slate and slate[0].round == 1:
            return self._expand(graph, slate, before)
        d_before = deficits(before)
        dominant = max(d_before, key=d_before.get)
        best, best_key = next(a for a in slate if a.kind == "skip"), (0.0, 0.0)
        simulated = {i: simulate(graph, a) for i, a in enumerate(slate) if a.kind != "skip"}  # each candidate once
        for i, after in simulated.items():
            a = slate[i]
            gain = d_before[dominant] - deficits(after)[dominant]
            dm = after["maturity"] - before["maturity"]
            key = (round(gain, 6), round(dm, 6))
            if dm >= -1e-9 and key > best_key:
                best, best_key = a, key
        if best.kind == "skip":  # nothing helps the dominant deficit: take the best maturity gain
            gains = [(after["maturity"] - before["maturity"], i) for i, after in simulated.items()]
            if gains and max(gains)[0] > 1e-9:
                best = slate[max(gains)[1]]
        if best.kind == "skip":  # still nothing: a recorded gap or a grounded refinement
            best = next((slate[i] for i in simulated if structural_bonus(slate[i]) > 0), best)
        return best

    def _expand(self, graph: IdeaGraph, slate: list[Action], before: dict[str, float]) -> Action:
        """Round 1 is structure expansion: expose what is missing (weaknesses included) before
        repairing it, so a surfaced contradiction counts as progress, not as load."""
        best, best_gain = next(a for a in slate if a.kind == "skip"), 0.0
        for a in slate:
            if a.kind not in ("add_contradiction_edge", "add_dependency_edge", "add_support_edge"):
                continue
            exposes = 0.1 if a.kind == "add_contradiction_edge" else structural_bonus(a)
            gain = simulate(graph, a)["completeness"] - before["completeness"] + exposes
            if gain > best_gain:
                best, best_gain = a, gain
        return best

    def commit(self, graph: IdeaGraph, rnd: int) -> bool:
        s = signals(graph)
        return rnd >= COMMIT_GATE and s["maturity"] >= COMMIT_MATURITY and s["contradiction_load"] <= COMMIT_MAX_LOAD


class LearnedController:
    """The critic decides; a bounded calibration from the signals nudges its scores (EIG, Appendix
    E.7), and runtime safeguards hand a decision to the heuristic teacher when the critic cannot
    read its input (unmapped vocabulary, missing targets) or when its choice would swap the
    teacher's action for another kind by too small a margin. Counts say how often each happened."""

    name = "learned"
    EDIT_BIAS = 0.1    # of the slate's score range, and only in extreme states: the critic's ranking mostly stands
    SWAP_MARGIN = 0.1  # the critic's softmax share must beat the teacher's pick by this to replace it with another kind
    COMMIT_BIAS = 0.15

    def __init__(self, critic, embedder, fallback: HeuristicTeacher | None = None):
        self.critic, self.embedder = critic, embedder
        self.fallback = fallback or HeuristicTeacher()
        self.fallbacks = 0  # the critic could not decide (missing weights, unmapped input)
        self.kept_teacher = 0  # a low-margin kind swap refused
        self.calibrated = 0  # edit choices the calibration changed
        self.unmapped: list[str] = []

    def stats(self) -> dict[str, int]:
        return {"fallbacks": self.fallbacks, "kept_teacher": self.kept_teacher, "calibrated": self.calibrated}

    @classmethod
    def edit_bias(cls, sig: dict[str, float], slate: list[Action], scores: list[float]) -> list[float]:
        """Immature and contested (low grounding, high contradiction load): a small push to edits that
        ground or repair; mature and settled: a small push against every edit but skip."""
        span = (max(scores) - min(scores)) or 1.0
        bias = cls.EDIT_BIAS * span
        if sig["grounding"] < 0.5 and sig["contradiction_load"] > 0.3:
            return [bias if a.kind in ("attach_evidence", "propose_repair", "add_support_edge") else 0.0 for a in slate]
        if sig["maturity"] >= COMMIT_MATURITY and sig["contradiction_load"] <= 0.1:
            return [0.0 if a.kind == "skip" else -bias for a in slate]
        return [0.0] * len(slate)

    def choose(self, graph: IdeaGraph, slate: list[Action]) -> Action:
        problem = "no critic" if self.critic is None else ("empty graph" if not graph.active_nodes() else None)
        if problem is None:
            from .critic import unmapped

            problem = unmapped(graph, slate)
            if problem:
                self.unmapped.append(problem)
        if problem is not None:
            self.fallbacks += 1
            return self.fallback.choose(graph, slate)
        raw = self.critic.score_slate(graph, slate, self.embedder)
        scores = [r + b for r, b in zip(raw, self.edit_bias(signals(graph), slate, raw))]
        best = max(range(len(slate)), key=lambda i: scores[i])
        self.calibrated += int(best != max(range(len(slate)), key=lambda i: raw[i]))
        teacher = self.fallback.choose(graph, slate)
        t = next(i for i, a in enumerate(slate) if a.key() == teacher.key())
        if slate[best].kind != teacher.kind and teacher.kind != "skip":
            top = max(scores)
            share = [math.exp(x - top) for x in scores]
            if (share[best] - share[t]) / sum(share) < self.SWAP_MARGIN:
                self.kept_teacher += 1
                return teacher
        return slate[best]

    def commit(self, graph: IdeaGraph, rnd: int) -> bool:
        if rnd < COMMIT_GATE:
            return False
        if self.critic is None:
            self.fallbacks += 1
            return self.fallback.commit(graph, rnd)
        s = signals(graph)
        p = self.critic.commit_probability(graph, self.embedder)
        # Bounded calibration: mature graphs commit a little sooner; ungrounded or contested ones wait.
        adj = 0.3 * (s["maturity"] - COMMIT_MATURITY) - 0.3 * s["contradiction_load"] - (0.1 if s["grounding"] < 0.5 else 0.0)
        return p + max(-self.COMMIT_BIAS, min(self.COMMIT_BIAS, adj)) >= 0.5
