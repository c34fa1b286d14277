"""Judging a committed proposal on EIG's rubric (Appendix J.5: novelty, significance, feasibility,
clarity, context adherence, overall).

- openai backend: the model scores each criterion 1–5 with a short reason (structured output).
- offline: a proxy for each criterion that can be computed from the graph and the store, each a
  share in [0, 1]: grounding (claims whose evidence resolves to current sentences), novelty (the
  proposal's aspects no prior paper in the store covers, through the novelty task), feasibility
  (examined risks that a repair resolved), context adherence (the topic's words the problem,
  hypothesis and method keep). Significance, clarity and overall need a reader: left empty, and
  said so.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ..llm.client import LLMClient, LLMOutputError
from ..views.lexical import tokenize
from .graph import CLAIMS, IdeaGraph, risk_edges
from .proposal import Proposal

CRITERIA = ("novelty", "significance", "feasibility", "clarity", "context_adherence", "overall")


class Judged(BaseModel):
    method: Literal["offline proxies", "llm rubric"]
    scale: str
    scores: dict[str, float | None]
    reasons: dict[str, str] = Field(default_factory=dict)


class RubricScore(BaseModel):
    score: int = Field(..., ge=1, le=5)
    reason: str = Field("", max_length=200)


class Rubric(BaseModel):
    novelty: RubricScore
    significance: RubricScore
    feasibility: RubricScore
    clarity: RubricScore
    context_adherence: RubricScore
    overall: RubricScore


def proposal_text(p: Proposal) -> str:
    return "\n".join(f"{k}: {v}" for k, v in (("Problem", p.problem), ("Hypothesis", p.hypothesis), ("Method", p.method),
                                               ("Experiments", " ".join(p.experiments)), ("Novelty", p.novelty)) if v)


def judge_with_model(p: Proposal, client: LLMClient) -> Judged:
    prompt = (f"Research topic: {p.topic}\nProposal:\n{proposal_text(p)}\n\nScore the proposal from 1 (poor) to 5 (excellent) on "
              "novelty, significance, feasibility, clarity, context adherence (faithful to the topic and its evidence) and "
              "overall quality, each with a one-sentence reason.")
    try:
        out, _ = client.structured(prompt, Rubric)
    except LLMOutputError as exc:  # recorded, not hidden: no scores rather than made-up ones
        return Judged(method="llm rubric", scale="1-5", scores=dict.fromkeys(CRITERIA), reasons={"error": str(exc)[:300]})
    return Judged(method="llm rubric", scale="1-5", scores={c: float(getattr(out, c).score) for c in CRITERIA},
                  reasons={c: getattr(out, c).reason for c in CRITERIA})


def judge_offline(p: Proposal, graph: IdeaGraph, store=None, retriever=None, org=None) -> Judged:
    """`retriever` and `org` (the store's organisation): pass them when judging many proposals on one store."""
    scores: dict[str, float | None] = dict.fromkeys(CRITERIA)
    reasons: dict[str, str] = {c: "needs a reader: the LLM rubric (--backend openai)" for c in ("significance", "clarity", "overall")}
    claims = [n for n in graph.active_nodes() if n.type in CLAIMS]
    if store is not None and claims:
        resolving = store.current_sentences({loc for n in claims for e in n.evidence for loc in e.locators})
        grounded = [n for n in claims if n.evidence and all(loc in resolving for e in n.evidence for loc in e.locators)]
        scores["grounding"] = round(len(grounded) / len(claims), 4)
        reasons["grounding"] = f"{len(grounded)} of {len(claims)} claims cite evidence that resolves to current sentences"
    if store is not None:
        from ..tasks.novelty import assess_novelty

        try:
            ans = assess_novelty(store, idea=proposal_text(p), retriever=retriever, org=org)
            aspects = ans.extra["aspects"]
            open_share = sum(1.0 if a["status"] == "not covered" else 0.5 if a["status"] == "partly" else 0.0 for a in aspects) / len(aspects)
            scores["novelty"] = round(open_share, 4)
            reasons["novelty"] = f"{ans.answer}: {ans.interpretation}"[:300]
        except ValueError as exc:  # nothing assessable in the text, or an empty store
            reasons["novelty"] = str(exc)[:200]
    risks = risk_edges(graph)
    if risks:
        scores["feasibility"] = round(sum(e.resolved for e in risks) / len(risks), 4)
        reasons["feasibility"] = f"{sum(e.resolved for e in risks)} of {len(risks)} examined risks resolved by a repair"
    else:
        reasons["feasibility"] = "no risk was examined"
    topic = set(tokenize(p.topic))
    if topic:
        kept = topic & set(tokenize(" ".join((p.problem, p.hypothesis, p.method))))
        scores["context_adherence"] = round(len(kept) / len(topic), 4)
        reasons["context_adherence"] = f"{len(kept)} of {len(topic)} topic words kept in problem, hypothesis and method"
    return Judged(method="offline proxies", scale="share 0-1 (grounding added; empty: not computable offline)", scores=scores,
                  reasons=reasons)
