"""Store.current_models: each current object parsed once per process, read again when its row changes."""

from __future__ import annotations

from scholarstack.store import recheck, revise, withdraw
from tests.scholarstack.store.test_registry import graph  # noqa: F401  (the linked store fixture)


def test_unchanged_objects_come_from_memory(store, graph):  # noqa: F811
    first = {f.id: f for f in store.current_models("fact")}
    assert set(first) == {graph[k].id for k in ("f1", "f2", "f3")}
    again = {f.id: f for f in store.current_models("fact")}
    assert all(again[i] is first[i] for i in first)  # nothing parsed twice


def test_a_changed_row_is_read_again(store, graph):  # noqa: F811
    facts = {f.id: f for f in store.current_models("fact")}
    assignments = {a.id: a for a in store.current_models("assignment")}
    new = graph["f2"].model_copy(update={"statement": "We use second order Markov models."})
    revise(store, [new])  # a new version of f2; the assignment citing it is marked for recheck
    after = {f.id: f for f in store.current_models("fact")}
    assert after[new.id].statement == new.statement and after[new.id] is not facts[new.id]
    assert after[graph["f1"].id] is facts[graph["f1"].id]
    marked = {a.id: a for a in store.current_models("assignment")}[graph["asg"].id]
    assert marked is not assignments[graph["asg"].id]  # its lifecycle changed: read again
    recheck(store)
    assert {a.id: a for a in store.current_models("assignment")}[graph["asg"].id] is not marked
    withdraw(store, [graph["f3"].id], reason="test")
    assert graph["f3"].id not in {f.id for f in store.current_models("fact")}
