"""The shard benchmark on a small store: shards split the documents and together hold one sync's index."""

from __future__ import annotations

from benchmarks.shard_bench import run, summarise, table
from scholarstack.store import register_many
from tests.scholarstack.store.test_registry import fact, paper


def test_shards_split_the_documents_and_hold_what_one_sync_holds(store):
    words = "taggers parsers treebanks lexicons grammars corpora alignments lattices".split()
    register_many(store, [paper(texts=[f"Sentence {i} is about {w}." for i, w in enumerate(words, 1)])])
    register_many(store, [fact(1), fact(2, type="method_description"), fact(3, subject="Maximum Entropy tagger")])
    home = store.home
    r = run(home, shards=2)
    assert r["documents"] == 6 + 3 and sum(p["documents"] for p in r["per_shard"]) == 9 and r["shards_hold_what_one_sync_holds"]
    assert table(r).splitlines()[2].startswith("| one sync | 9 |")


def test_the_summary_reads_balance_overhead_and_wall_time():
    r = summarise(100, 10.0, [{"shard": 0, "documents": 40, "seconds": 4.0}, {"shard": 1, "documents": 60, "seconds": 7.0}])
    assert (r["largest_over_mean"], r["shards_seconds"], r["overhead"], r["wall_seconds_on_n_machines"]) == (1.2, 11.0, 0.1, 7.0)
    assert "overhead of sharding: 10.0%" in table(r)
