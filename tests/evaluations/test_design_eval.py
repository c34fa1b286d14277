"""The experimental-design benchmark on a small real sample of SciREX."""

from __future__ import annotations

from evaluations.design_eval import eval_design, gold_of, matches
from orchestration.run import compile_store
from tests.conftest import need_shared


def test_names_match_by_their_words():
    assert matches("Penn Treebank", ["penn treebank wsj", "brown"]) and not matches("CoNLL 2003", ["penn treebank"])
    gold = gold_of({"n_ary_relations": [{"Task": "Semantic_Segmentation", "Material": "Cityscapes", "Metric": "Mean_IoU", "Method": "FRRN"}]})
    assert gold == {"Task": {"Semantic Segmentation"}, "Material": {"Cityscapes"}, "Metric": {"Mean IoU"}, "Method": {"FRRN"}}


def test_design_benchmark_small(store):
    need_shared("scirex", "docs.jsonl.gz")
    res = eval_design(store, limit=1, corpus_limit=5, embedder="tfidf", compiler=compile_store)
    assert res["n"] == 1 and set(res["systems"]) == {"scholarstack_design", "corpus_frequent"}
    for row in res["systems"].values():
        assert all(0 <= v <= 1 for v in row.values())
    assert set(res["systems"]["scholarstack_design"]) == {"dataset_recall@5", "metric_recall@5", "method_recall@5"}
