"""Keep the vector index in step with the store: sentences, facts, entities and syntheses.

Each indexed document carries a hash of its text; a sync embeds only what is new or changed and
deletes what was withdrawn or revised away, so a one-paper revision costs one paper's vectors."""

from __future__ import annotations

import sys
import time
from typing import Any

from ..models.common import stable_hash
from ..models.text import INDEXED_KINDS, index_text
from ..store import Store
from .embed import Embedder
from .vectors import VectorIndex


def collection_for(embedder: Embedder) -> str:
    return f"objects_{embedder.name}"


def documents(store: Store, kinds: tuple[str, ...] = INDEXED_KINDS) -> dict[str, tuple[str, dict[str, str]]]:
    """id → (text, payload) for everything that should be in the index now."""
    docs: dict[str, tuple[str, dict[str, str]]] = {}
    if "sentence" in kinds:
        for loc, paper, text in store.prose_sentences():
            docs[loc] = (text, {"kind": "sentence", "paper_id": paper})
    for kind in kinds:
        if kind == "sentence":
            continue
        for row in store.objects(kind):
            docs[row["id"]] = (index_text(kind, row["data"]), {"kind": kind, "paper_id": row["paper_id"] or ""})
    for oid, (text, payload) in docs.items():
        payload["hash"] = stable_hash(text, 12)
    return docs


def sync_index(store: Store, index: VectorIndex, embedder: Embedder, kinds: tuple[str, ...] = INDEXED_KINDS,
               batch: int = 2048, progress: bool = False) -> dict[str, Any]:
    started = time.perf_counter()
    coll = collection_for(embedder)
    docs = documents(store, kinds)
    have = index.ids(coll)
    todo = [oid for oid, (_, p) in docs.items() if have.get(oid) != p["hash"]]
    gone = [oid for oid in have if oid not in docs]
    if gone:
        index.delete(coll, gone)
    fit = getattr(embedder, "fit", None)
    if fit is not None and getattr(embedder, "_model", True) is None and docs:
        fit([t for t, _ in docs.values()])  # TF-IDF: fit once on the whole collection
    from tqdm import tqdm

    for i in tqdm(range(0, len(todo), batch), desc="index", unit="batch", disable=not progress, file=sys.stderr, leave=False):
        ids = todo[i:i + batch]
        vecs = embedder.encode([docs[o][0] for o in ids])
        index.upsert(coll, ids, vecs, [docs[o][1] for o in ids])
    return {"indexed": len(todo), "deleted": len(gone), "total": len(docs), "collection": coll,
            "embedder": embedder.name, "seconds": round(time.perf_counter() - started, 2)}
