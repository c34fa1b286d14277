"""The store's tables and the column order rows are written in (one place for both backends to read)."""

RAW_SCHEMA = "raw"  # where dlt loads ingested paper records (`raw.papers`)

SCHEMA = """
CREATE SEQUENCE IF NOT EXISTS event_seq START 1;
CREATE TABLE IF NOT EXISTS objects (
    id VARCHAR, kind VARCHAR, layer VARCHAR, version INTEGER, lifecycle VARCHAR,
    verification VARCHAR, verification_note VARCHAR, content_hash VARCHAR, paper_id VARCHAR,
    label VARCHAR, task VARCHAR, recheck_cause VARCHAR, run_id VARCHAR, updated_at TIMESTAMP,
    data VARCHAR
);
CREATE TABLE IF NOT EXISTS object_versions (
    id VARCHAR, version INTEGER, kind VARCHAR, lifecycle VARCHAR, verification VARCHAR,
    content_hash VARCHAR, run_id VARCHAR, created_at TIMESTAMP, data VARCHAR
);
CREATE TABLE IF NOT EXISTS refs (src_id VARCHAR, dst_id VARCHAR, role VARCHAR);
CREATE TABLE IF NOT EXISTS evidence (obj_id VARCHAR, locator VARCHAR);
CREATE TABLE IF NOT EXISTS sentences (
    locator VARCHAR, paper_id VARCHAR, sid INTEGER, paper_version INTEGER, section VARCHAR,
    start_char INTEGER, end_char INTEGER, text VARCHAR, is_current BOOLEAN
);
CREATE TABLE IF NOT EXISTS events (
    seq BIGINT, ts TIMESTAMP, run_id VARCHAR, event VARCHAR, obj_id VARCHAR, version INTEGER,
    detail VARCHAR
);
CREATE TABLE IF NOT EXISTS rejections (
    ts TIMESTAMP, run_id VARCHAR, kind VARCHAR, candidate_id VARCHAR, reason VARCHAR,
    producer VARCHAR, data VARCHAR
);
CREATE TABLE IF NOT EXISTS citation_contexts (context_id VARCHAR, cited_id VARCHAR, citing_id VARCHAR, text VARCHAR);
ALTER TABLE sentences ADD COLUMN IF NOT EXISTS kind VARCHAR DEFAULT 'prose';
ALTER TABLE objects ADD COLUMN IF NOT EXISTS evidence_hash VARCHAR;
ALTER TABLE object_versions ADD COLUMN IF NOT EXISTS evidence_texts VARCHAR;
CREATE INDEX IF NOT EXISTS objects_id ON objects (id);
CREATE INDEX IF NOT EXISTS sentences_locator ON sentences (locator);
"""

# The last column SCHEMA adds: where it exists, the whole SCHEMA ran (it runs in one transaction), so
# a store opening need not run it again. Move this when SCHEMA gains a later column.
NEWEST_COLUMN = ("object_versions", "evidence_texts")

OBJECT_COLUMNS = [
    "id", "kind", "layer", "version", "lifecycle", "verification", "verification_note",
    "content_hash", "paper_id", "label", "task", "recheck_cause", "run_id", "updated_at", "data", "evidence_hash",
]
VERSION_COLUMNS = [
    "id", "version", "kind", "lifecycle", "verification", "content_hash", "run_id", "created_at", "data", "evidence_texts",
]
SENTENCE_COLUMNS = [
    "locator", "paper_id", "sid", "paper_version", "section", "start_char", "end_char", "text", "is_current", "kind",
]


def marks(values) -> str:
    """`?, ?, ?`: one placeholder per value, for an `IN (...)` list."""
    return ", ".join("?" * len(values))


def md5_within(column: str, buckets: tuple[int, int] | None) -> tuple[str, list[str]]:
    """(` AND ...`, its parameters): rows whose `column`'s bucket, its md5's first 8 hex digits read
    as a number (`index.vectors.bucket`), is in [lo, hi); nothing when `buckets` is None. md5 is
    the one hash DuckDB and PostgreSQL compute alike (lower-case hex), so the range is compared as
    8-digit hex text."""
    if buckets is None:
        return "", []
    lo, hi = buckets
    prefix = f"substr(md5({column}), 1, 8)"
    if hi >= 16 ** 8:  # the last range: "100000000" would sort below every prefix
        return f" AND {prefix} >= ?", [f"{lo:08x}"]
    return f" AND {prefix} >= ? AND {prefix} < ?", [f"{lo:08x}", f"{hi:08x}"]
