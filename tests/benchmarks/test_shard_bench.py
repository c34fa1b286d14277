"""The shard benchmark on a small store: shards split the documents and together hold one sync's index."""

from __future__ import annotations

from benchmarks.shard_bench import run, summarise, table
from tests.scholarstack.index.test_index import eight_sentences_and_three_facts


def test_shards_split_the_documents_and_hold_what_one_sync_holds(store):
    eight_sentences_and_three_facts(store)
    r = run(store.home, shards=2)
    assert r["documents"] == 6 + 3 and sum(p["documents"] for p in r["per_shard"]) == 9 and r["shards_hold_what_one_sync_holds"]
    assert table(r).splitlines()[2].startswith("| one sync | 9 |")


def test_the_summary_reads_balance_overhead_and_wall_time():
    r = summarise(100, 10.0, [{"shard": 0, "documents": 40, "seconds": 4.0}, {"shard": 1, "documents": 60, "seconds": 7.0}])
    assert (r["largest_over_mean"], r["shards_seconds"], r["overhead"], r["wall_seconds_on_n_machines"]) == (1.2, 11.0, 0.1, 7.0)
    assert "overhead of sharding: 10.0%" in table(r)
