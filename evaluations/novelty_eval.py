"""Novelty assessment (issue #14), on the ACL corpus.

Each corpus paper that cites other corpus papers is assessed against the corpus without itself and
without later papers: prior-work recall at k = 10 of its real in-corpus references (next to the
top 10 of hybrid retrieval on its abstract and of the store's retriever on its front matter alone,
the same exclusions), and its verdicts. Two checks of discrimination: the paper assessed against a
corpus that includes itself must come out "anticipated"; an idea recombining one paper's problem
and method with another's data and result must find both (each among the papers covering its aspects).
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Any

from scholarstack.store import Store

from .papers import Compiler
from .writing_eval import citing_setup


def recombined(store: Store, a: str, b: str, org) -> str | None:
    """An idea from paper a's problem and method and paper b's data and result, in words."""
    from scholarstack.tasks.novelty import aspects_of_paper

    pa = {x.name: x.text for x in aspects_of_paper(store, a, org)}
    pb = {x.name: x.text for x in aspects_of_paper(store, b, org)}
    parts = [pa.get("problem"), pa.get("method"), pb.get("result"), f"We evaluate on {pb['data']}." if pb.get("data") else None]
    return " ".join(p for p in parts if p) if pa.get("method") and (pb.get("result") or pb.get("data")) else None


def eval_novelty(store: Store, data: Path | None = None, limit: int | None = None, corpus_limit: int | None = None,
                 embedder: str = "minilm", k: int = 10, progress: bool = False, compiler: Compiler | None = None,
                 **_: Any) -> dict[str, Any]:
    from tqdm import tqdm

    from scholarstack.ingest.catalog import paper_years
    from scholarstack.tasks.novelty import assess_novelty
    from scholarstack.tasks.retrieval import hybrid_rank
    from scholarstack.writing.organisation import read_organisation
    from scholarstack.writing.related_work import request_text

    setup = citing_setup(store, data, limit, corpus_limit, embedder, progress, compiler)
    years = paper_years(store)
    org = read_organisation(store)  # read once: every assessment below reads the same store
    recall: Counter = Counter()
    verdicts: Counter = Counter()
    anticipated = both_found = pairs = 0
    seconds = []
    items = setup.items
    for i, (citing, cited) in enumerate(tqdm(items, desc="novelty", unit="paper", disable=not progress)):
        query, _, _, year = request_text(store, citing, None)
        later = lambda p: years.get(p, year or 0) > (year or 9999)  # noqa: E731
        base = [p for p in hybrid_rank(setup.corpus, query, setup.emb, k + 50) if p != citing and not later(p)][:k]
        plain = [p for p in setup.retriever.rank(query, k + 1, citing_paper=citing, before=year) if p != citing][:k]
        t0 = time.perf_counter()
        out = assess_novelty(store, paper=citing, k=k, retriever=setup.retriever, org=org)
        seconds.append(time.perf_counter() - t0)
        for name, found in (("hybrid_abstract", base), ("retriever_request", plain), ("scholarstack_novelty", out.extra["prior_work"])):
            recall[name] += len(set(found[:k]) & cited) / len(cited)
        verdicts[out.answer] += 1
        anticipated += assess_novelty(store, paper=citing, k=k, retriever=setup.retriever, include_self=True, org=org).answer == "anticipated"
        other = items[(i + 1) % len(items)][0]
        idea = recombined(store, citing, other, org) if other != citing else None
        if idea:
            pairs += 1
            mix = assess_novelty(store, idea=idea, k=k, retriever=setup.retriever, include_self=True, org=org)
            found = {a["paper"] for a in mix.extra["aspects"] if a["status"] != "not covered"}
            both_found += {citing, other} <= found
    n = max(1, len(items))
    systems = {name: {f"recall@{k}": round(v / n, 4)} for name, v in recall.items()}
    rates = {"self_anticipated_rate": round(anticipated / n, 4), "recombination_both_cited_rate": round(both_found / max(1, pairs), 4)}
    systems["scholarstack_novelty"] |= {"seconds_per_paper": round(sum(seconds) / n, 3), **rates,
                                        **{f"verdict_{v}": round(c / n, 4) for v, c in sorted(verdicts.items())}}
    return {"benchmark": "novelty", "data": str(setup.data), "n": len(items), "citing_papers": setup.citing_papers, "systems": systems,
            "recombination_pairs": pairs, **rates}
