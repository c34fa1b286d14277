"""Evidence selection inside one or more papers, shared by QA and claim verification.

View mode reads the paper's compiled facts and sentences through a knowledge view and renders a
budgeted context; full-text mode hands over the whole paper. Both score candidates the same way
(BM25 over the question, plus dense similarity when an embedder is given), so the comparison
between them isolates what the view saves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..l1.statistics import compact
from ..models.common import split_locator
from ..store import Store
from ..views.lexical import BM25, tokenize
from ..views.views import KnowledgeBase, View, ViewItem, expand, render


@dataclass
class Scored:
    item: ViewItem
    score: float
    coverage: float  # share of the question's content words found in the item


def paper_items(kb: KnowledgeBase, paper_id: str, kinds: tuple[str, ...] = ("fact", "sentence")) -> list[ViewItem]:
    if kb.store.get_row(paper_id) is None:
        raise LookupError(f"unknown paper {paper_id!r}: not in store {kb.store.home} (ingest and compile it first)")
    items: list[ViewItem] = []
    if "sentence" in kinds:
        for s in kb.store.paper_sentences(paper_id):
            if s["sid"] > 0 and s["kind"] == "prose":  # an instruction planted in a paper is never evidence
                items.append(ViewItem(id=s["locator"], kind="sentence", text=s["text"], paper_id=paper_id, locators=[s["locator"]]))
    if "fact" in kinds:
        for row in kb.store.objects("fact", paper_id=paper_id):
            d = row["data"]
            items.append(ViewItem(id=row["id"], kind="fact", text=d["statement"], paper_id=paper_id, locators=d["evidence"],
                                  verification=row["verification"], conditions=d["context"]["conditions"], data=d))
    return items


# What a question asks with, not about: "How did they obtain the lexicon?" matched "… and how to maintain it"
# best, for its "how". Left out of the query's terms and of what its coverage counts (QASPER `eval qa`, view
# answer F1 0.179 → 0.184).
INTERROGATIVES = frozenset("how what which why when where who whom whose do does did".split())
# "How does X do Y?" is answered where Y is done, not where the paper announces that it will tell ("We describe the
# basic model of TnT, the techniques used for … handling unknown words"): such a sentence ranks lower for it.
HOW_Q = re.compile(r"^\s*how\s+(?!many|much|big|large|long|small|fast|often|well)", re.I)
ANNOUNCES = re.compile(r"^(?:(?:in|throughout)\s+(?:this|the present|our)\s+(?:paper|work|article|study|section),?\s+)?"
                       r"(?:(?:here|then|first|next|finally|below),?\s+)?(?:we|this\s+(?:paper|work|article|study|section))\s+"
                       r"(?:also\s+|then\s+|first\s+|briefly\s+)?(?:describe|present|discuss|outline|introduce|propose|investigate|"
                       r"explore|study|examine|address|consider|report|review|summari[sz]e|leave|would like|plan|hope|intend)\w*\b|"
                       r"^in\s+this\s+(?:paper|work|article),?\s", re.I)
ANNOUNCED = 0.6  # the share of its score an announcing sentence keeps for a "how" question


def score_items(question: str, items: list[ViewItem], embedder=None) -> list[Scored]:
    if not items:
        return []
    terms = [t for t in tokenize(question) if t not in INTERROGATIVES]
    bm = BM25([i.text for i in items])
    lex = bm.scores(" ".join(terms))
    lex = lex / lex.max() if lex.max() > 0 else lex
    score = lex
    if embedder is not None:
        vecs = embedder.encode([question] + [i.text for i in items])
        dense = vecs[1:] @ vecs[0]
        score = 0.5 * lex + 0.5 * np.clip(dense, 0, 1)
    q, how = set(terms), HOW_Q.match(question) is not None
    out = []
    for it, s in zip(items, score):
        cov = len(q & set(tokenize(it.text))) / len(q) if q else 0.0
        out.append(Scored(it, float(s) * (ANNOUNCED if how and ANNOUNCES.search(it.text) else 1.0), cov))
    return sorted(out, key=lambda x: -x.score)


def view_context(kb: KnowledgeBase, question: str, paper_ids: list[str], embedder=None, k: int = 4,
                 budget: int = 4000) -> tuple[View, str, list[Scored]]:
    ranked: list[Scored] = []
    for pid in paper_ids:
        items = paper_items(kb, pid)
        # a sentence a fact cites is read through that fact (the view expands to it); twice in the ranked list, it
        # counted its words twice (QASPER `eval qa`, view answer F1 0.1845 → 0.1859). Four items, each distinct, read
        # about as many tokens as six did with the duplicates (298 against 285 a question; six distinct: 448).
        cited = {loc for i in items if i.kind == "fact" for loc in i.locators}
        ranked += score_items(question, [i for i in items if i.kind == "fact" or i.locators[0] not in cited], embedder)
    ranked.sort(key=lambda x: -x.score)
    view = View(query=question, items=[r.item for r in ranked[:k]], trace=[f"retrieve({question!r}, papers={paper_ids}, k={k})"])
    view = expand(kb, view, follow=("evidence",), neighbours=0, limit=k)
    return view, render(view, budget=budget), ranked


# A short form in brackets right after its long form: "neutrophil extracellular traps (NETs)", "programmed death
# ligand-1 (PD-L1)": two capitals or a capital and a digit, one of the six words before it starting with its letter.
# Not a name's own bracket ("p18(INK4c)", no space) nor a lower-case gloss ("(reference)"). Looser than L2's
# `acronym_pairs` (initials must spell the short form), which makes aliases: here a miss only costs tokens.
DEFINITION = re.compile(r"((?:[^\s()]+\s+){0,5}[^\s()]+)\s\(([A-Za-z][A-Za-z0-9\-αβγκ]{1,11})\)(?![\w(])")


def rendered(statement: str) -> str:
    """A statement as a compact view shows it: statistics cut to their estimates and P values
    (`l1.statistics.compact`), an abbreviation's definition left out (the fact keeps it; L2 keeps
    the short form as the entity's alias). Measured on SciFact (`eval claims`, and 5-fold over the
    training claims): fewer tokens, the verifier no worse."""
    def drop(m: re.Match) -> str:
        short, before = m.group(2), m.group(1).split()
        named = sum(c.isupper() for c in short) >= 2 or re.search(r"[A-Z].*\d", short)
        return m.group(1) if named and any(w[:1].lower() == short[:1].lower() for w in before) else m.group(0)
    return compact(DEFINITION.sub(drop, statement))


def facts_context(kb: KnowledgeBase, question: str, paper_id: str, embedder=None) -> tuple[str, list[Scored]]:
    """The paper's whole L1 set, rendered compactly (the ScholarStack paper's setting for claims):
    one line per fact, its sentence numbers and its statement `rendered` (statistics cut to their
    estimates, abbreviations' definitions left out: both stay in the fact and its quantities); a statement
    that restates a longer one is left out. Ranked for the question, but nothing is cut: what is
    rendered is what the verifier reads."""
    items = [i.model_copy(update={"text": rendered(i.text)}) for i in paper_items(kb, paper_id, ("fact",))]
    ranked = score_items(question, items, embedder)
    first: dict[str, Scored] = {}  # each statement's best-ranked fact
    for r in ranked:
        first.setdefault(r.item.text, r)
    kept: list[str] = []  # statements kept, longest first (ties in rank order)
    for text in sorted(first, key=len, reverse=True):
        if not any(text.rstrip(".") in k for k in kept):
            kept.append(text)
    keep = set(kept)
    ranked = [r for t, r in first.items() if t in keep]
    lines = [f"{','.join(str(split_locator(loc)[1]) for loc in r.item.locators[:3])}: {r.item.text}"
             for r in sorted(ranked, key=lambda r: split_locator(r.item.locators[0])[1])]
    return (f"[{paper_id}]\n" + "\n".join(lines)) if lines else "", ranked


def fulltext_context(store: Store, paper_ids: list[str]) -> str:
    parts = []
    for pid in paper_ids:
        if store.get_row(pid) is None:
            raise LookupError(f"unknown paper {pid!r}: not in store {store.home}")
        parts.append("\n".join(f"[{s['locator']}] {s['text']}" for s in store.paper_sentences(pid) if s["kind"] == "prose"))
    return "\n\n".join(parts)
