"""What splitting the vector index into shards costs (not a test): one sync against N shard syncs.

On a compiled store, the whole index is embedded once into a fresh Qdrant Edge index, then again
as N shards (`scholarstack index --shards N`), one after another into a second fresh index. Reports
each shard's documents and seconds, how even the split is (largest shard over the mean), the
shards' overhead (their sum over the one sync) and the wall time N machines would take (the
slowest shard), and checks that the shards together hold exactly what the one sync holds.

    .venv/bin/python -m benchmarks.shard_bench --store DIR [--shards 4] [--out bench_out]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from benchmarks import save


def run(store_dir: str | Path, shards: int = 4) -> dict:
    from scholarstack.index.embed import MiniLMEmbedder
    from scholarstack.index.sync import sync_index
    from scholarstack.index.vectors import SHARDS, EdgeIndex
    from scholarstack.store import Store

    store = Store(Path(store_dir), read_only=True)
    MiniLMEmbedder().encode(["load the model before timing"])  # the model is loaded once per process
    folder = Path(tempfile.mkdtemp(prefix="shard-bench-"))
    try:
        one, many = EdgeIndex(folder / "one"), EdgeIndex(folder / "many")
        t0 = time.perf_counter()
        whole = sync_index(store, one, MiniLMEmbedder(), progress=True)
        whole_s = time.perf_counter() - t0
        parts = []
        for i in range(shards):  # each with an embedder of its own (an empty text cache), as on its own machine
            t0 = time.perf_counter()
            meta = sync_index(store, many, MiniLMEmbedder(), shard=i, shards=shards, progress=True)
            parts.append({"shard": i, "documents": meta["indexed"], "seconds": round(time.perf_counter() - t0, 1)})
        coll = whole["collection"]
        same = one.ids(coll) == many.ids(coll)
    finally:
        SHARDS.close_idle(idle=0)
        shutil.rmtree(folder, ignore_errors=True)
    return summarise(whole["indexed"], whole_s, parts) | {"shards_hold_what_one_sync_holds": same}


def summarise(documents: int, seconds: float, parts: list[dict]) -> dict:
    sizes = [p["documents"] for p in parts]
    total = sum(p["seconds"] for p in parts)
    return {"documents": documents, "one_sync_seconds": round(seconds, 1), "shards": len(parts), "per_shard": parts,
            "largest_over_mean": round(max(sizes) / (sum(sizes) / len(sizes)), 3) if sum(sizes) else None,
            "shards_seconds": round(total, 1), "overhead": round(total / seconds - 1, 3) if seconds else None,
            "wall_seconds_on_n_machines": max(p["seconds"] for p in parts)}


def table(r: dict) -> str:
    lines = ["| run | documents | seconds |", "|---|---|---|", f"| one sync | {r['documents']} | {r['one_sync_seconds']} |"]
    lines += [f"| shard {p['shard']} of {r['shards']} | {p['documents']} | {p['seconds']} |" for p in r["per_shard"]]
    lines.append(f"| {r['shards']} shards, sum | {sum(p['documents'] for p in r['per_shard'])} | {r['shards_seconds']} |")
    return "\n".join(lines) + (f"\n\nlargest shard / mean: {r['largest_over_mean']}; overhead of sharding: {r['overhead']:.1%}; "
                               f"on {r['shards']} machines: {r['wall_seconds_on_n_machines']} s; "
                               f"shards hold what one sync holds: {r.get('shards_hold_what_one_sync_holds')}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", required=True, help="a compiled store")
    ap.add_argument("--shards", type=int, default=4)
    ap.add_argument("--out", default="bench_out")
    args = ap.parse_args()
    result = run(args.store, args.shards)
    save(args.out, "shard_bench", result, table(result))


if __name__ == "__main__":
    main()
