"""The vector index: Qdrant in both deployments, behind one small interface.

- `EdgeIndex` (embedded default): Qdrant Edge, the Qdrant engine in-process (`qdrant-edge-py`), one
  shard per collection under the store (`<store>/qdrant/<collection>`).
- `QdrantIndex`: a Qdrant server or cluster (`url=…`), or `":memory:"` for tests; same calls.

Both key points by a UUID derived from the object id and keep the id in the payload; payloads are
flat fields (kind, paper_id, …, and the id's integer `bucket`, by which an index shard reads its
own points), and filters are equality or membership on them.

Search is exact until a collection passes HNSW_FROM points: measured here, an exact query over
200k × 384 vectors takes ~30 ms, while building HNSW over them took minutes on 2 busy cores; past
that size a sync builds it once (`optimize`), and later upserts go to small plain segments.
"""

from __future__ import annotations

import hashlib
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..settings import settings

Hit = tuple[str, float, dict[str, Any]]
DENSE = "dense"  # the vector's name in both engines, so a collection reads the same embedded or on a server
INDEXED_PAYLOAD = ("kind", "paper_id")  # the fields views filter on: keyword-indexed in both engines
BUCKET = "bucket"  # an integer payload field, indexed: the document's bucket (`bucket`), what an index shard reads by
BUCKETS = 1 << 32
HNSW_FROM = 500_000
HNSW_EF = 256  # candidates an HNSW search keeps, once a shard has HNSW: recall@10 0.994 on MiniLM sentence vectors (benchmarks/vector_bench.py --hnsw)
IDLE_SECONDS = 1.0  # an open shard is closed after this long unused, so another process can open it
WAIT_SECONDS = 30.0  # how long to wait for a shard another process holds
REAP_EVERY = 0.25  # how often the reaper looks for idle shards (fixed: a changed IDLE_SECONDS applies at its next look)


class VectorIndex(Protocol):
    def upsert(self, collection: str, ids: list[str], vectors: np.ndarray, payloads: list[dict[str, Any]]) -> None: ...
    def delete(self, collection: str, ids: list[str]) -> None: ...
    def search(self, collection: str, vector: np.ndarray, k: int = 10, where: dict[str, Any] | None = None) -> list[Hit]: ...
    def ids(self, collection: str, buckets: tuple[int, int] | None = None) -> dict[str, str]: ...  # id → content hash stored in the payload
    def has(self, collection: str) -> bool: ...


def point_id(oid: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, oid))


def bucket(oid: str) -> int:
    """A document's bucket, 0 to BUCKETS - 1: the first 8 hex digits of the md5 of its id, which SQL
    computes alike on DuckDB and PostgreSQL (`Store.index_keys`)."""
    return int(hashlib.md5(oid.encode()).hexdigest()[:8], 16)


def _in(oid: str, payload: dict[str, Any], buckets: tuple[int, int] | None) -> bool:
    if buckets is None:
        return True
    b = payload.get(BUCKET)
    return buckets[0] <= (bucket(oid) if b is None else b) < buckets[1]  # the md5 only for a point without the field


class IndexBusyError(RuntimeError):
    pass


class _Shards:
    """The shards this process has open. A Qdrant Edge shard is exclusive to one process (its WAL
    is locked), so each is opened on first use and closed after IDLE_SECONDS unused: an MCP server
    keeps it warm between calls, and a compile in another process gets it once the server is idle."""

    def __init__(self):
        self._open: dict[Path, Any] = {}
        self._used: dict[Path, float] = {}
        self._lock = threading.RLock()
        self._reaper: threading.Thread | None = None

    def use(self, path: Path, dim: int | None = None):
        """The open shard at `path` (created with `dim`-sized vectors when given and absent; None
        when absent and no `dim`). Call under `lock`."""
        from qdrant_edge import Distance, EdgeConfig, EdgeShard, EdgeVectorParams, PayloadSchemaType, UpdateOperation

        shard = self._open.get(path)
        if shard is None:
            if not self.exists(path):
                if dim is None:
                    return None
                path.mkdir(parents=True, exist_ok=True)
                shard = EdgeShard.create(str(path), EdgeConfig(vectors={DENSE: EdgeVectorParams(size=dim, distance=Distance.Cosine)}))
                for field in INDEXED_PAYLOAD:  # a filtered search without them scans every payload (~5x slower at 200k)
                    shard.update(UpdateOperation.create_field_index(field, PayloadSchemaType.Keyword))
                shard.update(UpdateOperation.create_field_index(BUCKET, PayloadSchemaType.Integer))
            else:
                shard = self._load(path)
            self._open[path] = shard
            self._start_reaper()
        self._used[path] = time.monotonic()
        return shard

    @staticmethod
    def _load(path: Path):
        from qdrant_edge import EdgeShard

        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            try:
                return EdgeShard.load(str(path))
            except Exception as exc:  # the engine says WouldBlock while another process holds the shard
                if "WouldBlock" not in str(exc):
                    raise
                if time.monotonic() > deadline:
                    raise IndexBusyError(f"vector index {path} is held by another process (an MCP server or a "
                                         f"compile?) for over {WAIT_SECONDS:.0f} s") from exc
                time.sleep(0.2)

    def close_idle(self, idle: float | None = None) -> None:
        idle = IDLE_SECONDS if idle is None else idle
        with self._lock:
            now = time.monotonic()
            for path in [p for p, t in self._used.items() if now - t >= idle]:
                shard = self._open.pop(path, None)
                self._used.pop(path, None)
                if shard is not None:
                    shard.flush()
                    shard.close()

    def _start_reaper(self) -> None:
        if self._reaper is None or not self._reaper.is_alive():
            def reap():
                while self._open:
                    time.sleep(REAP_EVERY)
                    self.close_idle()

            self._reaper = threading.Thread(target=reap, name="edge-shard-reaper", daemon=True)
            self._reaper.start()

    @property
    def lock(self) -> threading.RLock:
        return self._lock

    def exists(self, path: Path) -> bool:
        """A shard was created at `path` (open here or not)."""
        return path in self._open or (path / "edge_config.json").exists()


SHARDS = _Shards()


class EdgeIndex:
    def __init__(self, root: str | Path):
        self.root = Path(root)

    def _path(self, collection: str) -> Path:
        return self.root / collection

    def has(self, collection: str) -> bool:
        return SHARDS.exists(self._path(collection))

    def upsert(self, collection: str, ids: list[str], vectors: np.ndarray, payloads: list[dict[str, Any]]) -> None:
        from qdrant_edge import CountRequest, Point, UpdateOperation

        if not ids:
            return
        vectors = np.asarray(vectors, dtype=np.float32)
        with SHARDS.lock:
            shard = SHARDS.use(self._path(collection), int(vectors.shape[1]))
            for i in range(0, len(ids), 2048):
                shard.update(UpdateOperation.upsert_points([
                    Point(point_id(oid), {DENSE: vec.tolist()}, p | {"oid": oid})
                    for oid, vec, p in zip(ids[i:i + 2048], vectors[i:i + 2048], payloads[i:i + 2048])]))
            shard.flush()
            if shard.info().indexed_vectors_count == 0 and shard.count(CountRequest()) >= HNSW_FROM:
                shard.optimize()  # once, past the size where exact search stops being enough

    def delete(self, collection: str, ids: list[str]) -> None:
        from qdrant_edge import UpdateOperation

        with SHARDS.lock:
            shard = SHARDS.use(self._path(collection))
            if shard is not None and ids:
                shard.update(UpdateOperation.delete_points([point_id(i) for i in ids]))
                shard.flush()

    def search(self, collection: str, vector: np.ndarray, k: int = 10, where: dict[str, Any] | None = None) -> list[Hit]:
        from qdrant_edge import FieldCondition, Filter, MatchAny, MatchValue, Query, QueryRequest, SearchParams

        conds = [FieldCondition(key=key, match=MatchAny(any=list(want)) if isinstance(want, (list, tuple, set)) else MatchValue(value=want))
                 for key, want in (where or {}).items()]
        with SHARDS.lock:
            shard = SHARDS.use(self._path(collection))
            if shard is None:
                return []
            res = shard.query(QueryRequest(limit=k, query=Query.Nearest(np.asarray(vector, dtype=np.float32).tolist(), using=DENSE),
                                           filter=Filter(must=conds) if conds else None, with_payload=True,
                                           params=SearchParams(hnsw_ef=max(HNSW_EF, k))))
        return [(p.payload["oid"], float(p.score), {k: v for k, v in p.payload.items() if k != "oid"}) for p in res]

    def ids(self, collection: str, buckets: tuple[int, int] | None = None) -> dict[str, str]:
        """id → content key of the points (of those in `buckets`, [lo, hi): an index shard's; read by a
        filter on the bucket field unless some point predates it)."""
        from qdrant_edge import CountRequest, FieldCondition, Filter, IsEmptyCondition, RangeFloat, ScrollRequest

        out: dict[str, str] = {}
        with SHARDS.lock:
            shard = SHARDS.use(self._path(collection))
            where = None
            if shard is not None and buckets is not None and not shard.count(CountRequest(filter=Filter(must=[IsEmptyCondition(BUCKET)]))):
                where = Filter(must=[FieldCondition(BUCKET, range=RangeFloat(gte=buckets[0], lt=buckets[1]))])
            unfiltered = buckets if where is None else None  # the range the engine did not apply, applied here
            offset = None
            while shard is not None:
                points, offset = shard.scroll(ScrollRequest(offset=offset, limit=10_000, filter=where, with_payload=True, with_vector=False))
                out |= {p.payload["oid"]: p.payload.get("hash", "") for p in points if _in(p.payload["oid"], p.payload, unfiltered)}
                if offset is None:
                    break
        return out

    def count(self, collection: str) -> int:
        from qdrant_edge import CountRequest

        with SHARDS.lock:
            shard = SHARDS.use(self._path(collection))
            return shard.count(CountRequest()) if shard is not None else 0


class QdrantIndex:
    """A Qdrant server (`url`) or in-memory client; ids are mapped to UUIDs, the original kept in the payload."""

    def __init__(self, url: str | None = None, location: str | None = None, api_key: str | None = None,
                 shards: int = 1, replicas: int = 1, on_disk: bool = False):
        from qdrant_client import QdrantClient

        self.client = QdrantClient(url=url, api_key=api_key) if url else QdrantClient(location=location or ":memory:")
        self.server = bool(url)  # the in-memory client ignores payload indexes (and warns)
        self.shards, self.replicas, self.on_disk = shards, replicas, on_disk

    def has(self, collection: str) -> bool:
        return self.client.collection_exists(collection)

    def _ensure(self, collection: str, dim: int) -> None:
        from qdrant_client import models

        if not self.client.collection_exists(collection):  # the shard's schema: a named dense vector, keyword-indexed filters
            # On a cluster: shards over the nodes, replicas for a node's loss; on_disk: full vectors
            # on disk, int8 copies in RAM for the search (rescored from disk).
            quantization = models.ScalarQuantization(scalar=models.ScalarQuantizationConfig(
                type=models.ScalarType.INT8, always_ram=True)) if self.on_disk else None
            self.client.create_collection(
                collection, vectors_config={DENSE: models.VectorParams(size=dim, distance=models.Distance.COSINE, on_disk=self.on_disk)},
                shard_number=self.shards, replication_factor=self.replicas, quantization_config=quantization)
            for field in INDEXED_PAYLOAD if self.server else ():
                self.client.create_payload_index(collection, field, models.PayloadSchemaType.KEYWORD)
            if self.server:
                self.client.create_payload_index(collection, BUCKET, models.PayloadSchemaType.INTEGER)

    def upsert(self, collection: str, ids: list[str], vectors: np.ndarray, payloads: list[dict[str, Any]]) -> None:
        from qdrant_client import models

        if not ids:
            return
        self._ensure(collection, int(np.asarray(vectors).shape[1]))
        for i in range(0, len(ids), 2000):
            self.client.upsert(collection, points=[
                models.PointStruct(id=point_id(oid), vector={DENSE: np.asarray(vec, dtype=np.float32).tolist()}, payload=p | {"oid": oid})
                for oid, vec, p in zip(ids[i:i + 2000], vectors[i:i + 2000], payloads[i:i + 2000])])

    def delete(self, collection: str, ids: list[str]) -> None:
        from qdrant_client import models

        if ids and self.client.collection_exists(collection):
            self.client.delete(collection, points_selector=models.PointIdsList(points=[point_id(i) for i in ids]))

    def search(self, collection: str, vector: np.ndarray, k: int = 10, where: dict[str, Any] | None = None) -> list[Hit]:
        from qdrant_client import models

        if not self.client.collection_exists(collection):
            return []
        conds = []
        for key, want in (where or {}).items():
            match = models.MatchAny(any=list(want)) if isinstance(want, (list, tuple, set)) else models.MatchValue(value=want)
            conds.append(models.FieldCondition(key=key, match=match))
        res = self.client.query_points(collection, query=np.asarray(vector, dtype=np.float32).tolist(), using=DENSE, limit=k,
                                       query_filter=models.Filter(must=conds) if conds else None, with_payload=True)
        return [(p.payload["oid"], float(p.score), {k: v for k, v in p.payload.items() if k != "oid"}) for p in res.points]

    def ids(self, collection: str, buckets: tuple[int, int] | None = None) -> dict[str, str]:
        from qdrant_client import models

        if not self.client.collection_exists(collection):
            return {}
        where = None
        if buckets is not None and not self.client.count(collection, count_filter=models.Filter(
                must=[models.IsEmptyCondition(is_empty=models.PayloadField(key=BUCKET))])).count:
            where = models.Filter(must=[models.FieldCondition(key=BUCKET, range=models.Range(gte=buckets[0], lt=buckets[1]))])
        unfiltered = buckets if where is None else None  # the range the engine did not apply, applied here
        out, offset = {}, None
        while True:
            points, offset = self.client.scroll(collection, scroll_filter=where, limit=5000, offset=offset, with_payload=True,
                                                with_vectors=False)
            out |= {p.payload["oid"]: p.payload.get("hash", "") for p in points if _in(p.payload["oid"], p.payload, unfiltered)}
            if offset is None:
                return out


def open_index(home: str | Path, url: str | None = None) -> VectorIndex:
    """A Qdrant server at `url`, laid out as the settings say; else the store's embedded shards."""
    if not url:
        return EdgeIndex(Path(home) / "qdrant")
    env = settings()
    return QdrantIndex(url=url, api_key=env.qdrant_api_key, shards=env.qdrant_shards, replicas=env.qdrant_replicas,
                       on_disk=env.qdrant_on_disk)
