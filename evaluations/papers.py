"""A benchmark's papers in the store: items spread over a file, papers compiled by the core's
`compile_papers` (no Dagster run: benchmarks run inside one) or a compiler the caller hands in,
the embedder by name."""

from __future__ import annotations

import sys
from typing import Any, Protocol

from scholarstack.ingest.catalog import ingest_records, raw_paper_ids
from scholarstack.ingest.records import PaperRecord
from scholarstack.store import Store


def spread(items: list, limit: int | None) -> list:
    if not limit or limit >= len(items):
        return items
    step = len(items) / limit
    return [items[int(i * step)] for i in range(limit)]


class Compiler(Protocol):
    """Another way to compile a benchmark's papers, e.g. the orchestration's in-process run
    (`compile_store`), handed in by a caller that is not itself a Dagster run."""

    def __call__(self, store_home: str, *, backend: str, papers: list[str], progress: bool, index: bool) -> dict[str, Any]: ...


def compile_records(store: Store, records: list[PaperRecord], compiler: Compiler | None, progress: bool = False,
                    force: bool = False) -> None:
    """Ingest and compile (offline, no vector index) whatever of `records` the store lacks; `force`:
    all of them again (a changed record is a revision of its paper)."""
    have = set(raw_paper_ids(store))
    todo = [r for r in records if force or r.paper_id not in have]
    if todo:
        ingest_records(store, todo)
        ids = [r.paper_id for r in todo]
        if compiler is None:
            from expectations.suites import ge_validator
            from scholarstack.compile import compile_papers
            from scholarstack.store import new_run_id

            summary = compile_papers(store, ids, new_run_id(), validator=ge_validator, progress=progress)
            problems = summary["failed"]
            for warning in summary["warnings"]:
                print(f"warning: {warning}", file=sys.stderr)
        else:
            summary = compiler(str(store.home), backend="offline", papers=ids, progress=progress, index=False)
            problems = summary["lines"]
        if not summary["ok"]:
            raise RuntimeError("compiling the benchmark's papers failed:\n" + "\n".join(problems))


def embedder_for(name: str, store: Store):
    from scholarstack.index.embed import make_embedder

    return make_embedder(name, store.home)
