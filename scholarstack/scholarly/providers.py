"""arXiv, OpenAlex and Semantic Scholar clients (search by query, fetch by id, references), each
returning the same PaperMeta; plus query normalisation into each provider's syntax."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import httpx
from pydantic import BaseModel, Field

from ..ingest.records import PaperRecord, Section, safe_paper_id
from .http import CachedHttp, ProviderError


class PaperMeta(BaseModel):
    provider: str
    id: str
    title: str = ""
    abstract: str = ""
    authors: list[str] = Field(default_factory=list)
    year: int | None = None
    ids: dict[str, str] = Field(default_factory=dict, description="doi, arxiv, openalex, s2")
    references: list[str] = Field(default_factory=list, description="provider ids of referenced works")
    bibliography: list[str] = Field(default_factory=list, description="raw bibliography entries, when the text is at hand")

    def to_record(self) -> PaperRecord:
        pid = safe_paper_id(f"{self.provider}-{self.id.rsplit('/', 1)[-1]}")
        return PaperRecord(paper_id=pid, title=self.title, authors=self.authors, year=self.year, source_format=self.provider,
                           source=f"{self.provider}:{self.id}", abstract=Section(title="abstract", text=self.abstract) if self.abstract else None,
                           external_ids=self.ids)


def norm_title(title: str) -> str:
    """A title for identity matching: lower case, punctuation and spacing folded."""
    return re.sub(r"[^a-z0-9]+", " ", title.lower()).strip()


def normalize_query(provider: str, keywords: list[str]) -> str:
    """Keywords → the provider's query syntax (phrases quoted; arXiv fields and boolean AND)."""
    terms = [" ".join(k.split()) for k in keywords if k and k.strip()]
    if not terms:
        raise ValueError("no keywords to search for")
    if provider == "arxiv":
        return " AND ".join(f'all:"{t}"' if " " in t else f"all:{t}" for t in terms)
    if provider == "openalex":
        return " ".join(f'"{t}"' if " " in t else t for t in terms)
    if provider == "s2":
        return " ".join(re.sub(r"[^\w\s\-]", " ", t) for t in terms)
    raise ValueError(f"unknown provider {provider!r}")


ATOM = "{http://www.w3.org/2005/Atom}"


class ArxivProvider:
    name = "arxiv"
    base = "https://export.arxiv.org/api/query"

    def __init__(self, http: CachedHttp):
        self.http = http

    def _parse(self, text: str) -> list[PaperMeta]:
        try:
            root = ET.fromstring(text)
        except ET.ParseError as exc:
            raise ProviderError(f"arxiv: malformed Atom feed ({exc})") from exc
        out = []
        for e in root.findall(f"{ATOM}entry"):
            raw_id = (e.findtext(f"{ATOM}id") or "").rsplit("/abs/", 1)[-1]
            aid = re.sub(r"v\d+$", "", raw_id)
            published = e.findtext(f"{ATOM}published") or ""
            out.append(PaperMeta(provider="arxiv", id=aid, title=" ".join((e.findtext(f"{ATOM}title") or "").split()),
                                 abstract=" ".join((e.findtext(f"{ATOM}summary") or "").split()),
                                 authors=[a.findtext(f"{ATOM}name") or "" for a in e.findall(f"{ATOM}author")],
                                 year=int(published[:4]) if published[:4].isdigit() else None, ids={"arxiv": aid}))
        return out

    async def search(self, query: str, limit: int = 20) -> list[PaperMeta]:
        return self._parse(await self.http.get(self.base, {"search_query": query, "max_results": limit}, kind="text"))

    async def get(self, paper_id: str) -> PaperMeta:
        found = self._parse(await self.http.get(self.base, {"id_list": paper_id}, kind="text"))
        if not found:
            raise ProviderError(f"arxiv: no paper {paper_id}")
        return found[0]


def _openalex_abstract(inv: dict[str, list[int]] | None) -> str:
    if not inv:
        return ""
    pos = sorted((p, w) for w, ps in inv.items() for p in ps)
    return " ".join(w for _, w in pos)


class OpenAlexProvider:
    name = "openalex"
    base = "https://api.openalex.org"

    def __init__(self, http: CachedHttp):
        self.http = http

    @staticmethod
    def _meta(w: dict[str, Any]) -> PaperMeta:
        if not isinstance(w, dict) or "id" not in w:
            raise ProviderError("openalex: a work without an id")
        ids = {k: str(v) for k, v in (w.get("ids") or {}).items() if v}
        return PaperMeta(provider="openalex", id=w["id"].rsplit("/", 1)[-1], title=w.get("title") or w.get("display_name") or "",
                         abstract=_openalex_abstract(w.get("abstract_inverted_index")),
                         authors=[(a.get("author") or {}).get("display_name", "") for a in w.get("authorships") or []],
                         year=w.get("publication_year"), ids=ids,
                         references=[r.rsplit("/", 1)[-1] for r in w.get("referenced_works") or []])

    async def search(self, query: str, limit: int = 20) -> list[PaperMeta]:
        body = await self.http.get(f"{self.base}/works", {"search": query, "per-page": limit})
        if not isinstance(body, dict) or not isinstance(body.get("results"), list):
            raise ProviderError("openalex: search answer has no results list")
        return [self._meta(w) for w in body["results"]]

    async def get(self, paper_id: str) -> PaperMeta:
        return self._meta(await self.http.get(f"{self.base}/works/{paper_id}"))


class SemanticScholarProvider:
    name = "s2"
    base = "https://api.semanticscholar.org/graph/v1"
    fields = "title,abstract,authors,year,externalIds"

    def __init__(self, http: CachedHttp):
        self.http = http

    @staticmethod
    def _meta(p: dict[str, Any]) -> PaperMeta:
        if not isinstance(p, dict) or not p.get("paperId"):
            raise ProviderError("s2: a paper without a paperId")
        ext = {k.lower(): str(v) for k, v in (p.get("externalIds") or {}).items() if v}
        refs = [r["paperId"] for r in p.get("references") or [] if isinstance(r, dict) and r.get("paperId")]
        return PaperMeta(provider="s2", id=p["paperId"], title=p.get("title") or "", abstract=p.get("abstract") or "",
                         authors=[a.get("name", "") for a in p.get("authors") or []], year=p.get("year"),
                         ids=ext | {"s2": p["paperId"]}, references=refs)

    async def search(self, query: str, limit: int = 20) -> list[PaperMeta]:
        body = await self.http.get(f"{self.base}/paper/search", {"query": query, "limit": limit, "fields": self.fields})
        if not isinstance(body, dict) or not isinstance(body.get("data", []), list):
            raise ProviderError("s2: search answer has no data list")
        return [self._meta(p) for p in body.get("data", [])]

    async def get(self, paper_id: str) -> PaperMeta:
        return self._meta(await self.http.get(f"{self.base}/paper/{paper_id}", {"fields": self.fields + ",references.paperId"}))


PROVIDERS = {"arxiv": ArxivProvider, "openalex": OpenAlexProvider, "s2": SemanticScholarProvider}


def make_provider(name: str, cache_dir: str | Path | None = None, transport: httpx.AsyncBaseTransport | None = None, **http: Any):
    if name not in PROVIDERS:
        raise ValueError(f"unknown provider {name!r} (arxiv, openalex, s2)")
    return PROVIDERS[name](CachedHttp(name, cache_dir, transport, **http))
