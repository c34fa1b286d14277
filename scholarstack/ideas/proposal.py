"""On commit, the active Problem–Hypothesis–Method–EvalPlan backbone with its supporting edges
and evidence becomes a structured proposal; every reference is a registered object and locator."""

from __future__ import annotations

from pydantic import BaseModel, Field

from .graph import IdeaGraph, signals


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
    references: list[str] = Field(default_factory=list, description="object ids @ sentence locators")
    signals: dict[str, float] = Field(default_factory=dict)


def _text(g: IdeaGraph, t: str) -> str:
    nodes = g.of_type(t)
    if not nodes:
        return ""
    base = nodes[0]
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
    motivation = [f"{e.text} [{e.object_id}]" for n in problem_nodes for e in n.evidence]
    motivation += [g.nodes[e.src].text for e in g.edges if problem_nodes and e.src in g.nodes and e.type == "supports" and e.dst == problem_nodes[0].id]
    hyp, method, plan = _text(g, "Hypothesis"), _text(g, "Method"), _text(g, "EvalPlan")
    experiments = [plan] if plan else []
    if hyp:
        experiments.append(f"Falsifiable prediction: if '{hyp[:160]}' holds, the method beats the baselines under the evaluation plan; "
                           "a result at or below the baselines refutes it.")
    risks = [f"{g.nodes[e.src].text} [{'resolved' if e.resolved else 'open'}]" for e in g.edges
             if e.type == "contradicts" and e.src in g.nodes and g.nodes[e.src].type == "Risk"]
    prior = [f"{g.nodes[e.src].text} [{'addressed' if e.resolved else 'open'}]" for e in g.edges if e.type == "overlaps_prior" and e.src in g.nodes]
    return Proposal(topic=g.topic, problem=_text(g, "Problem"), motivation=motivation[:5], hypothesis=hyp, method=method,
                    experiments=experiments, risks=risks, novelty=_text(g, "NoveltyClaim"), prior_work=prior, references=refs,
                    signals={k: round(v, 4) for k, v in signals(g).items()})
