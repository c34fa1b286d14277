"""Metric functions shared by the benchmarks (each checked against hand-computed values in tests)."""

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
    return sum(p == g for p, g in zip(pred, gold)) / len(gold) if gold else 0.0


def macro_f1(pred: list[str], gold: list[str], labels: list[str] | None = None) -> float:
    labels = labels or sorted(set(gold) | set(pred))
    scores = []
    for lab in labels:
        tp = sum(p == lab and g == lab for p, g in zip(pred, gold))
        fp = sum(p == lab and g != lab for p, g in zip(pred, gold))
        fn = sum(p != lab and g == lab for p, g in zip(pred, gold))
        prec = tp / (tp + fp) if tp + fp else 0.0
        rec = tp / (tp + fn) if tp + fn else 0.0
        scores.append(2 * prec * rec / (prec + rec) if prec + rec else 0.0)
    return sum(scores) / len(scores) if scores else 0.0


def set_f1(pred: set, gold: set) -> tuple[float, float, float]:
    """(precision, recall, F1) of two sets; empty vs empty counts as perfect."""
    if not pred and not gold:
        return 1.0, 1.0, 1.0
    tp = len(pred & gold)
    p = tp / len(pred) if pred else 0.0
    r = tp / len(gold) if gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    v = sorted(values)
    idx = min(len(v) - 1, max(0, int(round(q / 100 * (len(v) - 1)))))
    return v[idx]
