"""Each benchmark on a small real sample: same items for every system, in one run."""

from __future__ import annotations

from evaluations import pdf_fidelity, scirex_eval
from evaluations.benchmarks import eval_claims, eval_qa, eval_retrieval
from evaluations.papers import spread
from orchestration.run import compile_store
from tests.conftest import need_shared


def test_spread_takes_items_across_the_file():
    assert spread(list(range(10)), 3) == [0, 3, 6] and spread([1, 2], None) == [1, 2]


def test_retrieval_benchmark_small(store):
    need_shared("acl_scisummnet", "citances_dev.jsonl")
    res = eval_retrieval(store, limit=10, corpus_limit=20, embedder="tfidf", layer_ablation=True, compiler=compile_store)
    assert res["n"] == 10 and res["corpus"] <= 20
    assert set(res["systems"]) == {"bm25", "dense", "hybrid", "bm25_fulltext", "hybrid_fulltext", "scholarstack_content",
                                   "scholarstack", "scholarstack_content_rrf", "scholarstack_rrf", "scholarstack_content_undated",
                                   "scholarstack_undated", "scholarstack_content_L1", "scholarstack_content_L1+L2"}
    for row in res["systems"].values():
        assert 0 <= row["recall@1"] <= row["recall@5"] <= row["recall@10"] <= 1
    assert res["systems"]["bm25"]["recall@10"] > 0.3  # citing sentences do name their target's topic


def test_claims_benchmark_small(store):
    need_shared("scifact", "claims_train.jsonl")
    res = eval_claims(store, limit=12, compiler=compile_store)
    assert res["n"] >= 12 and set(res["systems"]) == {"fulltext", "view", "fulltext_rules", "view_rules"}
    assert res["split"] == "dev"  # only claims the learned verifier never trained on
    for row in res["systems"].values():
        assert 0 <= row["label_accuracy"] <= 1 and 0 <= row["rationale_f1"] <= 1 and row["tokens_per_claim"] > 0


def test_qa_benchmark_small(store):
    need_shared("qasper_leval", "scientific_qa.jsonl")
    res = eval_qa(store, limit=8, compiler=compile_store)
    assert res["n"] == 8 and set(res["systems"]) == {"fulltext", "rag", "view", "view_sentences"}
    assert res["systems"]["view"]["input_tokens_per_question"] < res["systems"]["fulltext"]["input_tokens_per_question"]


def test_pdf_fidelity_and_scirex_small():
    root = need_shared("clscisumm2018")
    fid = pdf_fidelity.run(root, limit=3)
    assert fid["n"] >= 1 and 0.3 < fid["text_recall"] <= 1 and fid["sentence_recall"] <= fid["text_recall"]
    sx = scirex_eval.run(need_shared("scirex", "docs.jsonl.gz"), limit=3)
    assert sx["n"] == 3 and set(sx["systems"]) == {"offline_rules", "offline_learned"}
    rules, learned = sx["systems"]["offline_rules"], sx["systems"]["offline_learned"]
    assert 0 < rules["mention_f1_untyped"]["f1"] <= 1 and 0 < learned["mention_f1_typed"]["f1"] <= 1


def test_own_method_on_scirex_dev_beats_the_title_name():
    own = scirex_eval.own_method(need_shared("scirex", "docs.jsonl.gz"), limit=6)
    assert own["n"] == 6 and set(own["systems"]) == {"scholarstack", "title_name", "most_salient_method"}
    acc = {s: r["accuracy"] for s, r in own["systems"].items()}
    # Most of these titles name no system ("Deep Residual Learning for Image Recognition"); the authors' text does.
    assert acc["scholarstack"] > acc["title_name"] and acc["scholarstack"] >= acc["most_salient_method"]


def test_result_values_on_scirex_dev_bind_methods_better_than_the_nearest_mention():
    res = scirex_eval.result_values(need_shared("scirex", "docs.jsonl.gz"), limit=30)
    assert res["n"] == 30 and 0 < res["gold_values_in_text"] < res["gold_values"]  # most gold scores are in tables
    ours, nearest = res["systems"]["scholarstack"], res["systems"]["nearest_mentions"]
    assert 0 < ours["values_stated"] < nearest["values_stated"]  # a value without a named owner is no result
    assert ours["gold_value_share"] > nearest["gold_value_share"] and ours["method_right"] > nearest["method_right"]
    assert ours["gold_recall"] * res["gold_values"] <= res["gold_values_in_text"]
