"""Continuous research (issue #14): a scripted chain of task steps over the bundled sample, with
overlapping requests, run twice; then one paper revised and recompiled, and the chain run a third
time.

Reported: tokens and seconds of each run and its reuse rate; after the revision, how many
registered outputs were marked needs_recheck and how many were derived again, and whether every
one of those depends on the revised paper while every other output was reused unchanged.

The steps run through the core (scholarstack.chain.run_task_step), as each chain asset does; the
Dagster materialisation around them adds no reuse logic.
"""

from __future__ import annotations

import random
import time
from typing import Any

from scholarstack.store import Store

from .papers import Compiler, compile_records

QUESTIONS = ["What accuracy does the method reach?", "What datasets are used?", "What problem does the paper address?"]


def scripted_steps(store: Store, n: int = 50, seed: int = 0) -> list[Any]:
    """`n` steps drawn (seeded, with repeats: overlapping requests) from per-paper questions, claims
    from the papers' own result facts, summaries, and questions over pairs of papers."""
    from scholarstack.chain import Ask, Summarize, VerifyClaim

    papers = sorted(r["id"] for r in store.objects("paper"))
    unique: list[Any] = []
    for p in papers:
        unique += [Ask(task="ask", question=q, papers=[p]) for q in QUESTIONS[:2]]
        facts = [r for r in store.objects("fact", paper_id=p) if r["data"]["quantities"]]
        if facts:
            unique.append(VerifyClaim(task="verify_claim", claim=facts[0]["data"]["statement"][:500], paper=p))
        unique.append(Summarize(task="summarize", paper=p, words=120))
    unique += [Ask(task="ask", question="Which taggers are compared?", papers=[a, b]) for a, b in zip(papers[::2], papers[1::2])]
    rng = random.Random(seed)
    return [unique[i] for i in rng.choices(range(len(unique)), k=n)], len(unique)


def run_steps(store: Store, kb, steps: list[Any], progress: bool = False) -> dict[str, Any]:
    from tqdm import tqdm

    from scholarstack.chain import run_task_step

    started = time.perf_counter()
    results = [run_task_step(store, kb, i, s) for i, s in enumerate(tqdm(steps, desc="chain", unit="step", disable=not progress), 1)]
    return {"results": results, "tokens": sum(r.tokens_in + r.tokens_out for r in results),
            "seconds": round(time.perf_counter() - started, 2), "hits": sum(r.reused for r in results),
            "hit_rate": round(sum(r.reused for r in results) / max(1, len(results)), 4)}


def depends_on(store: Store, output_id: str, paper: str) -> bool:
    """Whether a registered output read the paper or an object of it (its recorded basis)."""
    versions = store.get_row(output_id)["data"]["cited_versions"]
    rows = store.get_rows(list(versions))
    return paper in versions or any(r.get("paper_id") == paper for r in rows.values())


def eval_chain(store: Store, limit: int | None = None, progress: bool = False, compiler: Compiler | None = None,
               **_: Any) -> dict[str, Any]:
    """`limit`: steps in the chain (default 50)."""
    from scholarstack.ingest.catalog import iter_records
    from scholarstack.settings import SAMPLE_DIR
    from scholarstack.views.views import open_kb

    records = [r for r in iter_records([SAMPLE_DIR]) if not isinstance(r, tuple)]
    compile_records(store, records, compiler, progress)
    kb = open_kb(store)
    steps, unique = scripted_steps(store, limit or 50)
    run1 = run_steps(store, kb, steps, progress)
    run2 = run_steps(store, kb, steps, progress)
    outputs = sorted({r.output for r in run1["results"] if r.output})
    before = {oid: store.get_row(oid)["version"] for oid in outputs}

    # Revise the paper most steps asked about: one sentence of it changes, as a corrected file would.
    counts: dict[str, int] = {}
    for s in steps:
        for p in getattr(s, "papers", None) or [s.paper]:
            counts[p] = counts.get(p, 0) + 1
    paper = max(sorted(counts), key=counts.get)
    record = next(r for r in records if r.paper_id == paper)
    section = next(sec for sec in ([record.abstract] if record.abstract else []) + record.sections if sec.sentences)
    sid, text = section.sentences[0]
    section.sentences[0] = (sid, text.rstrip(".") + ", as the corrected version states.")
    seq_before = max((e["seq"] for oid in outputs for e in store.events_for(oid)), default=0)
    compile_records(store, [record], compiler, progress, force=True)
    marked = sorted(oid for oid in outputs if any(e["event"] == "needs_recheck" and e["seq"] > seq_before for e in store.events_for(oid)))
    run3 = run_steps(store, kb, steps, progress)
    rederived = sorted({r.output for r in run3["results"] if not r.reused and r.output})
    dependent = {oid for oid in outputs if depends_on(store, oid, paper)}
    untouched_ok = all(store.get_row(oid)["version"] == before[oid] for oid in outputs if oid not in dependent)
    row = lambda run: {"tokens": run["tokens"], "seconds": run["seconds"], "hit_rate": run["hit_rate"]}  # noqa: E731
    return {"benchmark": "chain", "n": len(steps), "unique_requests": unique, "outputs": len(outputs), "revised_paper": paper,
            "marked_needs_recheck": len(marked), "rederived": len(rederived), "dependent_outputs": len(dependent),
            "rederived_all_dependent": set(rederived) <= dependent, "independent_untouched": untouched_ok,
            "systems": {"run1": row(run1), "run2": row(run2),
                        "after_revision": row(run3) | {"marked": len(marked), "rederived": len(rederived), "dependent": len(dependent)}}}
