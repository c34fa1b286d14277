"""The evolving idea graph: typed nodes and edges, actions, validation, frozen-snapshot merge, and
the four graph signals (computed from the graph alone).

Signals (EIG, Appendix E.4), with the graph-local statistics defined here as:
- support coverage: share of claim nodes (Hypothesis, Method, NoveltyClaim, EvalPlan) with an
  active incoming `supports` edge; evidence coverage: share of claim nodes with evidence;
- unresolved-edge share: unresolved / all contradiction edges; open-target share: share of active
  nodes that are the target of an unresolved contradiction;
- slot coverage: share of the backbone slots (Problem, Hypothesis, Method, EvalPlan) filled;
  dependency closure: share of backbone dependencies present (Hypothesis→Problem,
  Method→Hypothesis, EvalPlan→Method); connectivity: largest weakly connected component / nodes.
g = ½·sup + ½·evi;  r = 0.65·edge + 0.35·open;  c = 0.25·slot + 0.45·dep + 0.30·conn;
m = 0.40·g + 0.35·c + 0.25·(1 − r).
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from ..models import Source

NodeType = Literal["Problem", "Hypothesis", "Method", "Assumption", "Risk", "EvalPlan", "NoveltyClaim", "EvidenceNeed", "Repair"]
EdgeType = Literal["supports", "contradicts", "depends_on", "overlaps_prior", "repairs", "refines", "requires_evidence"]
ActionKind = Literal["add_contradiction_edge", "propose_repair", "add_dependency_edge", "add_support_edge", "attach_evidence", "skip"]
Role = Literal["MechanismProposer", "FeasibilityCritic", "NoveltyExaminer", "EvaluationDesigner", "ImpactReframer"]
ROLES: tuple[str, ...] = ("MechanismProposer", "FeasibilityCritic", "NoveltyExaminer", "EvaluationDesigner", "ImpactReframer")
MERGE_ORDER: tuple[str, ...] = ("add_contradiction_edge", "propose_repair", "add_dependency_edge", "add_support_edge", "attach_evidence")
# The runtime's phase mask (EIG, Appendix G.1): round 1 exposes structure (support, dependency,
# contradiction); evidence and repair join from round 2.
ROUND_ONE_KINDS = frozenset({"add_support_edge", "add_dependency_edge", "add_contradiction_edge", "skip"})
CLAIMS = {"Hypothesis", "Method", "NoveltyClaim", "EvalPlan"}
BACKBONE = ("Problem", "Hypothesis", "Method", "EvalPlan")
BACKBONE_DEPS = (("Hypothesis", "Problem"), ("Method", "Hypothesis"), ("EvalPlan", "Method"))


Evidence = Source  # a node's evidence is what a cited source states: the same model as the tasks' sources


class Node(BaseModel):
    id: str
    type: NodeType
    text: str
    role: str = "seed"
    branch: str = "main"
    confidence: float = Field(0.5, ge=0, le=1)
    evidence: list[Evidence] = Field(default_factory=list)
    active: bool = True
    created_round: int = 0
    provenance: str = ""


class Edge(BaseModel):
    src: str
    dst: str
    type: EdgeType
    role: str = "seed"
    branch: str = "main"
    evidence_id: str | None = None
    note: str = ""
    resolved: bool = False


class Action(BaseModel):
    round: int
    role: str
    kind: ActionKind
    targets: list[str] = Field(default_factory=list)
    payload: dict[str, Any] = Field(default_factory=dict)
    rationale: str = ""
    source: str = Field("heuristic", description="which controller chose it")

    def key(self) -> str:
        return json.dumps([self.kind, self.targets, self.payload], sort_keys=True, default=str)


class Branch(BaseModel):
    """One role's trajectory (EIG, Table 7): what it added, whether it sat the round out (frozen, the
    gate did not activate it) and whether its last selected patch was overwritten in the merge (rejected)."""

    role: str
    nodes: list[str] = Field(default_factory=list)
    edges: list[str] = Field(default_factory=list)  # "src>type>dst"
    frozen: bool = False
    rejected: bool = False
    notes: list[str] = Field(default_factory=list)


class IdeaGraph(BaseModel):
    topic: str
    nodes: dict[str, Node] = Field(default_factory=dict)
    edges: list[Edge] = Field(default_factory=list)
    branches: dict[str, Branch] = Field(default_factory=dict)
    typed: bool = True

    @field_validator("branches", mode="before")
    @classmethod
    def _named_branches(cls, v: Any) -> Any:  # episodes saved before branches were objects kept a list of names
        return {name: {"role": name} for name in v if name != "main"} if isinstance(v, list) else v

    def branch(self, role: str) -> Branch:
        return self.branches.setdefault(role, Branch(role=role))

    @staticmethod
    def branch_of(role: str) -> str:
        """The branch a role's patches go to: its own, or `main` for the seed."""
        return "main" if role in ("", "seed") else role

    def active_nodes(self) -> list[Node]:
        return [n for n in self.nodes.values() if n.active]

    def of_type(self, t: str) -> list[Node]:
        return [n for n in self.active_nodes() if n.type == t]

    def current(self, t: str) -> Node | None:
        """The node of type `t` the idea now rests on: the first one, followed down its `refines`
        chain to the latest refinement (a refined Problem replaces the seed's wording)."""
        nodes = self.of_type(t)
        if not nodes:
            return None
        node, seen = nodes[0], {nodes[0].id}
        while True:
            nxt = next((self.nodes[e.src] for e in reversed(self.edges) if e.type == "refines" and e.dst == node.id
                        and e.src in self.nodes and self.nodes[e.src].active and e.src not in seen), None)
            if nxt is None:
                return node
            node = nxt
            seen.add(node.id)

    def open_needs(self, nid: str) -> list[Edge]:
        """The node's evidence needs that no evidence has met yet."""
        return [e for e in self.edges if e.src == nid and e.type == "requires_evidence" and not e.resolved]

    def has_edge(self, src: str, dst: str, etype: str | None = None) -> bool:
        return any(e.src == src and e.dst == dst and (etype is None or e.type == etype) for e in self.edges)

    def next_id(self, prefix: str) -> str:
        n = sum(1 for k in self.nodes if k.startswith(prefix)) + 1
        return f"{prefix}{n}"

    def add_node(self, node_type: str, text: str, role: str, rnd: int, evidence: list[Evidence] | None = None, confidence: float = 0.5) -> str:
        nid = self.next_id(node_type[:3].lower())
        branch = self.branch_of(role)
        self.nodes[nid] = Node(id=nid, type=node_type, text=text, role=role, branch=branch, confidence=confidence,
                               evidence=evidence or [], created_round=rnd, provenance=datetime.now(timezone.utc).isoformat())
        if branch != "main":
            self.branch(branch).nodes.append(nid)
        return nid

    def add_edge(self, src: str, dst: str, etype: str, role: str, note: str = "", evidence_id: str | None = None) -> None:
        self.edges = [e for e in self.edges if not (e.src == src and e.dst == dst and e.type == etype)]
        branch = self.branch_of(role)
        self.edges.append(Edge(src=src, dst=dst, type=etype, role=role, branch=branch, note=note, evidence_id=evidence_id))
        if branch != "main":
            self.branch(branch).edges.append(f"{src}>{etype}>{dst}")

    def visible_type(self, e: Edge) -> str:
        """What controllers see: in the untyped ablation every relation reads as related_to."""
        return e.type if self.typed else "related_to"


# -- validation and merge ----------------------------------------------------------------------
def validate_slate(graph: IdeaGraph, slate: list[Action]) -> list[Action]:
    """Keep actions whose targets exist; no dependency and contradiction edge between the same two
    nodes (in the graph or the slate); deduplicate by kind, targets and payload; skip always stays."""
    out, seen = [], set()
    dep_pairs = {frozenset((e.src, e.dst)) for e in graph.edges if e.type == "depends_on"}
    con_pairs = {frozenset((e.src, e.dst)) for e in graph.edges if e.type == "contradicts"}
    for a in slate:
        if a.kind != "skip" and not all(t in graph.nodes and graph.nodes[t].active for t in a.targets):
            continue
        pair = frozenset(a.targets[:2]) if len(a.targets) >= 2 else None
        if a.kind == "add_dependency_edge" and pair in con_pairs:
            continue
        if a.kind == "add_contradiction_edge" and pair in dep_pairs:
            continue
        if a.kind == "add_dependency_edge" and pair is not None:
            dep_pairs.add(pair)
        if a.kind == "add_contradiction_edge" and pair is not None:
            con_pairs.add(pair)
        k = a.key()
        if k in seen:
            continue
        seen.add(k)
        out.append(a)
    if not any(a.kind == "skip" for a in out):
        out.append(Action(round=slate[0].round if slate else 0, role=slate[0].role if slate else "", kind="skip"))
    return out


def phase_mask(slate: list[Action], rnd: int) -> list[Action]:
    """The actions the runtime admits in round `rnd` (skip always stays)."""
    return [a for a in slate if a.kind in ROUND_ONE_KINDS] if rnd == 1 else slate


def apply(graph: IdeaGraph, a: Action) -> None:
    """Materialise one action as a patch on `graph` (in place)."""
    if a.kind == "skip":
        return
    p = a.payload
    if a.kind == "add_support_edge":
        graph.add_edge(a.targets[0], a.targets[1], "supports", a.role, p.get("note", ""))
    elif a.kind == "add_dependency_edge" and p.get("new_node"):
        # A structural node on the target: an EvidenceNeed it requires (target → need), or a
        # refinement of it (refinement → target).
        new = graph.add_node(p["new_node"]["type"], p["new_node"]["text"], a.role, a.round,
                             [Evidence(**e) for e in p["new_node"].get("evidence", [])])
        edge = p.get("edge", "refines")
        src, dst = (a.targets[0], new) if edge == "requires_evidence" else (new, a.targets[0])
        graph.add_edge(src, dst, edge, a.role, p.get("note", ""))
    elif a.kind == "add_dependency_edge":
        graph.add_edge(a.targets[0], a.targets[1], "depends_on", a.role, p.get("note", ""))
    elif a.kind == "add_contradiction_edge":
        src = a.targets[0]
        if p.get("new_node"):  # a critic's Risk or prior-work node that contradicts / overlaps the target
            src = graph.add_node(p["new_node"]["type"], p["new_node"]["text"], a.role, a.round,
                                 [Evidence(**e) for e in p["new_node"].get("evidence", [])])
            graph.add_edge(src, a.targets[0], p.get("edge", "contradicts"), a.role, p.get("note", ""))
        else:
            graph.add_edge(src, a.targets[1], "contradicts", a.role, p.get("note", ""))
    elif a.kind == "propose_repair":
        target, weakness = a.targets[0], p.get("weakness")
        rid = graph.add_node("Repair", p.get("text", "repair"), a.role, a.round, confidence=0.6)
        graph.add_edge(rid, target, "repairs", a.role)
        for e in graph.edges:  # it resolves the weakness it answers (episodes from before it was named: all on the target)
            if e.dst == target and e.type in ("contradicts", "overlaps_prior") and not e.resolved and weakness in (None, e.src):
                e.resolved = True
    elif a.kind == "attach_evidence":
        node = graph.nodes[a.targets[0]]
        ev = [Evidence(**e) for e in p.get("evidence", [])]
        known = {e.object_id for e in node.evidence}
        node.evidence += [e for e in ev if e.object_id not in known]
        if node.evidence:  # evidence meets the node's open needs
            for e in graph.open_needs(node.id):
                e.resolved = True


def patch_target(a: Action) -> tuple:
    """What a patch writes: an edge (its two ends; a new node is its own end), or a node.
    Two patches of one kind on the same target overwrite; on different targets both stand."""
    if a.payload.get("new_node") and a.kind in ("add_contradiction_edge", "add_dependency_edge"):
        return (a.payload["new_node"].get("text", ""), a.targets[0])
    if a.kind in ("add_support_edge", "add_dependency_edge", "add_contradiction_edge"):
        return tuple(a.targets[:2])
    if a.kind == "propose_repair":
        return (a.targets[0], a.payload.get("weakness"))
    return tuple(a.targets[:1])


def merge(snapshot: IdeaGraph, selected: list[Action]) -> IdeaGraph:
    """Frozen-snapshot merge: apply the round's selected actions to a copy of the pre-round graph in
    the fixed kind order; a later patch of a kind to the same node or edge overwrites an earlier one,
    and the overwritten role's branch is marked rejected (with a note saying by whom)."""
    graph = snapshot.model_copy(deep=True)
    for a in selected:
        if graph.branch_of(a.role) != "main":
            graph.branch(a.role).rejected = False
    by_kind = {k: [a for a in selected if a.kind == k] for k in MERGE_ORDER}
    for kind in MERGE_ORDER:
        last_for_target: dict[tuple, Action] = {}
        for a in by_kind[kind]:
            lost = last_for_target.get(patch_target(a))
            if lost is not None and graph.branch_of(lost.role) != "main":
                graph.branch(lost.role).rejected = True
                graph.branch(lost.role).notes.append(f"round {a.round}: {kind} on {list(a.targets)} overwritten by {a.role}")
            last_for_target[patch_target(a)] = a
        for a in last_for_target.values():
            apply(graph, a)
    return graph


def risk_edges(graph: IdeaGraph) -> list[Edge]:
    """The examined feasibility risks: `contradicts` edges from Risk nodes (a prior-work overlap is
    a Risk too, but on `overlaps_prior`)."""
    return [e for e in graph.edges
            if e.type == "contradicts" and e.src in graph.nodes and graph.nodes[e.src].active and graph.nodes[e.src].type == "Risk"]


def active_roles(graph: IdeaGraph, rnd: int, roles: tuple[str, ...] = ROLES) -> tuple[str, ...]:
    """The gate (EIG, Appendix C): every role acts in round 1; later a role is re-activated only
    when the graph has work of its kind: missing problem framing (ImpactReframer), weak grounding
    (NoveltyExaminer, EvaluationDesigner, ImpactReframer), incomplete dependencies (MechanismProposer,
    EvaluationDesigner), unresolved contradictions (MechanismProposer, ImpactReframer) or open
    feasibility work (FeasibilityCritic)."""
    if rnd <= 1:
        return roles
    s = signals(graph)
    nodes = graph.active_nodes()
    problem = graph.current("Problem")  # its latest refinement
    problems = {n.id for n in nodes if n.type == "Problem"}
    framing = problem is None or not problem.evidence or not any(e.src in problems and e.type == "supports" for e in graph.edges)
    weak = s["grounding"] < 0.75
    deps = s["dependency_closure"] < 1.0 or not any(
        e.type == "depends_on" and graph.nodes[e.dst].type == "Assumption" for e in graph.edges if e.dst in graph.nodes)
    open_con = s["contradiction_load"] > 0
    feasibility = any(n.type == "Method" for n in nodes) and len(risk_edges(graph)) < 2 and not open_con
    wants = {"MechanismProposer": deps or open_con, "FeasibilityCritic": feasibility or deps,
             "NoveltyExaminer": weak or not any(e.type == "overlaps_prior" for e in graph.edges),
             "EvaluationDesigner": weak or deps, "ImpactReframer": framing or weak or open_con}
    return tuple(r for r in roles if wants.get(r, True))


# -- signals -----------------------------------------------------------------------------------
def _largest_component(graph: IdeaGraph) -> int:
    active = {n.id for n in graph.active_nodes()}
    adj: dict[str, set[str]] = {n: set() for n in active}
    for e in graph.edges:
        if e.src in active and e.dst in active:
            adj[e.src].add(e.dst)
            adj[e.dst].add(e.src)
    best, seen = 0, set()
    for start in active:
        if start in seen:
            continue
        stack, size = [start], 0
        seen.add(start)
        while stack:
            v = stack.pop()
            size += 1
            for w in adj[v] - seen:
                seen.add(w)
                stack.append(w)
        best = max(best, size)
    return best


def signals(graph: IdeaGraph) -> dict[str, float]:
    nodes = graph.active_nodes()
    claims = [n for n in nodes if n.type in CLAIMS]
    sup = sum(1 for n in claims if any(e.dst == n.id and e.type == "supports" for e in graph.edges)) / len(claims) if claims else 0.0
    evi = sum(1 for n in claims if n.evidence) / len(claims) if claims else 0.0
    con_edges = [e for e in graph.edges if e.type in ("contradicts", "overlaps_prior")]
    edge_share = sum(1 for e in con_edges if not e.resolved) / len(con_edges) if con_edges else 0.0
    open_targets = {e.dst for e in con_edges if not e.resolved}
    open_share = len(open_targets) / len(nodes) if nodes else 0.0
    slot = sum(1 for t in BACKBONE if any(n.type == t for n in nodes)) / len(BACKBONE)
    dep_ok = sum(1 for a, b in BACKBONE_DEPS if any(
        e.type == "depends_on" and graph.nodes[e.src].type == a and graph.nodes[e.dst].type == b and graph.nodes[e.src].active
        for e in graph.edges))
    dep = dep_ok / len(BACKBONE_DEPS)
    conn = _largest_component(graph) / len(nodes) if nodes else 0.0
    g = 0.5 * sup + 0.5 * evi
    r = 0.65 * edge_share + 0.35 * open_share
    c = 0.25 * slot + 0.45 * dep + 0.30 * conn
    m = 0.40 * g + 0.35 * c + 0.25 * (1 - r)
    return {"support_coverage": sup, "evidence_coverage": evi, "unresolved_edge_share": edge_share, "open_target_share": open_share,
            "slot_coverage": slot, "dependency_closure": dep, "connectivity": conn,
            "grounding": g, "contradiction_load": r, "completeness": c, "maturity": m}
