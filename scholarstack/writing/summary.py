"""Paper summary from the paper's L1/L2 objects: problem, method, main results with their numbers,
limitations. Offline: the paper's facts ranked by how central they are to its title and abstract,
placed by type; openai: the model writes each part from the same facts, citing them."""

from __future__ import annotations

import time

from ..llm.client import LLMClient
from ..llm.usage import Usage
from ..models import Section, WritingTask
from ..store import Store
from ..tasks.common import count_tokens
from ..views.lexical import BM25
from .compose import WritingResult, by_words, cite_fact, finish, front, llm_section, one_connection, reused, sid, usable

PARTS = [("Problem", "What problem does the paper address, and what does it contribute?"),
         ("Method", "How does the paper's method work?"),
         ("Results", "What are the main results, with their numbers and the data they were measured on?"),
         ("Limitations", "What limitations does the paper state?")]
SHARE = {"Problem": 0.3, "Method": 0.3, "Results": 0.3, "Limitations": 0.1}


def paper_facts(store: Store, paper_id: str) -> list[dict]:
    if store.get_row(paper_id) is None:
        raise LookupError(f"unknown paper {paper_id!r}: not in store {store.home} (ingest and compile it first)")
    facts = [r for r in store.objects("fact", paper_id=paper_id) if usable(r["data"])]
    if not facts:
        raise LookupError(f"paper {paper_id!r} has no usable facts: compile it (L1) first")
    return facts


def ranked_parts(store: Store, paper_id: str, facts: list[dict]) -> dict[str, list[dict]]:
    """The paper's facts for each part, most central first (BM25 against the title and abstract);
    the problem part keeps the abstract's order."""
    text, abstract_sids = front(store, paper_id)
    scores = BM25([r["data"]["statement"] for r in facts]).scores(text)
    central = [r for _, r in sorted(zip(scores, facts), key=lambda x: (-x[0], sid(x[1])))]
    kind = lambda r: r["data"]["type"]  # noqa: E731
    problem = sorted([r for r in central if sid(r) in abstract_sids and kind(r) != "limitation"], key=sid)
    results = [r for r in central if r["data"]["quantities"] and kind(r) in ("finding", "theoretical_result")]
    results.sort(key=lambda r: -sum(bool(q["metric"]) + bool(q["dataset"]) for q in r["data"]["quantities"]))
    return {"Problem": problem,
            "Method": [r for r in central if kind(r) == "method_description" and r not in problem],
            "Results": results or [r for r in central if kind(r) == "finding" and r not in problem],
            "Limitations": [r for r in central if kind(r) == "limitation"]}


@one_connection
def summarize(store: Store, paper_id: str, words: int = 250, client: LLMClient | None = None, register: bool = True,
              reuse: bool = False) -> WritingResult:
    """`reuse`: return the registered summary with these settings when nothing it cites has changed."""
    if words < 30:
        raise ValueError(f"--words must be at least 30, not {words}")
    started = time.perf_counter()
    settings = f"words={words} backend={'openai' if client else 'offline'}"
    if reuse and (done := reused(store, WritingTask.summary, paper_id, settings, started)) is not None:
        return done
    facts = paper_facts(store, paper_id)
    parts = ranked_parts(store, paper_id, facts)
    title = store.titles([paper_id]).get(paper_id, paper_id)
    used: set[str] = set()
    sections: list[Section] = []
    usage, errors = Usage(), []
    read = 0
    for heading, question in PARTS:
        pool = [r for r in parts[heading] if r["id"] not in used][:6]
        used |= {r["id"] for r in pool[:2]}
        if not pool:
            continue
        read += sum(count_tokens(r["data"]["statement"]) for r in pool)
        budget = max(12, int(words * SHARE[heading]))
        if client is None:
            sentences, seen = [], set()
            for r in pool:
                key = r["data"]["statement"].lower()[:80]
                if key not in seen:
                    seen.add(key)
                    sentences.append(cite_fact(r))
            sections.append(Section(heading=heading, sentences=by_words(sentences, budget)))
        else:
            material = [(f"F{i + 1}", r["data"]["statement"], [r["id"], r["data"]["evidence"][0]]) for i, r in enumerate(pool)]
            sections.append(llm_section(client, heading, f"{question} About {budget} words.", material, usage, errors))
    return finish(store, WritingTask.summary, paper_id, f"Summary of {title} ({paper_id})", sections, started=started,
                  tokens_in=read, backend="openai" if client else "offline", settings=settings, usage=usage, register=register,
                  extra={"errors": errors} if errors else None)
