"""A warm store (the MCP server's): calls share one open connection, threads read side by side,
and the lock goes back to other writers once it is idle."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

from scholarstack.store import Store, register
from tests.conftest import duckdb_only

from .test_registry import paper


@duckdb_only
def test_warm_store_opens_once_reads_from_threads_and_frees_the_lock_when_idle(tmp_path, monkeypatch):
    store = Store(tmp_path / "s", lock_timeout=10)
    register(store, paper())
    opened = []
    real_open = Store._open
    monkeypatch.setattr(Store, "_open", lambda self: (opened.append(1) if self is store else None) or real_open(self))
    store.keep_warm(idle=0.3)
    with ThreadPoolExecutor(4) as pool:
        texts = list(pool.map(lambda i: store.current_sentences([f"P1:{i % 3 + 1}"]), range(40)))
    assert all(len(t) == 1 for t in texts) and len(opened) == 1  # forty reads, four threads, one open file
    other = Store(tmp_path / "s", lock_timeout=10)  # another writer (as another process would be) waits for the idle release
    started = time.monotonic()
    assert register(other, paper("P2")).status == "new"
    assert time.monotonic() - started < 5
    assert store.current_sentences(["P2:1"]) and len(opened) == 2  # the warm store reopens on its next call and sees the write
