"""Compile benchmark (not a test): 10, 100 and all 978 ACL ScisummNet papers, offline backend.

Each size and store configuration runs in its own process (so peak memory is that run's): ingest,
full compile through L3 and the recheck, then two one-paper updates (one sentence of one paper
edited, re-ingested, its partition recompiled, L2/L3/recheck rerun) against the full compile: one
that changes no fact (L2 and L3 stand) and one that changes a fact (they rebuild).
Configurations: `duckdb` (the embedded default), `postgres` (a throwaway local server) and
`postgres:N` (N worker processes compiling papers). `--index` compiles as `scholarstack compile` does by
default, the vector index included, and so do the updates.

    .venv/bin/python -m benchmarks.compile_bench [--sizes 10 100 978] [--stores duckdb postgres postgres:2] [--index] [--out bench_out]
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scholarstack.settings import settings, shared_data_dir


def one(n: int, index: bool = False, url: str | None = None, workers: int = 1) -> dict:
    from orchestration.run import compile_store
    from scholarstack.ingest.catalog import ingest_paths, raw_record
    from scholarstack.store import Store

    home = Path(tempfile.mkdtemp(prefix=f"compile-bench-{n}-"))
    store = Store(home, url=url)
    t0 = time.perf_counter()
    rep = ingest_paths(store, [shared_data_dir() / "acl_scisummnet" / "papers.jsonl.gz"], limit=n)
    t_ingest = time.perf_counter() - t0
    t0 = time.perf_counter()
    # `index`: the compile a user runs by default, the vector index (MiniLM) included, and so are the updates.
    full = compile_store(str(home), progress=False, index=index, workers=workers)
    t_full = time.perf_counter() - t0
    assert full["ok"], full["lines"]
    st = store.status()
    # One-paper updates, each in a fresh process as a nightly refresh would run it (this one's caches
    # are warm): one sentence of the first paper that has sections edited, re-ingested, recompiled;
    # first a sentence no fact cites (L2 and L3 stand), then one a fact cites (they rebuild).
    pid = next(p for p in rep["paper_ids"] if raw_record(store, p).sections)
    with_index = ["--index"] if index else []
    t_same, _, _ = _in_a_process(["--update", str(home), pid, "uncited", *with_index], "the one-paper update (no fact changed)")
    t_update, rechecked, l1 = _in_a_process(["--update", str(home), pid, "cited", *with_index], "the one-paper update")
    out = {
        "papers": n, "index": index, "ingest_seconds": round(t_ingest, 1), "compile_seconds": round(t_full, 1),
        "papers_per_minute": round(n / t_full * 60, 1),
        "facts": st["layers"]["L1"]["fact"]["total"], "entities": st["layers"]["L2"]["entity"]["total"],
        "relations": st["layers"].get("L2", {}).get("relation", {}).get("total", 0),
        "syntheses": st["layers"].get("L3", {}).get("synthesis", {}).get("total", 0),
        "sentences": st["sentences"],
        "update_one_paper_seconds": round(t_update, 1), "update_vs_full": round(t_update / t_full, 3),
        "update_facts": l1, "update_rechecked": rechecked,
        "update_no_fact_changed_seconds": round(t_same, 1), "update_no_fact_changed_vs_full": round(t_same / t_full, 3),
        "peak_rss_mb": round(max(resource.getrusage(w).ru_maxrss for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024),
    }
    choice = settings().index_sentences
    out["embedded_sentences"] = len(store.prose_sentences(front_only=choice == "front"))  # what the index embeds
    if index:
        ix = full["vector_index"]
        out |= {"index_embedder": ix.get("embedder"), "index_sentences": choice, "index_vectors": ix.get("total"),
                "index_seconds": ix.get("seconds")}
    shutil.rmtree(home, ignore_errors=True)
    return out


def _in_a_process(argv: list[str], what: str):
    """This module run with `argv` in a fresh process: the JSON it prints after RESULT."""
    proc = subprocess.run([sys.executable, "-m", "benchmarks.compile_bench", *argv], capture_output=True, text=True)
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")), None)
    if line is None:
        print(proc.stderr[-2000:], file=sys.stderr)
        raise SystemExit(f"{what} failed")
    return json.loads(line[7:])


def edit_paper(store, pid: str, fact_changes: bool = True):
    """`pid`'s record with one sentence edited: the evidence sentence of one of its facts (so L1,
    and what builds on it, change), or, with `fact_changes=False`, a sentence no fact cites."""
    from scholarstack.ingest.catalog import raw_record

    rec = raw_record(store, pid)
    cited = {int(loc.rsplit(":", 1)[1]) for r in store.objects("fact", paper_id=pid) for loc in r["data"]["evidence"]}
    for section in rec.sections:
        for i, (sid, text) in enumerate(section.sentences):
            if (sid in cited) == fact_changes and len(text) > 40:
                section.sentences[i] = (sid, text.replace(" ", " also ", 1) if fact_changes else text + " This sentence was revised.")
                return rec
    raise ValueError(f"{pid} has no sentence to edit ({'cited' if fact_changes else 'uncited'})")


def update(home: str, pid: str, fact_changes: bool = True, index: bool = False) -> tuple[float, int, dict]:
    """Edit one sentence of `pid`, re-ingest it and recompile its partition, L2, L3, the recheck (and the index):
    (seconds, objects rechecked, L1 figures)."""
    from orchestration.run import compile_store
    from scholarstack.ingest.catalog import ingest_records
    from scholarstack.store import Store

    store = Store(home)
    rec = edit_paper(store, pid, fact_changes)
    t0 = time.perf_counter()
    ingest_records(store, [rec])
    part = compile_store(home, papers=[pid], progress=False, index=index)
    assert part["ok"], part["lines"]
    l1 = {k: part["l1_facts"].get(k, 0) for k in ("new", "revised", "reused", "withdrawn")}
    return time.perf_counter() - t0, part["store_recheck"].get("rechecked", 0), l1


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", nargs="*", type=int, default=[10, 100, 978])
    ap.add_argument("--stores", nargs="*", default=["duckdb"], help="duckdb, postgres, postgres:N (N workers)")
    ap.add_argument("--one", type=int, default=None)
    ap.add_argument("--url", default=None)
    ap.add_argument("--update", nargs=3, metavar=("HOME", "PAPER", "SENTENCE"), help=argparse.SUPPRESS)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", default="bench_out")
    ap.add_argument("--index", action="store_true", help="compile with the vector index, as `scholarstack compile` does by default "
                    "(encoder: SCHOLARSTACK_EMBEDDER, MiniLM or static; sentences: SCHOLARSTACK_INDEX_SENTENCES), updates included")
    args = ap.parse_args()
    if args.update:
        home, pid, sentence = args.update
        print("RESULT " + json.dumps(update(home, pid, fact_changes=sentence == "cited", index=args.index)))
        return
    if args.one is not None:
        print("RESULT " + json.dumps(one(args.one, args.index, args.url, args.workers)))
        return
    rows = []
    server = None
    try:
        for n in args.sizes:
            for k, config in enumerate(args.stores):
                engine, _, workers = config.partition(":")
                extra = ["--workers", workers or "1"]
                if engine == "postgres":
                    if server is None:
                        from scholarstack.store.local_postgres import start_local_postgres

                        server = start_local_postgres()
                    extra += ["--url", server.create_database(f"bench_{n}_{k}")]
                result = _in_a_process(["--one", str(n), *extra] + (["--index"] if args.index else []), f"size {n} ({config})")
                rows.append({"store": config} | result)
                print(f"done {n} ({config}): {rows[-1]}", file=sys.stderr)
    finally:
        if server is not None:
            server.stop()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "compile_bench.json").write_text(json.dumps(rows, indent=2))
    keys = list(rows[0])
    print("| " + " | ".join(keys) + " |\n|" + "---|" * len(keys))
    for r in rows:
        print("| " + " | ".join(str(r[k]) for k in keys) + " |")


if __name__ == "__main__":
    main()
