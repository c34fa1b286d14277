"""BM25 keeps the classic Okapi values (bm25s underneath), and RRF fuses rankings."""

from __future__ import annotations

import math

import numpy as np

from scholarstack.views.lexical import BM25, rrf, tokenize


def okapi(texts: list[str], query: str, k1: float = 1.5, b: float = 0.75) -> list[float]:
    docs = [tokenize(t) for t in texts]
    avg = sum(map(len, docs)) / len(docs)
    out = []
    for d in docs:
        s = 0.0
        for q in tokenize(query):
            df = sum(q in x for x in docs)
            tf = d.count(q)
            if tf:
                s += math.log(1 + (len(docs) - df + 0.5) / (df + 0.5)) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len(d) / avg))
        out.append(s)
    return out


def test_bm25_matches_the_okapi_formula_and_ranks():
    texts = ["TnT tagger reaches 96.7% on the Penn Treebank", "A maximum entropy tagger for the Penn Treebank",
             "Parsing with a tagger tagger tagger", "Nothing relevant here", ""]
    bm = BM25(texts)
    q = "tagger Penn Treebank"
    expected = okapi(texts, q)
    assert np.allclose(bm.scores(q), expected, atol=1e-5)
    assert [i for i, _ in bm.top(q, 2)] == [1, 0] and expected[1] > expected[0]  # the shorter of the two Penn Treebank texts
    assert bm.top("unseen words only", 3) == [] and not bm.scores("the of").any()  # stop words and unknown terms score nothing
    assert BM25([]).scores("tagger").shape == (0,)


def test_rrf_fuses_by_reciprocal_rank():
    fused = rrf([["a", "b", "c"], ["b", "a"]], k=60)
    assert [d for d, _ in fused] == ["a", "b", "c"] or [d for d, _ in fused] == ["b", "a", "c"]
    assert fused[0][1] == fused[1][1] and fused[-1][0] == "c"  # a and b tie (ranks 1+2 each), c is last
