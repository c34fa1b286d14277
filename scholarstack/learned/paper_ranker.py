"""A learned ranker for literature retrieval: fuses the retriever's rankings (full-text BM25, dense,
L1 facts, L2 expansion and entities, L3 studies, citing sentences lexical and dense, the query
adapter, the citation-count prior) into one, in place of fixed-weight reciprocal-rank fusion.

A candidate is any paper in the top 50 of some ranking; its features are, per ranking, the
reciprocal rank, the log rank, whether it is first, in the top 3, in the top 10 and there at all,
and across rankings how many put it in their top 10 (agreement, which a linear model over single
rankings cannot see). A logistic model over them is trained on citing sentences (the request) and
the paper they cite (the one relevant candidate). Two variants: `content` (the papers' own text
and layers) and `citations` (everything).
Weights are plain JSON (a few KB), committed.
"""

from __future__ import annotations

import json
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

WEIGHTS = Path(__file__).parent / "weights" / "paper_ranker.json"
NAMES = ("fulltext_bm25", "dense", "facts", "expanded", "entities", "syntheses",
         "citations", "citations_dense", "adapter", "cited_by")
CITATION_EVIDENCE = frozenset({"citations", "citations_dense", "adapter", "cited_by"})
DEPTH = 50


def variant(rankings: dict[str, list[str]]) -> str:
    return "citations" if CITATION_EVIDENCE & set(rankings) else "content"


PER_RANKING = 6
LOG_DEPTH = float(np.log(101))


def features(rankings: dict[str, list[str]]) -> tuple[list[str], np.ndarray]:
    """(candidates, one row of features per candidate)."""
    cands = list(dict.fromkeys(p for n in NAMES for p in rankings.get(n, [])[:DEPTH]))
    pos = {n: {p: i for i, p in enumerate(rankings.get(n, []))} for n in NAMES}
    X = np.zeros((len(cands), PER_RANKING * len(NAMES) + 3), dtype=np.float32)
    for i, p in enumerate(cands):
        top10, rr = 0, 0.0
        for j, n in enumerate(NAMES):
            r = pos[n].get(p)
            if r is not None:
                X[i, PER_RANKING * j:PER_RANKING * (j + 1)] = (1.0 / (1 + r), 1.0 - np.log1p(r) / LOG_DEPTH, float(r == 0),
                                                               float(r < 3), float(r < 10), 1.0)
                top10 += r < 10
                rr += 1.0 / (1 + r)
        X[i, -3:] = (top10 / len(NAMES), rr, float(top10 >= 3))
    return cands, X


class PaperRanker:
    def __init__(self, models: dict[str, dict[str, Any]], card: dict | None = None):
        self.models = {k: (np.array(m["coef"], dtype=np.float32), float(m["intercept"])) for k, m in models.items()}
        self.raw, self.card = models, card or {}

    def rank(self, rankings: dict[str, list[str]], k: int = 100) -> list[str]:
        cands, X = features(rankings)
        if not cands:
            return []
        coef, b = self.models[variant(rankings)]
        s = X @ coef + b
        order = sorted(range(len(cands)), key=lambda i: (-s[i], cands[i]))
        return [cands[i] for i in order][:k]

    def save(self, path: Path = WEIGHTS) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"models": self.raw, "card": self.card}, separators=(",", ":")))
        load.cache_clear()
        return path


@lru_cache(maxsize=1)
def load(path: Path = WEIGHTS) -> PaperRanker | None:
    """The committed ranker, once per process; None when absent (retrieval then fuses by RRF)."""
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    return PaperRanker(data["models"], data.get("card"))


def train(samples: list[tuple[dict[str, list[str]], str]], seed: int = 0) -> tuple[PaperRanker, dict[str, Any]]:
    """samples: (rankings with citation evidence, the cited paper). Trains both variants: `content`
    on the same requests with the citation-evidence rankings removed."""
    from sklearn.linear_model import LogisticRegression

    started = time.perf_counter()
    models, card = {}, {"model": "paper ranker: logistic over rank features of the retriever's rankings and their agreement",
                        "features": list(NAMES), "depth": DEPTH, "requests": len(samples), "seed": seed}
    for name in ("content", "citations"):
        Xs, ys = [], []
        for rankings, gold in samples:
            rk = rankings if name == "citations" else {n: v for n, v in rankings.items() if n not in CITATION_EVIDENCE}
            cands, X = features(rk)
            Xs.append(X)
            ys.append(np.array([int(p == gold) for p in cands]))
        X, y = np.concatenate(Xs), np.concatenate(ys)
        m = LogisticRegression(C=1.0, max_iter=2000, random_state=seed).fit(X, y) if y.any() and not y.all() else None
        models[name] = {"coef": (m.coef_[0] if m else np.zeros(X.shape[1])).round(6).tolist(),
                        "intercept": float(m.intercept_[0]) if m else 0.0}
        card[f"{name}_candidates"] = int(len(y))
    card["training_seconds"] = round(time.perf_counter() - started, 1)
    return PaperRanker(models, card), card


def train_from_retriever(retriever, requests: list[dict], out: Path = WEIGHTS, seed: int = 0, log=None) -> dict[str, Any]:
    """Train on a retriever's rankings (tasks.retrieval.StoreRetriever with citation evidence) for
    `requests` ({"query", "cited_paper_id", "citing_paper_id"}); each request's own citing paper is
    left out of the citation evidence, and papers later than it are left out, as in use (the year
    its id carries). Writes the weights; returns the model card."""
    from ..ingest.records import anthology_year

    samples = []
    for i, r in enumerate(requests):
        citing = r["citing_paper_id"]
        samples.append((retriever.rankings(r["query"], citing_paper=citing, before=anthology_year(citing)), r["cited_paper_id"]))
        if log and i % 500 == 0:
            log(f"paper ranker: rankings for {i}/{len(requests)} requests")
    ranker, card = train(samples, seed=seed)
    ranker.save(out)
    return card | {"weights": out.name, "weights_bytes": out.stat().st_size}
