"""The vector index, one interface with two implementations:

- `SegmentIndex` (embedded default): vectors in append-only float32 segments (`.npy`, memory-
  mapped) with a table of live ids; a revision writes a small new segment and tombstones the old
  rows, compaction rewrites when a third is dead. Opening 200k vectors is a file map, a query one
  matrix product: no per-point commits, unlike Qdrant's local path mode.
- `QdrantIndex`: a Qdrant server or cluster (`url=…`), or `":memory:"` for tests; same calls.

Payloads are flat string fields (kind, paper_id, …), and filters are equality or membership on them.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any, Protocol

import numpy as np

Hit = tuple[str, float, dict[str, Any]]


class VectorIndex(Protocol):
    def upsert(self, collection: str, ids: list[str], vectors: np.ndarray, payloads: list[dict[str, Any]]) -> None: ...
    def delete(self, collection: str, ids: list[str]) -> None: ...
    def search(self, collection: str, vector: np.ndarray, k: int = 10, where: dict[str, Any] | None = None) -> list[Hit]: ...
    def ids(self, collection: str) -> dict[str, str]: ...  # id → content hash stored in the payload


class SegmentIndex:
    def __init__(self, root: str | Path):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self._cache: dict[str, tuple[list[np.ndarray], list[str], list[dict], np.ndarray]] = {}
        self._columns: dict[str, dict[str, np.ndarray]] = {}

    def _dir(self, collection: str) -> Path:
        d = self.root / collection
        d.mkdir(parents=True, exist_ok=True)
        return d

    def _manifest(self, collection: str) -> dict[str, Any]:
        path = self._dir(collection) / "manifest.json"
        return json.loads(path.read_text()) if path.exists() else {"segments": [], "live": {}}

    def _save(self, collection: str, manifest: dict[str, Any]) -> None:
        path = self._dir(collection) / "manifest.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(manifest))
        tmp.replace(path)  # the manifest switch is atomic: readers see the old or the new state
        self._cache.pop(collection, None)
        self._columns.pop(collection, None)

    def upsert(self, collection: str, ids: list[str], vectors: np.ndarray, payloads: list[dict[str, Any]]) -> None:
        if not ids:
            return
        m = self._manifest(collection)
        name = f"seg_{uuid.uuid4().hex[:12]}"
        d = self._dir(collection)
        np.save(d / f"{name}.npy", np.asarray(vectors, dtype=np.float32))
        (d / f"{name}.json").write_text(json.dumps({"ids": ids, "payloads": payloads}))
        m["segments"].append(name)
        for row, oid in enumerate(ids):
            m["live"][oid] = [name, row]
        self._save(collection, m)
        self._maybe_compact(collection)

    def delete(self, collection: str, ids: list[str]) -> None:
        m = self._manifest(collection)
        for oid in ids:
            m["live"].pop(oid, None)
        self._save(collection, m)

    def _load(self, collection: str):
        if collection in self._cache:
            return self._cache[collection]
        m = self._manifest(collection)
        d = self._dir(collection)
        mats, ids, payloads, keep = [], [], [], []
        for name in m["segments"]:
            mat = np.load(d / f"{name}.npy", mmap_mode="r")
            meta = json.loads((d / f"{name}.json").read_text())
            for row, oid in enumerate(meta["ids"]):
                keep.append(m["live"].get(oid) == [name, row])
            mats.append(mat)
            ids += meta["ids"]
            payloads += meta["payloads"]
        entry = (mats, ids, payloads, np.array(keep, dtype=bool))
        self._cache[collection] = entry
        return entry

    def _maybe_compact(self, collection: str) -> None:
        mats, ids, payloads, keep = self._load(collection)
        if len(mats) < 8 and (len(keep) == 0 or keep.mean() > 0.67):
            return
        live = np.flatnonzero(keep)
        if not len(live):
            return
        full = np.concatenate([np.asarray(m) for m in mats])[live]
        old = self._manifest(collection)["segments"]
        d = self._dir(collection)
        name = f"seg_{uuid.uuid4().hex[:12]}"
        np.save(d / f"{name}.npy", full)
        live_ids = [ids[i] for i in live]
        (d / f"{name}.json").write_text(json.dumps({"ids": live_ids, "payloads": [payloads[i] for i in live]}))
        self._save(collection, {"segments": [name], "live": {oid: [name, r] for r, oid in enumerate(live_ids)}})
        for seg in old:
            for suffix in (".npy", ".json"):
                (d / f"{seg}{suffix}").unlink(missing_ok=True)

    def search(self, collection: str, vector: np.ndarray, k: int = 10, where: dict[str, Any] | None = None) -> list[Hit]:
        mats, ids, payloads, keep = self._load(collection)
        if not mats:
            return []
        scores = np.concatenate([np.asarray(m) @ np.asarray(vector, dtype=np.float32) for m in mats])
        mask = keep.copy()
        for key, want in (where or {}).items():
            col = self._column(collection, key, payloads)
            mask &= np.isin(col, list(want) if isinstance(want, (list, tuple, set)) else [want])
        scores = np.where(mask, scores, -np.inf)
        top = np.argsort(-scores)[:k]
        return [(ids[i], float(scores[i]), payloads[i]) for i in top if np.isfinite(scores[i])]

    def _column(self, collection: str, key: str, payloads: list[dict]) -> np.ndarray:
        cols = self._columns.setdefault(collection, {})
        if key not in cols:
            cols[key] = np.array([p.get(key) for p in payloads], dtype=object)
        return cols[key]

    def ids(self, collection: str) -> dict[str, str]:
        _, ids, payloads, keep = self._load(collection)
        return {ids[i]: payloads[i].get("hash", "") for i in np.flatnonzero(keep)}

    def count(self, collection: str) -> int:
        return int(self._load(collection)[3].sum())


class QdrantIndex:
    """A Qdrant server (`url`) or in-memory client; ids are mapped to UUIDs, the original kept in the payload."""

    def __init__(self, url: str | None = None, location: str | None = None, api_key: str | None = None):
        from qdrant_client import QdrantClient

        self.client = QdrantClient(url=url, api_key=api_key) if url else QdrantClient(location=location or ":memory:")

    @staticmethod
    def _uuid(oid: str) -> str:
        return str(uuid.uuid5(uuid.NAMESPACE_URL, oid))

    def _ensure(self, collection: str, dim: int) -> None:
        from qdrant_client import models

        if not self.client.collection_exists(collection):
            self.client.create_collection(collection, vectors_config=models.VectorParams(size=dim, distance=models.Distance.COSINE))

    def upsert(self, collection: str, ids: list[str], vectors: np.ndarray, payloads: list[dict[str, Any]]) -> None:
        from qdrant_client import models

        if not ids:
            return
        self._ensure(collection, int(np.asarray(vectors).shape[1]))
        for i in range(0, len(ids), 2000):
            self.client.upsert(collection, points=[
                models.PointStruct(id=self._uuid(oid), vector=np.asarray(vec, dtype=np.float32).tolist(), payload=p | {"oid": oid})
                for oid, vec, p in zip(ids[i:i + 2000], vectors[i:i + 2000], payloads[i:i + 2000])])

    def delete(self, collection: str, ids: list[str]) -> None:
        from qdrant_client import models

        if ids and self.client.collection_exists(collection):
            self.client.delete(collection, points_selector=models.PointIdsList(points=[self._uuid(i) for i in ids]))

    def search(self, collection: str, vector: np.ndarray, k: int = 10, where: dict[str, Any] | None = None) -> list[Hit]:
        from qdrant_client import models

        if not self.client.collection_exists(collection):
            return []
        conds = []
        for key, want in (where or {}).items():
            match = models.MatchAny(any=list(want)) if isinstance(want, (list, tuple, set)) else models.MatchValue(value=want)
            conds.append(models.FieldCondition(key=key, match=match))
        res = self.client.query_points(collection, query=np.asarray(vector, dtype=np.float32).tolist(), limit=k,
                                       query_filter=models.Filter(must=conds) if conds else None, with_payload=True)
        return [(p.payload["oid"], float(p.score), {k: v for k, v in p.payload.items() if k != "oid"}) for p in res.points]

    def ids(self, collection: str) -> dict[str, str]:
        if not self.client.collection_exists(collection):
            return {}
        out, offset = {}, None
        while True:
            points, offset = self.client.scroll(collection, limit=5000, offset=offset, with_payload=True, with_vectors=False)
            out |= {p.payload["oid"]: p.payload.get("hash", "") for p in points}
            if offset is None:
                return out


def open_index(home: str | Path, url: str | None = None) -> VectorIndex:
    return QdrantIndex(url=url) if url else SegmentIndex(Path(home) / "vectors")
