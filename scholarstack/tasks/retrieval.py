"""Fixed-corpus literature retrieval: a request (e.g. a citing sentence) → ranked corpus papers.

Baselines on titles and abstracts: BM25, dense (the configured embedder), hybrid (equal-weight
RRF, constant 60). The ScholarStack retriever plans from the store: it expands the request with
the aliases of entities it names (L2), ranks papers by the compiled facts that match (L1), by the
entities and relations they share with the request (L2) and by syntheses whose scope matches
(L3), and fuses those rankings with the hybrid ranking of the expanded request.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from ..organise.entities import normalise
from ..store import Store
from ..views.lexical import BM25, rrf


@dataclass
class PaperCorpus:
    ids: list[str]
    texts: list[str]  # title + abstract
    _bm25: BM25 | None = None
    _dense: dict[str, np.ndarray] = field(default_factory=dict)

    def bm25(self) -> BM25:
        if self._bm25 is None:
            self._bm25 = BM25(self.texts)
        return self._bm25

    def dense_matrix(self, embedder) -> np.ndarray:
        if embedder.name not in self._dense:
            self._dense[embedder.name] = embedder.encode(self.texts)
        return self._dense[embedder.name]


def corpus_from_store(store: Store) -> PaperCorpus:
    """Titles and abstracts of every paper with a current source map."""
    rows = store.query("SELECT paper_id, list(text ORDER BY sid) FROM sentences WHERE is_current AND "
                       "(section IN ('title', 'abstract') OR sid <= 6) GROUP BY paper_id ORDER BY paper_id")
    return PaperCorpus(ids=[r[0] for r in rows], texts=[" ".join(r[1]) for r in rows])


def bm25_rank(corpus: PaperCorpus, query: str, k: int = 100) -> list[str]:
    return [corpus.ids[i] for i, _ in corpus.bm25().top(query, k)]


def dense_rank(corpus: PaperCorpus, query: str, embedder, k: int = 100) -> list[str]:
    m = corpus.dense_matrix(embedder)
    s = m @ embedder.encode([query])[0]
    return [corpus.ids[i] for i in np.argsort(-s)[:k]]


def hybrid_rank(corpus: PaperCorpus, query: str, embedder, k: int = 100) -> list[str]:
    return [d for d, _ in rrf([bm25_rank(corpus, query, k), dense_rank(corpus, query, embedder, k)], k=60)][:k]


class StoreRetriever:
    """The view-guided retriever; `layers` ∈ {"L1", "L1+L2", "L1+L2+L3"} for the ablation."""

    def __init__(self, store: Store, corpus: PaperCorpus, embedder, layers: str = "L1+L2+L3"):
        self.store, self.corpus, self.embedder, self.layers = store, corpus, embedder, layers
        facts = store.objects("fact")
        self.fact_papers = [r["paper_id"] for r in facts]
        self.fact_bm25 = BM25([r["data"]["statement"] for r in facts]) if facts else None
        self.alias_of: dict[str, set[str]] = {}
        self.entity_papers: dict[str, set[str]] = {}
        for r in store.objects("entity"):
            d = r["data"]
            names = {d["name"], *d["aliases"]}
            papers = {m["paper_id"] for m in d["mentions"]}
            for n in names:
                key = normalise(n)
                if len(key) >= 3:
                    self.alias_of.setdefault(key, set()).update(names)
                    self.entity_papers.setdefault(key, set()).update(papers)
        self.syntheses = [(r["data"]["scope"]["topic"] + " " + r["data"]["account"][:500], r["data"]["scope"]["studies"])
                          for r in store.objects("synthesis")]
        self.syn_bm25 = BM25([t for t, _ in self.syntheses]) if self.syntheses else None

    def plan(self, query: str) -> tuple[str, list[str]]:
        """The expanded query and the entity keys it names (terminology and aliases from L2)."""
        words = re.findall(r"[\w\-']+", query)
        named: list[str] = []
        for n in (3, 2, 1):
            for i in range(len(words) - n + 1):
                key = normalise(" ".join(words[i:i + n]))
                if key in self.alias_of and key not in named and (n > 1 or len(key) >= 3 and key.upper() != key.lower()):
                    named.append(key)
        extra = sorted({a for k in named for a in self.alias_of[k]} - {query})
        return (query + " " + " ".join(extra[:12])).strip(), named

    def rank(self, query: str, k: int = 100) -> list[str]:
        # The request as written leads; L2's alias expansion and shared entities are extra, weaker
        # rankings, so a noisy alias can add candidates but not push the literal matches down.
        expanded, named = self.plan(query) if "L2" in self.layers else (query, [])
        rankings = [hybrid_rank(self.corpus, query, self.embedder, k)]
        weights = [1.0]
        if self.fact_bm25 is not None:
            per_paper: dict[str, float] = defaultdict(float)
            for rank, (i, _) in enumerate(self.fact_bm25.top(query, 300), 1):
                per_paper[self.fact_papers[i]] += 1.0 / (60 + rank)
            rankings.append([p for p, _ in sorted(per_paper.items(), key=lambda kv: -kv[1])][:k])
            weights.append(1.0)
        if "L2" in self.layers and named:
            rankings.append(hybrid_rank(self.corpus, expanded, self.embedder, k))
            weights.append(0.5)
            counts: dict[str, int] = defaultdict(int)
            for key in named:
                for p in self.entity_papers.get(key, ()):
                    counts[p] += 1
            rankings.append([p for p, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))][:k])
            weights.append(0.25)
        if "L3" in self.layers and self.syn_bm25 is not None:
            hits = self.syn_bm25.top(query, 2)
            studies = [p for i, _ in hits for p in self.syntheses[i][1]]
            if studies:
                rankings.append(list(dict.fromkeys(studies))[:k])
                weights.append(0.1)
        return [d for d, _ in rrf(rankings, k=60, weights=weights)][:k]
