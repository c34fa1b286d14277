"""Episodes: rounds of role proposals on a frozen snapshot, a deterministic merge, a commit
decision; every action is persisted so an episode replays exactly. A sequential-update mode
(each role sees its predecessors' patches) exists for comparison."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from .agents import proposed_slate
from .graph import ROLES, Action, IdeaGraph, active_roles, apply, merge, phase_mask, signals, validate_slate
from .roles import candidate_slate, seed_graph


class RoundRecord(BaseModel):
    round: int
    active_roles: list[str] = Field(default_factory=list)
    selected: list[Action]
    signals: dict[str, float]
    commit: bool


class Episode(BaseModel):
    topic: str
    controller: str
    mode: Literal["frozen", "sequential"] = "frozen"
    typed: bool = True
    seed_graph: IdeaGraph
    rounds: list[RoundRecord] = Field(default_factory=list)
    final: IdeaGraph
    committed_round: int | None = None
    agents: dict[str, Any] = Field(default_factory=dict, description="openai backend: the roles' model calls, failures, fallbacks")
    # Profiling data for the critic: (pre-round graph, slate, chosen index) per role, and post-round graphs with commit labels.
    slates: list[dict[str, Any]] = Field(default_factory=list, exclude=True)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.model_dump_json(indent=1))

    @classmethod
    def load(cls, path: str | Path) -> "Episode":
        return cls.model_validate_json(Path(path).read_text())


def run_episode(topic: str, controller, kb=None, rounds: int = 5, mode: str = "frozen", typed: bool = True,
                client=None, roles: tuple[str, ...] = ROLES, record_slates: bool = False, unrestricted: bool = False) -> Episode:
    """`unrestricted`: the stress test of EIG's Table 5, every role-legal action in every round (no phase mask)."""
    if not topic or not topic.strip():
        raise ValueError("empty topic")
    graph = seed_graph(topic.strip(), kb, client, typed)
    seed = graph.model_copy(deep=True)
    records, slates, committed = [], [], None
    agents: dict[str, Any] = {"calls": 0, "failures": [], "fallbacks": 0} if client is not None else {}
    for rnd in range(1, rounds + 1):
        acting = active_roles(graph, rnd, roles)
        for role in roles:  # a role the gate leaves out sits the round out: its branch is frozen
            graph.branch(role).frozen = role not in acting
        snapshot = graph.model_copy(deep=True)
        selected = []
        for role in acting:
            view = snapshot if mode == "frozen" else graph  # sequential: each role sees the latest graph
            slate = _slate(view, role, rnd, kb, client, agents, unrestricted)
            choice = controller.choose(view, slate)
            choice = choice.model_copy(update={"source": controller.name})
            if record_slates:
                slates.append({"graph": view.model_copy(deep=True), "slate": slate, "chosen": slate.index(next(a for a in slate if a.key() == choice.key()))})
            if choice.kind != "skip":
                selected.append(choice)
                if mode == "sequential":
                    apply(graph, choice)
        if mode == "frozen":
            graph = merge(snapshot, selected)
        wants = controller.commit(graph, rnd)
        commit = wants or rnd == rounds  # the last round always commits
        if record_slates:
            slates.append({"graph": graph.model_copy(deep=True), "commit_label": int(wants)})
        records.append(RoundRecord(round=rnd, active_roles=list(acting), selected=selected, signals=signals(graph), commit=commit))
        if commit:
            committed = rnd
            break
    ep = Episode(topic=topic, controller=controller.name, mode=mode, typed=typed, seed_graph=seed, rounds=records, final=graph,
                 committed_round=committed, agents=agents)
    ep.slates = slates
    return ep


def _slate(view: IdeaGraph, role: str, rnd: int, kb, client, agents: dict[str, Any], unrestricted: bool) -> list[Action]:
    """The role's admitted slate: the model's proposal on the openai backend, the deterministic
    builders offline or when the model's proposal holds nothing the graph admits (counted)."""
    def admit(slate: list[Action]) -> list[Action]:
        slate = validate_slate(view, slate)
        return slate if unrestricted else phase_mask(slate, rnd)

    if client is not None:
        proposed, failure = proposed_slate(client, view, role, rnd, kb)
        agents["calls"] += 1
        if failure:
            agents["failures"].append(failure)
        slate = admit(proposed + [Action(round=rnd, role=role, kind="skip")])
        if any(a.kind != "skip" for a in slate):
            return slate
        agents["fallbacks"] += 1
    return admit(candidate_slate(view, role, rnd, kb))


def replay(ep: Episode) -> IdeaGraph:
    """Re-apply the persisted actions to the persisted seed: the same final graph, exactly."""
    graph = ep.seed_graph.model_copy(deep=True)
    for rec in ep.rounds:
        if ep.mode == "frozen":
            graph = merge(graph, rec.selected)
        else:
            for a in rec.selected:
                apply(graph, a)
    return graph


def graph_fingerprint(g: IdeaGraph) -> str:
    """Node and edge content without timestamps, for comparing a replay with the original."""
    nodes = sorted((n.id, n.type, n.text, n.active, tuple(sorted(e.object_id for e in n.evidence))) for n in g.nodes.values())
    edges = sorted((e.src, e.dst, e.type, e.resolved) for e in g.edges)
    return json.dumps([nodes, edges])
