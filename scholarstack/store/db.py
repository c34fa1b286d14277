"""The store: a directory with its tables in one DuckDB file (the embedded default) or in a
PostgreSQL database (`url=` or SCHOLARSTACK_STORE_URL; `postgres.py`). The store package owns every
SQL statement about papers, objects and their history: this module the connections and every read,
`registry` the gate's writes, `schema` the tables. (Evaluations own their results table.)

One SQL text for both engines (the few spellings that differ are methods here). No PRIMARY KEY
constraints on DuckDB: it checks them eagerly inside a transaction, which breaks delete-then-insert
upserts; PostgreSQL checks its unique indexes at the statement, after the delete.

Concurrency on DuckDB: every connection is opened under an exclusive file lock and closed
afterwards, so two processes writing the same store serialize; a writer that cannot get the lock
within `lock_timeout` seconds gets a StoreBusyError naming the store, and nothing is written. On
PostgreSQL writers run side by side in SERIALIZABLE transactions (`write_attempts` retries a loser).
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
from filelock import FileLock, Timeout

from ..settings import settings

DEFAULT_HOME = ".scholarstack"

from .errors import StoreBusyError, StoreError
from .object_reads import ObjectReads
from .reads import CorpusReads
from .schema import NEWEST_COLUMN, OBJECT_COLUMNS, RAW_SCHEMA, SCHEMA, SENTENCE_COLUMNS, VERSION_COLUMNS, marks  # noqa: F401  (re-exported)
from .warm import WarmConnection


def sql(con: duckdb.DuckDBPyConnection, statement: str, params: list[Any] | None = None) -> None:
    """Run a statement whose result is not needed; DuckDB 2 wants every result drained."""
    cur = con.execute(statement, params or [])
    try:
        cur.fetchall()
    except duckdb.InvalidInputException:  # statements without a result set
        pass


SHORT_LIST = 500  # ids written out in a query's IN list; more are joined as a registered table (Store.ids_in)
URL_FILE = "store.url"  # in a store directory whose tables live in PostgreSQL: the database and schema (JSON)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:300]


def resolve_home(path: str | os.PathLike | None = None) -> Path:
    return Path(path or settings().home or DEFAULT_HOME)


def recorded_database(home: Path) -> tuple[str, str] | None:
    """(URL, schema) a PostgreSQL store's directory remembers in `store.url`; None for a DuckDB store."""
    marker = Path(home) / URL_FILE
    if not marker.is_file():
        return None
    try:
        remembered = json.loads(marker.read_text())
        return remembered["url"], remembered["schema"]
    except (ValueError, KeyError, TypeError) as exc:
        raise StoreError(f"{marker} is not a store's database record ({exc}); restore it or remove the directory") from exc


class Store(CorpusReads, ObjectReads):
    """A store directory: `store.duckdb` and its lock (or `store.url` naming its PostgreSQL
    database), the LLM cache and the vector index files.

    PostgreSQL: `url=` or SCHOLARSTACK_STORE_URL when the store is created. Each store directory
    gets its own pair of schemas in that database (`s_<hash>` for its tables, `s_<hash>_raw` for
    dlt's), so one server holds many stores (the benchmarks' among them); the directory remembers
    both in `store.url`, so later commands need only the directory. A URL that contradicts the
    directory's is an error naming both.

    `read_only=True` is for readers (status, show, history): it creates nothing and opens DuckDB
    read-only. It takes the store lock like a writer when the folder is writable (so a reader
    and a writer never race for the file) and reads without it on read-only media, where no
    writer can be.
    """

    def __init__(self, home: str | os.PathLike | None = None, lock_timeout: float | None = None, read_only: bool = False,
                 url: str | None = None):
        self.home = resolve_home(home)
        self.path = self.home / "store.duckdb"
        self.read_only = read_only
        timeout = lock_timeout if lock_timeout is not None else settings().lock_timeout
        self.lock_timeout = timeout
        self._local = threading.local()
        self._warm: WarmConnection | None = None
        if self.home.exists() and not self.home.is_dir():
            raise StoreError(f"store path {self.home} is a file, not a directory")
        self.url, self.schema = self._database_url(url)
        if self.url is not None:
            self._open_postgres()
            return
        if read_only:
            if not self.path.is_file():
                raise StoreError(f"no store at {self.home} (no store.duckdb there); give --store DIR of a compiled store")
            writable = os.access(self.home, os.W_OK) and (not (self.home / "store.lock").exists() or os.access(self.home / "store.lock", os.W_OK))
            self._lock = FileLock(str(self.home / "store.lock"), timeout=timeout, is_singleton=False) if writable else None
            if writable and not self.table_exists("main", *NEWEST_COLUMN):
                Store(self.home, lock_timeout=timeout)  # a store from before the latest schema: migrate it once
            return
        try:
            self.home.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create store directory {self.home}: {exc.strerror or exc}") from exc
        if not os.access(self.home, os.W_OK):
            raise StoreError(f"store {self.home} is not writable (read commands such as `status` work without write access)")
        self._lock = FileLock(str(self.home / "store.lock"), timeout=timeout, is_singleton=False)
        with self.connect() as con:
            sql(con, SCHEMA)

    def __repr__(self) -> str:
        return f"Store({str(self.home)!r})"

    @property
    def postgres(self) -> bool:
        return self.url is not None

    @property
    def location(self) -> str:
        """Where the tables are, for messages: the DuckDB file or the database URL without password."""
        from .postgres import redacted

        return redacted(self.url) if self.url else str(self.path)

    @property
    def raw_schema(self) -> str:
        """Where dlt loads the ingested records (`<raw_schema>.papers`)."""
        return f"{self.schema}_raw" if self.url else RAW_SCHEMA

    def _database_url(self, url: str | None) -> tuple[str | None, str]:
        from ..models.common import stable_hash

        remembered = recorded_database(self.home)
        if remembered is not None:
            known, schema = remembered
            if url and url != known:
                raise StoreError(f"store {self.home} lives in {known} ({URL_FILE}), not in the given {url}")
            return known, schema
        url = url or (settings().store_url if not self.path.exists() else None)  # a DuckDB store there stays on DuckDB
        return url, ("s_" + stable_hash(str(self.home.resolve()), 12) if url else "main")

    def _open_postgres(self) -> None:
        from .postgres import CONSTRAINTS

        self._lock = None  # PostgreSQL's transactions keep writers apart, not a file lock
        if self.read_only:
            if not (self.home / URL_FILE).is_file() and not self.table_exists("main", "objects"):
                raise StoreError(f"no store at {self.location}; give --store DIR of a compiled store")
            return
        try:
            self.home.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create store directory {self.home}: {exc.strerror or exc}") from exc
        if not os.access(self.home, os.W_OK):  # its caches and dlt's state live there
            raise StoreError(f"store {self.home} is not writable (read commands such as `status` work without write access)")
        if not self.table_exists("main", *NEWEST_COLUMN):  # DDL on live tables would lock out (or deadlock) their writers
            with self.transaction() as con:
                sql(con, "SELECT pg_advisory_xact_lock(7406)")  # two processes creating the tables at once
                sql(con, f"CREATE SCHEMA IF NOT EXISTS {self.schema}; SET search_path TO {self.schema};" + SCHEMA + CONSTRAINTS)
        if not (self.home / URL_FILE).is_file():  # only once the database answered: a mistyped URL is not remembered
            (self.home / URL_FILE).write_text(json.dumps({"url": self.url, "schema": self.schema}) + "\n")

    # -- connections -------------------------------------------------------------------------
    def keep_warm(self, idle: float = 1.0) -> None:
        """For a long-running server (MCP): keep one connection open between calls and give each
        call a cursor on it, so a call does not reopen the file (20-30 ms on a 1,000-paper store)
        and calls from several threads run side by side. The connection is closed, and the lock
        freed for writers in other processes, after `idle` seconds without a call. (DuckDB only: a
        PostgreSQL connection costs milliseconds and needs no lock.)"""
        if self._lock is not None and self._warm is None:
            self._warm = WarmConnection(self, idle)

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """Hold the store lock without a connection (for writers with their own, such as dlt). On
        PostgreSQL an advisory lock, so two loads do not race for dlt's staging tables."""
        if self.url is not None:
            from .postgres import PgConnection

            holder = PgConnection(self.url, self.schema)
            try:
                holder.execute("SELECT pg_advisory_lock(7407)").fetchall()
                yield
            finally:
                holder.close()  # ends the session, which releases the lock
            return
        if self._warm is not None:
            self._warm.close()  # a writer with its own connection cannot share the warm one's lock
        depth = getattr(self._local, "depth", 0)
        if self._lock is None:  # read-only media: nothing can write here, so there is nothing to wait for
            yield
            return
        if depth == 0:
            try:
                self._lock.acquire()
            except Timeout as exc:
                raise StoreBusyError(
                    f"store {self.home} is locked by another process (waited {self.lock_timeout:.0f}s); "
                    "retry when it finishes or raise SCHOLARSTACK_LOCK_TIMEOUT"
                ) from exc
        self._local.depth = depth + 1
        try:
            yield
        finally:
            self._local.depth -= 1
            if self._local.depth == 0:
                self._lock.release()

    @contextmanager
    def connect(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A connection under the store lock; nested calls in one thread share it."""
        con = getattr(self._local, "con", None)
        if con is not None:
            yield con
            return
        if self._warm is not None:
            with self._warm.cursor() as con:
                self._local.con = con
                try:
                    yield con
                finally:
                    self._local.con = None
            return
        with self.exclusive() if self.url is None else nullcontext():
            con = self._open_read_only() if self.read_only and not self.url else self._open()
            self._local.con = con
            try:
                yield con
            finally:
                self._local.con = None
                con.close()

    def _open(self) -> duckdb.DuckDBPyConnection:
        if self.url is not None:
            import psycopg

            from .postgres import PgConnection

            try:
                return PgConnection(self.url, self.schema)
            except psycopg.Error as exc:
                raise StoreError(f"cannot open store {self.location}: {_one_line(exc)}") from exc
        try:
            return duckdb.connect(str(self.path))
        except duckdb.Error as exc:
            raise StoreError(f"cannot open store {self.path}: {_one_line(exc)}") from exc

    def _open_read_only(self) -> duckdb.DuckDBPyConnection:
        import time

        deadline = time.monotonic() + self.lock_timeout
        while True:
            try:
                return duckdb.connect(str(self.path), read_only=True)
            except duckdb.IOException as exc:  # unlocked reader (store.lock not ours to take): a writer's transaction, wait
                if "lock" not in str(exc).lower() or time.monotonic() > deadline:
                    raise StoreError(f"cannot open store {self.path}: {_one_line(exc)}") from exc
                time.sleep(0.1)
            except duckdb.Error as exc:
                raise StoreError(f"cannot open store {self.path}: {_one_line(exc)}") from exc

    @contextmanager
    def transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """All-or-nothing: an exception anywhere inside rolls the whole batch back."""
        with self.connect() as con:
            if getattr(self._local, "in_tx", False):
                yield con
                return
            sql(con, "BEGIN ISOLATION LEVEL SERIALIZABLE" if self.url else "BEGIN TRANSACTION")
            self._local.in_tx = True
            try:
                yield con
                sql(con, "COMMIT")
            except BaseException:
                sql(con, "ROLLBACK")
                raise
            finally:
                self._local.in_tx = False

    def write_attempts(self):
        """Attempts at a write transaction: `for attempt in store.write_attempts(): with attempt: ...`.
        One on DuckDB (the file lock already serialises writers); on PostgreSQL a transaction that
        lost a serialization or uniqueness conflict to a concurrent writer is run again, from its
        reads, a few times with jittered backoff, then a StoreBusyError."""
        from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_random_exponential

        if self.url is None or getattr(self._local, "in_tx", False):  # inside a transaction: the outer one retries
            return Retrying(stop=stop_after_attempt(1), reraise=True)
        from .postgres import RETRYABLE

        def busy(state):
            raise StoreBusyError(f"store {self.location}: a write lost {state.attempt_number} conflicts with concurrent "
                                 f"writers ({_one_line(state.outcome.exception())}); run it again") from state.outcome.exception()

        return Retrying(retry=retry_if_exception_type(RETRYABLE), stop=stop_after_attempt(8),
                        wait=wait_random_exponential(multiplier=0.05, max=2), retry_error_callback=busy)

    def query(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]:
        with self.connect() as con:
            return con.execute(sql, list(params)).fetchall()

    def query_dicts(self, sql: str, params: Iterable[Any] = ()) -> list[dict[str, Any]]:
        with self.connect() as con:
            cur = con.execute(sql, list(params))
            cols = [d[0] for d in cur.description]
            return [dict(zip(cols, row)) for row in cur.fetchall()]

    # -- bulk helpers ------------------------------------------------------------------------
    @staticmethod
    def insert_rows(con: duckdb.DuckDBPyConnection, table: str, columns: list[str], rows: list[tuple]) -> None:
        if not rows:
            return
        if hasattr(con, "copy_rows"):  # PostgreSQL: COPY
            con.copy_rows(table, columns, rows)
            return
        arrow = pa.table({c: [r[i] for r in rows] for i, c in enumerate(columns)})
        con.register("_bulk", arrow)
        try:
            sql(con, f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(columns)} FROM _bulk")
        finally:
            con.unregister("_bulk")

    @staticmethod
    def ids_in(con: duckdb.DuckDBPyConnection, column: str, name: str, ids: Iterable[str]) -> tuple[str, list[str]]:
        """`column IN (…)` for these ids, and its parameters. A short list is written out: DuckDB filters
        its scan with it, where a join with a registered table hashes the whole table, slowest on a
        fresh connection (80 ids among 145k objects: 326 ms once, 14 ms as a list). The papers' steps
        read this way several times a paper: 978 papers compiled in 787 s, 1,011 s before. From a
        few hundred ids a join is as fast, so a long list is joined as the registered table `name`."""
        ids = sorted(set(ids))
        if len(ids) <= SHORT_LIST:
            return (f"{column} IN ({marks(ids)})" if ids else "false"), ids
        Store.with_id_table(con, name, ids)
        return f"{column} IN (SELECT id FROM {name})", []

    @staticmethod
    def with_id_table(con: duckdb.DuckDBPyConnection, name: str, ids: Iterable[str]) -> None:
        """(Re)register a one-column arrow table of ids for joins; avoids giant IN lists."""
        Store.with_text_table(con, name, {"id": sorted(set(ids))})

    @staticmethod
    def with_text_table(con: duckdb.DuckDBPyConnection, name: str, columns: dict[str, list[str | None]]) -> None:
        """(Re)register an arrow table of text columns for joins and `UPDATE ... FROM` (one statement,
        not one a row)."""
        try:
            con.unregister(name)
        except Exception:  # not registered yet
            pass
        con.register(name, pa.table({c: pa.array(v, type=pa.string()) for c, v in columns.items()}))

    # -- reads used everywhere ---------------------------------------------------------------
    def json_text(self, column: str, *keys: str) -> str:
        """SQL for the text at `keys` in a JSON text column (the one spelling the engines do not share)."""
        if self.url:
            return f"({column}::jsonb #>> '{{{','.join(keys)}}}')"
        return f"json_extract_string({column}, '$.{'.'.join(keys)}')"

    def insert_events(self, con, rows: list[tuple]) -> None:
        """(ts, run_id, event, obj_id, version, detail) rows, numbered in order after every earlier event
        (on PostgreSQL from a sequence, so concurrent writers never read-modify-write a counter)."""
        if not rows:
            return
        if self.url:
            seqs = [r[0] for r in con.execute("SELECT nextval('event_seq') FROM generate_series(1, ?)", [len(rows)]).fetchall()]
        else:
            start = con.execute("SELECT coalesce(max(seq), 0) + 1 FROM events").fetchall()[0][0]
            seqs = range(start, start + len(rows))
        self.insert_rows(con, "events", ["seq", "ts", "run_id", "event", "obj_id", "version", "detail"],
                         [(seq, *r) for seq, r in zip(seqs, rows)])

    def add_rejections(self, rows: list[tuple[str, str | None, str, str, str, str]]) -> None:
        """(run_id, candidate_id, kind, reason, producer, data) rows, e.g. files that failed to parse."""
        from datetime import datetime, timezone

        now = datetime.now(timezone.utc)
        with self.transaction() as con:
            self.insert_rows(con, "rejections", ["ts", "run_id", "candidate_id", "kind", "reason", "producer", "data"],
                             [(now, *r) for r in rows])

    def generation(self) -> int:
        """The sequence number of the store's last event: it changes whenever anything is registered."""
        return int(self.query("SELECT coalesce(max(seq), 0) FROM events")[0][0])

    def record_event(self, event: str, obj_id: str, version: int | None, detail: str, run_id: str = "") -> None:
        """One event in an object's history that changes no object (e.g. a task reusing it)."""
        from datetime import datetime, timezone

        for attempt in self.write_attempts():
            with attempt, self.transaction() as con:
                self.insert_events(con, [(datetime.now(timezone.utc), run_id, event, obj_id, version, detail[:500])])

    def table_exists(self, schema: str, table: str, column: str | None = None) -> bool:
        """`schema` "main" is the store's own tables (on PostgreSQL its `s_<hash>` schema)."""
        if self.url and schema == "main":
            schema = self.schema
        if column is not None:
            return bool(self.query("SELECT 1 FROM information_schema.columns WHERE table_schema = ? AND table_name = ? "
                                   "AND column_name = ?", [schema, table, column]))
        return bool(self.query(
            "SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND table_name = ?", [schema, table]))
