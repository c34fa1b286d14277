"""Vector benchmark (not a test): the embedded index, Qdrant Edge, at 200k × 384 vectors.

Reports upsert time, reopening time (another process's first query), query latency p50/p95 with
and without a payload filter, against a plain numpy matrix product over memory-mapped float32
(what the hand-written segment store it replaced did); with `--hnsw`, the time to build HNSW
(`optimize`) and its recall@10 against exact search and latency for each search width `ef`. The vectors are a Gaussian mixture
(200 centres, unit-normalised), so neighbours cluster as embeddings of real text do.

    .venv/bin/python -m benchmarks.vector_bench [--n 200000] [--queries 200] [--hnsw] [--store DIR] [--out bench_out]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np

from scholarstack.index import vectors
from scholarstack.index.vectors import EdgeIndex

DIM = 384
EF_SWEEP = (10, 32, 64, 128, 256, 512)  # 10 searches as with no setting at k = 10


def mixture(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((200, DIM)).astype(np.float32)
    x = centres[rng.integers(0, 200, n)] + 0.6 * rng.standard_normal((n, DIM)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def percentiles(ms: list[float]) -> dict[str, float]:
    return {"p50_ms": round(float(np.percentile(ms, 50)), 2), "p95_ms": round(float(np.percentile(ms, 95)), 2)}


def timed(fn, queries: np.ndarray) -> tuple[list, dict[str, float]]:
    out, ms = [], []
    for q in queries:
        t0 = time.perf_counter()
        out.append(fn(q))
        ms.append((time.perf_counter() - t0) * 1000)
    return out, percentiles(ms)


def sentence_vectors(store_dir: str, n: int, n_queries: int) -> tuple[np.ndarray, np.ndarray]:
    """MiniLM vectors of a store's current sentences: `n` to index, `n_queries` others as queries."""
    from scholarstack.index.embed import MiniLMEmbedder
    from scholarstack.store import Store

    texts = [t for (t,) in Store(store_dir).query("SELECT text FROM sentences WHERE is_current ORDER BY locator LIMIT ?", [n + n_queries])]
    if len(texts) < n + n_queries:
        raise SystemExit(f"{store_dir} has {len(texts)} current sentences; --n {n} and --queries {n_queries} need more")
    vecs = MiniLMEmbedder().encode(texts)
    return vecs[:n], vecs[n:]


def run(n: int, n_queries: int, hnsw: bool, store: str | None = None) -> dict:
    x, queries = sentence_vectors(store, n, n_queries) if store else (mixture(n), mixture(n_queries, seed=1))
    ids = [f"o{i}" for i in range(n)]
    payloads = [{"kind": "fact" if i % 4 == 0 else "sentence", "paper_id": f"P{i % 1000}", "hash": "h"} for i in range(n)]
    res: dict = {"n": n, "dim": DIM, "queries": n_queries, "vectors": f"MiniLM, sentences of {store}" if store else "Gaussian mixture"}
    with tempfile.TemporaryDirectory() as tmp:
        ix = EdgeIndex(Path(tmp) / "qdrant")
        t0 = time.perf_counter()
        ix.upsert("c", ids, x, payloads)
        res["edge_upsert_s"] = round(time.perf_counter() - t0, 1)
        vectors.SHARDS.close_idle(idle=0)
        t0 = time.perf_counter()
        ix.search("c", queries[0], 10)
        res["edge_reopen_first_query_s"] = round(time.perf_counter() - t0, 2)
        exact, res["edge_exact"] = timed(lambda q: [h[0] for h in ix.search("c", q, 10)], queries)
        _, res["edge_exact_filtered"] = timed(lambda q: ix.search("c", q, 10, where={"kind": "fact"}), queries)
        path = Path(tmp) / "x.npy"
        np.save(path, x)
        mat = np.load(path, mmap_mode="r")  # the replaced segment store: a matrix product over a memory map
        numpy_hits, res["numpy_matrix_product"] = timed(lambda q: [ids[i] for i in np.argsort(-(mat @ q))[:10]], queries)
        res["edge_exact_agrees_with_numpy"] = round(float(np.mean([len(set(a) & set(b)) / 10 for a, b in zip(exact, numpy_hits)])), 4)
        if hnsw:
            with vectors.SHARDS.lock:
                shard = vectors.SHARDS.use(ix.root / "c")
                t0 = time.perf_counter()
                shard.optimize()
                res["edge_hnsw_build_s"] = round(time.perf_counter() - t0, 1)
            chosen = vectors.HNSW_EF
            for ef in EF_SWEEP:  # recall against exact search and latency, per search width
                vectors.HNSW_EF = ef
                approx, res[f"edge_hnsw_ef{ef}"] = timed(lambda q: [h[0] for h in ix.search("c", q, 10)], queries)
                res[f"edge_hnsw_ef{ef}"]["recall_at_10"] = round(float(np.mean([len(set(a) & set(b)) / 10 for a, b in zip(approx, exact)])), 4)
            vectors.HNSW_EF = chosen
            res["edge_hnsw_recall_at_10"] = res[f"edge_hnsw_ef{chosen}"]["recall_at_10"]  # at the ef searches use
        vectors.SHARDS.close_idle(idle=0)
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--hnsw", action="store_true", help="also build HNSW (minutes on 2 cores) and report its recall@10")
    ap.add_argument("--store", default=None, help="embed this store's sentences (MiniLM) instead of the synthetic mixture")
    ap.add_argument("--out", default="bench_out")
    args = ap.parse_args()
    res = run(args.n, args.queries, args.hnsw, args.store)
    print("| measure | value |\n|---|---|")
    for k, v in res.items():
        print(f"| {k} | {v} |")
    Path(args.out).mkdir(exist_ok=True)
    (Path(args.out) / "vector_bench.json").write_text(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
