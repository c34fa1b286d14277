"""Fixed-corpus literature retrieval: a request (e.g. a citing sentence) → ranked corpus papers.

Baselines on titles and abstracts: BM25, dense (the configured embedder), hybrid (equal-weight
RRF, constant 60); and full-text BM25 / hybrid. The ScholarStack retriever plans from the store:
it expands the request with the aliases of entities it names (L2), ranks papers by the compiled
facts that match (L1), by the entities and relations they share with the request (L2) and by
syntheses whose scope matches (L3), alongside full-text BM25 and dense rankings. With citation
evidence it adds the papers whose citing sentences (other papers' words for them) match the
request, lexically and by meaning, dense retrieval through the query adapter learned from them,
and a citation-count prior. The learned ranker (learned.paper_ranker) fuses them all.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..l2.entities import normalise
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
    rows = store.paper_texts()
    return PaperCorpus(ids=[r[0] for r in rows], texts=[" ".join(r[1] or []) for r in rows],
                       full=[" ".join(r[2] or r[1] or []) for r in rows])


def bm25_rank(corpus: PaperCorpus, query: str, k: int = 100) -> list[str]:
    return [corpus.ids[i] for i, _ in corpus.bm25().top(query, k)]


def fulltext_bm25_rank(corpus: PaperCorpus, query: str, k: int = 100) -> list[str]:
    return [corpus.ids[i] for i, _ in corpus.full_bm25().top(query, k)]


def fulltext_hybrid_rank(corpus: PaperCorpus, query: str, embedder, k: int = 100, vector: np.ndarray | None = None) -> list[str]:
    """`vector`: the request's embedding when the caller has it (else the request is encoded)."""
    dense = dense_rank(corpus, query if vector is None else vector, embedder, k)
    return [d for d, _ in rrf([fulltext_bm25_rank(corpus, query, k), dense], k=60)][:k]


class CitationIndex:
    """Citing sentences of corpus papers (ingest.citations), searchable: a paper scores by its best-matching one."""

    def __init__(self, contexts: list[tuple[str, str, str]], in_corpus: set[str], embedder=None):
        """With `embedder`, the citing sentences are also searched by meaning (`dense_rank`)."""
        self.rows = [c for c in contexts if c[0] in in_corpus]
        self.bm25 = BM25([t for _, _, t in self.rows]) if self.rows else None
        self.vectors = embedder.encode([t for _, _, t in self.rows]) if embedder is not None and self.rows else None
        self.citers: dict[str, set[str]] = defaultdict(set)
        for cited, citing, _ in self.rows:
            self.citers[cited].add(citing)

    def most_cited(self, candidates: list[str], exclude_citing: str | None = None) -> list[str]:
        """`candidates` by how many papers cite them (a prior: much-cited papers are cited again)."""
        n = {p: len(self.citers.get(p, set()) - {exclude_citing}) for p in dict.fromkeys(candidates)}
        return [p for p, c in sorted(n.items(), key=lambda kv: (-kv[1], kv[0])) if c > 0]

    def dense_rank(self, query_vector: np.ndarray, k: int = 100, exclude_citing: str | None = None) -> list[str]:
        """Papers by their citing sentence closest in meaning to the request."""
        if self.vectors is None:
            return []
        scores = self.vectors @ query_vector
        best: list[str] = []
        for i in np.argsort(-scores)[:400]:
            cited, citing, _ = self.rows[i]
            if citing != exclude_citing and cited not in best:
                best.append(cited)
        return best[:k]

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


def dense_rank(corpus: PaperCorpus, query: str | np.ndarray, embedder, k: int = 100) -> list[str]:
    """`query`: the request, or its vector when the caller has it (encoded once, or adapted)."""
    q = embedder.encode([query])[0] if isinstance(query, str) else query
    return [corpus.ids[i] for i in np.argsort(-(corpus.dense_matrix(embedder) @ q))[:k]]


def hybrid_rank(corpus: PaperCorpus, query: str, embedder, k: int = 100) -> list[str]:
    return [d for d, _ in rrf([bm25_rank(corpus, query, k), dense_rank(corpus, query, embedder, k)], k=60)][:k]


class StoreRetriever:
    """The view-guided retriever; `layers` ∈ {"L1", "L1+L2", "L1+L2+L3"} for the ablation."""

    def __init__(self, store: Store, corpus: PaperCorpus, embedder, layers: str = "L1+L2+L3",
                 citations: CitationIndex | None = None, adapter=None, ranker=None):
        """`citations` and `adapter` (learned.query_adapter: `apply(vector, citing)`) bring citation
        evidence in; `ranker` (learned.paper_ranker) fuses the rankings, else reciprocal-rank fusion."""
        self.store, self.corpus, self.embedder, self.layers = store, corpus, embedder, layers
        self.citations, self.adapter = citations, adapter
        self.ranker = ranker
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

    # Reciprocal-rank fusion weights (constant 60), used without a learned ranker.
    WEIGHTS = {"fulltext_bm25": 1.5, "dense": 1.0, "citations": 1.0, "citations_dense": 1.0, "adapter": 1.0, "facts": 1.0,
               "expanded": 0.5, "entities": 0.25, "syntheses": 0.1, "cited_by": 0.0}

    def rankings(self, query: str, k: int = 100, citing_paper: str | None = None, before: int | None = None) -> dict[str, list[str]]:
        """Every ranking the retriever fuses, by name. `citing_paper`: the paper the request comes
        from; its own citing sentences are not used. `before`: the request's year (a paper being
        written then); papers published later are left out."""
        # The request as written leads; L2's alias expansion and shared entities are extra, weaker
        # rankings, so a noisy alias can add candidates but not push the literal matches down.
        expanded, named = self.plan(query) if "L2" in self.layers else (query, [])
        qv = self.embedder.encode([query])[0]
        out = {"fulltext_bm25": fulltext_bm25_rank(self.corpus, query, k), "dense": dense_rank(self.corpus, qv, self.embedder, k)}
        if self.citations is not None:
            out["citations"] = self.citations.rank(query, k, exclude_citing=citing_paper)
            if self.citations.vectors is not None:
                out["citations_dense"] = self.citations.dense_rank(qv, k, exclude_citing=citing_paper)
            out["cited_by"] = self.citations.most_cited(out["fulltext_bm25"] + out["dense"], exclude_citing=citing_paper)
        if self.adapter is not None:
            out["adapter"] = dense_rank(self.corpus, self.adapter.apply(qv, citing_paper), self.embedder, k)
        if self.fact_bm25 is not None:
            per_paper: dict[str, float] = defaultdict(float)
            for rank, (i, _) in enumerate(self.fact_bm25.top(query, 300), 1):
                per_paper[self.fact_papers[i]] += 1.0 / (60 + rank)
            out["facts"] = [p for p, _ in sorted(per_paper.items(), key=lambda kv: -kv[1])][:k]
        if "L2" in self.layers and named:
            out["expanded"] = hybrid_rank(self.corpus, expanded, self.embedder, k)
            counts: dict[str, int] = defaultdict(int)
            for key in named:
                for p in self.entity_papers.get(key, ()):
                    counts[p] += 1
            out["entities"] = [p for p, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))][:k]
        if "L3" in self.layers and self.syn_bm25 is not None:
            hits = self.syn_bm25.top(query, 2)
            studies = [p for i, _ in hits for p in self.syntheses[i][1]]
            if studies:
                out["syntheses"] = list(dict.fromkeys(studies))[:k]
        return out if before is None else published_by(out, self.years, before)

    @cached_property
    def years(self) -> dict[str, int]:
        """Publication years, read once and only for dated requests (parsing every raw record costs
        about 0.3 s per 1,000 papers, too much for every undated request)."""
        from ..ingest.catalog import paper_years

        return paper_years(self.store)

    def rank(self, query: str, k: int = 100, citing_paper: str | None = None, before: int | None = None) -> list[str]:
        rankings = self.rankings(query, k, citing_paper, before)
        return self.ranker.rank(rankings, k) if self.ranker is not None else fuse(rankings, self.WEIGHTS, k)


def published_by(rankings: dict[str, list[str]], years: dict[str, int], year: int | None) -> dict[str, list[str]]:
    """Each ranking without the papers published after `year` (papers of unknown year stay)."""
    if year is None:
        return rankings
    return {name: [p for p in ranked if years.get(p, year) <= year] for name, ranked in rankings.items()}


def fuse(rankings: dict[str, list[str]], weights: dict[str, float], k: int = 100) -> list[str]:
    names = [n for n in rankings if weights.get(n, 0.0) > 0]
    return [d for d, _ in rrf([rankings[n] for n in names], k=60, weights=[weights[n] for n in names])][:k]


def store_retriever(store: Store, embedder) -> StoreRetriever:
    """The store's retriever with everything the store knows: full text, layers, stored citation
    contexts, (for the corpus it was trained on) the query adapter, fused by the learned ranker."""
    from ..ingest.citations import contexts_from_store
    from ..learned import paper_ranker
    from ..learned.query_adapter import for_corpus

    corpus = corpus_from_store(store)
    contexts = contexts_from_store(store)
    citations = CitationIndex(contexts, set(corpus.ids), _CachedVectors(embedder, store.home / "vectors")) if contexts else None
    adapter = for_corpus(corpus.ids) if embedder.name == "minilm" else None  # it maps MiniLM query vectors
    return StoreRetriever(store, corpus, embedder, citations=citations, adapter=adapter, ranker=paper_ranker.load())


def find_papers(store: Store, query: str, embedder, k: int = 10, before: int | None = None) -> list[dict[str, str]]:
    """The store's papers ranked for a request (see store_retriever). `before`: only papers
    published by that year."""
    from ..ingest.catalog import paper_years

    found = store_retriever(store, embedder).rank(query, k, before=before)
    titles = store.titles(found)
    years = paper_years(store, found)
    return [{"paper_id": p, "title": titles.get(p, ""), "year": years.get(p)} for p in found]


class _CachedVectors:
    """An embedder whose vectors for one list of texts are kept on disk (keyed by the texts and the
    embedder), so `find-papers` embeds a store's citing sentences once, not on every call."""

    def __init__(self, embedder, folder):
        self.embedder, self.folder, self.name = embedder, folder, embedder.name

    def encode(self, texts: list[str]) -> np.ndarray:
        import hashlib

        key = hashlib.sha256("\n".join([self.name, *texts]).encode()).hexdigest()[:16]
        path = self.folder / f"texts-{key}.npy"
        if path.exists():
            return np.load(path)
        vecs = self.embedder.encode(texts)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            np.save(path, vecs)
        except OSError:  # a read-only store: answer without keeping them
            pass
        return vecs
