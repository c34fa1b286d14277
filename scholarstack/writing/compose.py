"""What every writer shares: picking usable facts, turning them into cited sentences, writing a
section with the LLM (structured, a citation field per sentence), and finishing a document:
citations checked, the cited versions recorded, the writing registered through the gate."""

from __future__ import annotations

import functools
import re
import time
from typing import Any

from pydantic import BaseModel, Field

from ..llm.client import LLMCallError, LLMClient
from ..llm.usage import Usage
from ..models import CitedSentence, Section, Writing, WritingTask, split_locator
from ..store import Store
from ..tasks.common import count_tokens
from ..verify import CitationReport, check_sections
from ..views.views import View, ViewItem, compare

# Sentences that are no standalone statement: figure/table pointers, questions, list fragments.
POINTER = re.compile(r"^(figure|fig\.|table|tab\.|section|see|as shown|this|these|it|they|such)\b|\?\s*$|^\W|^\d", re.I)


class WritingResult(BaseModel):
    writing: Writing
    markdown: str
    backend: str = "offline"
    registration: dict[str, Any] = Field(default_factory=dict, description="id, status, version, verification (or the rejection)")
    citations: CitationReport = Field(default_factory=CitationReport)
    tokens_in: int = Field(0, description="tokens of the material the writer read")
    tokens_out: int = 0
    seconds: float = 0.0
    extra: dict[str, Any] = Field(default_factory=dict)


def one_connection(writer):
    """Offline, a writer's many small reads share one store connection (each would open the file);
    with an LLM the connection is not held while the model writes."""
    @functools.wraps(writer)
    def wrapper(store: Store, *args, **kwargs):
        if kwargs.get("client") is not None:
            return writer(store, *args, **kwargs)
        with store.connect():
            return writer(store, *args, **kwargs)
    return wrapper


def front(store: Store, paper: str) -> tuple[str, set[int]]:
    """A paper's front matter, read once: the text of its title, abstract and first sentences (what
    the paper says it is about), and the ids of its title and abstract sentences (the first five
    when it has no abstract markup)."""
    sentences = store.paper_sentences(paper)
    text = " ".join(s["text"] for s in sentences if s["section"] in ("title", "abstract") or s["sid"] <= 5)
    return text, {s["sid"] for s in sentences if s["section"] in ("title", "abstract")} or set(range(1, 6))


def sid(row: dict[str, Any]) -> int:
    """The sentence id of a fact's anchor."""
    return split_locator(row["data"]["evidence"][0])[1]


def aligned_results(store: Store, papers: list[str]) -> list[dict[str, str]]:
    """The papers' reported values aligned by dataset and metric (views.compare), those with both."""
    items = [ViewItem(id=r["id"], kind="fact", text=r["data"]["statement"], paper_id=p, locators=r["data"]["evidence"], data=r["data"])
             for p in papers for r in store.objects("fact", paper_id=p) if r["data"]["quantities"]]
    return [r for r in compare(View(items=items), ("dataset", "metric")).rows if r["dataset"] and r["metric"] and r["value"]]


def usable(fact: dict[str, Any]) -> bool:
    """A fact that reads as a statement on its own (no pointer to a figure, no fragment)."""
    words = fact["statement"].split()
    return 6 <= len(words) <= 60 and not POINTER.search(fact["statement"].strip())


def cite_fact(row: dict[str, Any], lead: str = "") -> CitedSentence:
    """A fact as a sentence citing the fact and its anchor sentence; `lead` attributes it."""
    text = " ".join(row["data"]["statement"].split()).rstrip(" .;,") + "."
    return CitedSentence(text=f"{lead}{text}", citations=[row["id"], row["data"]["evidence"][0]])


def by_words(sentences: list[CitedSentence], words: int) -> list[CitedSentence]:
    """The leading sentences that fit in `words` (at least one)."""
    out, used = [], 0
    for s in sentences:
        n = len(s.text.split())
        if out and used + n > words:
            break
        out.append(s)
        used += n
    return out


class LLMSentence(BaseModel):
    text: str = Field(..., min_length=1, max_length=400)
    citations: list[str] = Field(default_factory=list, max_length=4, description="keys of the material lines, e.g. F3")


class LLMSection(BaseModel):
    sentences: list[LLMSentence] = Field(..., min_length=1, max_length=6)


def llm_section(client: LLMClient, heading: str, instruction: str, material: list[tuple[str, str, list[str]]],
                usage: Usage, errors: list[str]) -> Section:
    """One section written by the model from keyed material lines (key, text, citations). The model
    cites keys; a key maps back to the line's citations, an unknown key is kept verbatim so the
    checker rejects and records it. A failed call is recorded and gives an empty section."""
    keyed = {key: cites for key, _, cites in material}
    lines = "\n".join(f"{key}: {text}" for key, text, _ in material)
    prompt = (f"Write the '{heading}' section. {instruction}\nMaterial (each line starts with its key):\n{lines}\n\n"
              "Use only the material. Give one to four sentences; each sentence lists the keys it rests on in `citations`.")
    try:
        out, u = client.structured(prompt, LLMSection)
    except LLMCallError as exc:
        usage.add(exc.usage)
        errors.append(f"{heading}: {exc}")
        return Section(heading=heading)
    usage.add(u)
    sentences = []
    for s in out.sentences:
        cites = [c for key in s.citations for c in keyed.get(key.strip(), [key.strip()])]
        sentences.append(CitedSentence(text=s.text.strip(), citations=list(dict.fromkeys(cites))[:12], interpretation=not cites))
    return Section(heading=heading, sentences=sentences)


def reused(store: Store, task: WritingTask, request: str, settings: str, started: float) -> WritingResult | None:
    """The registered writing for (task, request, settings) when nothing it cites has changed since."""
    from ..tasks.memory import note_reuse, recall

    key = Writing.model_construct(task_name=task, request=request[:2000], settings=settings).id
    writing, row, _ = recall(store, key)
    if writing is None:
        return None
    text = writing.text()
    reuse = note_reuse(store, key, row["version"], count_tokens(text))
    return WritingResult(writing=writing, markdown=text, registration={"id": key, "status": "reused", "version": row["version"],
                                                                       "verification": row["verification"]},
                         seconds=round(time.perf_counter() - started, 3), extra={"reuse": reuse})


def finish(store: Store, task: WritingTask, request: str, title: str, sections: list[Section], *, started: float,
           tokens_in: int, backend: str, settings: str = "", usage: Usage | None = None, register: bool = True,
           extra: dict | None = None) -> WritingResult:
    """Check the citations, record the versions cited, register (the gate verifies again)."""
    from ..tasks.memory import register_output, with_versions

    sections, report = check_sections(store, sections)
    sections = [s for s in sections if s.sentences or s.table]
    if not sections:
        failed = (extra or {}).get("errors") or []
        why = f"{len(failed)} model call(s) failed (first: {failed[0][:200]}) and " if failed else ""
        raise ValueError(f"nothing to write for {request[:80]!r}: {why}no usable facts survived the citation check")
    writing = with_versions(store, Writing(task_name=task, request=request[:2000], settings=settings, title=title[:500], sections=sections))
    registration = register_output(store, writing, task.value) if register else {}
    text = writing.text()
    usage = usage or Usage()
    return WritingResult(writing=writing, markdown=text, backend=backend, registration=registration, citations=report,
                         tokens_in=usage.tokens_in or tokens_in, tokens_out=usage.tokens_out or count_tokens(text),
                         seconds=round(time.perf_counter() - started, 3), extra=(extra or {}) | ({"llm": usage.model_dump()} if usage.calls else {}))
