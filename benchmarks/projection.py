"""What a 1M-paper corpus would need, projected from measured per-paper costs (not a test).

Reads the compile benchmark (per-paper facts, entities, sentences, seconds, per store
configuration; the runs in `with_index/` and `with_static_index/` too, whose compiles include the
vector index embedded with MiniLM and with the static table, when there) and
the registry benchmark (bytes per stored row, per engine) from `--out`, and
prints rows, bytes, vectors and compile hours per worker for `--papers` papers. Linear in papers:
entities grow more slowly than papers (aliases merge), so their row is an upper bound.

    .venv/bin/python -m benchmarks.projection [--papers 1000000] [--out bench_out]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

VECTOR_BYTES = 384 * 4  # a MiniLM vector, float32


def project(compile_rows: list[dict], registry: dict[str, dict], papers: int) -> list[dict]:
    out = []
    for r in compile_rows:
        n = r["papers"]
        engine = r["store"].split(":")[0]
        reg = registry.get(engine) or next(iter(registry.values()))
        stored = reg["facts"] + reg["sentences"] + reg["entities"] + reg["assignments"] + reg["syntheses"]
        bytes_per_row = reg["store_mb"] * 1e6 / stored
        per_paper = {k: r[k] / n for k in ("facts", "entities", "sentences", "relations", "syntheses")}
        rows = sum(per_paper.values()) * papers
        embedded = r.get("embedded_sentences", r["sentences"]) / n  # the sentences the index embeds (all, in runs before that choice)
        vectors = (embedded + per_paper["facts"] + per_paper["entities"] + per_paper["syntheses"]) * papers
        out.append({
            "store": r["store"] + (f" + index ({r.get('index_embedder') or 'minilm'})" if r.get("index") else ""), "measured_at_papers": n,
            "facts": round(per_paper["facts"] * papers), "sentences": round(per_paper["sentences"] * papers),
            "entities_at_most": round(per_paper["entities"] * papers), "rows": round(rows),
            "store_gb": round(rows * bytes_per_row / 1e9, 1), "vectors": round(vectors),
            "vector_gb": round(vectors * VECTOR_BYTES / 1e9, 1),
            "compile_hours": round(papers / r["papers_per_minute"] / 60, 1),
        })
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--papers", type=int, default=1_000_000)
    ap.add_argument("--out", default="bench_out")
    args = ap.parse_args()
    out = Path(args.out)
    try:
        compile_rows = json.loads((out / "compile_bench.json").read_text())
        for run in ("with_index", "with_static_index"):  # `make bench`'s runs of the compile with its vector index
            if (out / run / "compile_bench.json").exists():
                compile_rows += json.loads((out / run / "compile_bench.json").read_text())
        registry = json.loads((out / "registry_bench.json").read_text())
    except FileNotFoundError as exc:
        raise SystemExit(f"{exc.filename}: run the compile and registry benchmarks first (make bench)") from None
    rows = project(compile_rows, registry, args.papers)
    keys = list(rows[0])
    print(f"Projected for {args.papers:,} papers (linear in papers from the measured runs; compile hours for the "
          "configuration's workers on this machine's cores):")
    print("| " + " | ".join(keys) + " |\n|" + "---|" * len(keys))
    for r in rows:
        print("| " + " | ".join(f"{v:,}" if isinstance(v, int) else str(v) for v in r.values()) + " |")
    (out / "projection.json").write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
