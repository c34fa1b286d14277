"""Phase 1 of deep search: from a query paper (or question) to a diverse set of keyword queries.

Inline citations and the bibliography are stripped first, so the queries describe the paper, not
the papers it cites. Offline: keyphrases scored by TF-IDF-like salience (frequency in the paper ×
rarity in English prose approximated by word length and stop lists), from typed mentions and
frequent n-grams, deduplicated so no two queries share their head word. LLM: a model drafts them
under a bounded schema.
"""

from __future__ import annotations

import re
from collections import Counter

from pydantic import BaseModel, Field

from ..ingest.citations import strip_citation_markers
from ..llm.client import LLMClient, LLMOutputError
from ..l2.entities import normalise
from ..l2.mentions import extract_mentions
from ..views.lexical import tokenize

BIB_HEAD = re.compile(r"\n\s*(references|bibliography|literature cited)\s*\n", re.I)


def strip_citations(text: str) -> str:
    """Remove inline citation markers and everything from the bibliography heading on."""
    m = BIB_HEAD.search(text)
    if m:
        text = text[: m.start()]
    return strip_citation_markers(text)


def keyphrases(text: str, k: int = 6) -> list[str]:
    text = strip_citations(text)
    counts: Counter = Counter()
    for m in extract_mentions(text):
        if len(m.text) > 3:
            counts[m.text.lower()] += 2
    toks = tokenize(text)
    for n in (2, 3):
        for i in range(len(toks) - n + 1):
            gram = toks[i:i + n]
            if all(len(t) > 3 and not t.isdigit() for t in gram):
                counts[" ".join(gram)] += 1
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1] * (1 + len(kv[0]) / 40), kv[0]))
    out, heads = [], set()
    for phrase, c in ranked:
        head = normalise(phrase).split(" ")[-1] if phrase else ""
        if c < 2 or head in heads or any(phrase in o or o in phrase for o in out):
            continue
        out.append(phrase)
        heads.add(head)
        if len(out) >= k:
            break
    return out or [" ".join(toks[:6])]


class KeywordQueries(BaseModel):
    queries: list[str] = Field(..., min_length=1, max_length=8, description="short keyword queries, 2-6 words each")


def draft_queries(text: str, client: LLMClient | None = None, k: int = 6) -> tuple[list[str], str]:
    """(queries, how): LLM drafting when a client is given, falling back to keyphrases on failure."""
    clean = strip_citations(text)
    if client is None:
        return keyphrases(clean, k), "keyphrases"
    try:
        out, _ = client.structured(f"Paper text:\n{clean[:3000]}\n\nWrite up to {k} diverse keyword queries (2-6 words) "
                                   "to find related work in a scholarly search engine.", KeywordQueries)
        queries = [" ".join(q.split())[:80] for q in out.queries if q.strip()]
        if queries:
            return queries[:k], "llm"
    except LLMOutputError:
        pass
    return keyphrases(clean, k), "keyphrases (LLM drafting failed)"
