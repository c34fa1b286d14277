"""The store on PostgreSQL (psycopg 3): a connection with the few methods the store's SQL uses on a
DuckDB connection (`execute` with `?` parameters, `register` of an arrow table for joins, bulk
inserts), so `Store`, the registry and the reads run one SQL text on both engines.

Writers in several processes do not take a file lock here: a write transaction runs SERIALIZABLE,
objects and their versions are unique by constraint, and the registry retries a transaction that
lost a conflict (`RETRYABLE`), so two writers of overlapping batches neither lose nor duplicate.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import psycopg
from psycopg import errors as pg_errors

# Constraints PostgreSQL enforces at commit (DuckDB's eager checks would break delete-then-insert).
CONSTRAINTS = """
CREATE UNIQUE INDEX IF NOT EXISTS objects_unique ON objects (id);
CREATE UNIQUE INDEX IF NOT EXISTS object_versions_unique ON object_versions (id, version);
CREATE UNIQUE INDEX IF NOT EXISTS events_unique ON events (seq);
CREATE INDEX IF NOT EXISTS refs_dst ON refs (dst_id);
CREATE INDEX IF NOT EXISTS refs_src ON refs (src_id);
CREATE INDEX IF NOT EXISTS evidence_obj ON evidence (obj_id);
CREATE INDEX IF NOT EXISTS sentences_paper ON sentences (paper_id);
"""

RETRYABLE = (pg_errors.SerializationFailure, pg_errors.DeadlockDetected, pg_errors.UniqueViolation)

_PG_TYPES = {pa.string(): "text", pa.large_string(): "text", pa.int64(): "bigint", pa.int32(): "integer",
             pa.bool_(): "boolean", pa.float64(): "double precision", pa.null(): "text"}


def _pg_type(t: pa.DataType) -> str:
    if pa.types.is_timestamp(t):
        return "timestamptz"
    return _PG_TYPES.get(t, "text")


def _translate(statement: str) -> str:
    """DuckDB's `?` placeholders as psycopg's `%s` (a literal % doubled first). The store's SQL has
    no `?` inside string literals."""
    return statement.replace("%", "%%").replace("?", "%s")


class _Cursor:
    def __init__(self, cur: psycopg.Cursor):
        self.cur = cur

    @property
    def description(self):
        return self.cur.description

    def fetchall(self) -> list[tuple]:
        return self.cur.fetchall() if self.cur.description is not None else []

    def fetchone(self):
        return self.cur.fetchone() if self.cur.description is not None else None


class PgConnection:
    """One psycopg connection in autocommit mode (the store issues BEGIN/COMMIT itself), its search
    path the store's schema."""

    def __init__(self, url: str, schema: str):
        # (A read-only store creates no tables; its connection is not a read-only one, since joins
        # over id sets use temporary tables.)
        self.con = psycopg.connect(url, autocommit=True, options=f"-c timezone=UTC -c search_path={schema}")
        self.registered: set[str] = set()

    def execute(self, statement: str, params: list[Any] | None = None) -> _Cursor:
        cur = self.con.cursor()
        if params:
            cur.execute(_translate(statement), params)
        else:  # without parameters psycopg sends the text as it is: nothing to translate
            cur.execute(statement)
        return _Cursor(cur)

    def cursor(self) -> PgConnection:
        return self

    def register(self, name: str, table: pa.Table) -> None:
        """A temporary table with the arrow table's rows, for joins (as DuckDB registers one)."""
        self.unregister(name)
        cols = ", ".join(f"{c} {_pg_type(t)}" for c, t in zip(table.column_names, table.schema.types))
        self.con.execute(f"CREATE TEMP TABLE {name} ({cols})")
        self.registered.add(name)
        self.copy_rows(name, table.column_names, list(zip(*(table.column(c).to_pylist() for c in table.column_names))))

    def unregister(self, name: str) -> None:
        if name in self.registered:
            self.con.execute(f"DROP TABLE IF EXISTS {name}")
            self.registered.discard(name)

    def copy_rows(self, table: str, columns: list[str], rows: list[tuple]) -> None:
        with self.con.cursor().copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)

    def close(self) -> None:
        self.con.close()


def dagster_storage_yaml(url: str, schema: str) -> str:
    """dagster.yaml's storage section for Dagster's runs, events and schedules in this database,
    in `schema` (created here: Dagster creates its tables but not the schema)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as con:
        con.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
    sep = "&" if "?" in url else "?"
    driver = "postgresql+psycopg2://" + url.split("://", 1)[1]  # dagster-postgres binds NOTIFY's payload as psycopg2 does
    return f'storage:\n  postgres:\n    postgres_url: "{driver}{sep}options=-csearch_path%3D{schema}"\n'


def redacted(url: str) -> str:
    """The URL without its password, for messages."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password:
        host = parts.hostname + (f":{parts.port}" if parts.port else "")
        parts = parts._replace(netloc=f"{parts.username}:***@{host}")
    return urlunsplit(parts)
