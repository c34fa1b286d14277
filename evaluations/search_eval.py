"""Deep-search evaluation on the ACL corpus as a local citation graph.

For each query paper that cites at least `min_refs` other corpus papers, its in-corpus references
are the reference list; the query paper and its own edges are hidden from the provider. Measured
in one run: recall of keyword-only search against expansion at depths 1–3 (at fixed K and at the
budget), and each re-ranker's recall@K and precision@K on the depth-2 candidate set; α-nDCG@K
for both, with one subtopic per citing sentence of the query paper (papers cited together in a
sentence share it), so a ranking that covers more of the aspects the paper cites for scores higher.
The learned relevance judge never trained on these query papers (it trains on papers with fewer
than three references).
Co-authorship distance cannot be measured on the ACL corpus, which carries no author lists;
`eval deep_search` measures it on the unarXive sample, whose papers and references name their
authors (`coauthor_eval.py`), in the same run.
"""

from __future__ import annotations

import asyncio
from typing import Any

from scholarstack.search.judge import EVAL_MIN_REFS
from scholarstack.search.local import LocalProvider
from scholarstack.search.metrics import alpha_ndcg, precision_recall_at_k
from scholarstack.search.pipeline import deep_search
from scholarstack.search.rerank import make_reranker, rerank

from .papers import spread

KS = (10, 20, 50, 100)
ALPHA_KS = (10, 20)
AUTHORS_MISSING = "not measured on the ACL corpus: it has no author lists (measured on the unarXive sample instead)"


def citing_subtopics(path) -> dict[str, dict[str, set[str]]]:
    """citing paper → cited paper → the citing sentences (subtopics) it is cited in."""
    import json
    from collections import defaultdict

    out: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for line in path.read_text().splitlines():
        if line.strip():
            c = json.loads(line)
            out[c["citing_paper_id"]][c["cited_paper_id"]].add(" ".join(c["raw"].split()))
    return out


def eval_search(limit: int | None = 40, budget: int = 300, min_refs: int = EVAL_MIN_REFS, embedder=None,
                rerankers=("embedding", "lexical", "relevance", "ensemble"),
                client=None) -> dict[str, Any]:
    from scholarstack.index.embed import TfidfSvdEmbedder

    from scholarstack.settings import shared_data_dir

    base = LocalProvider.acl()
    subtopics_of = citing_subtopics(shared_data_dir() / "acl_scisummnet" / "citances_dev.jsonl")
    queries = spread(sorted(pid for pid, p in base.papers.items() if len(p.references) >= min_refs), limit)
    if "relevance" in rerankers and min_refs < EVAL_MIN_REFS:
        raise ValueError(f"the relevance judge trains on papers with fewer than {EVAL_MIN_REFS} references: ask with at least that many")
    embedder = embedder or TfidfSvdEmbedder()
    if getattr(embedder, "_model", True) is None:
        embedder.fit([f"{p.title} {p.abstract}" for p in base.papers.values()])
    depth_rows: dict[str, dict[str, float]] = {}
    rr_rows: dict[str, dict[str, float]] = {}
    for qid in queries:
        qp = base.papers[qid]
        reference = set(qp.references)
        subtopics = {p: subtopics_of[qid][p] for p in reference if subtopics_of[qid].get(p)}
        text = f"{qp.title}. {qp.abstract}"
        base.hide(qid)
        for depth in (0, 1, 2, 3):
            res = asyncio.run(deep_search(text, [base], depth=depth, budget=budget))
            ranked = rerank(text, res.candidates, make_reranker("embedding", embedder))
            ids = [c.paper.id for c in ranked]
            row = depth_rows.setdefault("keyword-only" if depth == 0 else f"expansion depth {depth}", {})
            for k in KS:
                row[f"recall@{k}"] = row.get(f"recall@{k}", 0.0) + precision_recall_at_k(ids, reference, k)[1]
            row["recall@budget"] = row.get("recall@budget", 0.0) + precision_recall_at_k(ids, reference, len(ids))[1]
            for k in ALPHA_KS:
                row[f"alpha_ndcg@{k}"] = row.get(f"alpha_ndcg@{k}", 0.0) + alpha_ndcg(ids, subtopics, k)
            row["candidates"] = row.get("candidates", 0.0) + len(ids)
            if depth == 2:
                order = [c.paper.id for c in sorted(res.candidates, key=lambda c: (c.depth, c.id))]
                for name in ("discovery order",) + tuple(rerankers):
                    ids2 = order if name == "discovery order" else [c.paper.id for c in rerank(text, res.candidates, make_reranker(name, embedder, client))]
                    r = rr_rows.setdefault(name, {})
                    for k in (10, 20, 50):
                        p_, rc = precision_recall_at_k(ids2, reference, k)
                        r[f"precision@{k}"] = r.get(f"precision@{k}", 0.0) + p_
                        r[f"recall@{k}"] = r.get(f"recall@{k}", 0.0) + rc
                    for k in ALPHA_KS:
                        r[f"alpha_ndcg@{k}"] = r.get(f"alpha_ndcg@{k}", 0.0) + alpha_ndcg(ids2, subtopics, k)
    n = max(1, len(queries))
    avg = lambda rows: {s: {m: round(v / n, 4) for m, v in row.items()} for s, row in rows.items()}  # noqa: E731
    return {"benchmark": "deep_search", "n": len(queries), "budget": budget, "systems": avg(depth_rows), "rerankers_depth2": avg(rr_rows),
            "coauthor_distance": AUTHORS_MISSING}


def eval_search_on_store(store, limit: int | None = None, progress: bool = False, **_: Any) -> dict[str, Any]:
    """`eval deep_search`: the ACL graph needs no compiled store; the re-rankers' rows are kept
    beside the depths' as `rerank <name>` so the result is stored and reported like every eval."""
    from scholarstack.index.embed import make_embedder

    from scholarstack.settings import shared_data_dir

    from .coauthor_eval import eval_coauthorship

    embedder = make_embedder("minilm")  # what `scholarstack search` embeds with
    res = eval_search(limit=limit or 40, embedder=embedder)
    res["systems"] |= {f"rerank {name}": row for name, row in res.pop("rerankers_depth2").items()}
    sample = shared_data_dir() / "unarxive" / "papers.jsonl.gz"
    res["coauthor_distance"] = (eval_coauthorship(sample, embedder=embedder) if sample.exists()
                                else f"not measured: {sample} is absent (the ACL corpus has no author lists)")
    return res
