"""Deep literature search: keyword queries → providers → breadth-first expansion along references
(and optionally citing papers) up to depth D_max and paper budget N_max → deduplicated identities
→ re-ranking. Every candidate records how it was found (query or parent, depth)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from ..scholarly.http import ProviderError
from ..scholarly.providers import PaperMeta, norm_title, normalize_query
from .keywords import draft_queries


class IdentityIndex:
    """One identity per paper across providers: DOI, arXiv id, OpenAlex id, S2 id or normalised title."""

    def __init__(self) -> None:
        self.key_to_id: dict[str, str] = {}
        self.papers: dict[str, PaperMeta] = {}

    def keys(self, p: PaperMeta) -> list[str]:
        ks = [f"{p.provider}:{p.id}"]
        for name in ("doi", "arxiv", "openalex", "s2", "acl"):
            v = p.ids.get(name)
            if v:
                ks.append(f"{name}:{v.lower().removeprefix('https://doi.org/').removeprefix('https://openalex.org/')}")
        if p.title and len(norm_title(p.title)) > 15:
            ks.append("title:" + norm_title(p.title))
        return ks

    def add(self, p: PaperMeta) -> tuple[str, bool]:
        """(canonical id, is new)."""
        ks = self.keys(p)
        known = next((self.key_to_id[k] for k in ks if k in self.key_to_id), None)
        cid = known or ks[0]
        for k in ks:
            self.key_to_id.setdefault(k, cid)
        if known is None:
            self.papers[cid] = p
        else:  # merge what the other provider knows
            have = self.papers[cid]
            have.ids = {**p.ids, **have.ids}
            have.abstract = have.abstract or p.abstract
            have.references = have.references or p.references
        return cid, known is None


@dataclass
class Candidate:
    id: str
    paper: PaperMeta
    depth: int
    found_by: str
    score: float = 0.0
    scores: dict[str, float] = field(default_factory=dict)


@dataclass
class SearchResult:
    queries: list[str]
    query_origin: str
    candidates: list[Candidate]
    depth_counts: dict[int, int]
    provider_calls: dict[str, int]
    bibliography_resolved: dict[str, tuple[int, int]] = field(default_factory=dict)

    def ranked_ids(self) -> list[str]:
        return [c.paper.id for c in self.candidates]


def query_for(provider: str, query: str) -> str:
    """The query in the provider's syntax; the local provider takes plain words."""
    return normalize_query(provider, [query]) if provider in ("arxiv", "openalex", "s2") else query


async def _gather_limited(coros, limit: int) -> list[Any]:
    sem = asyncio.Semaphore(limit)

    async def run(c):
        async with sem:
            try:
                return await c
            except ProviderError as exc:
                return exc

    return await asyncio.gather(*(run(c) for c in coros))


DEFAULT_DEPTH = 3  # the paper's D_max: expansion stops earlier when the budget of papers is spent


async def deep_search(text: str, providers: list, depth: int = DEFAULT_DEPTH, budget: int = 200, per_query: int = 20,
                      citing: bool = False, client=None, queries: list[str] | None = None,
                      bibliography: list[str] | None = None) -> SearchResult:
    """`bibliography`: the query paper's own reference entries; each resolved by title against the
    providers becomes a seed beside the keyword results, so expansion starts from what the paper cites."""
    if not text or not text.strip():
        raise ValueError("empty query: give a research question or a paper")
    if depth < 0 or budget < 1:
        raise ValueError("depth must be ≥ 0 and budget ≥ 1")
    queries, origin = (queries, "given") if queries else draft_queries(text, client)
    ident = IdentityIndex()
    cands: dict[str, Candidate] = {}
    frontier: list[str] = []
    bib_resolved: dict[str, tuple[int, int]] = {}
    # Phase 1: keyword search on every provider, each query in that provider's syntax.
    searches = [(p, q) for p in providers for q in queries]
    results = await _gather_limited([p.search(query_for(p.name, q), per_query) for p, q in searches], 8)
    for (p, q), found in zip(searches, results):
        if isinstance(found, Exception):
            continue
        for meta in found:
            cid, new = ident.add(meta)
            if new and len(cands) < budget:
                cands[cid] = Candidate(cid, meta, 0, f"query: {q}")
                frontier.append(cid)
    if bibliography:  # the query paper's references, resolved by title on the first provider that knows them
        from .bibliography import resolve_entries

        open_entries = list(bibliography)
        for p in providers:
            if not open_entries:
                break
            resolved = await resolve_entries(open_entries, p)
            for raw, meta_, _ in resolved:
                if meta_ is None:
                    continue
                cid, new = ident.add(meta_)
                if new and len(cands) < budget:
                    cands[cid] = Candidate(cid, meta_, 0, "bibliography of the query paper")
                    frontier.append(cid)
            open_entries = [raw for raw, meta_, _ in resolved if meta_ is None]
        bib_resolved["query paper"] = (len(bibliography) - len(open_entries), len(bibliography))
    # Phase 2: breadth-first along references (and citing papers), level by level.
    for level in range(1, depth + 1):
        if len(cands) >= budget or not frontier:
            break
        nxt: list[str] = []
        for parent in frontier:
            prov = next((p for p in providers if p.name == cands[parent].paper.provider), providers[0])
            refs = cands[parent].paper.references
            if not refs and cands[parent].paper.bibliography:  # no reference list: resolve the bibliography's entries
                from .bibliography import resolve_entries

                resolved = await resolve_entries(cands[parent].paper.bibliography, prov)
                refs = [m.id for _, m, _ in resolved if m is not None]
                bib_resolved[parent] = (len(refs), len(resolved))
            metas = await _gather_limited([prov.get(r) for r in refs], 8)
            if citing and hasattr(prov, "citing"):
                cited_by = await prov.citing(cands[parent].paper.id)
                metas = list(metas) + list(cited_by)
            for meta in metas:
                if isinstance(meta, Exception):
                    continue
                cid, new = ident.add(meta)
                if new and len(cands) < budget:
                    cands[cid] = Candidate(cid, meta, level, f"{'reference' if meta.id in refs else 'citing'} of {cands[parent].paper.id}")
                    nxt.append(cid)
            if len(cands) >= budget:
                break
        frontier = nxt
    depth_counts: dict[int, int] = {}
    for c in cands.values():
        depth_counts[c.depth] = depth_counts.get(c.depth, 0) + 1
    calls = {p.name: getattr(p, "calls", getattr(getattr(p, "http", None), "calls", 0)) for p in providers}
    return SearchResult(queries, origin, list(cands.values()), depth_counts, calls, bib_resolved)
