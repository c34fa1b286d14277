"""Fixed-corpus literature retrieval: a request (e.g. a citing sentence) → ranked corpus papers.

Baselines on titles and abstracts: BM25, dense (the configured embedder), hybrid (equal-weight
RRF, constant 60); and full-text BM25 / hybrid. The ScholarStack retriever plans from the store:
it expands the request with the aliases of entities it names (L2), ranks papers by the compiled
facts that match (L1), by the entities and relations they share with the request (L2) and by
syntheses whose scope matches (L3), and fuses those with the full-text hybrid ranking. With
citation evidence it adds two rankings: the papers whose citing sentences (other papers' words
for them) match the request, and dense retrieval through the query adapter learned from them.
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
    full: list[str] | None = None  # every citable sentence (falls back to texts)
    _bm25: BM25 | None = None
    _full_bm25: BM25 | None = None
    _dense: dict[str, np.ndarray] = field(default_factory=dict)

    def bm25(self) -> BM25:
        if self._bm25 is None:
            self._bm25 = BM25(self.texts)
        return self._bm25

    def full_bm25(self) -> BM25:
        if self._full_bm25 is None:
            self._full_bm25 = BM25(self.full or self.texts)
        return self._full_bm25

    def dense_matrix(self, embedder) -> np.ndarray:
        if embedder.name not in self._dense:
            self._dense[embedder.name] = embedder.encode(self.texts)
        return self._dense[embedder.name]


def corpus_from_store(store: Store) -> PaperCorpus:
    """Titles and abstracts (and full texts) of every paper with a current source map."""
    rows = store.query("SELECT paper_id, list(text ORDER BY sid) FILTER (WHERE section IN ('title', 'abstract') OR sid <= 6), "
                       "list(text ORDER BY sid) FILTER (WHERE kind IN ('prose', 'caption', 'table_row', 'heading')) "
                       "FROM sentences WHERE is_current GROUP BY paper_id ORDER BY paper_id")
    return PaperCorpus(ids=[r[0] for r in rows], texts=[" ".join(r[1] or []) for r in rows],
                       full=[" ".join(r[2] or r[1] or []) for r in rows])


def bm25_rank(corpus: PaperCorpus, query: str, k: int = 100) -> list[str]:
    return [corpus.ids[i] for i, _ in corpus.bm25().top(query, k)]


def fulltext_bm25_rank(corpus: PaperCorpus, query: str, k: int = 100) -> list[str]:
    return [corpus.ids[i] for i, _ in corpus.full_bm25().top(query, k)]


def fulltext_hybrid_rank(corpus: PaperCorpus, query: str, embedder, k: int = 100) -> list[str]:
    return [d for d, _ in rrf([fulltext_bm25_rank(corpus, query, k), dense_rank(corpus, query, embedder, k)], k=60)][:k]


class CitationIndex:
    """Citing sentences of corpus papers (ingest.citations), searchable: a paper scores by its best-matching one."""

    def __init__(self, contexts: list[tuple[str, str, str]], in_corpus: set[str]):
        self.rows = [c for c in contexts if c[0] in in_corpus]
        self.bm25 = BM25([t for _, _, t in self.rows]) if self.rows else None

    def rank(self, query: str, k: int = 100, exclude_citing: str | None = None) -> list[str]:
        """`exclude_citing`: leave out the request's own paper's citing sentences (the benchmark's rule)."""
        if self.bm25 is None:
            return []
        best: dict[str, float] = {}
        for i, score in self.bm25.top(query, 300):
            cited, citing, _ = self.rows[i]
            if citing != exclude_citing and score > best.get(cited, 0.0):
                best[cited] = score
        return [p for p, _ in sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))][:k]


def dense_rank(corpus: PaperCorpus, query: str, embedder, k: int = 100) -> list[str]:
    m = corpus.dense_matrix(embedder)
    s = m @ embedder.encode([query])[0]
    return [corpus.ids[i] for i in np.argsort(-s)[:k]]


def hybrid_rank(corpus: PaperCorpus, query: str, embedder, k: int = 100) -> list[str]:
    return [d for d, _ in rrf([bm25_rank(corpus, query, k), dense_rank(corpus, query, embedder, k)], k=60)][:k]


class StoreRetriever:
    """The view-guided retriever; `layers` ∈ {"L1", "L1+L2", "L1+L2+L3"} for the ablation."""

    def __init__(self, store: Store, corpus: PaperCorpus, embedder, layers: str = "L1+L2+L3",
                 citations: CitationIndex | None = None, adapter=None):
        """`citations` and `adapter` (learned.query_adapter: `apply(vector, citing)`) bring citation evidence in."""
        self.store, self.corpus, self.embedder, self.layers = store, corpus, embedder, layers
        self.citations, self.adapter = citations, adapter
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

    def rank(self, query: str, k: int = 100, citing_paper: str | None = None) -> list[str]:
        """`citing_paper`: the paper the request comes from; its own citing sentences are not used."""
        # The request as written leads; L2's alias expansion and shared entities are extra, weaker
        # rankings, so a noisy alias can add candidates but not push the literal matches down.
        expanded, named = self.plan(query) if "L2" in self.layers else (query, [])
        rankings = [fulltext_bm25_rank(self.corpus, query, k), dense_rank(self.corpus, query, self.embedder, k)]
        weights = [1.5, 1.0]
        if self.citations is not None:
            rankings.append(self.citations.rank(query, k, exclude_citing=citing_paper))
            weights.append(1.0)
        if self.adapter is not None:
            q = self.adapter.apply(self.embedder.encode([query])[0], citing_paper)
            s = self.corpus.dense_matrix(self.embedder) @ q
            rankings.append([self.corpus.ids[i] for i in np.argsort(-s)[:k]])
            weights.append(1.0)
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


def find_papers(store: Store, query: str, embedder, k: int = 10) -> list[dict[str, str]]:
    """The store's papers ranked for a request, with everything the store knows: full text, layers,
    stored citation contexts and (for the corpus it was trained on) the query adapter."""
    from ..ingest.citations import contexts_from_store
    from ..learned.query_adapter import for_corpus

    corpus = corpus_from_store(store)
    contexts = contexts_from_store(store)
    retriever = StoreRetriever(store, corpus, embedder, citations=CitationIndex(contexts, set(corpus.ids)) if contexts else None,
                               adapter=for_corpus(corpus.ids))
    titles = dict(store.query("SELECT paper_id, text FROM sentences WHERE is_current AND sid = 0"))
    return [{"paper_id": p, "title": titles.get(p, "")} for p in retriever.rank(query, k)]
