"""How close a collected paper is to the query, three ways (each re-ranker's score, and the
learned judge's features): dense (embedding cosine), lexical (BM25) and rationale (the claim
verifier's rationale head: is this sentence evidence for that statement?)."""

from __future__ import annotations

import numpy as np

from .pipeline import Candidate

INSTRUCTION = "Represent this research question for retrieving relevant scientific papers: "
QUERY_SENTENCES = 12  # the query's first sentences the rationale head reads (a paper's title and abstract)
PAIRS = 3  # the query sentences each candidate sentence is judged against (its closest by cosine)


def paper_text(c: Candidate) -> str:
    return f"{c.paper.title}. {c.paper.abstract}"[:2000]


def dense_scores(embedder, query: str, cands: list[Candidate], instruction: str = INSTRUCTION) -> list[float]:
    if not cands:
        return []
    # Documents first: an unfitted TF-IDF embedder fits on them, not on the lone query.
    docs = embedder.encode([paper_text(c) for c in cands])
    q = embedder.encode([instruction + query])[0]
    return [float(v) for v in docs @ q]


def lexical_scores(query: str, cands: list[Candidate]) -> list[float]:
    from ..views.lexical import BM25

    if not cands:
        return []
    bm = BM25([f"{c.paper.title} {c.paper.abstract}" for c in cands])
    return [float(s) for s in bm.scores(query)]


def rationale_scores(verifier, embedder, query: str, cands: list[Candidate]) -> list[float]:
    """Each of the query's first sentences is paired with the candidate's title and abstract
    sentences it is closest to; the candidate scores the mean of its three most probable pairs.
    The verifier reads MiniLM vectors, so `embedder` must be MiniLM."""
    from ..ingest.segment import split_sentences
    from ..learned.claim_verifier import pair_features

    if not cands:
        return []
    qs = [q for q in split_sentences(query) if len(q.split()) >= 3][:QUERY_SENTENCES] or [query[:1000]]
    docs = [[c.paper.title] + [t for t in split_sentences(c.paper.abstract) if len(t.split()) >= 3][:10] for c in cands]
    texts = sorted({t for d in docs for t in d})
    index = {t: i for i, t in enumerate(texts)}
    qv, dv = embedder.encode(qs), embedder.encode(texts)
    out = []
    for sents in docs:
        feats = [pair_features(qv[j], dv[index[t]], qs[j], t) for t in sents for j in np.argsort(-(qv @ dv[index[t]]))[:PAIRS]]
        p_r, _ = verifier.scores(np.stack(feats))
        out.append(float(np.sort(p_r)[-3:].mean()))
    return out
