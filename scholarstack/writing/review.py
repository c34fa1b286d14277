"""A literature review of a topic: the topic's papers (given, or found through the views), one
section per taxonomy category they fall under (each paper under its dominant method family), and
per section its scope, the approaches, the results aligned by dataset and metric (a table, never
ranked across conditions), agreements and disagreements from registered L3 syntheses, and
limitations and open problems from limitation facts."""

from __future__ import annotations

import time

from ..llm.client import LLMClient
from ..llm.usage import Usage
from ..models import CitedSentence, Section, WritingTask
from ..store import Store
from ..tasks.common import count_tokens
from .compose import WritingResult, aligned_results, cite_fact, finish, llm_section, one_connection, reused, usable
from .organisation import read_organisation
from .related_work import best_fact, themes


def results_table(store: Store, papers: list[str]) -> list[dict[str, str]]:
    """Quantity-bearing facts of the papers, aligned on dataset and metric (rows sorted by setting)."""
    rows = aligned_results(store, papers)
    rows.sort(key=lambda r: (r["dataset"].lower(), r["metric"].lower(), r["paper"]))
    per_paper: dict[str, int] = {}
    rows = [r for r in rows if (per_paper.__setitem__(r["paper"], per_paper.get(r["paper"], 0) + 1) or per_paper[r["paper"]] <= 3)]
    return [{"dataset": r["dataset"], "metric": r["metric"], "value": r["value"], "paper": r["paper"],
             "conditions": r["conditions"][:80], "fact": r["fact"]} for r in rows[:12]]


def debates(store: Store, papers: list[str]) -> tuple[list[CitedSentence], int]:
    """Agreements and disagreements from registered syntheses covering two or more of the papers:
    their accounts' stated disagreements and the opposing basis items, cited."""
    out, disagreements = [], 0
    wanted = set(papers)
    for row in store.objects("synthesis"):
        d = row["data"]
        covered = sorted(wanted & set(d["scope"]["studies"]))
        if len(covered) < 2:
            continue
        opposing = [b["object_id"] for b in d["basis"] if b["role"] == "opposing"]
        supporting = [b["object_id"] for b in d["basis"] if b["role"] == "supporting"]
        if opposing:
            disagreements += 1
            out.append(CitedSentence(text=f"On {d['scope']['topic']}, the studies disagree: " + "; ".join(d["disagreements"][:2] or ["see the opposing results"]) + ".",
                                     citations=[row["id"], *opposing[:3]]))
        elif supporting:
            out.append(CitedSentence(text=f"On {d['scope']['topic']}, {len(covered)} of these papers report consistent findings ({', '.join(covered)}).",
                                     citations=[row["id"], *supporting[:3]], interpretation=True))
        if len(out) >= 3:
            break
    return out, disagreements


@one_connection
def review(store: Store, topic: str, papers: list[str] | None = None, k: int = 12, client: LLMClient | None = None,
           embedder=None, register: bool = True, reuse: bool = False) -> WritingResult:
    """`reuse`: return the registered review of these papers with these settings when nothing it
    cites has changed."""
    if not topic or not topic.strip():
        raise ValueError("empty topic: say what the review is about")
    started = time.perf_counter()
    if papers:
        missing = [p for p in papers if store.get_row(p) is None]
        if missing:
            raise LookupError(f"unknown paper(s) {', '.join(missing)}: not in store {store.home}")
    else:
        from ..index.embed import make_embedder
        from ..tasks.retrieval import store_retriever

        papers = store_retriever(store, embedder or make_embedder("minilm")).rank(topic, k)
    if not papers:
        raise LookupError(f"no papers in store {store.home} for {topic!r}")
    request = f"topic:{topic.strip()} papers:{','.join(sorted(papers))}"
    settings = f"k={k} backend={'openai' if client else 'offline'}"
    if reuse and (done := reused(store, WritingTask.review, request, settings, started)) is not None:
        return done
    org = read_organisation(store)
    name = store.titles(papers)
    usage, errors, sections, read, n_disagree = Usage(), [], [], count_tokens(topic), 0
    for heading, group in themes(org, papers, max_themes=5):
        approaches = [(p, f) for p in group if (f := best_fact(store, p, topic)) is not None]
        limits = [r for p in group for r in store.objects("fact", paper_id=p) if r["data"]["type"] == "limitation" and usable(r["data"])][:3]
        said, n = debates(store, group)
        n_disagree += n
        table = results_table(store, group)
        scope = f"{len(group)} papers ({', '.join(group)}); results compared only within the same dataset and metric"
        read += sum(count_tokens(f["data"]["statement"]) for _, f in approaches) + sum(count_tokens(r["data"]["statement"]) for r in limits)
        if client is None:
            sentences = [cite_fact(f, f"{name.get(p, p)} ({p}): ") for p, f in approaches] + said
            sentences += [cite_fact(r, f"A limitation ({r['paper_id']}): ") for r in limits]
            if len({r["paper"] for r in table}) >= 2:
                sentences.append(CitedSentence(text=f"The table aligns {len(table)} reported results of {len({r['paper'] for r in table})} papers by dataset and metric; values under different conditions are not ranked.",
                                               citations=[r["fact"] for r in table[:6]], interpretation=True))
        else:
            material = [(f"F{i + 1}", f"{p}: {f['data']['statement']}", [f["id"], f["data"]["evidence"][0]]) for i, (p, f) in enumerate(approaches)]
            material += [(f"L{i + 1}", r["data"]["statement"], [r["id"], r["data"]["evidence"][0]]) for i, r in enumerate(limits)]
            material += [(f"S{i + 1}", s.text, s.citations) for i, s in enumerate(said)]
            sentences = llm_section(client, heading, f"Review the approaches to {topic}: what each does, where they agree or "
                                    "disagree, and their limitations.", material, usage, errors).sentences
        sections.append(Section(heading=heading, scope=scope, sentences=sentences, table=table))
    return finish(store, WritingTask.review, request, f"A review of {topic.strip()}", sections, started=started, tokens_in=read,
                  backend="openai" if client else "offline", settings=settings, usage=usage, register=register, extra={"papers": papers, "disagreements": n_disagree} | ({"errors": errors} if errors else {}))
