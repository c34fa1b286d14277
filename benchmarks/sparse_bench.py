"""Sparse retrieval benchmark (not a test): Qdrant's BM25 and fusion against the bm25s index the
views use, on the ACL retrieval benchmark (citing sentences → the cited paper, 978 papers).

The same queries and the same paper texts for every system, one run:
- `bm25s_abstract` / `bm25s_fulltext`: `views.lexical.BM25` (Okapi, Lucene idf, our tokenizer),
  what `eval retrieval` reports as `bm25` / `bm25_fulltext`;
- `qdrant_bm25_abstract` / `qdrant_bm25_fulltext`: Qdrant Edge's own `Bm25` (English tokenizer,
  stopwords and stemmer) as sparse vectors with the IDF modifier, searched in a shard;
- `hybrid_fulltext` (bm25s full text + MiniLM over title and abstract, our RRF, k=60) against
  `qdrant_hybrid_fulltext` (the same two legs as prefetches, fused by Qdrant's RRF in one query).
Reports Recall@1/10/100, MRR@40, index time and query latency; `--store` is a store holding the
ACL papers' source maps (e.g. the one `eval retrieval` compiled).

    .venv/bin/python -m benchmarks.sparse_bench --store DIR [--limit N] [--out bench_out]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np


def _qdrant_shard(path: Path, texts: list[str], vectors: np.ndarray | None, avg_len: float):
    from qdrant_edge import (Bm25, Bm25Config, Distance, EdgeConfig, EdgeShard, EdgeSparseVectorParams, EdgeVectorParams,
                             Modifier, Point, UpdateOperation)

    bm25 = Bm25(Bm25Config(k=1.5, b=0.75, language="english", avg_len=avg_len))  # the k1 and b the views use
    shard = EdgeShard.create(str(path), EdgeConfig(
        vectors={"dense": EdgeVectorParams(size=vectors.shape[1], distance=Distance.Cosine)} if vectors is not None else {},
        sparse_vectors={"bm25": EdgeSparseVectorParams(modifier=Modifier.Idf)}))
    points = [Point(i, {"bm25": bm25.embed_document(t)} | ({"dense": vectors[i].tolist()} if vectors is not None else {}), {})
              for i, t in enumerate(texts)]
    for i in range(0, len(points), 512):
        shard.update(UpdateOperation.upsert_points(points[i:i + 512]))
    shard.flush()
    return shard, bm25


def _search(shard, bm25, query: str, k: int, qvec: np.ndarray | None = None) -> list[int]:
    from qdrant_edge import Fusion, Prefetch, Query, QueryRequest

    sparse = Query.Nearest(bm25.embed_query(query), using="bm25")
    if qvec is None:
        res = shard.query(QueryRequest(limit=k, query=sparse))
    else:
        res = shard.query(QueryRequest(limit=k, query=Fusion.Rrf(k=60), prefetches=[
            Prefetch(limit=k, query=sparse), Prefetch(limit=k, query=Query.Nearest(qvec.tolist(), using="dense"))]))
    return [int(p.id) for p in res]


def run(store_dir: str, limit: int | None = None) -> dict:
    from evaluations.metrics import mrr_at_k, percentile, recall_at_k
    from evaluations.papers import spread
    from scholarstack.index.embed import MiniLMEmbedder
    from scholarstack.settings import shared_data_dir
    from scholarstack.store import Store
    from scholarstack.tasks.retrieval import bm25_rank, corpus_from_store, fulltext_bm25_rank, fulltext_hybrid_rank
    from scholarstack.views.lexical import tokenize

    corpus = corpus_from_store(Store(store_dir))
    if not corpus.ids:
        raise SystemExit(f"{store_dir} has no papers with source maps: compile the ACL papers into it first")
    data = shared_data_dir() / "acl_scisummnet" / "citances_dev.jsonl"
    queries = [json.loads(line) for line in data.read_text().splitlines() if line.strip()]
    queries = spread([q for q in queries if q["cited_paper_id"] in set(corpus.ids)], limit)
    emb = MiniLMEmbedder()
    built: dict[str, float] = {}
    t0 = time.perf_counter()
    corpus.bm25(), corpus.full_bm25()
    built["bm25s (both)"] = time.perf_counter() - t0
    docs = corpus.dense_matrix(emb)
    qvecs = emb.encode([q["query"] for q in queries])
    tmp = Path(tempfile.mkdtemp(prefix="sparse-bench-"))
    shards = {}
    for name, texts, vecs in (("abstract", corpus.texts, None), ("fulltext", corpus.full, docs)):
        t0 = time.perf_counter()
        avg = float(np.mean([len(tokenize(t)) for t in texts]))
        shards[name] = _qdrant_shard(tmp / name, texts, vecs, avg)
        built[f"qdrant {name}"] = time.perf_counter() - t0

    def ids(hits: list[int]) -> list[str]:
        return [corpus.ids[i] for i in hits]

    systems = {
        "bm25s_abstract": lambda q, v: bm25_rank(corpus, q, 100),
        "qdrant_bm25_abstract": lambda q, v: ids(_search(*shards["abstract"], q, 100)),
        "bm25s_fulltext": lambda q, v: fulltext_bm25_rank(corpus, q, 100),
        "qdrant_bm25_fulltext": lambda q, v: ids(_search(*shards["fulltext"], q, 100)),
        "hybrid_fulltext": lambda q, v: fulltext_hybrid_rank(corpus, q, emb, 100, vector=v),
        "qdrant_hybrid_fulltext": lambda q, v: ids(_search(*shards["fulltext"], q, 100, v)),
    }
    out = {}
    for name, rank in systems.items():
        ms, r1, r10, r100, mrr = [], 0.0, 0.0, 0.0, 0.0
        for q, v in zip(queries, qvecs):
            t0 = time.perf_counter()
            ranked = rank(q["query"], v)
            ms.append((time.perf_counter() - t0) * 1000)
            gold = q["cited_paper_id"]
            r1, r10, r100 = r1 + recall_at_k(ranked, gold, 1), r10 + recall_at_k(ranked, gold, 10), r100 + recall_at_k(ranked, gold, 100)
            mrr += mrr_at_k(ranked, gold, 40)
        n = max(1, len(queries))
        out[name] = {"recall@1": round(r1 / n, 4), "recall@10": round(r10 / n, 4), "recall@100": round(r100 / n, 4),
                     "mrr@40": round(mrr / n, 4), "p50_ms": round(percentile(ms, 50), 2), "p95_ms": round(percentile(ms, 95), 2)}
    return {"benchmark": "sparse", "queries": len(queries), "papers": len(corpus.ids),
            "index_seconds": {k: round(v, 2) for k, v in built.items()}, "systems": out}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", required=True, help="a store with the ACL papers' source maps")
    ap.add_argument("--limit", type=int, default=None, help="queries, spread over the file (default: all)")
    ap.add_argument("--out", default="bench_out")
    args = ap.parse_args()
    res = run(args.store, args.limit)
    print(f"{res['queries']} queries over {res['papers']} papers; index seconds {res['index_seconds']}")
    print(f"{'system':26} {'R@1':>6} {'R@10':>6} {'R@100':>6} {'MRR@40':>7} {'p50 ms':>7} {'p95 ms':>7}")
    for name, m in res["systems"].items():
        print(f"{name:26} {m['recall@1']:6.3f} {m['recall@10']:6.3f} {m['recall@100']:6.3f} {m['mrr@40']:7.3f} {m['p50_ms']:7.2f} {m['p95_ms']:7.2f}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "sparse_bench.json").write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
