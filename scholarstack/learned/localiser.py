"""Evidence localisation: which sentences of a cited paper does a citing sentence rest on?

A logistic ranker over (citing sentence, candidate sentence) features: lexical and dense match
(scores, ranks and z-scores within the paper, their fused rank), the best lexical and dense match
among its neighbours, word and number overlap, position in the paper, the sentence's kind
(learned.hygiene kinds: prose, caption, ...), and whether the offline extractor draws an L1 fact
(or a result fact) from it. The citing sentence is read without its citation markers and cited
authors' names, which the cited paper never writes. Trained on the CL-SciSumm 2018 topics;
`eval localisation` measures it cross-fitted by topic (a topic is never ranked by a model trained
on it). Weights: a few numbers in JSON.
"""

from __future__ import annotations

import json
import math
import re
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..ingest.citations import strip_citation_markers
from ..views.lexical import BM25, tokenize
from .linear import LinearModel, fit, fold_of, ranks

WEIGHTS = Path(__file__).parent / "weights" / "localiser.json"
NUM = re.compile(r"\d+(?:\.\d+)?")
KINDS = ("prose", "caption", "table_row", "heading")
N_FEATURES = 20


@dataclass
class Candidate:
    sid: int
    text: str
    kind: str = "prose"
    fact: bool = False    # an L1 fact is drawn from it
    result: bool = False  # a result fact is drawn from it


class PaperCandidates:
    """One cited paper's sentences, indexed once; `features(citance)` scores them all."""

    def __init__(self, cands: list[Candidate], embedder=None):
        self.cands = cands
        self.bm25 = BM25([c.text for c in cands])
        self.embedder = embedder
        self.vecs = embedder.encode([c.text for c in cands]) if embedder is not None and cands else None
        self.words = [set(tokenize(c.text)) for c in cands]

    def features(self, citance: str) -> np.ndarray:
        n = len(self.cands)
        if n == 0:
            return np.zeros((0, N_FEATURES), dtype=np.float32)
        citance = strip_citation_markers(citance, narrative=True) or citance
        raw = self.bm25.scores(citance)
        lex = raw / raw.max() if raw.max() > 0 else raw
        dense = self.vecs @ self.embedder.encode([citance])[0] if self.vecs is not None else np.zeros(n, dtype=np.float32)
        lex_rank, dense_rank, fused_rank = ranks(lex), ranks(dense), ranks(lex + dense)
        lex_z, dense_z = _z(raw), _z(dense)
        q = set(tokenize(citance))
        nums = set(NUM.findall(citance))
        rows = []
        for i, c in enumerate(self.cands):
            neighbour = max(lex[i - 1] if i > 0 else 0.0, lex[i + 1] if i + 1 < n else 0.0)
            dense_neighbour = max(dense[i - 1] if i > 0 else -1.0, dense[i + 1] if i + 1 < n else -1.0)
            rows.append([lex[i], 1.0 / (1 + lex_rank[i]), float(dense[i]), 1.0 / (1 + dense_rank[i]), neighbour,
                         len(q & self.words[i]) / max(1, len(q)), float(bool(nums & set(NUM.findall(c.text)))),
                         i / n, float(i < max(3, n // 10)), math.log1p(len(c.text.split())),
                         float(c.fact), float(c.result), *[float(c.kind == k) for k in KINDS[:3]],
                         lex_z[i], dense_z[i], float(dense_neighbour), 1.0 / (1 + fused_rank[i]), math.log1p(raw[i])])
        return np.array(rows, dtype=np.float32)


def _z(x: np.ndarray) -> np.ndarray:
    """Scores standardised within the paper: how far a sentence stands out from its paper's others."""
    return (x - x.mean()) / (x.std() + 1e-6)


class Localiser(LinearModel):
    def scores(self, X: np.ndarray) -> np.ndarray:
        return self.logits(X)

    def rank(self, paper: PaperCandidates, citance: str, k: int | None = None) -> list[int]:
        """Candidate sids, best first (k of them: the calibrated k when not given)."""
        s = self.scores(paper.features(citance))
        return [paper.cands[i].sid for i in np.argsort(-s, kind="stable")[: k or self.weights.get("k", 2)]]

    def save(self, path: Path = WEIGHTS) -> Path:
        load.cache_clear()
        return self.write(path)


@lru_cache(maxsize=1)
def load(path: Path = WEIGHTS) -> Localiser | None:
    return Localiser(json.loads(path.read_text())) if path.exists() else None


def topic_fold(topic: str, folds: int = 5) -> int:
    return fold_of(topic, folds)


Example = tuple[str, str, set[int]]  # (topic, citing sentence, gold sids)


def _features_and_labels(papers: dict[str, PaperCandidates], examples: list[Example]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    feats = [papers[t].features(c) for t, c, _ in examples]
    labels = [np.array([cand.sid in gold for cand in papers[t].cands], dtype=int) for t, _, gold in examples]
    return feats, labels


def _fit_folds(feats: list[np.ndarray], labels: list[np.ndarray], examples: list[Example], seed: int, folds: int) -> dict[int, Localiser]:
    models = {}
    for f in range(folds):
        idx = [i for i, (t, _, _) in enumerate(examples) if topic_fold(t, folds) != f]
        if idx:
            models[f] = Localiser(fit(np.concatenate([feats[i] for i in idx]), np.concatenate([labels[i] for i in idx]), seed))
    return models


def cross_fitted(papers: dict[str, PaperCandidates], examples: list[Example], seed: int = 0, folds: int = 5) -> dict[int, Localiser]:
    """One model per topic fold, trained on the other folds' topics: fold of topic t → its model."""
    return _fit_folds(*_features_and_labels(papers, examples), examples, seed, folds)


def train(papers: dict[str, PaperCandidates], examples: list[Example], seed: int = 0, ks: tuple[int, ...] = (1, 2, 3, 4, 5),
          folds: int = 5) -> tuple[Localiser, dict[str, Any]]:
    """k is chosen by leave-topics-out F1 (cross-fitted), then the model is refitted on every topic.
    Features are computed once per example and shared by the folds, the k sweep and the refit."""
    t0 = time.time()
    feats, labels = _features_and_labels(papers, examples)
    models = _fit_folds(feats, labels, examples, seed, folds)
    ranked = []  # (candidate sids best first, gold) per example that has a cross-fitted model
    for (t, _, gold), X in zip(examples, feats):
        model = models.get(topic_fold(t, folds))
        if model is not None:
            ranked.append(([papers[t].cands[i].sid for i in np.argsort(-model.scores(X), kind="stable")], gold))
    by_k = {}
    for k in ks:
        tp = sum(len(set(sids[:k]) & gold) for sids, gold in ranked)
        n_pred, n_gold = sum(len(sids[:k]) for sids, _ in ranked), sum(len(gold) for _, gold in ranked)
        prec, rec = tp / max(1, n_pred), tp / max(1, n_gold)
        by_k[k] = round(2 * prec * rec / (prec + rec), 4) if prec + rec else 0.0
    best_k = max(by_k, key=lambda k: (by_k[k], -k))
    weights = fit(np.concatenate(feats), np.concatenate(labels), seed) | {"k": best_k}
    card = {"model": "localiser", "data": "clscisumm2018 topics (Reference_XML + annotation)", "seed": seed,
            "topics": len(papers), "citances": len(examples), "split": f"{folds} folds of topics by sha256(topic)",
            "leave_topics_out_f1_by_k": by_k, "k": best_k, "training_seconds": round(time.time() - t0, 1)}
    weights["card"] = card
    return Localiser(weights), card


def candidates_from_source_map(sm) -> list[Candidate]:
    """A compiled paper's citable sentences, with what the offline extractor draws from each."""
    from ..l1.offline import extract_facts

    facts = extract_facts(sm)
    anchored = {int(f.evidence[0].rsplit(":", 1)[1]) for f in facts}
    results = {int(f.evidence[0].rsplit(":", 1)[1]) for f in facts if f.variant.startswith("r")}
    return [Candidate(s.sid, s.text, s.kind, s.sid in anchored, s.sid in results)
            for s in sm.sentences if s.sid > 0 and s.kind in KINDS]


def candidates_from_store(store, paper_id: str) -> list[Candidate]:
    """The same candidates from a store: current sentences and the facts registered on them."""
    facts = store.objects("fact", paper_id=paper_id)
    anchored = {int(r["data"]["evidence"][0].rsplit(":", 1)[1]) for r in facts}
    results = {int(r["data"]["evidence"][0].rsplit(":", 1)[1]) for r in facts if str(r["data"].get("variant", "")).startswith("r")}
    return [Candidate(r["sid"], r["text"], r["kind"], r["sid"] in anchored, r["sid"] in results)
            for r in store.paper_sentences(paper_id) if r["sid"] > 0 and r["kind"] in KINDS]


def load_topics(root: Path, limit: int | None = None) -> tuple[dict[str, Any], list[Example]]:
    """CL-SciSumm topics as source maps and (topic, citing sentence, gold sids) examples."""
    from ..ingest.clscisumm import annotations, reference_record
    from ..ingest.records import to_source_map

    maps, examples = {}, []
    for topic in sorted(p for p in root.iterdir() if p.is_dir())[:limit]:
        record = reference_record(topic)
        if record is None:
            continue
        maps[topic.name] = to_source_map(record)
        examples += [(topic.name, text, gold) for text, gold in annotations(topic)]
    return maps, examples


def train_from_shared(data_dir: Path, embedder, out: Path = WEIGHTS, seed: int = 0, limit: int | None = None) -> dict[str, Any]:
    maps, examples = load_topics(data_dir / "clscisumm2018", limit)
    papers = {t: PaperCandidates(candidates_from_source_map(sm), embedder) for t, sm in maps.items()}
    model, card = train(papers, examples, seed)
    model.save(out)
    return card | {"weights": out.name, "weights_bytes": out.stat().st_size}
