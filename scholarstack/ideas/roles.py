"""Seeding an idea graph and the five roles' candidate slates.

Texts come from the knowledge store where it has something on the topic (facts, entities,
limitations, results: `seed.py`), from a model when one is configured; every
piece of evidence is a registered object id with its sentence locators.
"""

from __future__ import annotations

from ..llm.client import LLMClient, LLMOutputError
from .graph import CLAIMS, Action, Evidence, IdeaGraph, risk_edges
from .seed import SeedIdea, first_on_topic, main_setting, offline_seed, results_in_view

EVIDENCE_LAYERS = ("fact", "relation", "synthesis")


def _topic_view(kb, text: str, layers: tuple[str, ...], depth: int, pool: int, fact_types: tuple[str, ...] = ()):
    """A knowledge view on `text`, kept to the papers the user named (and to facts of `fact_types`);
    None without a store or a query."""
    if kb is None:
        return None
    from ..views.views import retrieve, select

    try:
        view = retrieve(kb, text, layers=layers, k=depth, pool=pool)
    except ValueError:
        return None
    papers = getattr(kb, "paper_filter", None)  # evidence only from the papers the user named
    return select(view, papers=list(papers or ()), fact_types=list(fact_types)) if papers or fact_types else view


def find_evidence(kb, text: str, k: int = 2, fact_types: tuple[str, ...] | None = None) -> list[Evidence]:
    """Registered objects that bear on `text` (through a knowledge view), with their locators."""
    # A type filter keeps a few of many (limitations are ~3 % of facts): read facts only, and deeper.
    layers, depth, pool = (("fact",), 200, 200) if fact_types else (EVIDENCE_LAYERS, k * 4, 50)
    view = _topic_view(kb, text, layers, depth, pool, fact_types or ())
    return [i.source(chars=300, locators=3) for i in view.items[:k]] if view is not None else []


def topic_evidence(kb, topic: str, query: str, fact_type: str) -> list[Evidence]:
    """The best fact of this type for `query` that is on the topic (by its text or its paper's title),
    as a list of at most one: ranking alone brings another field's facts to a topic the store lacks."""
    return first_on_topic(topic, find_evidence(kb, query, 5, (fact_type,)), kb.store) if kb is not None else []


def seed_graph(topic: str, kb=None, client: LLMClient | None = None, typed: bool = True) -> IdeaGraph:
    g = IdeaGraph(topic=topic, typed=typed)
    limit = topic_evidence(kb, topic, f"{topic} limitation problem", "limitation")
    method_ev = topic_evidence(kb, topic, f"{topic} method approach", "method_description")
    seed = None
    if client is not None:
        try:
            seed, _ = client.structured(f"Research topic: {topic}\nPropose one research idea as short fields.", SeedIdea)
        except LLMOutputError:
            seed = None
    if seed is None:
        view = _topic_view(kb, f"{topic} results", ("fact",), 200, 200)
        setting = main_setting(results_in_view(view.items, topic, kb.store)) if view is not None else None
        row = kb.store.get_row(method_ev[0].object_id) if method_ev else None
        seed = offline_seed(topic, limit, method_ev, row["data"].get("subject", "") if row else "", setting)
    g.add_node("Problem", seed.problem, "seed", 0, limit)
    g.add_node("Hypothesis", seed.hypothesis, "seed", 0)
    g.add_node("Method", seed.method, "seed", 0, method_ev)
    g.add_node("EvalPlan", seed.eval_plan, "seed", 0)
    g.add_node("NoveltyClaim", seed.novelty, "seed", 0)
    g.add_node("Assumption", seed.assumption, "seed", 0)
    return g


def _first(g: IdeaGraph, t: str) -> str | None:
    node = g.current(t)
    return node.id if node else None


def _dep(g: IdeaGraph, rnd: int, role: str, a: str | None, b: str | None, why: str) -> list[Action]:
    if a and b and not g.has_edge(a, b, "depends_on"):
        return [Action(round=rnd, role=role, kind="add_dependency_edge", targets=[a, b], rationale=why)]
    return []


def _sup(g: IdeaGraph, rnd: int, role: str, a: str | None, b: str | None, why: str) -> list[Action]:
    if a and b and not g.has_edge(a, b, "supports"):
        return [Action(round=rnd, role=role, kind="add_support_edge", targets=[a, b], rationale=why)]
    return []


def _evidence(g: IdeaGraph, kb, rnd: int, role: str, nid: str | None, fact_types=None) -> list[Action]:
    if not nid:
        return []
    if kb is None:
        return _need(g, rnd, role, nid)
    have = {e.object_id for e in g.nodes[nid].evidence}
    ev = [e for e in find_evidence(kb, g.nodes[nid].text, 2, fact_types) if e.object_id not in have]
    if not ev:
        return _need(g, rnd, role, nid)
    return [Action(round=rnd, role=role, kind="attach_evidence", targets=[nid], payload={"evidence": [e.model_dump() for e in ev]},
                   rationale=f"ground {g.nodes[nid].type} in registered facts")]


def _need(g: IdeaGraph, rnd: int, role: str, nid: str) -> list[Action]:
    """The store has nothing for an ungrounded claim: say so in the graph (an EvidenceNeed the claim
    `requires_evidence` of), once, so the gap stays visible until evidence meets it."""
    node = g.nodes[nid]
    if node.type not in CLAIMS or node.evidence or g.open_needs(nid):
        return []
    text = f"Evidence needed for the {node.type} (the store holds none yet): {node.text[:200]}"
    return [Action(round=rnd, role=role, kind="add_dependency_edge", targets=[nid], rationale=f"record that the {node.type} lacks evidence",
                   payload={"new_node": {"type": "EvidenceNeed", "text": text}, "edge": "requires_evidence"})]


def _refine_problem(g: IdeaGraph, kb, rnd: int, role: str) -> list[Action]:
    """An ungrounded Problem (the seed's wording) is refined into a limitation the store records for
    the idea's hypothesis and method, citing it: the refinement `refines` the Problem."""
    problem, hyp, method = g.current("Problem"), g.current("Hypothesis"), g.current("Method")
    if problem is None or problem.evidence or kb is None:
        return []
    query = " ".join(n.text for n in (hyp, method) if n) + " limitation"
    lim = topic_evidence(kb, g.topic, query, "limitation")
    if not lim:
        return []
    text = f"Open problem for {g.topic}: {lim[0].text}"[:300]
    return [Action(round=rnd, role=role, kind="add_dependency_edge", targets=[problem.id], rationale="refine the problem into a recorded limitation",
                   payload={"new_node": {"type": "Problem", "text": text, "evidence": [e.model_dump() for e in lim]}, "edge": "refines"})]


def _repairs(g: IdeaGraph, rnd: int, role: str) -> list[Action]:
    """One repair per open weakness (an unresolved contradiction or prior-work overlap), saying what it answers."""
    out = []
    for e in g.edges:
        if e.type not in ("contradicts", "overlaps_prior") or e.resolved or e.src not in g.nodes or e.dst not in g.nodes:
            continue
        node, weak = g.nodes[e.dst], g.nodes[e.src]
        what = "set it apart from" if e.type == "overlaps_prior" else "address"
        text = f"Revise the {node.type.lower()} to {what}: {weak.text[:160]}"
        out.append(Action(round=rnd, role=role, kind="propose_repair", targets=[e.dst], payload={"text": text, "weakness": e.src},
                          rationale=f"resolve the open {e.type.replace('_', ' ')} from {e.src}"))
    return out


def candidate_slate(g: IdeaGraph, role: str, rnd: int, kb=None) -> list[Action]:
    P, H, M, E = (_first(g, t) for t in ("Problem", "Hypothesis", "Method", "EvalPlan"))
    N, A = _first(g, "NoveltyClaim"), _first(g, "Assumption")
    out: list[Action] = []
    if role == "MechanismProposer":
        out += _dep(g, rnd, role, M, H, "the method operationalises the hypothesis")
        out += _sup(g, rnd, role, M, H, "the mechanism explains why the hypothesis should hold")
        out += _sup(g, rnd, role, A, H, "the assumption licenses the hypothesis")
        out += _repairs(g, rnd, role)
    elif role == "FeasibilityCritic":
        risks = risk_edges(g)
        if M and not any(not e.resolved for e in g.edges if e.type == "contradicts") and len(risks) < 2:
            lim = topic_evidence(kb, g.topic, f"{g.topic} limitation", "limitation")
            text = f"Feasibility risk: {lim[0].text}" if lim else f"Feasibility risk: the method may not scale or transfer beyond the data for {g.topic}."
            out.append(Action(round=rnd, role=role, kind="add_contradiction_edge", targets=[M], rationale="expose a feasibility risk",
                              payload={"new_node": {"type": "Risk", "text": text[:300], "evidence": [e.model_dump() for e in lim]}, "edge": "contradicts"}))
        out += _dep(g, rnd, role, M, A, "the method relies on the assumption")
    elif role == "NoveltyExaminer":
        if N and not any(e.type == "overlaps_prior" for e in g.edges):
            prior = find_evidence(kb, g.nodes[N].text + " " + g.topic, 1)
            if prior:
                out.append(Action(round=rnd, role=role, kind="add_contradiction_edge", targets=[N], rationale="prior work overlaps the claim",
                                  payload={"new_node": {"type": "Risk", "text": f"Prior work: {prior[0].text}"[:300],
                                                        "evidence": [e.model_dump() for e in prior]}, "edge": "overlaps_prior"}))
        out += _evidence(g, kb, rnd, role, N)
        out += _sup(g, rnd, role, N, H, "the novelty claim motivates the hypothesis")
    elif role == "EvaluationDesigner":
        out += _dep(g, rnd, role, E, M, "the evaluation tests the method")
        out += _dep(g, rnd, role, H, P, "the hypothesis answers the problem")
        out += _sup(g, rnd, role, E, H, "the evaluation can falsify the hypothesis")
        out += _evidence(g, kb, rnd, role, E, ("finding", "dataset_description"))
    elif role == "ImpactReframer":
        out += _sup(g, rnd, role, P, N, "the problem's importance frames the novelty")
        out += _refine_problem(g, kb, rnd, role)
        out += _evidence(g, kb, rnd, role, P)
        out += _evidence(g, kb, rnd, role, H, ("finding",))
        out += _repairs(g, rnd, role)[:1]
    out.append(Action(round=rnd, role=role, kind="skip"))
    return out
