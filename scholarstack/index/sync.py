"""Keep the vector index in step with the store: facts, entities, syntheses and sentences.

Each indexed document carries a hash of its text; a sync embeds only what is new or changed and
deletes what was withdrawn or revised away, so a one-paper revision costs one paper's vectors.
Which sentences are embedded is `settings().index_sentences`: the front matter (default) or all;
the lexical index always holds every prose sentence."""

from __future__ import annotations

import sys
import time
from typing import Any

from typing import Literal

from ..models.common import stable_hash
from ..models.text import INDEXED_KINDS, index_text
from ..settings import settings
from ..store import Store
from .embed import Embedder
from .vectors import VectorIndex


def collection_for(embedder: Embedder) -> str:
    return f"objects_{embedder.name}"


def documents(store: Store, kinds: tuple[str, ...] = INDEXED_KINDS,
              sentences: Literal["front", "all"] = "all") -> dict[str, tuple[str, dict[str, str]]]:
    """id → (text, payload) for everything that should be in an index now; `sentences`: every
    prose sentence, or only the front matter's."""
    docs: dict[str, tuple[str, dict[str, str]]] = {}
    if "sentence" in kinds:
        for loc, paper, text in store.prose_sentences(front_only=sentences == "front"):
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
               batch: int = 2048, progress: bool = False, sentences: Literal["front", "all"] | None = None) -> dict[str, Any]:
    """Embed what is new or changed, delete what left (sentences no longer chosen included);
    `sentences`: which sentences to embed (default: `settings().index_sentences`)."""
    started = time.perf_counter()
    coll = collection_for(embedder)
    sentences = sentences or settings().index_sentences
    docs = documents(store, kinds, sentences)
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
            "embedder": embedder.name, "sentences": sentences, "seconds": round(time.perf_counter() - started, 2)}
