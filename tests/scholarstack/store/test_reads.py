"""Corpus reads: what the vector index should hold, keyed by content, read without parsing objects."""

from __future__ import annotations

import hashlib

from scholarstack.models.text import INDEXED_KINDS
from scholarstack.store import revise, withdraw
from tests.scholarstack.store.test_registry import graph  # noqa: F401  (the linked store fixture)


def test_index_keys_follow_content_and_lifecycle(store, graph):  # noqa: F811
    keys = {oid: (kind, paper, key) for oid, kind, paper, key in store.index_keys(INDEXED_KINDS)}
    text = dict(store.current_sentences(["P1:1"]))["P1:1"]
    assert keys["P1:1"] == ("sentence", "P1", hashlib.md5(text.encode()).hexdigest())  # the same digest on both engines
    assert {k for k, (kind, _, _) in keys.items() if kind == "fact"} == {graph[f].id for f in ("f1", "f2", "f3")}
    assert keys[graph["syn"].id][0] == "synthesis" and keys[graph["tnt"].id][:2] == ("entity", "")
    assert not any(kind in ("relation", "assignment") for kind, _, _ in keys.values())
    revise(store, [graph["f2"].model_copy(update={"statement": "We use second order Markov models."})])
    withdraw(store, [graph["f3"].id], reason="test")
    after = {oid: key for oid, _, _, key in store.index_keys(INDEXED_KINDS)}
    assert after[graph["f2"].id] != keys[graph["f2"].id][2] and after[graph["f1"].id] == keys[graph["f1"].id][2]
    assert graph["f3"].id not in after
    marked = graph["asg"].id  # it cites the revised f2: needs_recheck, live but not current
    assert marked in {oid for oid, *_ in store.content_hashes(("assignment",))}
    assert marked not in {oid for oid, *_ in store.content_hashes(("assignment",), lifecycle=("current",))}
    assert {oid for oid, *_ in store.index_keys(("sentence",), front_only=True)} == {f"P1:{i}" for i in range(0, 7)} & set(keys)


def test_index_keys_of_one_shard_are_read_in_sql_as_python_buckets_them(store, graph):  # noqa: F811
    """An index shard reads only its documents' keys, by the md5 range the database computes, and the
    shards together read every key once (both engines: the md5 is the same)."""
    from scholarstack.index.sync import shard_buckets
    from scholarstack.index.vectors import bucket

    every = {oid for oid, *_ in store.index_keys(INDEXED_KINDS)}
    shards = []
    for i in range(3):
        lo, hi = shard_buckets(i, 3)
        got = {oid for oid, *_ in store.index_keys(INDEXED_KINDS, buckets=(lo, hi))}
        assert got == {oid for oid in every if lo <= bucket(oid) < hi}
        shards.append(got)
    assert set().union(*shards) == every and sum(map(len, shards)) == len(every) and all(shards)


def test_integrity_counts_and_the_live_digest(store, graph):  # noqa: F811
    """What the asset checks and the build keys read: locators naming no current sentence, citations
    of withdrawn objects, and one digest of the live rows that follows content and lifecycle."""
    facts, entities = store.live_digest(("fact",)), store.live_digest(("entity",))
    assert store.unresolved_evidence("fact") == 0 and store.dangling_refs(("synthesis", "assignment", "relation")) == 0
    revise(store, [graph["f2"].model_copy(update={"statement": "We use second order Markov models."})])
    assert store.live_digest(("fact",)) != facts and store.live_digest(("entity",)) == entities
    revised = store.live_digest(("fact",))
    withdraw(store, [graph["f3"].id], reason="test")  # the synthesis cites it as a limiting basis item
    assert store.live_digest(("fact",)) != revised
    assert store.dangling_refs(("synthesis",)) == 1 and store.dangling_refs(("relation",)) == 0
    with store.transaction() as con:  # a sentence gone from the current source map (fault injection)
        con.execute("UPDATE sentences SET is_current = false WHERE locator = 'P1:1'")
    assert store.unresolved_evidence("fact") == 1 and store.unresolved_evidence("synthesis") == 0
