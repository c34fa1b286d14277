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
