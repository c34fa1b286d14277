"""A benchmark's papers in the store: items spread over a file, papers compiled through the
compiler its caller hands in, the embedder by name."""

from __future__ import annotations

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
    """How a benchmark gets its papers compiled: the orchestration's in-process run (`compile_store`),
    handed in by whoever runs the benchmark, so evaluations never import the orchestration."""

    def __call__(self, store_home: str, *, backend: str, papers: list[str], progress: bool, index: bool) -> dict[str, Any]: ...


def compile_records(store: Store, records: list[PaperRecord], compiler: Compiler | None, progress: bool = False,
                    force: bool = False) -> None:
    """Ingest and compile (offline, no vector index) whatever of `records` the store lacks; `force`:
    all of them again (a changed record is a revision of its paper)."""
    have = set(raw_paper_ids(store))
    todo = [r for r in records if force or r.paper_id not in have]
    if todo:
        if compiler is None:
            raise ValueError(f"{len(todo)} of the benchmark's papers are not in {store.home} and no compiler was given "
                             "(pass compiler=orchestration.run.compile_store)")
        ingest_records(store, todo)
        summary = compiler(str(store.home), backend="offline", papers=[r.paper_id for r in todo], progress=progress, index=False)
        if not summary["ok"]:
            raise RuntimeError("compiling the benchmark's papers failed:\n" + "\n".join(summary["lines"]))


def embedder_for(name: str, store: Store):
    from scholarstack.index.embed import make_embedder

    return make_embedder(name, store.home)
