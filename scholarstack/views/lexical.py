"""BM25 (Okapi, k1=1.5, b=0.75, bm25s underneath) over a fixed list of texts, the shared tokenizer, and RRF."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

TOKEN_RE = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")
STOP = frozenset(
    "a an the of in on for to and or with by from as at is are was were be been this that these those it its we "
    "our their which who than then also such into over under between both each can has have had not no".split()
)


def tokenize(text: str) -> list[str]:
    return [t for t in TOKEN_RE.findall(text.lower()) if t not in STOP]


class BM25:
    """Okapi BM25 (Lucene's idf) through bm25s, over this module's tokens. bm25s's Lucene variant
    drops the (k1 + 1) factor of the classic formula; scores are scaled back so they keep its values."""

    def __init__(self, texts: list[str], k1: float = 1.5, b: float = 0.75):
        import bm25s

        self.n, self.k1 = len(texts), k1
        self._index = bm25s.BM25(k1=k1, b=b, method="lucene")
        if texts:
            self._index.index([tokenize(t) for t in texts], show_progress=False)
        self.vocabulary = self._index.vocab_dict if texts else {}

    def save(self, folder: Path) -> None:
        self._index.save(str(folder), show_progress=False)

    @classmethod
    def load(cls, folder: Path, n: int, k1: float = 1.5) -> BM25:
        import bm25s

        bm = cls.__new__(cls)
        bm.n, bm.k1 = n, k1
        bm._index = bm25s.BM25.load(str(folder), show_progress=False)
        bm.vocabulary = bm._index.vocab_dict if n else {}
        return bm

    def scores(self, query: str) -> np.ndarray:
        terms = [t for t in tokenize(query) if t in self.vocabulary]
        if not terms or self.n == 0:
            return np.zeros(self.n, dtype=np.float32)
        return self._index.get_scores(terms) * np.float32(self.k1 + 1)

    def top(self, query: str, k: int) -> list[tuple[int, float]]:
        s = self.scores(query)
        if not len(s):
            return []
        idx = np.argpartition(-s, min(k, len(s) - 1))[:k] if len(s) > k else np.arange(len(s))
        idx = idx[np.argsort(-s[idx])]
        return [(int(i), float(s[i])) for i in idx if s[i] > 0]


def cached_bm25(folder: Path, generation: int, build: Callable[[], tuple[list[str], list[str]]]) -> tuple[BM25, list[str]]:
    """(index, ids) from `folder` when it was saved for this `generation` of the store, else built
    from `build()` → (ids, texts) and saved there (aside, then swapped in: a reader never sees half
    of it). A damaged cache is rebuilt; one that cannot be written leaves the index in memory."""
    meta = folder / "meta.json"
    try:
        if meta.exists() and json.loads(meta.read_text())["generation"] == generation:
            ids = json.loads((folder / "ids.json").read_text())
            return BM25.load(folder, len(ids)), ids
    except (OSError, ValueError, KeyError):
        pass
    ids, texts = build()
    bm = BM25(texts)
    if ids:
        try:
            folder.parent.mkdir(exist_ok=True)
            tmp = Path(tempfile.mkdtemp(dir=folder.parent, prefix=".tmp-"))
            try:
                bm.save(tmp)
                (tmp / "ids.json").write_text(json.dumps(ids))
                (tmp / "meta.json").write_text(json.dumps({"generation": generation, "documents": len(ids)}))
                shutil.rmtree(folder, ignore_errors=True)
                tmp.rename(folder)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        except OSError:  # read-only media, a full disk, or another process swapping its copy in at the same moment
            pass
    return bm, ids


def rrf(rankings: list[list[str]], k: int = 60, weights: list[float] | None = None) -> list[tuple[str, float]]:
    """Reciprocal rank fusion: score(d) = Σ w / (k + rank)."""
    scores: dict[str, float] = {}
    for r, ranking in enumerate(rankings):
        w = weights[r] if weights else 1.0
        for rank, doc in enumerate(ranking, 1):
            scores[doc] = scores.get(doc, 0.0) + w / (k + rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
