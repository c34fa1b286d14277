"""The five roles as agents on the openai backend (EIG): each proposes its slate of graph edits with
the model, as structured output, and what it proposes is checked like any slate: node ids must
exist, evidence comes from registered objects found through the views (never from the model's
words), duplicates go. A role whose model output is invalid, or proposes nothing usable, falls
back to the deterministic slate of `roles.py`, and the fallback is counted on the episode.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, Field

from ..llm.client import LLMClient, LLMOutputError
from .graph import ROUND_ONE_KINDS, Action, IdeaGraph
from .roles import find_evidence

CHARGES = {
    "MechanismProposer": "Explain why the hypothesis should hold: dependencies and support between the method, the hypothesis "
                         "and the assumption, refinements that make the method concrete, and repairs for open weaknesses.",
    "FeasibilityCritic": "Expose what could make the method fail: a new Risk that contradicts it, and what the method relies on.",
    "NoveltyExaminer": "Check the novelty claim against prior work and ground it in evidence.",
    "EvaluationDesigner": "Connect the evaluation plan to the method and the hypothesis, and ground it in datasets and findings.",
    "ImpactReframer": "Say why the problem matters: support the novelty claim with the problem, refine the problem's wording, "
                      "and ground the problem in evidence.",
}
Kind = Literal["add_support_edge", "add_dependency_edge", "add_contradiction_edge", "propose_repair", "attach_evidence"]


class ProposedEdit(BaseModel):
    kind: Kind
    node: str = Field(..., max_length=12, description="the node the edit starts from or acts on (its id, e.g. hyp1)")
    other: str = Field("", max_length=12, description="for an edge: the node it points to; for a repair: the weakness it answers")
    text: str = Field("", max_length=300, description="the text of a new Risk (contradiction), of a repair, or of a refinement "
                                                       "of the node (a dependency edit with no other node)")
    why: str = Field("", max_length=200)


class RoleProposal(BaseModel):
    edits: list[ProposedEdit] = Field(default_factory=list, max_length=3)


def _prompt(graph: IdeaGraph, role: str, rnd: int) -> str:
    nodes = "\n".join(f"{n.id} [{n.type}] {n.text[:200]}" for n in graph.nodes.values() if n.active)
    edges = "\n".join(f"{e.src} {e.type} {e.dst}" + (" (resolved)" if e.resolved else "") for e in graph.edges) or "(none)"
    kinds = sorted(ROUND_ONE_KINDS - {"skip"}) if rnd == 1 else list(get_args(Kind))
    return (f"Research idea graph on: {graph.topic}\nNodes:\n{nodes}\nEdges:\n{edges}\n\nYou are the {role}. {CHARGES.get(role, 'Strengthen the idea graph.')}\n"
            f"Propose up to 3 edits, each one of: {', '.join(kinds)}. Refer to nodes by their ids only.")


def proposed_slate(client: LLMClient, graph: IdeaGraph, role: str, rnd: int, kb=None) -> tuple[list[Action], str | None]:
    """(the role's edits as actions, the failure when its output was invalid)."""
    try:
        out, _ = client.structured(_prompt(graph, role, rnd), RoleProposal)
    except LLMOutputError as exc:
        return [], f"{role} round {rnd}: {exc}"[:300]
    return [a for e in out.edits if (a := _action(graph, role, rnd, e, kb)) is not None], None


def _action(graph: IdeaGraph, role: str, rnd: int, e: ProposedEdit, kb) -> Action | None:
    node, other = e.node.strip(), e.other.strip()
    if node not in graph.nodes or (other and other not in graph.nodes):
        return None  # an id the graph does not have
    base = {"round": rnd, "role": role, "kind": e.kind, "rationale": e.why}
    if e.kind == "add_dependency_edge" and not other and e.text.strip():  # a refinement of the node, grounded by the views
        evidence = [s.model_dump() for s in find_evidence(kb, e.text, 1)]
        return Action(**base, targets=[node], payload={"new_node": {"type": graph.nodes[node].type, "text": e.text.strip()[:300],
                                                                     "evidence": evidence}, "edge": "refines"})
    if e.kind in ("add_support_edge", "add_dependency_edge"):
        return Action(**base, targets=[node, other]) if other and other != node else None
    if e.kind == "add_contradiction_edge":
        if e.text.strip():  # a new Risk node that contradicts `node`, with evidence found for it
            evidence = [s.model_dump() for s in find_evidence(kb, e.text, 1)]
            return Action(**base, targets=[node], payload={"new_node": {"type": "Risk", "text": e.text.strip()[:300], "evidence": evidence},
                                                           "edge": "contradicts"})
        return Action(**base, targets=[node, other]) if other and other != node else None
    if e.kind == "propose_repair":
        if not e.text.strip():
            return None
        return Action(**base, targets=[node], payload={"text": e.text.strip()[:300]} | ({"weakness": other} if other else {}))
    have = {s.object_id for s in graph.nodes[node].evidence}  # attach_evidence: what the views find for the node's text
    found = [s.model_dump() for s in find_evidence(kb, graph.nodes[node].text, 2) if s.object_id not in have]
    return Action(**base, targets=[node], payload={"evidence": found}) if found else None
