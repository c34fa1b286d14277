"""The writing benchmarks on a small real sample: reviews of taxonomy topics and summaries against
both sets of human summaries, in one store."""

from __future__ import annotations

import sys

from absl import logging as absl_logging

from evaluations.writing_eval import eval_review, eval_summary, textrank
from orchestration.run import compile_store
from tests.conftest import need_shared


def test_textrank_keeps_document_order_within_the_budget():
    sents = ["Parsing uses a chart.", "We parse with a chart parser and a grammar.", "The weather was nice.",
             "A chart parser with a grammar parses sentences."]
    out = textrank(sents, words=12)
    assert "weather" not in out and out.split(". ")[0] in " ".join(sents)
    assert [s for s in sents if s in out] == sorted((s for s in sents if s in out), key=sents.index)


def test_review_and_summary_benchmarks_small(store):
    need_shared("acl_scisummnet", "papers.jsonl.gz")
    need_shared("clscisumm2018")
    rev = eval_review(store, limit=2, k=6, corpus_limit=10, embedder="tfidf", compiler=compile_store)
    assert rev["n"] == len(rev["topics"]) >= 1
    for row in rev["topics"]:
        assert row["citation_resolution"] == 1.0  # every cited id and locator resolves in the store
        assert 0 <= row["coverage"] <= row["coverage_at_k"] <= 1 and 0 <= row["precision"] <= 1
        assert row["cited_papers"] >= 1 and row["sections"] >= 1 and row["tokens_out"] > 0
    summ = eval_summary(store, limit=2, compiler=compile_store)
    # absl (through rouge-score) must not hold a stream it would close when logging is reconfigured
    assert absl_logging.get_absl_handler().python_handler.stream is sys.__stderr__
    assert set(summ["sets"]) == {"scisummnet", "clscisumm"}
    for part in summ["sets"].values():
        assert part["n"] + part["failed"] == 2
        ours, full = part["systems"]["scholarstack_summary"], part["systems"]["textrank_fulltext"]
        assert 0 < ours["rouge1"] <= 1 and 0 <= ours["rouge2"] <= ours["rouge1"]
        assert ours["tokens_read"] < full["tokens_read"]  # the view reads less than the full text
