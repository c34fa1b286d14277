"""Controllers choose one action per role from its validated slate and decide when to commit.

- RandomController: a seeded random choice (the ablation floor);
- HeuristicTeacher: simulates each candidate on the frozen graph, recomputes the signals, and picks
  the one that best reduces the dominant deficit (grounding, contradiction or completeness)
  while preserving maturity; commits from round 3 once the graph is mature;
- LearnedController: the two-head critic scores candidates and the post-round graph, with a
  bounded calibration from the signals, a round-3 commit gate and fallback to the heuristic when
  its inputs are missing.
"""

from __future__ import annotations

import random

from .graph import Action, IdeaGraph, apply, signals

COMMIT_GATE = 3
COMMIT_MATURITY = 0.7
COMMIT_MAX_LOAD = 0.25


def deficits(sig: dict[str, float]) -> dict[str, float]:
    return {"grounding": 1 - sig["grounding"], "contradiction": sig["contradiction_load"], "completeness": 1 - sig["completeness"]}


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
        return best

    def _expand(self, graph: IdeaGraph, slate: list[Action], before: dict[str, float]) -> Action:
        """Round 1 is structure expansion: expose what is missing (weaknesses included) before
        repairing it, so a surfaced contradiction counts as progress, not as load."""
        best, best_gain = next(a for a in slate if a.kind == "skip"), 0.0
        for a in slate:
            if a.kind not in ("add_contradiction_edge", "add_dependency_edge", "add_support_edge"):
                continue
            gain = simulate(graph, a)["completeness"] - before["completeness"] + (0.1 if a.kind == "add_contradiction_edge" else 0.0)
            if gain > best_gain:
                best, best_gain = a, gain
        return best

    def commit(self, graph: IdeaGraph, rnd: int) -> bool:
        s = signals(graph)
        return rnd >= COMMIT_GATE and s["maturity"] >= COMMIT_MATURITY and s["contradiction_load"] <= COMMIT_MAX_LOAD


class LearnedController:
    name = "learned"

    def __init__(self, critic, embedder, fallback: HeuristicTeacher | None = None):
        self.critic, self.embedder = critic, embedder
        self.fallback = fallback or HeuristicTeacher()
        self.fallbacks = 0

    def choose(self, graph: IdeaGraph, slate: list[Action]) -> Action:
        if self.critic is None or not graph.active_nodes():
            self.fallbacks += 1
            return self.fallback.choose(graph, slate)
        scores = self.critic.score_slate(graph, slate, self.embedder)
        return slate[max(range(len(slate)), key=lambda i: scores[i])]

    def commit(self, graph: IdeaGraph, rnd: int) -> bool:
        if rnd < COMMIT_GATE:
            return False
        if self.critic is None:
            self.fallbacks += 1
            return self.fallback.commit(graph, rnd)
        s = signals(graph)
        p = self.critic.commit_probability(graph, self.embedder)
        # Bounded calibration: the signals may move the critic's probability by at most ±0.15.
        adj = max(-0.15, min(0.15, 0.3 * (s["maturity"] - COMMIT_MATURITY) - 0.3 * s["contradiction_load"]))
        return p + adj >= 0.5
