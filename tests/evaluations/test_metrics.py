"""Metric functions against hand-computed values."""

from __future__ import annotations

import pytest

from evaluations.metrics import accuracy, macro_f1, mrr_at_k, normalize_answer, percentile, recall_at_k, set_f1, token_f1
from evaluations.scirex_eval import f1


def test_ranking_metrics():
    ranked = ["a", "b", "c", "d"]
    assert recall_at_k(ranked, "c", 1) == 0 and recall_at_k(ranked, "c", 3) == 1
    assert recall_at_k(ranked, {"a", "z"}, 4) == 0.5
    assert mrr_at_k(ranked, "c", 40) == pytest.approx(1 / 3)
    assert mrr_at_k(ranked, "c", 2) == 0.0


def test_answer_f1():
    assert normalize_answer("The  Penn-Treebank!") == "penntreebank"
    # pred tokens: relu selu tanh (3); gold: relu and tanh (3); common 2 → P=2/3 R=2/3 F1=2/3
    assert token_f1("relu, selu, tanh", "relu and tanh") == pytest.approx(2 / 3)
    assert token_f1("Yes", "yes") == 1.0 and token_f1("", "x") == 0.0


def test_classification_metrics():
    pred = ["S", "S", "C", "N"]
    gold = ["S", "C", "C", "N"]
    assert accuracy(pred, gold) == 0.75
    # S: P=1/2 R=1 F=2/3; C: P=1 R=1/2 F=2/3; N: 1 → macro = (2/3 + 2/3 + 1) / 3
    assert macro_f1(pred, gold) == pytest.approx((2 / 3 + 2 / 3 + 1) / 3)
    assert set_f1({1, 2}, {2, 3}) == (0.5, 0.5, 0.5) and set_f1(set(), set()) == (1.0, 1.0, 1.0)
    assert f1(2, 4, 8) == {"precision": 0.5, "recall": 0.25, "f1": round(2 * 0.5 * 0.25 / 0.75, 4)}
    assert percentile([1, 2, 3, 4, 5], 50) == 3 and percentile([1, 2, 3, 4, 5], 95) == 5
