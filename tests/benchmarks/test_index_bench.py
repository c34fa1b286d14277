"""The index benchmark's measure: a query hits when an item of its cited paper is in the view's top k."""

from __future__ import annotations

from benchmarks.index_bench import LAYER_SETS, quality, table
from scholarstack.store import Store
from scholarstack.views.views import open_kb


def test_quality_counts_items_of_the_cited_paper(compiled_sample):
    kb = open_kb(Store(compiled_sample), "tfidf")
    fact = kb.store.objects("fact")[0]
    other = next(p for p, _, _ in kb.store.raw_papers() if p != fact["paper_id"])
    query = fact["data"]["statement"]
    assert quality(kb, [{"query": query, "cited_paper_id": fact["paper_id"]}], ("fact",)) == {"recall@10": 1.0, "mrr@10": 1.0}
    missed = quality(kb, [{"query": query, "cited_paper_id": other}], ("fact",), k=1)
    assert missed == {"recall@1": 0.0, "mrr@1": 0.0}
    row = {"choice": "front", "embedder": "static", "vectors": 3, "embed_seconds": 1.5} | {"+".join(l): {"recall@10": 0.5, "mrr@10": 0.25} for l in LAYER_SETS}
    assert table([row]).splitlines()[-1] == "| front | static | 3 | 1.5 | 0.500 / 0.250 | 0.500 / 0.250 | 0.500 / 0.250 |"
