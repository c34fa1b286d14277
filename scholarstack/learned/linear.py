"""A standardised logistic model kept as plain JSON, as several learned rankers are (the evidence
localiser, the search judge): fitted with scikit-learn, applied with numpy, folds by a hash."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np


def fit(X: np.ndarray, y: np.ndarray, seed: int = 0) -> dict[str, Any]:
    """Balanced logistic regression on standardised columns (a constant column must not divide by 0)."""
    from sklearn.linear_model import LogisticRegression

    mean, scale = X.mean(axis=0), np.maximum(X.std(axis=0), 1e-3)
    lr = LogisticRegression(C=1.0, max_iter=3000, class_weight="balanced", random_state=seed).fit((X - mean) / scale, y)
    return {"coef": lr.coef_[0].round(5).tolist(), "intercept": float(lr.intercept_[0]),
            "mean": mean.round(5).tolist(), "scale": scale.round(5).tolist()}


def ranks(scores: np.ndarray) -> np.ndarray:
    """Each score's 0-based rank, best first (ties in order), as a feature column."""
    out = np.empty(len(scores), dtype=np.float32)
    out[np.argsort(-scores, kind="stable")] = np.arange(len(scores))
    return out


def fold_of(key: str, folds: int = 5) -> int:
    """The cross-fitting fold of a topic or a query paper: stable across runs and machines."""
    return int(hashlib.sha256(key.encode()).hexdigest(), 16) % folds


class LinearModel:
    def __init__(self, weights: dict[str, Any]):
        self.weights = weights
        self.card = weights.get("card", {})
        self.coef = np.array(weights["coef"], dtype=np.float32)
        self.mean, self.scale = np.array(weights["mean"], dtype=np.float32), np.array(weights["scale"], dtype=np.float32)

    def logits(self, X: np.ndarray) -> np.ndarray:
        return ((X - self.mean) / self.scale) @ self.coef + self.weights["intercept"]

    def write(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.weights, separators=(",", ":")))
        return path
