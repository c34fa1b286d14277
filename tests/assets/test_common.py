"""over_partitions: one paper's fault is reported after the others ran; each paper's own figures
are an observation of its partition; a held store connection serves consecutive papers and is
reopened after a failure."""

from types import SimpleNamespace

import pytest
from dagster import AssetKey, Failure

from assets.common import over_partitions
from scholarstack.store import Store


def _context(keys, events=None):
    events = [] if events is None else events
    return SimpleNamespace(partition_keys=keys, has_partition_key_range=True, has_partition_key=False, asset_key=AssetKey("t"),
                           log=SimpleNamespace(info=lambda _: None), log_event=events.append)


def test_held_connection_is_shared_and_reopened_after_a_failure(tmp_path):
    store = Store(tmp_path / "s")
    seen, opens = [], []
    real_open = store._open
    store._open = lambda: opens.append(1) or real_open()

    def step(key):
        with store.connect() as con:
            seen.append((key, id(con)))
            con.execute("SELECT 1").fetchall()
        if key == "b":
            raise ValueError("broken paper b")
        return {"status": "ok", "facts": 2}

    events = []
    with pytest.raises(Failure) as exc:
        over_partitions(_context(["a", "b", "c", "d"], events), step, "test", progress=False, hold=store)
    own = {e.partition: e.metadata for e in events}  # each paper's figures on its own partition
    assert own["a"]["facts"].value == 2 and own["b"]["status"].value == "failed" and "broken paper b" in own["b"]["reason"].value
    assert "broken paper b" in exc.value.description and "1 of 4" in exc.value.description
    assert [k for k, _ in seen] == ["a", "b", "c", "d"]  # the papers after the fault still ran
    con = dict(seen)
    assert con["a"] == con["b"] and con["c"] == con["d"]  # one connection for consecutive papers
    assert len(opens) == 2  # ... and a new one after the failure
    assert getattr(store._local, "con", None) is None  # nothing left open afterwards
    assert store.query("SELECT 1") == [(1,)]


def test_without_hold_each_paper_connects_on_its_own(tmp_path):
    store = Store(tmp_path / "s")
    held = []

    def step(key):
        held.append(getattr(store._local, "con", None))
        return {"status": "ok"}

    meta = over_partitions(_context(["a", "b"]), step, "test", progress=False)
    assert held == [None, None] and meta["papers"] == 2 and meta["status_ok"] == 2
