"""Evidence localisation (CL-SciSumm 2018) and the evidence fidelity of the store itself.

Localisation: given a citing sentence and the cited paper (compiled from its Reference_XML, so
sentence ids match the annotation), return the reference sentences; scored against the
annotators' `Reference Offset` at sentence level (micro precision, recall, F1, at each system's
best k). Systems: `bm25` over the paper's sentences; `scholarstack_view`, which ranks the paper's
compiled facts and sentences through a knowledge view (evidence.score_items); `scholarstack`, the
learned localiser (learned/localiser.py) over the store's sentences and facts, cross-fitted by topic.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scholarstack.ingest.clscisumm import annotations, reference_record
from scholarstack.store import Store


def eval_localisation(store: Store, root: Path | None = None, limit: int | None = None, ks: tuple[int, ...] = (1, 2, 3, 4, 5),
                      progress: bool = False, embedder: str | None = None, compiler=None) -> dict[str, Any]:
    """Every system at every k in `ks`; each reports its best k (and F1 at each k). `compiler`: see
    evaluations.benchmarks.Compiler."""
    from scholarstack.learned.localiser import PaperCandidates, candidates_from_store, cross_fitted, topic_fold
    from scholarstack.settings import shared_data_dir
    from scholarstack.tasks.evidence import paper_items, score_items
    from scholarstack.views.views import KnowledgeBase

    from .papers import compile_records, embedder_for, spread

    root = Path(root) if root else shared_data_dir() / "clscisumm2018"
    emb = embedder_for(embedder, store) if embedder else None
    topics = [t for t in sorted(root.iterdir()) if t.is_dir()]
    records = {t.name: reference_record(t) for t in topics}
    items = [(f"cls-{t.name}", text, gold) for t in topics if records[t.name] for text, gold in annotations(t)]
    items = spread(items, limit)
    compile_records(store, [records[pid[4:]] for pid in sorted({p for p, _, _ in items})], compiler, progress)
    kb = KnowledgeBase(store)
    cache: dict[tuple[str, tuple[str, ...]], list] = {}

    def ranked_by_view(kinds: tuple[str, ...], e):
        def rank(pid: str, text: str) -> list[int]:
            if (pid, kinds) not in cache:
                cache[(pid, kinds)] = paper_items(kb, pid, kinds)
            pred: list[int] = []
            for r in score_items(text, cache[(pid, kinds)], e):
                pred += [sid for loc in r.item.locators if (sid := int(loc.rsplit(":", 1)[1])) not in pred]
                if len(pred) >= max(ks):
                    break
            return pred
        return rank

    # The learned ranker, cross-fitted by topic: a topic is ranked by a model trained on the others.
    papers = {pid: PaperCandidates(candidates_from_store(store, pid), emb) for pid in sorted({p for p, _, _ in items})}
    models = cross_fitted(papers, items)

    def ranked_by_localiser(pid: str, text: str) -> list[int]:
        model = models.get(topic_fold(pid))
        return model.rank(papers[pid], text, max(ks)) if model else []

    systems = {"bm25": ranked_by_view(("sentence",), None), "scholarstack_view": ranked_by_view(("fact", "sentence"), emb),
               "scholarstack": ranked_by_localiser}
    results = {}
    for system, rank in systems.items():
        preds = [(rank(pid, text), gold) for pid, text, gold in items]
        by_k = {}
        for k in ks:
            tp = sum(len(set(p[:k]) & g) for p, g in preds)
            by_k[k] = _prf(tp, sum(len(set(p[:k])) for p, _ in preds), sum(len(g) for _, g in preds))
        best = max(ks, key=lambda k: (by_k[k][2], -k))
        p, r, f = by_k[best]
        results[system] = {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4), "k": best,
                           "f1_by_k": {str(k): round(v[2], 4) for k, v in by_k.items()}}
    return {"benchmark": "localisation", "n": len(items), "systems": results}


def _prf(tp: int, n_pred: int, n_gold: int) -> tuple[float, float, float]:
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def store_fidelity(store: Store) -> dict[str, Any]:
    """Share of facts whose locators resolve, that pass semantic verification, and of synthesis
    citations that resolve to live objects."""
    c = store.fidelity_counts()
    facts, resolving, passed, cites = c["facts"], c["resolving"], c["passed"], (c["synthesis_citations"], c["synthesis_citations_live"])
    return {"benchmark": "store_fidelity", "n": facts, "systems": {"store": {
        "facts": facts, "locators_resolve": round(resolving / facts, 4) if facts else None,
        "verification_passed": round(passed / facts, 4) if facts else None,
        "synthesis_citations": cites[0], "synthesis_citations_resolve": round(cites[1] / cites[0], 4) if cites[0] else None}}}
