"""Co-authorship distance between a query paper and what is cited for it (the deep-search paper's
Table 4, on the unarXive sample's local co-authorship graph).

The sample's 49 papers carry author lists, and their 1,786 references raw strings whose authors
`search.authors` reads. The co-authorship graph joins the authors of every paper and every
reference in the sample; the candidate pool is every reference in it. For each query paper (title
and abstract) the human reference list is compared with each re-ranker's top N of the pool, N the
number of the paper's references (matched top-N_P, as in the paper): the share of (query,
candidate) pairs at distance d = 0 (a shared author), 1, 2, 3 and ≥ 4. The graph is local, so
distances past 1 are longer than on OpenAlex's; d = 0 (citing oneself) is exact up to the reading
of names.
"""

from __future__ import annotations

import ast
import gzip
import json
from pathlib import Path
from typing import Any

from scholarstack.models.common import stable_hash
from scholarstack.scholarly.providers import PaperMeta
from scholarstack.search.authors import author_key, reference_authors
from scholarstack.search.metrics import AuthorGraph
from scholarstack.search.pipeline import Candidate
from scholarstack.search.rerank import make_reranker, rerank

from .papers import spread

CAP = 4  # distances of 4 or more (and no path) count together, as in the paper
RERANKERS = ("embedding", "lexical", "relevance")


def _field(value):
    return ast.literal_eval(value) if isinstance(value, str) else value


def read_sample(path: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The sample's papers (id, text, authors, parsed references) and how many references gave authors."""
    papers, refs, parsed = [], 0, 0
    with gzip.open(path, "rt") as fh:
        for line in fh:
            row = json.loads(line)
            meta = _field(row["metadata"])
            authors = {author_key(last, first) for last, first, *_ in meta.get("authors_parsed", [])}
            abstract = _field(row["abstract"]).get("text", "") if row.get("abstract") else ""
            cited = []
            for entry in _field(row["bib_entries"]).values():
                raw = " ".join(entry["bib_entry_raw"].split())
                refs += 1
                if names := reference_authors(raw):
                    parsed += 1
                    cited.append({"id": "bib_" + stable_hash(raw, 12), "raw": raw, "authors": set(names)})
            papers.append({"id": row["paper_id"], "text": f"{meta.get('title', '')}. {' '.join(abstract.split())}",
                           "authors": authors, "refs": cited, "discipline": row.get("discipline", "")})
    return papers, {"references": refs, "with_authors": parsed}


def _shares(distances: list[int]) -> dict[str, float]:
    n = max(1, len(distances))
    out = {f"d={d}" if d < CAP else f"d>={CAP}": round(sum(x == d for x in distances) / n, 4) for d in range(CAP + 1)}
    return out | {"d<=1": round(sum(x <= 1 for x in distances) / n, 4), "pairs": len(distances)}


def eval_coauthorship(path: Path, limit: int | None = None, embedder=None, min_refs: int = 5,
                      rerankers: tuple[str, ...] = RERANKERS) -> dict[str, Any]:
    from scholarstack.index.embed import TfidfSvdEmbedder

    papers, reading = read_sample(path)
    graph = AuthorGraph([p["authors"] for p in papers] + [r["authors"] for p in papers for r in p["refs"]])
    pool = {r["id"]: r for p in papers for r in p["refs"]}
    queries = spread([p for p in papers if p["authors"] and len(p["refs"]) >= min_refs], limit)
    embedder = embedder or TfidfSvdEmbedder()
    if getattr(embedder, "_model", True) is None:
        embedder.fit([r["raw"] for r in pool.values()] + [p["text"] for p in papers])
    distances: dict[str, list[int]] = {"human references": []} | {name: [] for name in rerankers}
    overlap: dict[str, float] = {name: 0.0 for name in rerankers}
    cands = [Candidate(id=i, paper=PaperMeta(provider="unarxive-bib", id=i, title=r["raw"]), depth=1, found_by="sample bibliographies")
             for i, r in pool.items()]  # every ranking rescores them all
    for q in queries:
        human = {r["id"] for r in q["refs"]}
        distances["human references"] += [graph.distance(q["authors"], pool[i]["authors"], CAP) for i in human]
        for name in rerankers:
            top = [c.id for c in rerank(q["text"], cands, make_reranker(name, embedder))[:len(human)]]
            distances[name] += [graph.distance(q["authors"], pool[i]["authors"], CAP) for i in top]
            overlap[name] += len(human & set(top)) / len(human)
    n = max(1, len(queries))
    systems = {name: _shares(d) | ({"human_references_in_top_n": round(overlap[name] / n, 4)} if name in overlap else {})
               for name, d in distances.items()}
    return {"data": str(path), "queries": len(queries), "pool": len(pool), "graph_authors": len(graph.adjacent),
            "references_read": reading, "systems": systems}
