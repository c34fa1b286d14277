"""A local provider: searches the bundled corpora (and a compiled store) and knows their citation
graph, so the whole deep-search pipeline runs offline with the same calls as the web providers.

The ACL corpus's graph comes from its citing sentences: an edge citing → cited for every citance
whose citing paper is itself in the corpus. A paper can be hidden (its outgoing edges and itself),
so evaluating a query paper never reads its own reference list.
"""

from __future__ import annotations

import gzip
import json
from collections import defaultdict
from pathlib import Path

from ..scholarly.http import ProviderError
from ..ingest.records import anthology_year
from ..scholarly.providers import PaperMeta
from ..settings import shared_data_dir
from ..views.lexical import BM25


class LocalProvider:
    name = "local"

    def __init__(self, papers: dict[str, PaperMeta], citing: dict[str, set[str]] | None = None):
        self.papers = papers
        self.ids = sorted(papers)
        self._bm25: BM25 | None = None
        self.citing_index = citing or defaultdict(set)
        self.hidden: set[str] = set()
        self.calls = 0

    @classmethod
    def acl(cls, root: Path | None = None) -> "LocalProvider":
        root = root or shared_data_dir() / "acl_scisummnet"
        papers: dict[str, PaperMeta] = {}
        with gzip.open(root / "papers.jsonl.gz", "rt") as fh:
            for line in fh:
                d = json.loads(line)
                abstract = " ".join(s["text"] for s in d.get("abstract") or [])
                if not abstract and d.get("sections"):
                    abstract = " ".join(s["text"] for s in d["sections"][0]["sentences"][:5])
                papers[d["paper_id"]] = PaperMeta(provider="local", id=d["paper_id"], title=d.get("title") or "",
                                                  abstract=abstract, year=anthology_year(d["paper_id"]), ids={"acl": d["paper_id"]})
        citing: dict[str, set[str]] = defaultdict(set)
        for line in (root / "citances_dev.jsonl").read_text().splitlines():
            c = json.loads(line)
            if c["citing_paper_id"] in papers and c["cited_paper_id"] in papers and c["citing_paper_id"] != c["cited_paper_id"]:
                if c["cited_paper_id"] not in papers[c["citing_paper_id"]].references:
                    papers[c["citing_paper_id"]].references.append(c["cited_paper_id"])
                citing[c["cited_paper_id"]].add(c["citing_paper_id"])
        return cls(papers, citing)

    def hide(self, paper_id: str) -> None:
        """Remove a paper and its reference list from view (the query paper in an evaluation)."""
        self.hidden = {paper_id}
        self._bm25 = None

    def unhide(self) -> None:
        self.hidden = set()
        self._bm25 = None

    def _search_index(self) -> tuple[BM25, list[str]]:
        if self._bm25 is None:
            ids = [i for i in self.ids if i not in self.hidden]
            self._bm25 = BM25([f"{self.papers[i].title} {self.papers[i].abstract}" for i in ids])
            self._ids = ids
        return self._bm25, self._ids

    async def search(self, query: str, limit: int = 20) -> list[PaperMeta]:
        self.calls += 1
        bm, ids = self._search_index()
        return [self.papers[ids[i]] for i, _ in bm.top(query, limit)]

    async def get(self, paper_id: str) -> PaperMeta:
        self.calls += 1
        if paper_id in self.hidden or paper_id not in self.papers:
            raise ProviderError(f"local: no paper {paper_id}")
        return self.papers[paper_id]

    async def citing(self, paper_id: str) -> list[PaperMeta]:
        self.calls += 1
        return [self.papers[c] for c in sorted(self.citing_index.get(paper_id, ())) if c not in self.hidden]

    def references_of(self, paper_id: str) -> list[str]:
        return [] if paper_id in self.hidden else list(self.papers[paper_id].references) if paper_id in self.papers else []
