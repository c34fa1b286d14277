"""Question answering over one or many papers, in view mode or full-text mode.

Offline: extractive. The best-scoring evidence answers; yes/no questions are answered from its
polarity; a question whose content words the evidence barely covers is reported unanswerable.
OpenAI-compatible: the model answers from the rendered context and must cite locators from it;
citations outside the context are removed and recorded, never passed on.
Over several papers, statements keep their paper identity and conditions.
"""

from __future__ import annotations

import re
import time

from pydantic import BaseModel, Field

from ..llm.client import LLMClient, LLMOutputError
from ..views.views import KnowledgeBase
from .common import Statement, TaskAnswer, check_text_input, cited_sources, count_tokens
from .evidence import fulltext_context, paper_items, score_items, view_context

YES_NO = re.compile(r"^(is|are|was|were|do|does|did|can|could|has|have|had|will|would|should)\b", re.I)
NEGATION = re.compile(r"\b(not|no|never|without|cannot|neither|nor|none)\b", re.I)
UNANSWERABLE_COVERAGE = 0.2


class LLMAnswer(BaseModel):
    answer: str = Field(..., max_length=300)
    unanswerable: bool = False
    citations: list[str] = Field(default_factory=list, max_length=3, description="locators like PAPER:SID from the context")


def extractive_answer(question: str, ranked) -> tuple[str, bool, list]:
    if not ranked or ranked[0].coverage < UNANSWERABLE_COVERAGE:
        return "Unanswerable", True, ranked[:1]
    best = ranked[0]
    if YES_NO.match(question.strip()):
        return ("No" if NEGATION.search(best.item.text) else "Yes"), False, [best]
    # Best two pieces of evidence at distinct locators (a fact and its own sentence count once).
    used, seen = [], set()
    for r in ranked:
        if not seen & set(r.item.locators):
            used.append(r)
            seen |= set(r.item.locators)
        if len(used) == 2:
            break
    return best.item.text, False, used


def multi_paper_context(kb: KnowledgeBase, question: str, paper_ids: list[str], ranked) -> dict:
    """Across papers: each paper's best findings aligned by dataset/metric/conditions (never merged),
    and registered syntheses whose declared studies cover at least two of the papers."""
    from ..views.views import View, compare

    per_paper: dict[str, list] = {}
    for r in ranked:
        if r.item.kind == "fact" and len(per_paper.setdefault(r.item.paper_id, [])) < 3:
            per_paper[r.item.paper_id].append(r.item)
    comparison = compare(View(query=question, items=[i for items in per_paper.values() for i in items]))
    wanted = set(paper_ids)
    syntheses = [{"id": row["id"], "topic": row["data"]["scope"]["topic"],
                  "covers": sorted(wanted & set(row["data"]["scope"]["studies"])),
                  "disagreements": row["data"]["disagreements"][:3], "context_differences": row["data"]["context_differences"][:3]}
                 for row in kb.store.objects("synthesis") if len(wanted & set(row["data"]["scope"]["studies"])) >= 2]
    return {"comparison": comparison.model_dump(mode="json"), "syntheses": syntheses[:5]}


def answer_question(kb: KnowledgeBase, question: str, paper_ids: list[str], mode: str = "view", embedder=None,
                    client: LLMClient | None = None, budget: int = 4000) -> TaskAnswer:
    question = check_text_input(question, "question", 2000)
    if not paper_ids:
        raise ValueError("name at least one paper (--paper ID)")
    started = time.perf_counter()
    if mode == "view":
        view, context, ranked = view_context(kb, question, paper_ids, embedder, budget=budget)
    elif mode == "fulltext":
        context = fulltext_context(kb.store, paper_ids)
        ranked = []
        for pid in paper_ids:
            ranked += score_items(question, [i for i in paper_items(kb, pid, ("sentence",))], embedder)
        ranked.sort(key=lambda x: -x.score)
    else:
        raise ValueError(f"unknown mode {mode!r} (view or fulltext)")
    tokens_in, tokens_out, extra = count_tokens(question) + count_tokens(context), 0, {}
    if client is None:
        text, unanswerable, used = extractive_answer(question, ranked)
        sources = [Statement(text=u.item.text, locators=u.item.locators, object_id=u.item.id) for u in used if not unanswerable]
        interp = "" if unanswerable else ("polarity of the best evidence" if YES_NO.match(question) else "best-matching evidence quoted")
        tokens_out = count_tokens(text)
    else:
        prompt = (f"Context (each line starts with its source locator):\n{context}\n\nQuestion: {question}\n"
                  "Answer briefly from the context only and cite the locators you used. If the context does not answer it, set unanswerable.")
        try:
            out, usage = client.structured(prompt, LLMAnswer)
        except LLMOutputError as exc:
            return TaskAnswer(task="qa", question=question, answer="", mode=mode, unanswerable=True, tokens_in=tokens_in,
                              seconds=time.perf_counter() - started, extra={"error": str(exc)})
        sources, extra["invalid_citations"] = cited_sources(kb.store, context, out.citations)
        text, unanswerable, interp = out.answer, out.unanswerable, out.answer if not sources else ""
        tokens_in, tokens_out = usage.tokens_in or tokens_in, usage.tokens_out
        extra["llm_cache_hits"] = usage.cache_hits
    if len(paper_ids) > 1:
        extra |= multi_paper_context(kb, question, paper_ids, ranked)
        extra["papers"] = sorted({s.locators[0].rsplit(":", 1)[0] for s in sources if s.locators})
    return TaskAnswer(task="qa", question=question, answer=text, mode=mode, sources_state=sources, interpretation=interp,
                      unanswerable=unanswerable, tokens_in=tokens_in, tokens_out=tokens_out,
                      seconds=round(time.perf_counter() - started, 4), extra=extra)
