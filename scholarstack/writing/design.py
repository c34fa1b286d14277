"""Experimental design for a task or idea, from what the closest papers in the store did: the
datasets and metrics they evaluate on (their result facts' quantities, then the dataset and metric
entities of L2), the methods reported on those datasets as baselines, the best reported value per
dataset and metric with its conditions (a table; lower is better for errors and costs), the
ablations they ran and the threats to validity their limitation facts state. Every recommendation
cites the facts it rests on; what is only counted is marked as interpretation.
"""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict

from ..llm.client import LLMClient
from ..llm.usage import Usage
from ..models import CitedSentence, Section, WritingTask
from ..store import Store
from ..tasks.common import check_text_input, count_tokens
from .compose import WritingResult, cite_fact, finish, llm_section, one_connection, reused, usable
from .organisation import read_organisation

LOWER_BETTER = re.compile(r"error|perplexity|\bwer\b|\bcer\b|loss|latency|time|\bms\b|rmse|\bmae\b", re.I)
ABLATION = re.compile(r"\b(ablation|ablated|without|w/o|removing|removal of|leaving out)\b", re.I)
TOP = 5


def norm(name: str) -> str:
    return " ".join(re.sub(r"[_\-]+", " ", name).lower().split())


def _value(q: dict) -> float:
    try:
        return float(q["value"])
    except (TypeError, ValueError):
        return float("nan")


@one_connection
def design(store: Store, request: str, k: int = 15, exclude: tuple[str, ...] = (), client: LLMClient | None = None,
           embedder=None, register: bool = True, reuse: bool = False, retriever=None) -> WritingResult:
    """`exclude`: papers not to learn from (e.g. the paper whose design is being predicted)."""
    request = check_text_input(request, "task or idea", 5000)
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")
    started = time.perf_counter()
    settings = f"k={k} exclude={','.join(sorted(exclude))} backend={'openai' if client else 'offline'}"
    if reuse and (done := reused(store, WritingTask.design, request, settings, started)) is not None:
        return done
    if retriever is None:
        from ..index.embed import make_embedder
        from ..tasks.retrieval import store_retriever

        retriever = store_retriever(store, embedder or make_embedder("minilm"))
    papers = [p for p in retriever.rank(request, k + len(exclude)) if p not in exclude][:k]
    if not papers:
        raise LookupError(f"no papers in store {store.home} for {request[:80]!r}")
    weight = {p: 1.0 / (1 + i / 5) for i, p in enumerate(papers)}  # closer papers count more
    facts = {p: store.objects("fact", paper_id=p) for p in papers}
    results = [(p, r, q) for p in papers for r in facts[p] for q in r["data"]["quantities"] if q.get("dataset") or q.get("metric")]
    org = read_organisation(store)

    def ranked(field: str, etype: str) -> list[tuple[str, list[str], dict | None]]:
        """(name, papers using it, a result fact naming it), by weighted paper count: results count
        fully, an L2 entity of the type in a paper half."""
        score, users, example = Counter(), defaultdict(set), {}
        for p, r, q in results:
            if q.get(field):
                name = norm(q[field])
                if p not in users[name]:
                    score[name] += weight[p]
                users[name].add(p)
                example.setdefault(name, r)
        for p in papers:
            for e in org.entities.get(p, ()):
                name, typ = org.names[e]
                if typ == etype and p not in users[norm(name)]:
                    score[norm(name)] += 0.5 * weight[p]
                    users[norm(name)].add(p)
        return [(n, sorted(users[n]), example.get(n)) for n, _ in score.most_common(TOP)]

    datasets, metrics = ranked("dataset", "dataset"), ranked("metric", "metric")
    top_sets = {n for n, _, _ in datasets}
    base_score, base_fact = Counter(), {}
    for p, r, q in results:
        method = norm(q.get("method") or q.get("subject") or "")
        if method and method not in top_sets and method not in {n for n, _, _ in metrics} and norm(q.get("dataset") or "") in top_sets:
            base_score[method] += weight[p]
            base_fact.setdefault(method, r)
    baselines = [(m, base_fact[m]) for m, _ in base_score.most_common(TOP)]
    best: dict[tuple[str, str], tuple] = {}
    for p, r, q in results:
        key = (norm(q.get("dataset") or ""), norm(q.get("metric") or ""))
        v = _value(q)
        if not all(key) or v != v:
            continue
        sign = -1 if LOWER_BETTER.search(key[1]) else 1
        if key not in best or sign * v > sign * best[key][0]:
            best[key] = (v, p, r, q)
    table = [{"dataset": d, "metric": m, "best": q.get("text") or str(v), "method": q.get("method") or q.get("subject") or "",
              "paper": p, "conditions": "; ".join((r["data"].get("context") or {}).get("conditions") or [])[:80], "fact": r["id"]}
             for (d, m), (v, p, r, q) in sorted(best.items(), key=lambda kv: (kv[0][0] not in top_sets, kv[0]))][:12]
    ablations = [r for p in papers for r in facts[p] if ABLATION.search(r["data"]["statement"]) and usable(r["data"])][:4]
    threats = [r for p in papers for r in facts[p] if r["data"]["type"] == "limitation" and usable(r["data"])][:4]

    def uses(kind: str, items) -> list[CitedSentence]:
        out = []
        for name, users, fact in items:
            lead = f"{kind} {name}, used by {', '.join(users[:4])}: "  # how many use it is in `extra`, not claimed
            if fact is not None:
                out.append(cite_fact(fact, lead))
            else:
                out.append(CitedSentence(text=f"{kind} {name} is named by {', '.join(users[:4])}.", citations=[f"{u}:0" for u in users[:3]],
                                         interpretation=True))
        return out

    material = {
        "Datasets": uses("Dataset", datasets),
        "Metrics": uses("Metric", metrics),
        "Baselines": [cite_fact(f, f"Baseline {m}: ") for m, f in baselines],
        "Best reported results": ([CitedSentence(text="The table gives the best value reported per dataset and metric among the closest papers; "
                                                      "values under different conditions are not ranked.", citations=[t["fact"] for t in table[:6]],
                                                 interpretation=True)] if table else []),
        "Ablations run in prior work": [cite_fact(r, f"{r['paper_id']}: ") for r in ablations],
        "Threats to validity": [cite_fact(r, f"{r['paper_id']}: ") for r in threats],
    }
    usage, errors, sections = Usage(), [], []
    read = count_tokens(request) + sum(count_tokens(s.text) for ss in material.values() for s in ss)
    for heading, sentences in material.items():
        if not sentences:
            continue
        tab = table if heading == "Best reported results" else []
        if client is None or tab:
            sections.append(Section(heading=heading, sentences=sentences, table=tab))
        else:
            keyed = [(f"M{i + 1}", s.text, s.citations) for i, s in enumerate(sentences)]
            sections.append(llm_section(client, heading, f"Recommend the {heading.lower()} for: {request[:300]}", keyed, usage, errors))
    return finish(store, WritingTask.design, request, f"Experimental design for {request[:200]}", sections, started=started,
                  tokens_in=read, backend="openai" if client else "offline", settings=settings, usage=usage, register=register,
                  extra={"papers": papers, "datasets": [n for n, _, _ in datasets], "metrics": [n for n, _, _ in metrics],
                         "used_by": {n: users for n, users, _ in datasets + metrics},
                         "baselines": [m for m, _ in baselines]} | ({"errors": errors} if errors else {}))
