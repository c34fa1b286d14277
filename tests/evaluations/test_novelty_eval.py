"""The novelty benchmark on a small real sample of the ACL corpus."""

from __future__ import annotations

from evaluations.novelty_eval import eval_novelty
from orchestration.run import compile_store
from tests.conftest import need_shared


def test_novelty_benchmark_small(store):
    need_shared("acl_scisummnet", "citances_dev.jsonl")
    res = eval_novelty(store, limit=1, corpus_limit=10, embedder="tfidf", k=5, compiler=compile_store)
    assert res["n"] == 1 and set(res["systems"]) == {"hybrid_abstract", "retriever_request", "scholarstack_novelty"}
    for row in res["systems"].values():
        assert 0 <= row["recall@5"] <= 1
    ours = res["systems"]["scholarstack_novelty"]
    assert abs(sum(v for m, v in ours.items() if m.startswith("verdict_")) - 1) < 1e-6
    assert res["self_anticipated_rate"] == 1.0  # a paper is always anticipated by itself
    assert 0 <= res["recombination_both_cited_rate"] <= 1 and res["recombination_pairs"] <= 1
