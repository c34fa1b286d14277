"""On commit, the active Problem–Hypothesis–Method–EvalPlan backbone with its supporting edges
and evidence becomes a structured proposal; every reference is a registered object and locator.
Offline it is assembled from the nodes; on the openai backend the model writes the problem,
hypothesis, method and experiments from the nodes and keyed evidence, citing node ids and evidence
keys, and a citation to anything else is removed and recorded."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..llm.client import LLMClient, LLMOutputError
from .graph import IdeaGraph, risk_edges, signals


class Proposal(BaseModel):
    topic: str
    problem: str
    motivation: list[str] = Field(default_factory=list)
    hypothesis: str
    method: str
    experiments: list[str] = Field(default_factory=list)
    risks: list[str] = Field(default_factory=list)
    novelty: str = ""
    prior_work: list[str] = Field(default_factory=list)
    evidence_needs: list[str] = Field(default_factory=list, description="claims the store holds no evidence for yet")
    references: list[str] = Field(default_factory=list, description="object ids @ sentence locators")
    signals: dict[str, float] = Field(default_factory=dict)
    written_by: str = Field("rules", description="rules (offline, or the model's output was invalid) or model")
    cited: list[str] = Field(default_factory=list, description="what the model cited: node ids and evidence as object @ locators")
    notes: list[str] = Field(default_factory=list, description="what was removed or failed, said")


class WrittenProposal(BaseModel):
    problem: str = Field(..., max_length=400)
    hypothesis: str = Field(..., max_length=400)
    method: str = Field(..., max_length=600)
    experiments: list[str] = Field(default_factory=list, max_length=3)
    cites: list[str] = Field(default_factory=list, max_length=12, description="the node ids (n1 …) and evidence keys (E1 …) used")


def _text(g: IdeaGraph, t: str) -> str:
    base = g.current(t)  # the latest refinement
    if base is None:
        return ""
    repairs = [g.nodes[e.src].text for e in g.edges if e.dst == base.id and e.type == "repairs" and e.src in g.nodes]
    return base.text + (f" (revised: {repairs[-1]})" if repairs else "")


def synthesize_proposal(g: IdeaGraph) -> Proposal:
    refs, seen = [], set()
    for n in g.active_nodes():
        for e in n.evidence:
            if e.object_id not in seen:
                seen.add(e.object_id)
                refs.append(f"{e.object_id} @ {', '.join(e.locators) or '-'}")
    problem_nodes = g.of_type("Problem")
    problem_ids = {n.id for n in problem_nodes}
    motivation = [f"{e.text} [{e.object_id}]" for n in problem_nodes for e in n.evidence]
    motivation += [g.nodes[e.src].text for e in g.edges if e.src in g.nodes and e.type == "supports" and e.dst in problem_ids]
    hyp, method, plan = _text(g, "Hypothesis"), _text(g, "Method"), _text(g, "EvalPlan")
    experiments = [plan] if plan else []
    if hyp:
        experiments.append(f"Falsifiable prediction: if '{hyp[:160]}' holds, the method beats the baselines under the evaluation plan; "
                           "a result at or below the baselines refutes it.")
    risks = [f"{g.nodes[e.src].text} [{'resolved' if e.resolved else 'open'}]" for e in risk_edges(g)]
    prior = [f"{g.nodes[e.src].text} [{'addressed' if e.resolved else 'open'}]" for e in g.edges if e.type == "overlaps_prior" and e.src in g.nodes]
    needs = [g.nodes[e.dst].text for e in g.edges if e.type == "requires_evidence" and not e.resolved and e.dst in g.nodes]
    return Proposal(topic=g.topic, problem=_text(g, "Problem"), motivation=motivation[:5], hypothesis=hyp, method=method,
                    experiments=experiments, risks=risks, novelty=_text(g, "NoveltyClaim"), prior_work=prior, evidence_needs=needs, references=refs,
                    signals={k: round(v, 4) for k, v in signals(g).items()})


def write_proposal(g: IdeaGraph, client: LLMClient) -> Proposal:
    """The model writes the proposal from the committed graph; risks, prior work, references and
    signals stay what the graph holds. Invalid output keeps the assembled proposal and says why."""
    base = synthesize_proposal(g)
    evidence = {f"E{i}": e for i, e in enumerate((e for n in g.active_nodes() for e in n.evidence), 1)}
    keys = {k: f"{e.object_id} @ {', '.join(e.locators) or '-'}" for k, e in evidence.items()}
    texts = {k: e.text[:200] for k, e in evidence.items()}
    prompt = (f"Research idea on: {g.topic}\nIdea graph nodes:\n" + "\n".join(f"{n.id} [{n.type}] {n.text[:240]}" for n in g.active_nodes())
              + "\nEvidence:\n" + ("\n".join(f"{k}: {t}" for k, t in texts.items()) or "(none)")
              + "\n\nWrite the research proposal: problem, hypothesis, method and up to 3 experiments, from these only. "
                "In cites, list the node ids and evidence keys you used.")
    try:
        out, _ = client.structured(prompt, WrittenProposal)
    except LLMOutputError as exc:
        return base.model_copy(update={"notes": [f"model proposal invalid, assembled from the graph instead: {exc}"[:300]]})
    known = [c for c in dict.fromkeys(c.strip() for c in out.cites) if c in keys or c in g.nodes]
    unknown = [c for c in out.cites if c.strip() not in known]
    return base.model_copy(update={
        "problem": out.problem, "hypothesis": out.hypothesis, "method": out.method, "experiments": out.experiments or base.experiments,
        "written_by": "model", "cited": [keys.get(c, c) for c in known],
        "notes": [f"removed citations to nothing in the graph: {', '.join(unknown)}"[:300]] if unknown else []})
