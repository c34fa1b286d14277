"""Interchangeable re-rankers: `score(query_text, candidates) → {id: score}`.

- embedding: cosine between an instruction-conditioned query embedding and title + abstract;
- relevance: the learned judge (search/judge.py) over those similarities, the claim verifier's
  rationale score, depth and citations among the collected papers;
- debate: an LLM writes an argument for and against relevance and a 0–100 score for each of a batch
  of candidates in one call, reading the whole query paper (fitted to its context only when it
  must be, and said); batches run concurrently under a semaphore; a failed call or a skipped
  candidate scores nothing and is counted, not hidden;
- ensemble: the average of the members' min–max normalised scores.
"""

from __future__ import annotations

import asyncio

from pydantic import BaseModel, Field

from ..llm.client import LLMClient, LLMOutputError
from .pipeline import Candidate
from .similarity import INSTRUCTION, dense_scores, lexical_scores


def normalise_scores(scores: dict[str, float]) -> dict[str, float]:
    if not scores:
        return {}
    lo, hi = min(scores.values()), max(scores.values())
    return {k: (v - lo) / (hi - lo) if hi > lo else 0.5 for k, v in scores.items()}


class EmbeddingReranker:
    name = "embedding"

    def __init__(self, embedder, instruction: str = INSTRUCTION):
        self.embedder, self.instruction = embedder, instruction

    def score(self, query: str, cands: list[Candidate]) -> dict[str, float]:
        return {c.id: v for c, v in zip(cands, dense_scores(self.embedder, query, cands, self.instruction))}


class Debate(BaseModel):
    candidate: int = Field(..., ge=1, le=50, description="the candidate's number in the list")
    argument_for: str = Field(..., max_length=240)
    argument_against: str = Field(..., max_length=240)
    score: int = Field(..., ge=0, le=100)


class DebateBatch(BaseModel):
    debates: list[Debate] = Field(..., min_length=1, max_length=50)


class DebateReranker:
    """One call judges a batch of candidates against the whole query paper (shortened only where it
    would not fit the model's context, which the prompt then says); batches run concurrently."""

    name = "debate"

    def __init__(self, client: LLMClient, concurrency: int = 4, batch: int = 5):
        self.client, self.concurrency, self.batch = client, concurrency, batch
        self.failures = 0
        self.shortened = 0  # calls whose query had to be cut to fit the context

    REPLY_TOKENS = 150  # per candidate: two bounded arguments and a score

    def _query(self, query: str, cands: list[Candidate]) -> str:
        from ..tasks.common import count_tokens

        window = self.client.config.context_tokens
        room = (window - self.REPLY_TOKENS * len(cands) - 50
                - sum(count_tokens(c.paper.title + c.paper.abstract[:1200]) for c in cands) - 200)
        if count_tokens(query) <= room:
            return query
        self.shortened += 1
        words = query.split()
        keep = max(50, int(len(words) * max(room, 0) / max(1, count_tokens(query))))
        return " ".join(words[:keep]) + f" […] (the query paper continues; cut to fit the model's {window}-token context)"

    def score(self, query: str, cands: list[Candidate]) -> dict[str, float]:
        sem = asyncio.Semaphore(self.concurrency)

        async def one(batch: list[Candidate]) -> dict[str, float]:
            listing = "\n\n".join(f"Candidate {i}: {c.paper.title}\n{c.paper.abstract[:1200]}" for i, c in enumerate(batch, 1))
            prompt = (f"Query paper or question:\n{self._query(query, batch)}\n\n{listing}\n\n"
                      "For each candidate, argue for and against it being relevant related work, then give a relevance "
                      "score 0-100; answer for every candidate by its number.")
            async with sem:
                try:
                    out, _ = await asyncio.to_thread(self.client.structured, prompt, DebateBatch,
                                                     max_tokens=self.REPLY_TOKENS * len(batch) + 50)
                except LLMOutputError:
                    self.failures += len(batch)
                    return {}
            got = {batch[d.candidate - 1].id: float(d.score) for d in out.debates if d.candidate <= len(batch)}
            self.failures += len(batch) - len(got)  # a candidate the model skipped scores nothing, and is counted
            return got

        async def run() -> dict[str, float]:
            parts = await asyncio.gather(*(one(cands[i:i + self.batch]) for i in range(0, len(cands), self.batch)))
            return {cid: s for part in parts for cid, s in part.items()}

        return asyncio.run(run())


class EnsembleReranker:
    name = "ensemble"

    def __init__(self, members: list):
        self.members = members

    def score(self, query: str, cands: list[Candidate]) -> dict[str, float]:
        parts = [normalise_scores(m.score(query, cands)) for m in self.members]
        out = {}
        for c in cands:
            vals = [p[c.id] for p in parts if c.id in p]
            if vals:
                out[c.id] = sum(vals) / len(vals)
        return out


def rerank(query: str, cands: list[Candidate], reranker) -> list[Candidate]:
    scores = reranker.score(query, cands)
    for c in cands:
        c.score = scores.get(c.id, float("-inf"))
        c.scores[reranker.name] = c.score
    return sorted(cands, key=lambda c: (-c.score, c.depth, c.id))


class LexicalReranker:
    """BM25 of the query text against each candidate's title and abstract (offline ensemble member)."""

    name = "lexical"

    def score(self, query: str, cands: list[Candidate]) -> dict[str, float]:
        return {c.id: v for c, v in zip(cands, lexical_scores(query, cands))}


def default_reranker(client: LLMClient | None) -> str:
    """The semantic-relevance judge: the LLM's debate on the openai backend, else the learned
    judge where its weights are present, else embedding similarity."""
    from .judge import WEIGHTS

    return "debate" if client is not None else "relevance" if WEIGHTS.exists() else "embedding"


def make_reranker(name: str, embedder=None, client: LLMClient | None = None):
    if name == "embedding":
        return EmbeddingReranker(embedder)
    if name == "lexical":
        return LexicalReranker()
    if name == "relevance":
        from .judge import judge_reranker

        judge = judge_reranker(embedder)
        if judge is None:
            raise ValueError("the relevance re-ranker needs the search judge's weights (make models)")
        return judge
    if name == "debate":
        if client is None:
            raise ValueError("the debate re-ranker needs an LLM (--backend openai)")
        return DebateReranker(client)
    if name == "ensemble":
        members = [EmbeddingReranker(embedder), LexicalReranker()] + ([DebateReranker(client)] if client else [])
        return EnsembleReranker(members)
    raise ValueError(f"unknown re-ranker {name!r} (embedding, lexical, relevance, debate, ensemble)")
