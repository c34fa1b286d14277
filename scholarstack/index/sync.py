"""Keep the vector index in step with the store: facts, entities, syntheses and sentences.

Each vector's payload carries a key of its content: the object's content hash (with the version
of `index_text`), or the md5 of the sentence's text. A sync reads those keys in SQL, embeds only
what is new or changed and deletes what was withdrawn or revised away, so a one-paper revision
costs one paper's vectors, and no object is parsed unless it is embedded. Which sentences are
embedded is `settings().index_sentences`: the front matter (default) or all; the lexical index
always holds every prose sentence."""

from __future__ import annotations

import sys
import time
from typing import Any, Literal

from ..models.text import INDEX_TEXT_VERSION, INDEXED_KINDS, index_text
from ..settings import settings
from ..store import Store
from .embed import Embedder
from .vectors import BUCKET, BUCKETS, VectorIndex, bucket


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
    return docs


def _texts(store: Store, wanted: list[tuple[str, str]]) -> dict[str, str]:
    """id → the text to embed, for these (id, kind); a sentence replaced meanwhile is left out (the next sync settles it)."""
    out = store.current_sentences([oid for oid, kind in wanted if kind == "sentence"])
    objects = [oid for oid, kind in wanted if kind != "sentence"]
    if objects:
        out |= {oid: index_text(row["kind"], row["data"]) for oid, row in store.get_rows(objects).items()}
    return out


def check_shard(shard: int, shards: int) -> None:
    if not 0 <= shard < shards:
        raise ValueError(f"shard {shard} of {shards}: a shard is 0 to {shards - 1}")


def shard_buckets(shard: int, shards: int) -> tuple[int, int]:
    """The buckets [lo, hi) that shard `shard` of `shards` holds: a contiguous range of a stable hash
    of the document id (`vectors.bucket`), so a shard reads its own documents' keys from the store
    and from the collection alone, and a withdrawn document is deleted by the shard that embedded it."""
    return shard * BUCKETS // shards, (shard + 1) * BUCKETS // shards


def sync_index(store: Store, index: VectorIndex, embedder: Embedder, kinds: tuple[str, ...] = INDEXED_KINDS,
               batch: int = 2048, progress: bool = False, sentences: Literal["front", "all"] | None = None,
               shard: int = 0, shards: int = 1) -> dict[str, Any]:
    """Embed what is new or changed, delete what left (sentences no longer chosen included);
    `sentences`: which sentences to embed (default: `settings().index_sentences`). `shard` of
    `shards`: only that share of the documents, so several machines can build one index on a
    Qdrant server together (`scholarstack index --shards N`)."""
    check_shard(shard, shards)
    fit = getattr(embedder, "fit", None)
    if shards > 1 and fit is not None:
        raise ValueError(f"the {embedder.name} embedder is fitted on the whole collection: shards would fit "
                         "different vocabularies (sync it unsharded, or use minilm)")
    started = time.perf_counter()
    coll = collection_for(embedder)
    sentences = sentences or settings().index_sentences
    buckets = None if shards == 1 else shard_buckets(shard, shards)
    want = {oid: (kind, paper, f"{(key or '')[:16]}.{INDEX_TEXT_VERSION}")
            for oid, kind, paper, key in store.index_keys(kinds, front_only=sentences == "front", buckets=buckets)}
    have = index.ids(coll, buckets)
    todo = [oid for oid, (_, _, key) in want.items() if have.get(oid) != key]
    gone = [oid for oid in have if oid not in want]
    if gone:
        index.delete(coll, gone)
    if fit is not None and getattr(embedder, "_model", True) is None and want:
        fit([t for t, _ in documents(store, kinds, sentences).values()])  # TF-IDF: fit once on the whole collection
    from tqdm import tqdm

    for i in tqdm(range(0, len(todo), batch), desc="index", unit="batch", disable=not progress, file=sys.stderr, leave=False):
        texts = _texts(store, [(oid, want[oid][0]) for oid in todo[i:i + batch]])
        ids = [oid for oid in todo[i:i + batch] if oid in texts]
        index.upsert(coll, ids, embedder.encode([texts[oid] for oid in ids]),
                     [{"kind": want[oid][0], "paper_id": want[oid][1], "hash": want[oid][2], BUCKET: bucket(oid)} for oid in ids])
    return {"indexed": len(todo), "deleted": len(gone), "total": len(want), "collection": coll,
            "embedder": embedder.name, "sentences": sentences, "shard": f"{shard} of {shards}",
            "seconds": round(time.perf_counter() - started, 2)}
