"""A query adapter for literature retrieval: a linear map on MiniLM query vectors, learned from
citing sentences and the papers they cite.

W (384×384, starting at the identity) is trained with a softmax over every corpus paper as the
negatives (in-corpus InfoNCE; the corpus is small enough to score whole), with a pull towards
the identity. It learns how citing authors describe a paper, so it belongs with the citation
evidence: `scholarstack` uses it, `scholarstack_content` does not. The benchmark cross-fits it by
citing paper (a query's own citing paper never trains the adapter that ranks for it).
"""

from __future__ import annotations

import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

WEIGHTS = Path(__file__).parent / "weights" / "query_adapter.npz"


class QueryAdapter:
    def __init__(self, W: np.ndarray, doc_ids: list[str] | None = None, card: dict | None = None):
        self.W = W.astype(np.float32)
        self.doc_ids = doc_ids or []
        self.card = card or {}

    def apply(self, q: np.ndarray, citing: str | None = None) -> np.ndarray:
        v = q @ self.W
        return v / max(float(np.linalg.norm(v)), 1e-12)

    def save(self, path: Path = WEIGHTS) -> Path:
        import json

        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, W=self.W.astype(np.float16), card=np.array(json.dumps(self.card)),
                            doc_ids=np.array(self.doc_ids))
        load.cache_clear()
        return path


@lru_cache(maxsize=1)
def load(path: Path = WEIGHTS) -> QueryAdapter | None:
    """The committed adapter, once per process; None when absent (retrieval then runs without it)."""
    import json

    if not path.exists():
        return None
    z = np.load(path)
    return QueryAdapter(z["W"].astype(np.float32), [str(x) for x in z["doc_ids"]], json.loads(str(z["card"])))


def for_corpus(ids: list[str]) -> QueryAdapter | None:
    """The committed adapter when it was trained for (most of) this corpus: what it learned is how
    citing authors describe these papers, which says nothing about other papers."""
    adapter = load()
    if adapter is None or not ids:
        return None
    return adapter if len(set(ids) & set(adapter.doc_ids)) >= 0.5 * len(ids) else None


def train_from_shared(data_dir: Path, embedder, out: Path = WEIGHTS, seed: int = 0, limit: int | None = None) -> dict[str, Any]:
    """Train on every ACL ScisummNet citing sentence against the cited papers' titles and abstracts."""
    import json

    from ..ingest.corpora import read_acl

    root = data_dir / "acl_scisummnet"
    papers = [p for p in read_acl(root / "papers.jsonl.gz") if not isinstance(p, tuple) and (p.abstract or p.sections)]
    ids = [p.paper_id for p in papers]
    texts = [" ".join([p.title] + [t for _, t in (p.abstract.sentences if p.abstract else [])]) for p in papers]
    row = {p: i for i, p in enumerate(ids)}
    pairs = [json.loads(x) for x in (root / "citances_dev.jsonl").read_text().splitlines() if x.strip()]
    pairs = [p for p in pairs if p["cited_paper_id"] in row][:limit]
    docs = embedder.encode(texts)
    queries = embedder.encode([p["query"].replace("[CITATION]", " ") for p in pairs])
    adapter, card = train(queries, np.array([row[p["cited_paper_id"]] for p in pairs]), docs, seed=seed)
    adapter.doc_ids, adapter.card = ids, card | {"data": "acl_scisummnet/citances_dev.jsonl + papers.jsonl.gz"}
    adapter.save(out)
    return adapter.card | {"weights": out.name, "weights_bytes": out.stat().st_size}


def train(queries: np.ndarray, targets: np.ndarray, docs: np.ndarray, seed: int = 0, steps: int = 300,
          tau: float = 0.05, pull: float = 1e-3, batch: int = 256) -> tuple[QueryAdapter, dict[str, Any]]:
    """queries: (n, d) citing-sentence vectors; targets: (n,) row of each one's cited paper in docs (m, d)."""
    import torch

    t0 = time.time()
    torch.manual_seed(seed)
    d = docs.shape[1]
    Q, D, y = torch.from_numpy(queries), torch.from_numpy(docs), torch.from_numpy(targets).long()
    eye = torch.eye(d)
    W = torch.nn.Parameter(eye.clone())
    opt = torch.optim.Adam([W], lr=1e-3)
    for _ in range(steps if len(Q) else 0):
        b = torch.randint(0, len(Q), (min(batch, len(Q)),))
        q = torch.nn.functional.normalize(Q[b] @ W, dim=-1)
        loss = torch.nn.functional.cross_entropy(q @ D.T / tau, y[b]) + pull * ((W - eye) ** 2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    card = {"model": "query_adapter", "pairs": int(len(Q)), "papers": int(len(D)), "steps": steps, "tau": tau, "pull": pull,
            "seed": seed, "training_seconds": round(time.time() - t0, 1)}
    return QueryAdapter(W.detach().numpy(), card=card), card
