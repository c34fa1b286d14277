"""The warm connection behind `Store.keep_warm`, for long-running servers."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import duckdb
from filelock import FileLock, Timeout

from .errors import StoreBusyError


class WarmConnection:
    """The warm connection of `Store.keep_warm`: opened on first use under a lock that any thread
    may release (so the idle closer can), shared through cursors, closed after `idle` seconds."""

    def __init__(self, store, idle: float):
        self.store, self.idle = store, idle
        self.lock = FileLock(str(store.home / "store.lock"), timeout=store.lock_timeout, is_singleton=False, thread_local=False)
        self.guard = threading.Lock()
        self.root: duckdb.DuckDBPyConnection | None = None
        self.users, self.last = 0, 0.0

    @contextmanager
    def cursor(self) -> Iterator[duckdb.DuckDBPyConnection]:
        with self.guard:
            if self.root is None:
                try:
                    self.lock.acquire()
                except Timeout as exc:
                    raise StoreBusyError(f"store {self.store.home} is locked by another process (waited "
                                         f"{self.store.lock_timeout:.0f}s); retry when it finishes") from exc
                try:
                    self.root = self.store._open_read_only() if self.store.read_only else self.store._open()
                except BaseException:
                    self.lock.release()
                    raise
                threading.Thread(target=self._close_when_idle, name="store-warm-closer", daemon=True).start()
            self.users += 1
            cur = self.root.cursor()
        try:
            yield cur
        finally:
            cur.close()
            with self.guard:
                self.users -= 1
                self.last = time.monotonic()

    def _close_when_idle(self) -> None:
        while True:
            time.sleep(self.idle / 4)
            with self.guard:
                if self.root is None:
                    return
                if self.users == 0 and time.monotonic() - self.last >= self.idle:
                    self._close_locked()
                    return

    def close(self) -> None:
        with self.guard:
            if self.root is not None and self.users == 0:
                self._close_locked()

    def _close_locked(self) -> None:
        self.root.close()
        self.root = None
        self.lock.release()
