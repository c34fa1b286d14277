"""View latency benchmark (not a test): `retrieve` (and `retrieve` + `expand`) on a compiled store,
opening the store per call (as the CLI does) and with a warm connection (as the MCP server keeps),
one call after another and from several threads at once.

The requests are citing sentences from ACL ScisummNet's `citances_dev.jsonl`; the first call
builds the lexical index and is reported apart. Run it on a store compiled from the ACL corpus
(`scholarstack ingest ../shared/data/acl_scisummnet/papers.jsonl.gz && scholarstack compile`):

    .venv/bin/python -m benchmarks.view_latency --store DIR [--n 100] [--threads 4] [--out bench_out]
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from scholarstack.settings import shared_data_dir


def _ms(times: list[float], q: float) -> float:
    return round(float(np.percentile(times, q)) * 1000, 1)


def main() -> None:
    from scholarstack.store import Store
    from scholarstack.views.views import expand, open_kb, retrieve

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", required=True, help="a compiled store directory")
    ap.add_argument("--n", type=int, default=100, help="requests")
    ap.add_argument("--threads", type=int, default=4, help="concurrent callers in the concurrency run")
    ap.add_argument("--out", default="bench_out")
    args = ap.parse_args()
    store = Store(args.store)
    papers = store.status()["papers_with_sentences"]
    lines = (shared_data_dir() / "acl_scisummnet" / "citances_dev.jsonl").read_text().splitlines()
    queries = [json.loads(line)["query"] for line in lines[: args.n + 1]]
    kb = open_kb(store)
    started = time.perf_counter()
    retrieve(kb, queries[0])
    first = time.perf_counter() - started

    def timed(fn) -> list[float]:
        out = []
        for q in queries[1:]:
            t = time.perf_counter()
            fn(q)
            out.append(time.perf_counter() - t)
        return out

    cold = timed(lambda q: retrieve(kb, q))  # each call opens the store (the CLI's case)
    store.keep_warm()  # the MCP server's case: one connection kept between calls
    plain = timed(lambda q: retrieve(kb, q))
    expanded = timed(lambda q: expand(kb, retrieve(kb, q), ("evidence",)))
    started = time.perf_counter()
    with ThreadPoolExecutor(args.threads) as pool:
        list(pool.map(lambda q: retrieve(kb, q), queries[1:]))
    concurrent_wall = time.perf_counter() - started
    result = {"store": str(store.home), "papers": papers, "requests": len(queries) - 1, "dense_index": kb.index is not None,
              "first_call_s": round(first, 2),
              "retrieve_opening_store_p50_ms": _ms(cold, 50), "retrieve_opening_store_p95_ms": _ms(cold, 95),
              "retrieve_p50_ms": _ms(plain, 50), "retrieve_p95_ms": _ms(plain, 95),
              "retrieve_expand_p50_ms": _ms(expanded, 50), "retrieve_expand_p95_ms": _ms(expanded, 95),
              "threads": args.threads, "concurrent_wall_s": round(concurrent_wall, 2), "sequential_wall_s": round(sum(plain), 2),
              "target_p50_ms": 50}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "view_latency.json").write_text(json.dumps(result, indent=2))
    print("| measure | value |\n|---|---|")
    for k, v in result.items():
        print(f"| {k} | {v} |")


if __name__ == "__main__":
    main()
