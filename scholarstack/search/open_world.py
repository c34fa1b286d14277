"""Open-world retrieval guided by the views: the store plans the queries, the scholarly providers
answer them, and each candidate is checked against the request's conditions from its abstract.

Planning: the request's keyphrases, then each named entity (learned tagger) with the aliases its
canonical L2 entity has gathered, then the taxonomy categories the store files those entities
under (broader terms). Conditions: every entity the request names (any alias satisfies it) and a
year bound ("since 2018", "before 2010"). Candidates come in tiers: meets all, meets some,
related (found by a planned query, meets none), each with the reason. A transcript (plan, queries
per provider, candidates and decisions) is written under the store; found papers can be ingested.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, PrivateAttr

from ..scholarly.providers import PaperMeta
from ..store import Store
from .keywords import keyphrases
from .pipeline import IdentityIndex, _gather_limited, query_for

YEAR_BOUND = re.compile(r"\b(since|after|from|before|until|prior to)\s+((?:19|20)\d\d)\b", re.I)
Tier = Literal["meets all", "meets some", "related"]


class Condition(BaseModel):
    text: str = Field(..., description="what the request asks for, as it says it")
    terms: list[str] = Field(default_factory=list, description="spellings that satisfy it: the name and its aliases in the store")
    year: tuple[int, int] | None = Field(None, description="an inclusive year range instead of terms")


class Plan(BaseModel):
    request: str
    queries: list[str]
    conditions: list[Condition]
    expansions: dict[str, list[str]] = Field(default_factory=dict, description="entity → aliases and categories the views added")


class Found(BaseModel):
    id: str
    provider: str
    title: str
    year: int | None = None
    tier: Tier
    met: list[str] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)
    query: str = Field("", description="the planned query that found it")
    reason: str = ""


class OpenWorldResult(BaseModel):
    plan: Plan
    found: list[Found]
    provider_queries: list[dict] = Field(default_factory=list, description="provider, query in its syntax, results or error")
    transcript: str = ""
    ingested: list[str] = Field(default_factory=list)
    registration: dict = Field(default_factory=dict, description="the judgement recording the result")
    seconds: float = 0.0
    _papers: dict[str, PaperMeta] = PrivateAttr(default_factory=dict)  # what the providers returned, for ingesting


def _entity_aliases(store: Store) -> dict[str, tuple[list[str], str | None]]:
    """lower-case name or alias → (the canonical entity's names, one taxonomy category name it is filed under)."""
    from ..writing.organisation import category_names

    names_of = category_names(store)
    category_of: dict[str, str] = {}
    for row in store.objects("assignment"):
        category_of.setdefault(row["data"]["entity_id"], names_of.get(row["data"]["category_id"], ""))
    out: dict[str, tuple[list[str], str | None]] = {}
    for row in store.objects("entity"):
        names = list(dict.fromkeys([row["data"]["name"], *row["data"].get("aliases", [])]))
        for n in names:
            out.setdefault(n.lower(), (names, category_of.get(row["id"]) or None))
    return out


def plan_queries(store: Store, request: str, max_queries: int = 6) -> Plan:
    from ..l2.mentions import extract_mentions
    from ..tasks.common import check_text_input

    request = check_text_input(request, "request", 5000)
    known = _entity_aliases(store)
    conditions, queries, expansions = [], [" ".join(keyphrases(request, 4))], {}
    categories: list[str] = []
    for m in extract_mentions(YEAR_BOUND.sub(" ", request)):
        names, category = known.get(m.text.lower(), ([m.text], None))
        terms = list(dict.fromkeys([m.text, *names]))[:6]
        if any(c.text.lower() == m.text.lower() for c in conditions):
            continue
        conditions.append(Condition(text=m.text, terms=terms))
        queries.append(" OR ".join(f'"{t}"' if " " in t else t for t in terms[:3]))
        if len(terms) > 1 or category:
            expansions[m.text] = terms[1:] + ([f"category: {category}"] if category else [])
        if category and category not in categories:
            categories.append(category)
    queries += [f"{c} {conditions[0].text}" if conditions else c for c in categories[:2]]
    for word, year in YEAR_BOUND.findall(request):
        y = int(year)
        span = (y, 9999) if word.lower() in ("since", "after", "from") else (0, y if word.lower() == "until" else y - 1)
        conditions.append(Condition(text=f"{word.lower()} {year}", year=span))
    return Plan(request=request, queries=list(dict.fromkeys(q for q in queries if q.strip()))[:max_queries],
                conditions=conditions, expansions=expansions)


def check(paper: PaperMeta, conditions: list[Condition]) -> tuple[list[str], list[str]]:
    """(conditions met, conditions missing) by the paper's title and abstract (and year)."""
    text = f" {paper.title} {paper.abstract} ".lower()
    met, missing = [], []
    for c in conditions:
        if c.year is not None:
            ok = paper.year is not None and c.year[0] <= paper.year <= c.year[1]
        else:
            ok = any(re.search(rf"(?<![a-z0-9]){re.escape(t.lower())}(?![a-z0-9])", text) for t in c.terms)
        (met if ok else missing).append(c.text)
    return met, missing


async def open_world_search(store: Store, request: str, providers: list, per_query: int = 20, budget: int = 100) -> OpenWorldResult:
    started = time.perf_counter()
    plan = plan_queries(store, request)
    searches = [(p, q, query_for(p.name, q.replace(" OR ", " "))) for p in providers for q in plan.queries]
    results = await _gather_limited([p.search(asked, per_query) for p, _, asked in searches], 8)
    ident, found, calls = IdentityIndex(), {}, []
    for (p, q, asked), res in zip(searches, results):
        calls.append({"provider": p.name, "query": asked, **({"error": str(res)} if isinstance(res, Exception) else {"results": len(res)})})
        if isinstance(res, Exception):
            continue
        for meta in res:
            cid, new = ident.add(meta)
            if new and len(found) < budget:
                met, missing = check(meta, plan.conditions)
                on_topic = [m for m in met if not any(c.year and c.text == m for c in plan.conditions)]  # a year alone is no match
                tier: Tier = "meets all" if not missing else "meets some" if on_topic else "related"
                reason = (f"meets {', '.join(met)}" if met else "found by a planned query") + (f"; missing {', '.join(missing)}" if missing else "")
                found[cid] = Found(id=meta.id, provider=meta.provider, title=meta.title, year=meta.year, tier=tier, met=met,
                                   missing=missing, query=q, reason=reason)
    order = {"meets all": 0, "meets some": 1, "related": 2}
    ranked = sorted(found.values(), key=lambda f: (order[f.tier], -len(f.met)))
    result = OpenWorldResult(plan=plan, found=ranked, provider_queries=calls, seconds=round(time.perf_counter() - started, 3))
    result._papers = {f.id: ident.papers[cid] for cid, f in found.items()}
    return result


def save_transcript(store: Store, result: OpenWorldResult) -> Path:
    from ..models.common import stable_hash

    out = store.home / "open_world" / f"{time.strftime('%Y%m%dT%H%M%S')}-{stable_hash(result.plan.request, 8)}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result.model_dump(mode="json", exclude={"transcript"}), indent=1))
    return out


def ingest_found(store: Store, result: OpenWorldResult, tiers: tuple[str, ...] = ("meets all",)) -> list[str]:
    """Ingest the found papers of `tiers` (title and abstract) into the store; their ids."""
    from ..ingest.catalog import ingest_records

    records = [result._papers[f.id].to_record() for f in result.found if f.tier in tiers and f.id in result._papers]
    return ingest_records(store, records)["paper_ids"] if records else []


def run_open_world(store: Store, request: str, providers: list, ingest: tuple[str, ...] = (), per_query: int = 20,
                   budget: int = 100) -> OpenWorldResult:
    """Search, record the transcript, ingest the chosen tiers."""
    result = asyncio.run(open_world_search(store, request, providers, per_query, budget))
    if ingest:
        result.ingested = ingest_found(store, result, ingest)
    result.transcript = str(save_transcript(store, result))
    result.registration = register_result(store, result, [p.name for p in providers])
    return result


def register_result(store: Store, result: OpenWorldResult, providers: list[str]) -> dict:
    """The result as a task-derived judgement: tiers and reasons, the plan, the transcript's path and
    what it ingested (ingested papers are compiled later, so they are named, not cited)."""
    from ..models import Judgement, JudgementTask
    from ..tasks.memory import register_output, with_versions

    counts = {t: sum(f.tier == t for f in result.found) for t in ("meets all", "meets some", "related")}
    judgement = Judgement(task_name=JudgementTask.open_world_search, request=result.plan.request,
                          settings=f"providers={','.join(sorted(providers))}",
                          answer="; ".join(f"{n} {t}" for t, n in counts.items()),
                          details={"found": [f.model_dump(mode="json") for f in result.found[:50]], "queries": result.plan.queries,
                                   "conditions": [c.text for c in result.plan.conditions], "transcript": result.transcript,
                                   "ingested": result.ingested})
    return register_output(store, with_versions(store, judgement), JudgementTask.open_world_search.value)
