"""Related work for a new paper: prior work found through the views (the store's retriever, whose
fused rankings include L1 fact matches and L2 entity and alias expansion), grouped into themes by
the taxonomy (each paper under its dominant method family), written per theme: what each cited
work does (its most relevant fact), how they differ (results aligned by dataset and metric through
`compare`, the methods only one of them names), ending with how the new paper stands.

The paper itself and everything published after it are never its own candidates; its own citing
sentences (in the store's citation contexts) are not used to find them.
"""

from __future__ import annotations

import time
from collections import defaultdict
from pathlib import Path

from ..llm.client import LLMClient
from ..llm.usage import Usage
from ..models import CitedSentence, Section, WritingTask
from ..store import Store
from ..tasks.common import count_tokens
from ..views.lexical import BM25
from .compose import WritingResult, aligned_results, cite_fact, finish, front, llm_section, one_connection, reused, sid, usable
from .organisation import PaperOrganisation, read_organisation


def request_text(store: Store, paper: str | None, abstract: str | None) -> tuple[str, str | None, str, int | None]:
    """(query text, paper id in the store or None, a label, year) for a paper id, a paper file or an abstract."""
    from ..ingest.catalog import paper_years

    if abstract:
        return abstract.strip(), None, abstract.strip()[:200], None
    if not paper:
        raise ValueError("give --paper FILE_OR_ID or --abstract TEXT")
    if store.get_row(paper) is not None:
        return front(store, paper)[0], paper, paper, paper_years(store, [paper]).get(paper)
    path = Path(paper)
    if not path.exists():
        raise LookupError(f"{paper!r} is neither a paper in store {store.home} nor a file")
    from ..ingest.parsers import parse_file
    from ..ingest.records import anthology_year

    rec = parse_file(path)
    first = rec.abstract or (rec.sections[0] if rec.sections else None)
    text = " ".join([rec.title, *(t for _, t in first.sentences), first.text if first else ""]).strip() if first else rec.title.strip()
    if not text:
        raise ValueError(f"{path}: no title or abstract to find related work for")
    return text, (rec.paper_id if store.get_row(rec.paper_id) is not None else None), rec.title or rec.paper_id, rec.year or anthology_year(rec.paper_id)


def candidates(retriever, query: str, k: int, exclude: str | None, before: int | None) -> list[str]:
    """The k best prior papers from the store's retriever, the paper itself and later papers left out."""
    ranked = retriever.rank(query, k + 1, citing_paper=exclude, before=before)
    return [p for p in ranked if p != exclude][:k]


def themes(org: PaperOrganisation, papers: list[str], max_themes: int = 4) -> list[tuple[str, list[str]]]:
    """Papers grouped by their dominant method family (then task area); small groups pooled."""
    groups: dict[str, list[str]] = defaultdict(list)
    for p in papers:
        cat = org.dominant(p, "method_family") or org.dominant(p, "task_area")
        groups[cat or ""].append(p)
    ordered = sorted(groups.items(), key=lambda kv: (kv[0] == "", -len(kv[1]), min(papers.index(p) for p in kv[1])))
    out, rest = [], []
    for cat, ps in ordered:
        if cat and len(out) < max_themes and (len(ps) >= 2 or len(out) < 2):
            out.append((org.category_names.get(cat, cat.rsplit("/", 1)[-1].replace("_", " ")), ps))
        else:
            rest += ps
    if rest:
        out.append(("Other related work", rest))
    return out


def best_fact(store: Store, paper: str, query: str) -> dict | None:
    """The paper's fact that says most about what it does for this request: relevant to it, and
    preferably from the paper's abstract (its own account of its contribution) and about its method."""
    facts = [r for r in store.objects("fact", paper_id=paper) if usable(r["data"]) and r["data"]["type"] != "limitation"]
    if not facts:
        return None
    abstract_sids = front(store, paper)[1]
    scores = BM25([r["data"]["statement"] for r in facts]).scores(query)
    top = max(scores.max(), 1e-9)
    prefer = {"method_description": 0.15, "finding": 0.05}

    def score(pair) -> tuple[float, int]:
        s, r = pair
        return (s / top + 0.5 * (sid(r) in abstract_sids) + prefer.get(r["data"]["type"], 0.0), -sid(r))

    return max(zip(scores, facts), key=score)[1]


def differences(store: Store, org: PaperOrganisation, papers: list[str], name: dict[str, str]) -> list[CitedSentence]:
    """Results of several papers on the same dataset and metric (aligned, not ranked), and the
    methods each names that the others do not."""
    out: list[CitedSentence] = []
    by_setting: dict[tuple[str, str], dict[str, dict]] = defaultdict(dict)
    for row in aligned_results(store, papers):
        by_setting[(row["dataset"], row["metric"])].setdefault(row["paper"], row)
    for (dataset, metric), per_paper in sorted(by_setting.items(), key=lambda kv: -len(kv[1])):
        if len(per_paper) < 2:
            break
        parts = [f"{p} reports {r['value']}" for p, r in per_paper.items()]
        out.append(CitedSentence(text=f"On {dataset} ({metric}), " + ", ".join(parts) + "; their conditions are not merged.",
                                 citations=[r["fact"] for r in per_paper.values()]))
        if len(out) >= 2:
            break
    named = []
    for p in papers:
        others = set().union(*(org.entities.get(q, set()) for q in papers if q != p))
        ents = org.specific(p, ("method",), others, 2)
        if ents:
            named.append((p, ents))
    if len(named) >= 2:
        text = "They differ in method: " + "; ".join(f"{p} names {', '.join(org.names[e][0] for e in ents)}" for p, ents in named[:4]) + "."
        # each paper's title sentence is cited too: it attributes the names to the paper
        out.append(CitedSentence(text=text, citations=[c for p, ents in named[:4] for c in (f"{p}:0", *ents)]))
    return out


def stance(store: Store, org: PaperOrganisation, paper: str | None, query: str, cited: list[str]) -> list[CitedSentence]:
    """How the new paper stands against the cited work: its own central facts (when in the store),
    then the writer's reading of what it shares with them and what it adds."""
    out: list[CitedSentence] = []
    if paper is not None:
        from .summary import paper_facts, ranked_parts

        for r in ranked_parts(store, paper, paper_facts(store, paper))["Problem"][:2]:
            out.append(cite_fact(r))
        mine = org.entities.get(paper, set())
        theirs = set().union(*(org.entities.get(p, set()) for p in cited)) if cited else set()
        shared = sorted(mine & theirs, key=lambda e: org.entity_df[e])[:3]
        new = org.specific(paper, ("method", "task", "dataset"), theirs, 3)
        if shared or new:
            text = "Against this work, the paper " + (f"shares {', '.join(org.names[e][0] for e in shared)}" if shared else "shares no named entity") + \
                   (f" and adds {', '.join(org.names[e][0] for e in new)}" if new else "") + "."
            out.append(CitedSentence(text=text, citations=shared + new, interpretation=True))
    else:
        first = query.split(". ")[0].strip().rstrip(".")
        out.append(CitedSentence(text=f"The new paper (its abstract, not in the store): {first}.", interpretation=True))
    return out


@one_connection
def related_work(store: Store, *, paper: str | None = None, abstract: str | None = None, k: int = 10, before: int | None = None,
                 client: LLMClient | None = None, embedder=None, register: bool = True, retriever=None,
                 org: PaperOrganisation | None = None, reuse: bool = False) -> WritingResult:
    """`retriever` (tasks.retrieval.store_retriever) and `org` are built here when not given; pass
    them to write for many papers of one store. `reuse`: return the registered section with these
    settings when nothing it cites has changed."""
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")
    started = time.perf_counter()
    query, pid, label, year = request_text(store, paper, abstract)
    year = before if before is not None else year
    request = pid or f"abstract:{abstract.strip()[:1900]}"
    settings = f"k={k} before={year} backend={'openai' if client else 'offline'}"
    if reuse and (done := reused(store, WritingTask.related_work, request, settings, started)) is not None:
        return done
    if retriever is None:
        from ..index.embed import make_embedder
        from ..tasks.retrieval import store_retriever

        retriever = store_retriever(store, embedder or make_embedder("minilm"))
    cited = candidates(retriever, query, k, pid, year)
    if not cited:
        raise LookupError("no prior work in the store for this request" + (f" (published by {year})" if year else ""))
    org = org or read_organisation(store)
    name = store.titles(cited + ([pid] if pid else []))
    usage, errors, sections, read = Usage(), [], [], count_tokens(query)
    for heading, papers in themes(org, cited):
        scope = f"{len(papers)} papers: {', '.join(papers)}"
        facts = {p: f for p in papers if (f := best_fact(store, p, query)) is not None}
        diffs = differences(store, org, papers, name)
        read += sum(count_tokens(f["data"]["statement"]) for f in facts.values()) + sum(count_tokens(d.text) for d in diffs)
        if client is None:
            sentences = [cite_fact(f, f"{name.get(p, p)} ({p}): ") for p, f in facts.items()] + diffs
            sections.append(Section(heading=heading, scope=scope, sentences=sentences))
        else:
            material = [(f"F{i + 1}", f"{p} ({name.get(p, p)}): {f['data']['statement']}", [f["id"], f["data"]["evidence"][0]])
                        for i, (p, f) in enumerate(facts.items())]
            material += [(f"D{i + 1}", d.text, d.citations) for i, d in enumerate(diffs)]
            sec = llm_section(client, heading, "Say what each cited work does and how they differ, naming each paper by its id.",
                              material, usage, errors)
            sections.append(sec.model_copy(update={"scope": scope}))
    closing = stance(store, org, pid, query, cited)
    sections.append(Section(heading="How this paper stands", sentences=closing))
    title = f"Related work for {name.get(pid, label) if pid else label}" + (f" ({pid})" if pid else "")
    return finish(store, WritingTask.related_work, request, title, sections, started=started, tokens_in=read,
                  backend="openai" if client else "offline", settings=settings, usage=usage, register=register,
                  extra={"cited_papers": cited, "year": year} | ({"errors": errors} if errors else {}))
