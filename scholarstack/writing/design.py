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
from ..l1.results import specific
from ..l2.mentions import LOWER_IS_BETTER
from .compose import WritingResult, cite_fact, finish, llm_section, one_connection, reused, usable
from .organisation import read_organisation

ABLATION = re.compile(r"\b(ablation|ablated|without|w/o|removing|removal of|leaving out)\b", re.I)
TOP = 5


def norm(name: str) -> str:
    return " ".join(re.sub(r"[_\-]+", " ", name).lower().split())


# What a name adds that does not say which dataset or metric it is: "the COCO dataset", "PASCAL VOC test
# set" and "COCO" recommend one dataset; "Market 1501" and "Market1501" are one name.
LEADING = re.compile(r"^(?:(?:the|this|these|that|our|their|a|an|new|whole|entire|standard|benchmark|public)\s+)+")
TRAILING = {"dataset": re.compile(r"(?:\s+(?:datasets?|data\s*sets?|data|corpus|corpora|benchmarks?|collections?|"
                                  r"(?:test|training|train|dev|development|validation|evaluation)\s+(?:sets?|splits?|data)|splits?))+$"),
            "metric": re.compile(r"(?:\s+(?:scores?|metrics?|measures?))+$")}


def stripped(name: str, kind: str) -> str:
    """The name as shown: without what it adds ("the COCO dataset" is "coco")."""
    return TRAILING[kind].sub("", LEADING.sub("", norm(name)))


def squashed(name: str) -> str:
    return re.sub(r"[\s\-]+", "", name)


def name_key(name: str, kind: str) -> str:
    """The name without what it adds, spaces and dashes; "" when nothing names it ("this dataset")."""
    return key_of(stripped(name, kind))


def key_of(shown: str) -> str:
    """name_key of a name already stripped."""
    return squashed(shown) if shown not in {"dataset", "data", "corpus", "metric", "score"} else ""


def top(score: Counter) -> list[str]:
    """The TOP best; ties by name, so a design is the same on every run."""
    return sorted(score, key=lambda k: (-round(score[k], 9), k))[:TOP]


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
        score, users, example, shown = Counter(), defaultdict(set), {}, {}

        def count(name: str, p: str, share: float, fact: dict | None = None) -> None:
            if not (key := key_of(surface := stripped(name, etype))):
                return
            shown.setdefault(key, surface)  # the first surface
            if p not in users[key]:
                score[key] += share * weight[p]
            users[key].add(p)
            if fact is not None:
                example.setdefault(key, fact)

        for p, r, q in results:
            if q.get(field):
                count(q[field], p, 1.0, r)
        for p in papers:
            for e in sorted(org.entities.get(p, ())):  # a set: sorted, so the first surface shown is the same every run
                name, typ = org.names[e]
                if typ == etype:
                    count(name, p, 0.5)
        return [(shown[k], sorted(users[k]), example.get(k)) for k in top(score)]

    datasets, metrics = ranked("dataset", "dataset"), ranked("metric", "metric")
    top_sets = {name_key(n, "dataset") for n, _, _ in datasets}
    # A baseline is a method: not a name the store knows as a dataset or metric ("FB15k-237" reported "with" a model).
    named = top_sets | {name_key(n, "metric") for n, _, _ in metrics} | {
        name_key(n, t) for n, t in org.names.values() if t in ("dataset", "metric")}
    base_score, base_fact = Counter(), {}
    for p, r, q in results:
        method = norm(q.get("method") or "") if specific(q.get("method") or "") else ""  # a named method, not a subject
        if method and squashed(method) not in named and name_key(q.get("dataset") or "", "dataset") in top_sets:
            base_score[method] += weight[p]
            base_fact.setdefault(method, r)
    baselines = [(m, base_fact[m]) for m in top(base_score)]
    best: dict[tuple[str, str], tuple] = {}  # per dataset and metric, whatever the names add ("the X dataset")
    for p, r, q in results:
        key = (name_key(q.get("dataset") or "", "dataset"), name_key(q.get("metric") or "", "metric"))
        v = _value(q)
        if not all(key) or v != v:
            continue
        sign = -1 if LOWER_IS_BETTER.search(norm(q["metric"])) else 1
        if key not in best or sign * v > sign * best[key][0]:
            best[key] = (v, p, r, q)
    table = [{"dataset": norm(q["dataset"]), "metric": norm(q["metric"]), "best": q.get("text") or str(v),
              "method": q.get("method") or q.get("subject") or "", "paper": p,
              "conditions": "; ".join((r["data"].get("context") or {}).get("conditions") or [])[:80], "fact": r["id"]}
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
