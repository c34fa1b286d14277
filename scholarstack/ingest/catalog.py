"""Ingestion with dlt: parsed papers are loaded (merge on paper_id) into the store's `raw.papers`
table, which is also the catalog of partitions. A paper's version is the hash of its content, so
re-ingesting an unchanged file changes nothing and a changed file changes exactly one row.

Files that fail to parse are recorded in the store's `rejections` with the file and the reason;
the rest of the batch goes on. A paper's identity is its source (resolved path, corpus#id, API
url), not its bare file name: a second source whose name gives the same id is disambiguated
(`paper-<hash of source>`), never taken for a new version of the first. A load that a killed
ingest left pending is discarded before the next one, and what a load reports is read back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..models.common import stable_hash
from ..store import Store, StoreError, new_run_id
from .corpora import corpus_reader
from .parsers import ParseError, parse_file
from .records import PaperRecord, anthology_year, max_paper_chars, safe_paper_id



def discover(paths: Iterable[str | Path]) -> tuple[list[Path], list[tuple[str, str]]]:
    """Expand folders into the files they contain (hidden files aside), in a stable order.

    A symlink inside a folder is followed only when it stays inside that folder: a link out of it
    (to /etc/passwd, say) is refused and reported, never read.
    """
    out: list[Path] = []
    refused: list[tuple[str, str]] = []
    for p in map(Path, paths):
        if not p.is_dir():
            out.append(p)
            continue
        root = p.resolve()
        for f in sorted(p.rglob("*")):
            if f.name.startswith(".") or f.name == "README.md" or not f.is_file():
                continue
            target = f.resolve()
            if target != root and root not in target.parents:
                refused.append((str(f), f"{f}: a link that leaves the folder {p} (to {target}); not followed"))
                continue
            out.append(f)
    return out, refused


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
                 transport=None, paper_id: str | None = None) -> Iterator[PaperRecord | tuple[str, str]]:
    """Yield parsed records, or (source, reason) for what failed; never stops on one bad file.
    `paper_id` names the paper when exactly one file is given."""
    paths = list(paths)
    specs = [str(p) for p in paths if API_SPEC.match(str(p))]
    yield from fetch_api_records(specs, api_cache, transport)
    files, refused = discover(p for p in paths if str(p) not in specs)
    yield from refused
    for path in files:
        if path.name.endswith((".jsonl", ".jsonl.gz")):
            reader = corpus_reader(path)
            if reader is None:
                yield (str(path), f"{path}: not a known corpus format (expected ACL ScisummNet or SciFact JSONL)")
                continue
            try:
                for item in reader(path, limit):
                    yield item if isinstance(item, tuple) else checked_size(item)
            except (ValueError, KeyError, OSError) as exc:
                yield (str(path), f"{path}: cannot read corpus: {exc}")
            continue
        try:
            yield checked_size(parse_file(path, paper_id=paper_id if len(files) == 1 else None))
        except (ParseError, OSError, ValueError) as exc:
            yield (str(path), str(exc))


def checked_size(record: PaperRecord) -> PaperRecord | tuple[str, str]:
    """A paper is at most `SCHOLARSTACK_MAX_PAPER_CHARS` characters of text (default 3,000,000,
    a long book): past that it is refused with the reason, before it can flood L1."""
    limit = max_paper_chars()
    size = len(record.title) + sum(len(s.text) + sum(len(t) for _, t in s.sentences)
                                   for s in ([record.abstract] if record.abstract else []) + record.sections)
    if size > limit:
        return (record.source, f"{record.source}: {size:,} characters of text, over the limit of {limit:,} per paper "
                               "(set SCHOLARSTACK_MAX_PAPER_CHARS to raise it); not ingested")
    return record


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


def load_raw(store: Store, rows: list[dict[str, Any]]) -> int:
    """Merge rows into raw.papers with a dlt pipeline whose destination is the store's database.
    Returns the number of pending packages from an interrupted earlier ingest that were discarded."""
    if not rows:
        with store.exclusive():
            return discard_pending(_pipeline(store)) if (store.home / ".dlt").exists() else 0
    import dlt

    @dlt.resource(name="papers", write_disposition="merge", primary_key="paper_id",
                  columns={"record": {"data_type": "text"}, "content_hash": {"data_type": "text"}})
    def papers() -> Iterator[dict[str, Any]]:
        yield from rows

    from dlt.pipeline.exceptions import PipelineStepFailed

    with store.exclusive():  # dlt opens its own connection; keep other writers out meanwhile
        pipeline = _pipeline(store)
        discarded = discard_pending(pipeline)
        try:
            pipeline.run(papers())
        except PipelineStepFailed as exc:
            cause = exc.exception
            try:  # leave nothing half-loaded behind for the next run
                discard_pending(pipeline)
            except Exception:  # the next run's discard_pending retries it
                pass
            what = f"{cause.strerror}" if isinstance(cause, OSError) and cause.strerror else " ".join(str(cause).split())[:200]
            raise StoreError(f"loading {len(rows)} paper(s) into {store.location} failed at dlt's {exc.step} step: {what}; the ingest did not complete (run it again once that is fixed)") from exc
    return discarded


def _pipeline(store: Store):
    import dlt

    return dlt.pipeline(
        pipeline_name=f"scholarstack_{stable_hash(store.url or str(store.path.resolve()), 8)}",
        destination=dlt.destinations.postgres(store.url) if store.postgres else dlt.destinations.duckdb(str(store.path)),
        dataset_name=store.raw_schema,
        pipelines_dir=str(store.home / ".dlt"),
    )


def discard_pending(pipeline) -> int:
    """Drop load packages an interrupted ingest left behind (extracted or normalised, never
    reported as loaded), so the next run loads exactly its own rows. Returns how many."""
    if not pipeline.has_pending_data:
        return 0
    n = len(pipeline.list_extracted_load_packages()) + len(pipeline.list_normalized_load_packages())
    pipeline.abort_packages()  # also restores the pipeline state to before the aborted package
    if pipeline.has_pending_data:  # an aborted package completes on the next load(): finish it now
        pipeline.load()
    return max(n, 1)


def raw_hashes(store: Store) -> dict[str, str]:
    return {pid: h for pid, h, _ in store.raw_papers()}


def raw_record(store: Store, paper_id: str) -> PaperRecord:
    record = store.raw_record_json(paper_id)
    if record is None:
        raise LookupError(f"paper {paper_id!r} was never ingested into {store.home} (run `scholarstack ingest`)")
    return PaperRecord.model_validate_json(record)


def paper_years(store: Store, ids: list[str] | None = None) -> dict[str, int]:
    """Each ingested paper's (or each of `ids`') publication year: the record's, else the one its ACL
    Anthology id carries."""
    years = {pid: y if y is not None else anthology_year(pid) for pid, y in store.raw_years(ids)}
    return {pid: y for pid, y in years.items() if y is not None}


def raw_paper_ids(store: Store) -> list[str]:
    return [pid for pid, _, _ in store.raw_papers()]


def source_key(source: str) -> str:
    """A source as one identity: file paths resolved (so `a/p.md` and `./a/p.md` are one paper)."""
    path, sep, rest = source.partition("#")
    if path and "://" not in path and Path(path).exists():
        path = str(Path(path).resolve())
    return path + sep + rest


def raw_sources(store: Store) -> dict[str, str]:
    """paper_id → the source key it was ingested from."""
    return {pid: source_key(src) for pid, _, src in store.raw_papers()}


def disambiguated_id(paper_id: str, source: str) -> str:
    return f"{paper_id}-{stable_hash(source, 6)}"


def ingest_records(store: Store, items: Iterable[PaperRecord | tuple[str, str]], run_id: str | None = None,
                   explicit_id: bool = False) -> dict[str, Any]:
    """Load records into raw.papers. `explicit_id`: the caller named the paper (`ingest --id`), so a
    record whose id exists is a new version of that paper even from another source."""
    run_id = run_id or new_run_id()
    before = raw_hashes(store)
    sources = raw_sources(store)
    by_source = {src: pid for pid, src in sources.items()}
    rows, failed, renamed, warnings, seen = [], [], [], [], {}
    for item in items:
        if isinstance(item, tuple):
            failed.append({"source": item[0], "reason": item[1]})
            continue
        key = source_key(item.source)
        pid = item.paper_id if explicit_id else by_source.get(key, item.paper_id)  # the same source keeps its id
        if not explicit_id and pid == item.paper_id and ((pid in sources and sources[pid] != key) or (pid in seen and seen[pid] != key)):
            pid = disambiguated_id(item.paper_id, key)  # another source whose name gives the same id
            renamed.append({"source": item.source, "paper_id": pid,
                            "reason": f"{item.source}: id {item.paper_id!r} is taken by {sources.get(item.paper_id) or seen.get(item.paper_id)}; ingested as {pid!r}"})
        if pid in seen:
            failed.append({"source": item.source, "reason": f"{item.source}: duplicate paper id {pid} in this batch"})
            continue
        if pid != item.paper_id:
            item = item.model_copy(update={"paper_id": pid})
        seen[pid] = key
        warnings += [{"source": item.source, "paper_id": pid, "reason": w} for w in item.warnings]
        rows.append(raw_row(item))
    changed_rows = [r for r in rows if before.get(r["paper_id"]) != r["content_hash"]]
    discarded = load_raw(store, changed_rows)
    after = raw_hashes(store)
    lost = [r["paper_id"] for r in changed_rows if after.get(r["paper_id"]) != r["content_hash"]]
    if lost:  # report what was really loaded, never what was meant to be
        raise RuntimeError(f"the load into {store.location} finished but {len(lost)} paper(s) are not there ({', '.join(lost[:5])}); "
                           "run the ingest again")
    notes = [(run_id, f["source"], "source", f["reason"], "ingest", json.dumps(f)) for f in failed]
    notes += [(run_id, w["paper_id"], "source_warning", w["reason"], "ingest", json.dumps(w)) for w in renamed + warnings]
    if notes:
        store.add_rejections(notes)
    return {
        "run_id": run_id,
        "loaded": len(rows),
        "new": sum(1 for r in rows if r["paper_id"] not in before),
        "changed": sum(1 for r in changed_rows if r["paper_id"] in before),
        "unchanged": len(rows) - len(changed_rows),
        "paper_ids": [r["paper_id"] for r in rows],
        "changed_ids": [r["paper_id"] for r in changed_rows],
        "failed": failed,
        "renamed": renamed,
        "warnings": warnings,
        "discarded_pending_loads": discarded,
    }


def ingest_paths(store: Store, paths: Iterable[str | Path], limit: int | None = None, transport=None,
                 paper_id: str | None = None) -> dict[str, Any]:
    """Files, folders, corpus files and API ids (`arxiv:…`, `openalex:…`, `s2:…`)."""
    paths = list(paths)
    missing = [str(p) for p in paths if not API_SPEC.match(str(p)) and not Path(p).exists()]
    if missing:
        raise FileNotFoundError(f"no such file or folder: {', '.join(missing)}")
    if paper_id is not None and (len(paths) != 1 or not Path(paths[0]).is_file() or str(paths[0]).endswith((".jsonl", ".jsonl.gz"))):
        raise ValueError("--id names one paper: give exactly one paper file with it")
    return ingest_records(store, iter_records(paths, limit, store.home / "api_cache", transport,
                                              paper_id=safe_paper_id(paper_id) if paper_id else None),
                          explicit_id=paper_id is not None)
