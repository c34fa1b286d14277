"""Registry benchmark (not a test): register 100,000 facts with their references, then revise 1%,
on each store engine (DuckDB embedded; PostgreSQL, a throwaway local server unless --url).

Reports registration throughput (facts/second, through the full gate: schema, identity,
reference integrity, versioning) and the time to revise 1,000 facts including the transitive
needs_recheck propagation through entities, assignments and syntheses, and the recheck after.

    .venv/bin/python -m benchmarks.registry_bench [--facts 100000] [--engines duckdb,postgres] [--url postgresql://…] [--out bench_out]
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

from scholarstack.models import (
    Assignment, BasisItem, Category, Dimension, Entity, Fact, Mention, Scope, Sentence, SourceMap, Synthesis, Taxonomy,
)
from scholarstack.store import Store, recheck, register_many, revise

SENT_PER_PAPER = 100
BATCH = 10_000


def build(n_facts: int):
    n_papers = max(1, n_facts // SENT_PER_PAPER)
    papers = [SourceMap(paper_key=f"P{p:05d}", title=f"Paper {p}", sentences=[
        Sentence(sid=s, text=f"Method M{p % 97} reaches {50 + s % 40}.{s % 10}% accuracy on dataset D{s % 13} in paper {p}.")
        for s in range(1, SENT_PER_PAPER + 1)]) for p in range(n_papers)]
    facts = [Fact(statement=f"Method M{p % 97} reaches {50 + s % 40}.{s % 10}% accuracy on dataset D{s % 13} in paper {p}.",
                  subject=f"M{p % 97}", type="finding", evidence=[f"P{p:05d}:{s}"])
             for p in range(n_papers) for s in range(1, SENT_PER_PAPER + 1)]
    return papers, facts


def store_mb(store: Store) -> float:
    if store.postgres:
        return float(store.query("SELECT coalesce(sum(pg_total_relation_size(format('%I.%I', schemaname, tablename))), 0) "
                           "FROM pg_tables WHERE schemaname = ?", [store.schema])[0][0]) / 1e6
    return store.path.stat().st_size / 1e6


def run(store: Store, n_facts: int) -> dict:
    papers, facts = build(n_facts)
    t0 = time.perf_counter()
    for i in range(0, len(papers), 200):
        register_many(store, papers[i:i + 200])
    t_papers = time.perf_counter() - t0

    t0 = time.perf_counter()
    for i in range(0, len(facts), BATCH):
        rep = register_many(store, facts[i:i + BATCH])
        assert rep.count("new") == len(facts[i:i + BATCH]), rep.summary()
    t_facts = time.perf_counter() - t0

    # L2/L3 on top: entities cite 10 facts each, assignments cite an entity and 2 facts, syntheses 10 assignments.
    t0 = time.perf_counter()
    ents = [Entity(type="method", key=f"m{e}", name=f"M{e}", mentions=[Mention(text=f"M{e}", fact_id=facts[(e * 10 + k) % len(facts)].id,
                                                                               paper_id="x") for k in range(10)]) for e in range(len(facts) // 10)]
    tax = Taxonomy(name="bench", dimensions=[Dimension(key="d", name="D", categories=[Category(key=f"c{c}", name=f"C{c}") for c in range(50)])])
    register_many(store, [tax])
    for i in range(0, len(ents), BATCH):
        register_many(store, ents[i:i + BATCH])
    asgs = [Assignment(entity_id=ents[e].id, taxonomy_id=tax.id, category_id=f"{tax.id}/d/c{e % 50}",
                       supporting_facts=[facts[(e * 10) % len(facts)].id, facts[(e * 10 + 1) % len(facts)].id]) for e in range(0, len(ents), 2)]
    for i in range(0, len(asgs), BATCH):
        register_many(store, asgs[i:i + BATCH])
    syns = [Synthesis(account=f"Synthesis {s} over ten assignments.", scope=Scope(topic=f"topic {s}", studies=["P00000"]),
                      basis=[BasisItem(object_id=asgs[(s * 10 + k) % len(asgs)].id, role="supporting") for k in range(10)])
            for s in range(len(asgs) // 10)]
    register_many(store, syns)
    t_l23 = time.perf_counter() - t0

    revised = [f.model_copy(update={"statement": f.statement + " (revised)"}) for f in facts[:: 100]]
    t0 = time.perf_counter()
    rep = revise(store, revised)  # explicit revisions: a changed statement on unchanged evidence
    t_revise = time.perf_counter() - t0
    assert rep.count("revised") == len(revised), rep.summary()
    t0 = time.perf_counter()
    rechecked = recheck(store)
    t_recheck = time.perf_counter() - t0
    return {
        "facts": len(facts), "papers": len(papers), "sentences": len(papers) * SENT_PER_PAPER,
        "entities": len(ents), "assignments": len(asgs), "syntheses": len(syns),
        "papers_seconds": round(t_papers, 2), "facts_seconds": round(t_facts, 2),
        "facts_per_second": round(len(facts) / t_facts),
        "l2_l3_seconds": round(t_l23, 2),
        "revised_facts": len(revised), "revise_and_propagate_seconds": round(t_revise, 2),
        "marked_needs_recheck": rep.marked_for_recheck, "recheck_seconds": round(t_recheck, 2),
        "rechecked": len(rechecked), "store_mb": round(store_mb(store), 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--facts", type=int, default=100_000)
    ap.add_argument("--engines", default="duckdb,postgres")
    ap.add_argument("--url", help="a PostgreSQL database (else a throwaway local server)")
    ap.add_argument("--out", default="bench_out")
    args = ap.parse_args()
    results: dict[str, dict] = {}
    for engine in args.engines.split(","):
        home = Path(tempfile.mkdtemp(prefix="registry-bench-"))
        server = None
        try:
            url = None
            if engine == "postgres":
                url = args.url
                if url is None:
                    from scholarstack.store.local_postgres import start_local_postgres

                    try:
                        server = start_local_postgres()
                    except RuntimeError as exc:
                        print(f"postgres: skipped ({exc})")
                        continue
                    url = server.create_database("registry_bench")
            results[engine] = run(Store(home / "store", url=url), args.facts)
        finally:
            if server is not None:
                server.stop()
            shutil.rmtree(home, ignore_errors=True)
    out = Path(args.out)
    out.mkdir(exist_ok=True)
    (out / "registry_bench.json").write_text(json.dumps(results, indent=2))
    print("| measure | " + " | ".join(results) + " |\n|---|" + "---|" * len(results))
    for k in next(iter(results.values()), {}):
        print(f"| {k} | " + " | ".join(str(r[k]) for r in results.values()) + " |")


if __name__ == "__main__":
    main()
