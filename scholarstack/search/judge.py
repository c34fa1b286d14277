"""Deep search's learned relevance judge (the offline backend's; the LLM's debate is the openai
backend's): which of the collected papers would the query paper cite?

A logistic model over what the search knows of each candidate: dense and lexical similarity to
the query (score and rank within the collection), the claim verifier's rationale score, how it
was found (its depth), and how many other collected papers cite it. Trained on the ACL
ScisummNet papers' in-corpus reference lists (each query paper hidden from the search, as in the
evaluation) of the papers the evaluation does not ask with (one or two references; it asks with
three or more), so `eval deep_search` measures the shipped judge on unseen queries; the card
gives its recall cross-fitted by query paper on its own training queries. Weights: JSON.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..learned.linear import LinearModel, fit, fold_of, ranks
from .pipeline import Candidate
from .similarity import dense_scores, lexical_scores, rationale_scores

WEIGHTS = Path(__file__).parents[1] / "learned" / "weights" / "search_judge.json"
FEATURES = ("dense", "dense_rank", "lexical", "lexical_rank", "rationale", "rationale_rank",
            "depth_0", "depth_1", "depth_2", "depth_3+", "cited_by_collection", "cited_by_share")
DEPTH, BUDGET = 2, 300  # the search the judge is trained on (the evaluation's re-ranking setting)


def features(query: str, cands: list[Candidate], embedder, verifier) -> np.ndarray:
    """One row of FEATURES per candidate (the embedder must be MiniLM where a verifier is given)."""
    if not cands:
        return np.zeros((0, len(FEATURES)), dtype=np.float32)
    dense = np.array(dense_scores(embedder, query, cands), dtype=np.float32)
    lex = np.array(lexical_scores(query, cands), dtype=np.float32)
    lex_n = lex / lex.max() if lex.max() > 0 else lex
    rat = np.array(rationale_scores(verifier, embedder, query, cands) if verifier is not None else [0.0] * len(cands), dtype=np.float32)
    keys = {f"{c.paper.provider}:{c.paper.id}" for c in cands}
    cited = {k: 0 for k in keys}
    for c in cands:  # citations among the collected papers, in each provider's own ids
        for ref in set(c.paper.references):
            key = f"{c.paper.provider}:{ref}"
            if key in cited:
                cited[key] += 1
    counts = np.array([cited[f"{c.paper.provider}:{c.paper.id}"] for c in cands], dtype=np.float32)
    depth = np.array([[float(c.depth == d) for d in (0, 1, 2)] + [float(c.depth >= 3)] for c in cands], dtype=np.float32)
    cols = [dense, 1.0 / (1.0 + ranks(dense)), lex_n, 1.0 / (1.0 + ranks(lex)), rat, 1.0 / (1.0 + ranks(rat))]
    return np.column_stack(cols + [depth, np.log1p(counts), counts / max(1.0, counts.max())]).astype(np.float32)


class SearchJudge(LinearModel):
    def scores(self, X: np.ndarray) -> np.ndarray:
        """Probability that the query cites each candidate."""
        return 1.0 / (1.0 + np.exp(-self.logits(X)))

    def save(self, path: Path = WEIGHTS) -> Path:
        load.cache_clear()
        return self.write(path)


@lru_cache(maxsize=1)
def load(path: Path = WEIGHTS) -> SearchJudge | None:
    return SearchJudge(json.loads(path.read_text())) if path.exists() else None


class JudgeReranker:
    """The learned judge as a re-ranker (reads MiniLM vectors and the claim verifier, both loaded once per process)."""

    name = "relevance"

    def __init__(self, judge: SearchJudge, embedder, verifier):
        self.judge, self.embedder, self.verifier = judge, embedder, verifier

    def score(self, query: str, cands: list[Candidate]) -> dict[str, float]:
        if not cands:
            return {}
        p = self.judge.scores(features(query, cands, self.embedder, self.verifier))
        return {c.id: float(s) for c, s in zip(cands, p)}


@dataclass
class Example:
    query_id: str
    X: np.ndarray
    y: np.ndarray


def acl_examples(provider, embedder, verifier, query_ids: list[str], progress: bool = False) -> list[Example]:
    """For each query paper: hide it, search from its title and abstract (depth 2, 300 papers),
    and label each collected paper by whether the query's reference list holds it."""
    from .pipeline import deep_search

    out = []
    for i, qid in enumerate(query_ids, 1):
        qp = provider.papers[qid]
        text = f"{qp.title}. {qp.abstract}"
        provider.hide(qid)
        res = asyncio.run(deep_search(text, [provider], depth=DEPTH, budget=BUDGET))
        if res.candidates:
            refs = set(qp.references)
            out.append(Example(qid, features(text, res.candidates, embedder, verifier),
                               np.array([int(c.paper.id in refs) for c in res.candidates])))
        if progress and i % 25 == 0:
            print(f"  search judge: {i}/{len(query_ids)} query papers searched", flush=True)
    provider.unhide()
    return out


def _train_on(examples: list[Example], seed: int) -> SearchJudge:
    return SearchJudge(fit(np.concatenate([e.X for e in examples]), np.concatenate([e.y for e in examples]), seed) | {"features": list(FEATURES)})


def cross_fitted(examples: list[Example], seed: int = 0, folds: int = 5) -> dict[int, SearchJudge]:
    """One judge per fold of query papers, trained on the other folds' queries."""
    return {f: _train_on(part, seed) for f in range(folds)
            if (part := [e for e in examples if fold_of(e.query_id, folds) != f and e.y.any()])}


def recall_at(scores: np.ndarray, e: Example, refs: int, k: int) -> float:
    top = np.argsort(-scores, kind="stable")[:k]
    return float(e.y[top].sum()) / max(1, refs)


EVAL_MIN_REFS = 3  # `eval deep_search` asks with papers that have at least this many in-corpus references


def training_queries(provider) -> list[str]:
    """ACL papers with one or two in-corpus references: the evaluation's query papers (three or
    more) are never trained on, so it measures the shipped judge as it is."""
    return sorted(pid for pid, p in provider.papers.items() if 0 < len(p.references) < EVAL_MIN_REFS)


def train_from_shared(embedder, out: Path = WEIGHTS, seed: int = 0, limit: int | None = None, progress: bool = False) -> dict[str, Any]:
    """Train on the training queries; the card gives the cross-fitted recall@10 of the judge and
    of dense similarity alone on the same searches."""
    from ..learned.claim_verifier import default_verifier
    from .local import LocalProvider

    started = time.perf_counter()
    provider = LocalProvider.acl()
    queries = training_queries(provider)[:limit]
    verifier = default_verifier() if getattr(embedder, "name", "") == "minilm" else None  # it reads MiniLM vectors
    examples = acl_examples(provider, embedder, verifier, queries, progress)
    judges = cross_fitted(examples, seed)
    refs = {q: len(provider.papers[q].references) for q in queries}
    held = [e for e in examples if fold_of(e.query_id) in judges]
    judge_r = [recall_at(judges[fold_of(e.query_id)].scores(e.X), e, refs[e.query_id], 10) for e in held]
    dense_r = [recall_at(e.X[:, 0], e, refs[e.query_id], 10) for e in held]
    model = _train_on([e for e in examples if e.y.any()], seed)
    card = {"model": "search judge: logistic model over dense, lexical and rationale similarity, depth and in-collection citations",
            "data": "ACL ScisummNet papers' in-corpus references (citances_dev.jsonl), CC BY 4.0; each query hidden from its search",
            "split": "5 folds of query papers by sha256(paper id)", "seed": seed, "queries": len(examples),
            "positives": int(sum(e.y.sum() for e in examples)), "rows": int(sum(len(e.y) for e in examples)),
            "search": f"depth {DEPTH}, budget {BUDGET}", "embedder": getattr(embedder, "name", "?"),
            "cross_fitted_recall@10": round(float(np.mean(judge_r)), 4) if held else None,
            "dense_recall@10_same_searches": round(float(np.mean(dense_r)), 4) if held else None,
            "training_seconds": round(time.perf_counter() - started, 1)}
    model.weights["card"] = card
    model.card = card
    model.save(out)
    return card | {"weights": out.name, "weights_bytes": out.stat().st_size}


def judge_reranker(embedder=None) -> JudgeReranker | None:
    """The shipped judge with MiniLM and the claim verifier, or None where its weights are absent."""
    from ..index.embed import make_embedder
    from ..learned.claim_verifier import default_verifier

    judge = load()
    return JudgeReranker(judge, embedder if getattr(embedder, "name", "") == "minilm" else make_embedder("minilm"),
                         default_verifier()) if judge is not None else None

