"""A paper's entities from its tagged mentions: clusters with aliases, salience, result pairs.

Input is a tagged document (sentences as tokens, a section per sentence, typed spans from the
mention tagger), so SciREX papers and compiled source maps go through the same code.
1. clusters: mentions grouped by normalised surface, with "long form (LF)" acronyms merged.
2. salience: a logistic model over cluster statistics (mentions, sections, title/abstract
   presence, first position, type, co-occurrence with numbers) says which clusters the paper is
   about (SciREX's salient clusters; the rest are background).
3. result pairs: a logistic model over (Method, Material) pairs of salient clusters (sentence
   co-occurrence, co-occurrence with numbers and metrics, salience and rank of each) says which
   method the paper evaluates on which dataset.
Both are trained on SciREX `train_docs.jsonl.gz` with the tagger's own predictions as input (so
they learn how its mentions look), weights as JSON arrays; prediction is numpy only.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..l2.entities import normalise
from ..l2.mentions import acronym_pairs

WEIGHTS = Path(__file__).parent / "weights" / "doc_entities.json"
NUMBER = re.compile(r"^\d+(?:\.\d+)?$")
TYPES = ("Method", "Task", "Metric", "Material")
N_CLUSTER_FEATURES = 13 + len(TYPES)
N_PAIR_FEATURES = 12


@dataclass
class TaggedDoc:
    sentences: list[list[str]]            # tokens per sentence
    sections: list[int]                   # section index per sentence (0 = title, 1 = abstract where known)
    spans: list[list[tuple[int, int, str]]]  # (token start, end, type) per sentence, sentence-relative
    abstract_section: int = 1


@dataclass
class Cluster:
    key: str
    type: str
    surfaces: Counter = field(default_factory=Counter)
    mentions: list[tuple[int, int, int]] = field(default_factory=list)  # (sentence, start, end)
    salience: float = 0.0

    @property
    def name(self) -> str:
        """The most frequent surface, preferring a long form over its acronym."""
        best = self.surfaces.most_common()
        longs = [s for s, _ in best if len(s.split()) > 1]
        return longs[0] if longs and best[0][0].isupper() and len(best[0][0]) <= 8 else best[0][0]

    @property
    def aliases(self) -> list[str]:
        return [s for s, _ in self.surfaces.most_common() if s != self.name]


def surface(doc: TaggedDoc, si: int, a: int, b: int) -> str:
    return re.sub(r"\s+([\-/])\s+", r"\1", " ".join(doc.sentences[si][a:b]))


def clusters(doc: TaggedDoc) -> list[Cluster]:
    text = " ".join(" ".join(s) for s in doc.sentences[:400])
    alias = {}
    for long, short in acronym_pairs(re.sub(r"\s+([\-/])\s+", r"\1", text)):
        if normalise(short) != normalise(long):
            alias[normalise(short)] = normalise(long)
    out: dict[str, Cluster] = {}
    types: dict[str, Counter] = defaultdict(Counter)
    for si, spans in enumerate(doc.spans):
        for a, b, t in spans:
            s = surface(doc, si, a, b)
            key = normalise(s)
            if len(key) < 2:
                continue
            key = alias.get(key, key)
            c = out.setdefault(key, Cluster(key, t))
            c.surfaces[s] += 1
            c.mentions.append((si, a, b))
            types[key][t] += 1
    for key, c in out.items():
        c.type = types[key].most_common(1)[0][0]
    return list(out.values())


def _numeric(doc: TaggedDoc, si: int) -> bool:
    return any(NUMBER.match(w) for w in doc.sentences[si])


def cluster_features(doc: TaggedDoc, cs: list[Cluster]) -> np.ndarray:
    n_sent = max(1, len(doc.sentences))
    n_sec = max(1, len(set(doc.sections)))
    counts = np.array([len(c.mentions) for c in cs], dtype=np.float32)
    rows = []
    for c, cnt in zip(cs, counts):
        sents = [m[0] for m in c.mentions]
        secs = {doc.sections[s] for s in sents}
        same_type = counts[[i for i, o in enumerate(cs) if o.type == c.type]]
        rank = float((same_type > cnt).sum())
        rows.append([
            math.log1p(cnt), len(secs) / n_sec, math.log1p(len(secs)), float(0 in secs), float(doc.abstract_section in secs),
            min(sents) / n_sent, float(sum(_numeric(doc, s) for s in sents) > 0), math.log1p(sum(_numeric(doc, s) for s in sents)),
            math.log1p(rank), float(rank == 0), float(any(w.isupper() and len(w) > 1 for s in c.surfaces for w in s.split())),
            float(len(c.surfaces) > 1), max(len(s.split()) for s in c.surfaces) / 5.0,
            *[float(c.type == t) for t in TYPES],
        ])
    return np.array(rows, dtype=np.float32).reshape(len(cs), N_CLUSTER_FEATURES)


def pair_candidates(doc: TaggedDoc, cs: list[Cluster], salient: list[int]) -> list[tuple[int, int]]:
    methods = [i for i in salient if cs[i].type == "Method"]
    data = [i for i in salient if cs[i].type == "Material"]
    return [(m, d) for m in methods for d in data]


def pair_features(doc: TaggedDoc, cs: list[Cluster], pairs: list[tuple[int, int]]) -> np.ndarray:
    metric_sents = {m[0] for c in cs if c.type == "Metric" for m in c.mentions}
    sal = np.array([c.salience for c in cs], dtype=np.float32)
    rows = []
    for m, d in pairs:
        sm, sd = {x[0] for x in cs[m].mentions}, {x[0] for x in cs[d].mentions}
        both = sm & sd
        num = sum(_numeric(doc, s) for s in both)
        met = len(both & metric_sents)
        m_rank = float((sal[[i for i, c in enumerate(cs) if c.type == "Method"]] > sal[m]).sum())
        d_rank = float((sal[[i for i, c in enumerate(cs) if c.type == "Material"]] > sal[d]).sum())
        near = sum(1 for s in sm if (s - 1) in sd or (s + 1) in sd)
        rows.append([math.log1p(len(both)), math.log1p(num), math.log1p(met), float(len(both) > 0), math.log1p(near),
                     sal[m], sal[d], sal[m] * sal[d], math.log1p(m_rank), math.log1p(d_rank), float(m_rank == 0), float(d_rank == 0)])
    return np.array(rows, dtype=np.float32).reshape(len(pairs), N_PAIR_FEATURES)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


class DocEntityModel:
    def __init__(self, weights: dict[str, Any]):
        self.weights = weights
        self.card = weights.get("card", {})

    def _score(self, name: str, X: np.ndarray) -> np.ndarray:
        w = self.weights[name]
        if not len(X):
            return np.zeros(0, dtype=np.float32)
        z = (X - np.array(w["mean"])) / np.array(w["scale"])
        return _sigmoid(z @ np.array(w["coef"]) + w["intercept"])

    def analyse(self, doc: TaggedDoc) -> tuple[list[Cluster], list[int], list[tuple[int, int, float]]]:
        """(clusters with salience, indices of salient ones, (method, material, probability) result pairs)."""
        cs = clusters(doc)
        for c, p in zip(cs, self._score("salience", cluster_features(doc, cs))):
            c.salience = float(p)
        salient = [i for i, c in enumerate(cs) if c.salience >= self.weights["salience"]["threshold"]]
        pairs = pair_candidates(doc, cs, salient)
        probs = self._score("relation", pair_features(doc, cs, pairs))
        found = [(m, d, float(p)) for (m, d), p in zip(pairs, probs) if p >= self.weights["relation"]["threshold"]]
        return cs, salient, sorted(found, key=lambda x: -x[2])

    def save(self, path: Path = WEIGHTS) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.weights, separators=(",", ":")))
        load.cache_clear()


@lru_cache(maxsize=1)
def load(path: Path = WEIGHTS) -> DocEntityModel:
    if not path.exists():
        raise FileNotFoundError(f"{path}: document entity model weights missing; run `make models` to train them")
    return DocEntityModel(json.loads(path.read_text()))


# --- SciREX docs and training ---------------------------------------------------------------------

def scirex_doc(doc: dict, tagger) -> tuple[TaggedDoc, list[int]]:
    """A SciREX doc tagged by the tagger, and each sentence's first token offset."""
    sents = [(s, e) for s, e in doc["sentences"] if e > s]
    words = doc["words"]
    sec_of = []
    for s, _ in sents:
        sec_of.append(next((i for i, (a, b) in enumerate(doc["sections"]) if a <= s < b), -1))
    toks = [words[s:e][:200] for s, e in sents]
    spans = [[(sp.start, sp.end, sp.type) for sp in row] for row in tagger.tag(toks)]
    return TaggedDoc(toks, sec_of, spans), [s for s, _ in sents]


def gold_match(cs: list[Cluster], offsets: list[int], doc: dict) -> list[str | None]:
    """The gold salient cluster each predicted cluster matches (most of its spans in it), or None."""
    gold = {name: {tuple(s) for s in spans} for name, spans in doc["coref"].items() if spans}
    out = []
    for c in cs:
        spans = [(offsets[si] + a, offsets[si] + b) for si, a, b in c.mentions]
        best, hits = None, 0
        for name, g in gold.items():
            h = sum(1 for s in spans if s in g)
            if h > hits:
                best, hits = name, h
        out.append(best if hits > len(spans) / 2 else None)
    return out


def _fit(X: np.ndarray, y: np.ndarray, seed: int, c: float = 1.0) -> dict[str, Any]:
    from sklearn.linear_model import LogisticRegression

    mean, scale = X.mean(axis=0), X.std(axis=0) + 1e-6
    lr = LogisticRegression(C=c, max_iter=2000, class_weight="balanced", random_state=seed).fit((X - mean) / scale, y)
    return {"coef": lr.coef_[0].round(5).tolist(), "intercept": float(lr.intercept_[0]),
            "mean": mean.round(5).tolist(), "scale": scale.round(5).tolist()}


def _best_threshold(p: np.ndarray, y: np.ndarray) -> float:
    best, thr = -1.0, 0.5
    for t in np.arange(0.2, 0.95, 0.025):
        pred = p >= t
        tp = float((pred & (y == 1)).sum())
        f = 2 * tp / max(1.0, pred.sum() + (y == 1).sum())
        if f > best:
            best, thr = f, float(t)
    return round(thr, 3)


def train(docs: list[dict], tagger, seed: int = 0, log=print) -> tuple[DocEntityModel, dict[str, Any]]:
    """Salience then relation model, each fitted on the tagger's predictions over SciREX train docs;
    thresholds picked on the held-out tenth (the tagger's dev papers)."""
    from .mention_tagger import is_dev_doc

    prepared = []
    for i, d in enumerate(docs):
        tdoc, offsets = scirex_doc(d, tagger)
        cs = clusters(tdoc)
        prepared.append((d, tdoc, cs, gold_match(cs, offsets, d)))
        if (i + 1) % 25 == 0:
            log(f"doc entities: tagged {i + 1}/{len(docs)} training papers")
    fit_on = [p for p in prepared if not is_dev_doc(p[0]["doc_id"])]
    dev = [p for p in prepared if is_dev_doc(p[0]["doc_id"])] or fit_on
    X = np.concatenate([cluster_features(t, cs) for _, t, cs, _ in fit_on])
    y = np.concatenate([[g is not None for g in gm] for *_, gm in fit_on]).astype(int)
    weights: dict[str, Any] = {"salience": _fit(X, y, seed)}
    model = DocEntityModel(weights)
    Xd = np.concatenate([cluster_features(t, cs) for _, t, cs, _ in dev])
    yd = np.concatenate([[g is not None for g in gm] for *_, gm in dev]).astype(int)
    weights["salience"]["threshold"] = _best_threshold(model._score("salience", Xd), yd)

    def pair_data(items):
        Xs, ys = [], []
        for d, t, cs, gm in items:
            for c, p in zip(cs, model._score("salience", cluster_features(t, cs))):
                c.salience = float(p)
            salient = [i for i, c in enumerate(cs) if c.salience >= weights["salience"]["threshold"]]
            pairs = pair_candidates(t, cs, salient)
            gold = {(r["Method"], r["Material"]) for r in d["n_ary_relations"] if r.get("Method") and r.get("Material")}
            Xs.append(pair_features(t, cs, pairs))
            ys.append(np.array([(gm[m], gm[a]) in gold for m, a in pairs], dtype=int))
        return np.concatenate(Xs), np.concatenate(ys)

    Xp, yp = pair_data(fit_on)
    weights["relation"] = _fit(Xp, yp, seed)
    Xpd, ypd = pair_data(dev)
    weights["relation"]["threshold"] = _best_threshold(model._score("relation", Xpd), ypd)
    card = {"model": "doc_entities", "data": "scirex/train_docs.jsonl.gz", "seed": seed,
            "input": "the mention tagger's predictions", "train_papers": len(fit_on), "dev_papers": len(dev),
            "salience_examples": int(len(y)), "salience_positive": int(y.sum()),
            "relation_examples": int(len(yp)), "relation_positive": int(yp.sum()),
            "salience_threshold": weights["salience"]["threshold"], "relation_threshold": weights["relation"]["threshold"]}
    weights["card"] = card
    return DocEntityModel(weights), card


def train_from_shared(data_dir: Path, tagger=None, out: Path = WEIGHTS, seed: int = 0, limit: int | None = None,
                      log=print) -> dict[str, Any]:
    """Train on SciREX train_docs with the (committed or given) tagger, save, return the model card."""
    from .mention_tagger import load as load_tagger, read_scirex

    model, card = train(read_scirex(data_dir / "scirex" / "train_docs.jsonl.gz", limit), tagger or load_tagger(), seed, log)
    model.save(out)
    return card | {"weights": out.name, "weights_bytes": out.stat().st_size}
