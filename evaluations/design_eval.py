"""Experimental design (issue #14), on SciREX (`scirex/docs.jsonl.gz`, 90 papers with gold
Task-Dataset-Metric-Method results).

Leave one out: every document is compiled; each is held out in turn (design(..., exclude=(it,)),
so nothing of it is read: not its facts, not its entities, not its rank) and a design is written
for its task as the gold names it. Recall@5 of its gold datasets and metrics among the five
recommended, and of its gold methods among the five recommended baselines; a name matches when
its words and the recommended name's overlap by half or more. Baseline: the five dataset and
metric entity names most frequent in the whole compiled corpus (no task).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

from scholarstack.settings import shared_data_dir
from scholarstack.store import Store

from .papers import Compiler, compile_records, embedder_for, spread


def words(name: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", name.lower().replace("_", " ")))


def matches(gold: str, predicted: list[str]) -> bool:
    g = words(gold)
    return bool(g) and any(len(g & (p := words(x))) / max(1, min(len(g), len(p))) >= 0.5 for x in predicted)


def gold_of(doc: dict) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {"Task": set(), "Material": set(), "Metric": set(), "Method": set()}
    for rel in doc.get("n_ary_relations") or []:
        for field in out:
            if rel.get(field):
                out[field].add(" ".join(rel[field].replace("_", " ").split()))
    return out


def eval_design(store: Store, data: Path | None = None, limit: int | None = None, corpus_limit: int | None = None, k: int = 15,
                embedder: str = "minilm", progress: bool = False, compiler: Compiler | None = None, **_: Any) -> dict[str, Any]:
    """`corpus_limit`: compile only that many documents, spread over the file (a small run)."""
    import gzip
    import json

    from tqdm import tqdm

    from scholarstack.ingest.corpora import read_scirex
    from scholarstack.tasks.retrieval import store_retriever
    from scholarstack.writing.design import design
    from scholarstack.writing.organisation import read_organisation

    data = Path(data) if data else shared_data_dir() / "scirex" / "docs.jsonl.gz"
    records = spread([r for r in read_scirex(data) if not isinstance(r, tuple)], corpus_limit)
    compile_records(store, records, compiler, progress)
    with gzip.open(data, "rt") as f:
        docs = {d["doc_id"]: d for d in map(json.loads, filter(str.strip, f))}
    items = [(r.paper_id, gold_of(docs[r.external_ids["scirex"]])) for r in records if store.get_row(r.paper_id) is not None]
    items = spread([it for it in items if it[1]["Task"]], limit)
    retriever = store_retriever(store, embedder_for(embedder, store))
    org = read_organisation(store)
    frequent = {t: [n.lower() for n, _ in Counter(org.names[e][0] for e in org.entity_df if org.names[e][1] == t
                                                  for _ in range(org.entity_df[e])).most_common(5)] for t in ("dataset", "metric")}
    hits: dict[str, dict[str, list[int]]] = {"scholarstack_design": {}, "corpus_frequent": {}}
    for pid, gold in tqdm(items, desc="designs", unit="paper", disable=not progress):
        task = sorted(gold["Task"], key=lambda t: (-len(t), t))[0]
        out = design(store, task, k=k, exclude=(pid,), retriever=retriever, register=False)
        predicted = {"dataset": out.extra["datasets"][:5], "metric": out.extra["metrics"][:5], "method": out.extra["baselines"][:5]}
        for system, pred in (("scholarstack_design", predicted), ("corpus_frequent", frequent | {"method": []})):
            for name, field in (("dataset", "Material"), ("metric", "Metric"), ("method", "Method")):
                got = hits[system].setdefault(name, [0, 0])
                got[0] += sum(matches(g, pred[name]) for g in gold[field])
                got[1] += len(gold[field])
    systems = {s: {f"{name}_recall@5": round(h / max(1, n), 4) for name, (h, n) in per.items()} for s, per in hits.items()}
    return {"benchmark": "design", "data": str(data), "n": len(items), "k": k, "systems": systems}
