"""Ingestion with dlt: parsed papers are loaded (merge on paper_id) into the store's `raw.papers`
table, which is also the catalog of partitions. A paper's version is the hash of its content, so
re-ingesting an unchanged file changes nothing and a changed file changes exactly one row.

Files that fail to parse are recorded in the store's `rejections` with the file and the reason;
the rest of the batch goes on.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..models.common import stable_hash
from ..store import Store, new_run_id
from .corpora import corpus_reader
from .parsers import ParseError, parse_file
from .records import PaperRecord

RAW_SCHEMA = "raw"


def discover(paths: Iterable[str | Path]) -> list[Path]:
    """Expand folders into the files they contain (hidden files aside), in a stable order."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(f for f in p.rglob("*") if f.is_file() and not f.name.startswith(".") and f.name != "README.md"))
        else:
            out.append(p)
    return out


API_SPEC = re.compile(r"^(arxiv|openalex|s2):(.+)$")


def fetch_api_records(specs: list[str], cache_dir: Path | None = None, transport=None) -> list[PaperRecord | tuple[str, str]]:
    """`arxiv:ID`, `openalex:ID`, `s2:ID` → records from the scholarly APIs (cached on disk)."""
    import asyncio

    from ..scholarly.http import ProviderError
    from ..scholarly.providers import make_provider

    async def one(spec: str) -> PaperRecord | tuple[str, str]:
        name, pid = API_SPEC.match(spec).groups()
        try:
            meta = await make_provider(name, cache_dir, transport).get(pid)
        except ProviderError as exc:
            return (spec, str(exc))
        if not meta.title and not meta.abstract:
            return (spec, f"{spec}: the provider returned no title or abstract")
        return meta.to_record()

    async def run() -> list:
        return list(await asyncio.gather(*(one(s) for s in specs)))

    return asyncio.run(run()) if specs else []


def iter_records(paths: Iterable[str | Path], limit: int | None = None, api_cache: Path | None = None,
                 transport=None) -> Iterator[PaperRecord | tuple[str, str]]:
    """Yield parsed records, or (source, reason) for what failed; never stops on one bad file."""
    paths = list(paths)
    specs = [str(p) for p in paths if API_SPEC.match(str(p))]
    yield from fetch_api_records(specs, api_cache, transport)
    for path in discover(p for p in paths if str(p) not in specs):
        if path.name.endswith((".jsonl", ".jsonl.gz")):
            reader = corpus_reader(path)
            if reader is None:
                yield (str(path), f"{path}: not a known corpus format (expected ACL ScisummNet or SciFact JSONL)")
                continue
            try:
                yield from reader(path, limit)
            except (ValueError, KeyError, OSError) as exc:
                yield (str(path), f"{path}: cannot read corpus: {exc}")
            continue
        try:
            yield parse_file(path)
        except (ParseError, OSError, ValueError) as exc:
            yield (str(path), str(exc))


def raw_row(record: PaperRecord) -> dict[str, Any]:
    return {
        "paper_id": record.paper_id,
        "title": record.title,
        "source_format": record.source_format,
        "source": record.source,
        "content_hash": record.content_hash(),
        "record": record.model_dump_json(),
        "ingested_at": datetime.now(timezone.utc),
    }


def load_raw(store: Store, rows: list[dict[str, Any]]) -> None:
    """Merge rows into raw.papers with a dlt pipeline whose destination is the store's DuckDB file."""
    if not rows:
        return
    import dlt

    @dlt.resource(name="papers", write_disposition="merge", primary_key="paper_id",
                  columns={"record": {"data_type": "text"}, "content_hash": {"data_type": "text"}})
    def papers() -> Iterator[dict[str, Any]]:
        yield from rows

    pipeline = dlt.pipeline(
        pipeline_name=f"scholarstack_{stable_hash(str(store.path.resolve()), 8)}",
        destination=dlt.destinations.duckdb(str(store.path)),
        dataset_name=RAW_SCHEMA,
        pipelines_dir=str(store.home / ".dlt"),
    )
    with store.exclusive():  # dlt opens its own connection; keep other writers out meanwhile
        pipeline.run(papers())


def raw_hashes(store: Store) -> dict[str, str]:
    if not store.table_exists(RAW_SCHEMA, "papers"):
        return {}
    return dict(store.query(f"SELECT paper_id, content_hash FROM {RAW_SCHEMA}.papers"))


def raw_record(store: Store, paper_id: str) -> PaperRecord:
    rows = store.query(f"SELECT record FROM {RAW_SCHEMA}.papers WHERE paper_id = ?", [paper_id]) if store.table_exists(RAW_SCHEMA, "papers") else []
    if not rows:
        raise LookupError(f"paper {paper_id!r} was never ingested into {store.home} (run `scholarstack ingest`)")
    return PaperRecord.model_validate_json(rows[0][0])


def raw_paper_ids(store: Store) -> list[str]:
    if not store.table_exists(RAW_SCHEMA, "papers"):
        return []
    return [r[0] for r in store.query(f"SELECT paper_id FROM {RAW_SCHEMA}.papers ORDER BY paper_id")]


def ingest_records(store: Store, items: Iterable[PaperRecord | tuple[str, str]], run_id: str | None = None) -> dict[str, Any]:
    run_id = run_id or new_run_id()
    before = raw_hashes(store)
    rows, failed, seen = [], [], set()
    for item in items:
        if isinstance(item, tuple):
            failed.append({"source": item[0], "reason": item[1]})
            continue
        if item.paper_id in seen:  # the same paper in another format: keep both, told apart
            item = item.model_copy(update={"paper_id": f"{item.paper_id}-{item.source_format}"})
        if item.paper_id in seen:
            failed.append({"source": item.source, "reason": f"duplicate paper id {item.paper_id} in this batch"})
            continue
        seen.add(item.paper_id)
        rows.append(raw_row(item))
    changed_rows = [r for r in rows if before.get(r["paper_id"]) != r["content_hash"]]
    load_raw(store, changed_rows)
    if failed:
        store.add_rejections([(run_id, f["source"], "source", f["reason"], "ingest", json.dumps(f)) for f in failed])
    return {
        "run_id": run_id,
        "loaded": len(rows),
        "new": sum(1 for r in rows if r["paper_id"] not in before),
        "changed": sum(1 for r in changed_rows if r["paper_id"] in before),
        "unchanged": len(rows) - len(changed_rows),
        "paper_ids": [r["paper_id"] for r in rows],
        "changed_ids": [r["paper_id"] for r in changed_rows],
        "failed": failed,
    }


def ingest_paths(store: Store, paths: Iterable[str | Path], limit: int | None = None, transport=None) -> dict[str, Any]:
    """Files, folders, corpus files and API ids (`arxiv:…`, `openalex:…`, `s2:…`)."""
    paths = list(paths)
    missing = [str(p) for p in paths if not API_SPEC.match(str(p)) and not Path(p).exists()]
    if missing:
        raise FileNotFoundError(f"no such file or folder: {', '.join(missing)}")
    return ingest_records(store, iter_records(paths, limit, store.home / "api_cache", transport))
