"""Knowledge views: the one way tasks read the store.

`retrieve(q) → V`, `select(V, c) → V'`, `expand(V, r) → V'`, `compare(V, d) → C`,
`synthesize(V, q) → s` (a candidate, unregistered), and `render(V, budget)`. Every item keeps its
type, conditions, evidence locators and verification state, so whatever a task says can be traced
back to sentences.
"""

from __future__ import annotations

import re
import threading
from collections import defaultdict
from typing import Any, Literal

from pydantic import BaseModel, Field

from ..index.sync import collection_for, documents
from ..models import BasisItem, BasisRole, Provenance, ReviewState, Scope, Source, Synthesis, SynthesisKind
from ..models.text import INDEXED_KINDS, conditions, display_text, named_ids
from ..store import Store
from .lexical import BM25, cached_bm25, rrf

Layer = Literal["sentence", "fact", "entity", "assignment", "relation", "synthesis"]
ALL_LAYERS: tuple[str, ...] = ("sentence", "fact", "entity", "assignment", "relation", "synthesis")


class ViewItem(BaseModel):
    id: str
    kind: str
    text: str
    paper_id: str = ""
    score: float = 0.0
    locators: list[str] = Field(default_factory=list)
    verification: str = ""
    lifecycle: str = "current"
    conditions: list[str] = Field(default_factory=list)
    via: str = Field("", description="how the item entered the view: retrieve, expand:evidence, …")
    data: dict[str, Any] = Field(default_factory=dict)

    def source(self, chars: int = 5000, locators: int = 20) -> Source:
        """What this item states and the sentences it stands on: the one model tasks cite and
        idea nodes keep as evidence."""
        return Source(text=self.text[:chars], locators=self.locators[:locators], object_id=self.id)


class View(BaseModel):
    query: str = ""
    items: list[ViewItem] = Field(default_factory=list)
    trace: list[str] = Field(default_factory=list, description="the operations that made this view")

    def ids(self) -> list[str]:
        return [i.id for i in self.items]

    def of_kind(self, kind: str) -> list[ViewItem]:
        return [i for i in self.items if i.kind == kind]


class Comparison(BaseModel):
    dimensions: list[str]
    rows: list[dict[str, str]] = Field(default_factory=list, description="one row per finding, aligned on the dimensions")
    groups: dict[str, list[str]] = Field(default_factory=dict, description="dimension values → fact ids measured under them")
    note: str = "Aligned, not ranked: results under different conditions are never merged."


class KnowledgeBase:
    """The store plus its lexical and dense indexes; built lazily and cached per instance."""

    def __init__(self, store: Store, index=None, embedder=None):
        self.store = store
        self.index = index
        self.embedder = embedder
        self._bm25: dict[tuple[str, ...], tuple[BM25, list[str]]] = {}
        self._docs: dict[str, tuple[str, dict]] | None = None
        self._building = threading.Lock()

    def docs(self) -> dict[str, tuple[str, dict]]:
        if self._docs is None:
            self._docs = documents(self.store, INDEXED_KINDS)
        return self._docs

    def bm25(self, kinds: tuple[str, ...]) -> tuple[BM25, list[str]]:
        """The lexical index over these kinds: built once per instance, and kept on disk beside the
        store for the store's generation (its last event), so the next process loads it."""
        with self._building:  # a server warms it in a thread while the first call may already ask for it
            if kinds not in self._bm25:
                self._bm25[kinds] = self._cached_bm25(kinds)
            return self._bm25[kinds]

    def _cached_bm25(self, kinds: tuple[str, ...]) -> tuple[BM25, list[str]]:
        def build() -> tuple[list[str], list[str]]:
            ids = [oid for oid, (_, p) in self.docs().items() if p["kind"] in kinds]
            return ids, [self.docs()[oid][0] for oid in ids]

        return cached_bm25(self.store.home / "lexical" / "-".join(kinds), self.store.generation(), build)

    def item(self, oid: str, score: float = 0.0, via: str = "retrieve") -> ViewItem | None:
        found = self.items([(oid, score, via)])
        return found[0] if found else None

    def items(self, wanted: list[tuple[str, float, str]]) -> list[ViewItem]:
        """View items for (id or locator, score, via), in order, leaving out unknown and withdrawn
        ones; read in three queries on one connection, not one connection per item."""
        with self.store.connect():
            texts = self.store.current_sentences(oid for oid, _, _ in wanted if _is_locator(oid))
            rows = self.store.get_rows(oid for oid, _, _ in wanted if not _is_locator(oid))
            names = self.store.names(i for r in rows.values() for i in named_ids(r["kind"], r["data"]))
        out = []
        for oid, score, via in wanted:
            if _is_locator(oid):
                if oid in texts:
                    out.append(ViewItem(id=oid, kind="sentence", text=texts[oid], paper_id=oid.rsplit(":", 1)[0], score=score,
                                        locators=[oid], via=via))
                continue
            row = rows.get(oid)
            if row is None or row["lifecycle"] == "withdrawn":
                continue
            d, kind = row["data"], row["kind"]
            out.append(ViewItem(id=oid, kind=kind, text=display_text(kind, d, names, row["label"] or oid), paper_id=row["paper_id"] or "",
                                score=score, locators=list(d.get("evidence", [])), verification=row["verification"],
                                lifecycle=row["lifecycle"], conditions=conditions(kind, d), via=via, data=d))
        return out


def _is_locator(oid: str) -> bool:
    return ":" in oid and not oid.startswith(("fac_", "ent_", "ass_", "rel_", "syn_", "tax_"))


def open_kb(store: Store, embedder_name: str | None = None, url: str | None = None) -> KnowledgeBase:
    """The store with its vector index when one was built for this embedder, else lexical only."""
    from ..index.embed import make_embedder
    from ..index.vectors import open_index
    from ..settings import settings

    env = settings()
    name = embedder_name or env.embedder
    url = url or env.qdrant_url
    index = open_index(store.home, url)
    if url or index.has(f"objects_{name}"):
        return KnowledgeBase(store, index, make_embedder(name, store.home))
    return KnowledgeBase(store)


# -- the five operations -----------------------------------------------------------------------
def retrieve(kb: KnowledgeBase, query: str, layers: tuple[str, ...] = ("fact", "entity", "synthesis", "sentence"),
             k: int = 10, pool: int = 50) -> View:
    """Hybrid retrieval: BM25 and dense rankings over the chosen layers, fused by RRF (k=60)."""
    if not query or not query.strip():
        raise ValueError("empty query: say what to retrieve")
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")
    bad = set(layers) - set(ALL_LAYERS)
    if bad:
        raise ValueError(f"unknown layer(s) {sorted(bad)}; choose from {list(ALL_LAYERS)}")
    lexical_kinds = tuple(sorted(set(layers) & set(INDEXED_KINDS)))
    rankings: list[list[str]] = []
    if lexical_kinds:
        bm, ids = kb.bm25(lexical_kinds)
        rankings.append([ids[i] for i, _ in bm.top(query, pool)])
        if kb.index is not None and kb.embedder is not None:
            rankings.append(_dense_ranking(kb, query, lexical_kinds, pool))
    fused = rrf(rankings)
    items: list[ViewItem] = []
    for start in range(0, len(fused), 2 * k):  # in chunks: unknown or withdrawn ids are skipped, the next fill in
        items += kb.items([(oid, score, "retrieve") for oid, score in fused[start:start + 2 * k]])
        if len(items) >= k:
            break
    items = items[:k]
    view = View(query=query, items=items, trace=[f"retrieve({query!r}, layers={list(layers)}, k={k})"])
    if {"assignment", "relation"} & set(layers):
        view = expand(kb, view, follow=("relations", "categories"))
    return view


def _dense_ranking(kb: KnowledgeBase, query: str, kinds: tuple[str, ...], pool: int) -> list[str]:
    """The index's nearest documents of these kinds. Asked for sentences without facts, a fact found
    stands for the sentences it cites: the index embeds only the front matter's sentences
    (settings.index_sentences), and the rest are reached through the facts that rest on them."""
    through_facts = "sentence" in kinds and "fact" not in kinds
    hits = kb.index.search(collection_for(kb.embedder), kb.embedder.encode([query])[0], pool,
                           where={"kind": list(kinds) + (["fact"] if through_facts else [])})
    cited = ({oid: row["data"]["evidence"] for oid, row in kb.store.get_rows(h[0] for h in hits if h[2].get("kind") == "fact").items()}
             if through_facts else {})
    ranking: dict[str, None] = {}
    docs = kb.docs()
    for oid, _, payload in hits:
        if payload.get("kind") in kinds:
            ranking.setdefault(oid)
        for loc in cited.get(oid, ()):
            if loc in docs:  # a prose sentence (a caption or table row is evidence, not a retrieval hit)
                ranking.setdefault(loc)
    return list(ranking)[:pool]


def select(view: View, *, kinds: list[str] | None = None, papers: list[str] | None = None, verification: list[str] | None = None,
           lifecycle: list[str] | None = None, category: str | None = None, fact_types: list[str] | None = None,
           text: str | None = None) -> View:
    def keep(i: ViewItem) -> bool:
        return ((not kinds or i.kind in kinds) and (not papers or i.paper_id in papers)
                and (not verification or i.verification in verification) and (not lifecycle or i.lifecycle in lifecycle)
                and (not category or category in i.data.get("category_id", "") or category in i.data.get("scope", {}).get("topic", ""))
                and (not fact_types or i.data.get("type") in fact_types)
                and (not text or re.search(re.escape(text), i.text, re.I) is not None))

    args = {k: v for k, v in dict(kinds=kinds, papers=papers, verification=verification, lifecycle=lifecycle,
                                   category=category, fact_types=fact_types, text=text).items() if v}
    return View(query=view.query, items=[i for i in view.items if keep(i)], trace=view.trace + [f"select({args})"])


def expand(kb: KnowledgeBase, view: View, follow: tuple[str, ...] = ("evidence",), neighbours: int = 0, limit: int = 50) -> View:
    """Follow evidence (to sentences, ± neighbours), basis, relations, aliases→mentions, category members."""
    seen = set(view.ids())
    wanted: dict[str, str] = {}  # id → how it was reached, in the order reached

    def add(oid: str, via: str) -> None:
        if oid not in seen:
            wanted.setdefault(oid, via)

    with kb.store.connect():
        _follow(kb, view, follow, neighbours, add)
        added = kb.items([(oid, 0.0, via) for oid, via in wanted.items()])[:limit]
    return View(query=view.query, items=view.items + added, trace=view.trace + [f"expand(follow={list(follow)}, +{len(added)})"])


def _follow(kb: KnowledgeBase, view: View, follow: tuple[str, ...], neighbours: int, add) -> None:
    for item in list(view.items):
        if "evidence" in follow:
            for loc in item.locators:
                paper, sid = loc.rsplit(":", 1)
                for d in range(-neighbours, neighbours + 1):
                    add(f"{paper}:{int(sid) + d}", "expand:evidence")
        if "basis" in follow and item.kind == "synthesis":
            for b in item.data.get("basis", []):
                add(b["object_id"], f"expand:basis:{b['role']}")
        if "relations" in follow and item.kind in ("entity", "fact"):
            for r in kb.store.cited_by(item.id):
                if r["kind"] == "relation":
                    add(r["id"], "expand:relations")
        if "mentions" in follow and item.kind == "entity":
            for m in item.data.get("mentions", [])[:10]:
                add(m["fact_id"], "expand:mentions")
        if "categories" in follow and item.kind == "entity":
            for r in kb.store.cited_by(item.id):
                if r["kind"] == "assignment":
                    add(r["id"], "expand:categories")


def compare(view: View, dimensions: tuple[str, ...] = ("dataset", "metric", "conditions")) -> Comparison:
    """Align findings along dimensions; values measured under different conditions stay apart."""
    rows, groups = [], defaultdict(list)
    for item in view.of_kind("fact"):
        qs = item.data.get("quantities") or [{}]
        for q in qs:
            row = {"fact": item.id, "paper": item.paper_id, "subject": item.data.get("subject", ""),
                   "value": q.get("text", ""), "metric": q.get("metric", ""), "dataset": q.get("dataset", ""),
                   "conditions": "; ".join(item.conditions), "verification": item.verification,
                   "evidence": ", ".join(item.locators)}
            rows.append(row)
            key = " | ".join(f"{d}={row.get(d, '') or '-'}" for d in dimensions)
            groups[key].append(item.id)
    return Comparison(dimensions=list(dimensions), rows=rows, groups=dict(groups))


def refresh(kb: KnowledgeBase, view: View) -> View:
    """The view's items re-read from the store by id: text, evidence and states as registered, so a
    view that travelled through a client cannot carry altered text into a synthesis."""
    items = kb.items([(it.id, it.score, it.via) for it in view.items])
    return View(query=view.query, items=items, trace=view.trace + [f"refresh(-{len(view.items) - len(items)} unknown)"])


def synthesize(view: View, question: str) -> Synthesis:
    """An extractive candidate synthesis over the view's facts: unregistered until register()."""
    facts = view.of_kind("fact")
    if not facts:
        raise ValueError("the view has no facts to synthesise from; retrieve or expand first")
    lines, basis = [], []
    for f in facts[:8]:
        role = BasisRole.limiting if f.data.get("type") == "limitation" else BasisRole.supporting
        basis.append(BasisItem(object_id=f.id, role=role, note=f.data.get("subject", "")))
        lines.append(f"{f.text} [{f.id} @ {f.locators[0] if f.locators else '?'}]")
    studies = sorted({f.paper_id for f in facts[:8]})
    conds = sorted({c for f in facts[:8] for c in f.conditions})[:8]
    return Synthesis(synthesis_type=SynthesisKind.method_family, account=f"On '{question}': " + " ".join(lines),
                     scope=Scope(topic=question[:200], conditions=conds, studies=studies), basis=basis,
                     review_state=ReviewState.candidate, provenance=Provenance(producer="views.synthesize", task="synthesize"))


def render(view: View, budget: int = 4000, window: int = 1200, per_lookup: int = 3) -> str:
    """Text under a character budget; long records become query-focused windows; locators kept."""
    terms = [t for t in re.findall(r"\w+", view.query.lower()) if len(t) > 3]
    out, used, per_kind = [], 0, defaultdict(int)
    for it in view.items:
        if per_kind[it.kind] >= per_lookup and it.via == "retrieve":
            continue
        text = it.text
        if len(text) > window:
            pos = min((text.lower().find(t) for t in terms if t in text.lower()), default=0)
            start = max(0, pos - window // 3)
            text = ("…" if start else "") + text[start:start + window] + "…"
        meta = [it.kind, it.id]
        if it.verification:
            meta.append(it.verification)
        if it.locators:
            meta.append("@" + ",".join(it.locators[:3]))
        line = f"[{' | '.join(meta)}] {text}" + (f" (conditions: {'; '.join(it.conditions[:3])})" if it.conditions else "")
        if used + len(line) > budget:
            break
        out.append(line)
        used += len(line) + 1
        per_kind[it.kind] += 1
    return "\n".join(out)
