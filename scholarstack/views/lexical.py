"""BM25 (Okapi, k1=1.5, b=0.75) over a fixed list of texts, with sparse matrices for speed."""

from __future__ import annotations

import re

import numpy as np

TOKEN_RE = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")
STOP = frozenset(
    "a an the of in on for to and or with by from as at is are was were be been this that these those it its we "
    "our their which who than then also such into over under between both each can has have had not no".split()
)


def tokenize(text: str) -> list[str]:
    return [t for t in TOKEN_RE.findall(text.lower()) if t not in STOP]


class BM25:
    def __init__(self, texts: list[str], k1: float = 1.5, b: float = 0.75):
        from sklearn.feature_extraction.text import CountVectorizer

        self.vec = CountVectorizer(tokenizer=tokenize, lowercase=False, token_pattern=None)
        tf = self.vec.fit_transform(texts).tocsc().astype(np.float32)
        n = tf.shape[0]
        df = np.diff(tf.indptr)
        self.idf = np.log1p((n - df + 0.5) / (df + 0.5)).astype(np.float32)
        lengths = np.asarray(tf.sum(axis=1)).ravel()
        avg = lengths.mean() if n else 1.0
        tf = tf.tocoo()
        denom = tf.data + k1 * (1 - b + b * lengths[tf.row] / max(avg, 1e-9))
        from scipy.sparse import csc_matrix

        weights = tf.data * (k1 + 1) / denom * self.idf[tf.col]
        self.matrix = csc_matrix((weights, (tf.row, tf.col)), shape=tf.shape)
        self.n = n

    def scores(self, query: str) -> np.ndarray:
        terms = [self.vec.vocabulary_[t] for t in tokenize(query) if t in self.vec.vocabulary_]
        if not terms or self.n == 0:
            return np.zeros(self.n, dtype=np.float32)
        return np.asarray(self.matrix[:, terms].sum(axis=1)).ravel()

    def top(self, query: str, k: int) -> list[tuple[int, float]]:
        s = self.scores(query)
        if not len(s):
            return []
        idx = np.argpartition(-s, min(k, len(s) - 1))[:k] if len(s) > k else np.arange(len(s))
        idx = idx[np.argsort(-s[idx])]
        return [(int(i), float(s[i])) for i in idx if s[i] > 0]


def rrf(rankings: list[list[str]], k: int = 60, weights: list[float] | None = None) -> list[tuple[str, float]]:
    """Reciprocal rank fusion: score(d) = Σ w / (k + rank)."""
    scores: dict[str, float] = {}
    for r, ranking in enumerate(rankings):
        w = weights[r] if weights else 1.0
        for rank, doc in enumerate(ranking, 1):
            scores[doc] = scores.get(doc, 0.0) + w / (k + rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
