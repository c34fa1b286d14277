"""Metric functions shared by the benchmarks (each checked against hand-computed values in tests).
Accuracy, macro-F1 and percentiles come from scikit-learn and numpy; the ranking and SQuAD-style
answer metrics, which neither has, are written here."""

from __future__ import annotations

import re
import string
from collections import Counter


def recall_at_k(ranked: list[str], gold: str | set[str], k: int) -> float:
    gold = {gold} if isinstance(gold, str) else gold
    return len(gold & set(ranked[:k])) / len(gold) if gold else 0.0


def mrr_at_k(ranked: list[str], gold: str | set[str], k: int = 40) -> float:
    gold = {gold} if isinstance(gold, str) else gold
    for i, d in enumerate(ranked[:k], 1):
        if d in gold:
            return 1.0 / i
    return 0.0


def normalize_answer(text: str) -> str:
    """SQuAD normalisation: lower case, no punctuation, no articles, single spaces."""
    text = text.lower()
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def token_f1(prediction: str, gold: str) -> float:
    p, g = normalize_answer(prediction).split(), normalize_answer(gold).split()
    if not p or not g:
        return float(p == g)
    common = Counter(p) & Counter(g)
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision, recall = same / len(p), same / len(g)
    return 2 * precision * recall / (precision + recall)


def accuracy(pred: list[str], gold: list[str]) -> float:
    from sklearn.metrics import accuracy_score

    return float(accuracy_score(gold, pred)) if gold else 0.0


def macro_f1(pred: list[str], gold: list[str], labels: list[str] | None = None) -> float:
    """Unweighted mean of per-label F1 over `labels` (default: every label seen); a label never
    predicted nor true scores 0."""
    from sklearn.metrics import f1_score

    labels = labels or sorted(set(gold) | set(pred))
    return float(f1_score(gold, pred, labels=labels, average="macro", zero_division=0)) if labels and gold else 0.0


def set_f1(pred: set, gold: set) -> tuple[float, float, float]:
    """(precision, recall, F1) of two sets; empty vs empty counts as perfect."""
    if not pred and not gold:
        return 1.0, 1.0, 1.0
    tp = len(pred & gold)
    p = tp / len(pred) if pred else 0.0
    r = tp / len(gold) if gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile (an observed value)."""
    import numpy as np

    return float(np.percentile(values, q, method="nearest")) if values else 0.0
