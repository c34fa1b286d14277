"""What the vector index embeds (not a test): its cost and the retrieve view's quality per choice.

On a compiled store of ACL papers, each choice is embedded into a fresh Qdrant Edge index with
an embedder, timed, then queried through `views.retrieve` with citing
sentences whose cited paper is in the store (`citances_dev.jsonl`, a seeded sample): a hit is an
item of the cited paper among the view's top k. Each choice is measured with every embedder asked
for (`--embedders minilm static`: the packaged MiniLM, its learned static table). Choices:
- `bm25`: no vector index (the lexical side alone);
- `front`: every fact, entity and synthesis, and the front matter's sentences (title, abstract);
  asked for sentences alone, a fact found stands for the sentences it cites (the default);
- `all`: the same with every prose sentence embedded.
Reports vectors, embedding seconds, Recall@k and MRR@k for three layer sets.

    .venv/bin/python -m benchmarks.index_bench --store DIR [--queries 800] [--embedders minilm static] [--out bench_out]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import tempfile
import time
from pathlib import Path

from benchmarks import save
from scholarstack.settings import EMBEDDERS

LAYER_SETS = (("fact", "entity", "synthesis", "sentence"), ("fact", "sentence"), ("sentence",))


def queries(papers: set[str], n: int, seed: int = 0) -> list[dict]:
    from scholarstack.settings import shared_data_dir

    with (shared_data_dir() / "acl_scisummnet" / "citances_dev.jsonl").open() as fh:
        rows = [q for q in map(json.loads, fh) if q["cited_paper_id"] in papers]
    random.Random(seed).shuffle(rows)
    return rows[:n]


def quality(kb, qs: list[dict], layers: tuple[str, ...], k: int = 10) -> dict[str, float]:
    from scholarstack.views.views import retrieve

    hits = rr = 0.0
    for q in qs:
        ranks = [i for i, item in enumerate(retrieve(kb, q["query"], layers=layers, k=k).items) if item.paper_id == q["cited_paper_id"]]
        hits += bool(ranks)
        rr += 1 / (ranks[0] + 1) if ranks else 0.0
    return {f"recall@{k}": round(hits / len(qs), 4), f"mrr@{k}": round(rr / len(qs), 4)}


def run(store_dir: str, n_queries: int = 800, choices: tuple[str, ...] = ("bm25", "front", "all"),
        embedders: tuple[str, ...] = ("minilm",)) -> list[dict]:
    from tqdm import tqdm

    from scholarstack.index.embed import make_embedder
    from scholarstack.index.sync import sync_index
    from scholarstack.index.vectors import SHARDS, EdgeIndex
    from scholarstack.store import Store
    from scholarstack.views.views import KnowledgeBase

    store = Store(Path(store_dir), read_only=True)
    papers = {p for p, _, _ in store.raw_papers()}
    qs = queries(papers, n_queries)
    rows = []
    for choice, name in [(c, e) for c in choices for e in (embedders if c != "bm25" else ("-",))]:
        row: dict = {"choice": choice, "embedder": name, "queries": len(qs)}
        folder = Path(tempfile.mkdtemp(prefix=f"index-bench-{choice}-"))
        try:
            kb = KnowledgeBase(store)
            if choice != "bm25":
                index, embedder = EdgeIndex(folder), make_embedder(name)
                t0 = time.perf_counter()
                meta = sync_index(store, index, embedder, sentences=choice, progress=True)
                row |= {"vectors": meta["total"], "embed_seconds": round(time.perf_counter() - t0, 1)}
                kb = KnowledgeBase(store, index, embedder)
            for layers in tqdm(LAYER_SETS, desc=choice, leave=False):
                row["+".join(layers)] = quality(kb, qs, layers)
        finally:
            SHARDS.close_idle(idle=0)
            shutil.rmtree(folder, ignore_errors=True)
        print(row, flush=True)
        rows.append(row)
    return rows


def table(rows: list[dict]) -> str:
    head = "| choice | embedder | vectors | embedding s | " + " | ".join(f"{'+'.join(l)} R@10 / MRR@10" for l in LAYER_SETS) + " |"
    lines = [head, "|" + "---|" * (4 + len(LAYER_SETS))]
    for r in rows:
        cells = [f"{r['+'.join(l)]['recall@10']:.3f} / {r['+'.join(l)]['mrr@10']:.3f}" for l in LAYER_SETS]
        lines.append(f"| {r['choice']} | {r.get('embedder', '-')} | {r.get('vectors', 0)} | {r.get('embed_seconds', 0)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", required=True, help="a compiled store of ACL ScisummNet papers")
    ap.add_argument("--queries", type=int, default=800)
    ap.add_argument("--choices", nargs="*", default=["bm25", "front", "all"])
    ap.add_argument("--embedders", nargs="*", default=["minilm"], choices=EMBEDDERS)
    ap.add_argument("--out", default="bench_out")
    args = ap.parse_args()
    rows = run(args.store, args.queries, tuple(args.choices), tuple(args.embedders))
    save(args.out, "index_bench", rows, table(rows))


if __name__ == "__main__":
    main()
