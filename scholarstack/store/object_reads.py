"""Reads of objects, their versions, history, references and the store's counts, as `Store`
methods (a mixin: the SQL stays in the store package; `db` keeps the connections)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ..bulk import paused_gc
from ..models import ResearchObject, load_object
from .schema import marks, md5_within

LIVE = ("current", "needs_recheck")  # the lifecycles of an object that stands (marked or not)
STAMP_COLUMNS = ("version", "lifecycle", "content_hash", "updated_at")
STAMP = ", ".join(STAMP_COLUMNS)
MAX_LOADED = 1_000_000  # models kept per process; past it the memory starts again
# id → (row stamp, model), for the one store read last (a process reading another starts again,
# so a long test session or server does not keep every store it ever opened)
_LOADED: dict[str, tuple[tuple, ResearchObject]] = {}
_LOADED_FOR: list[tuple] = [()]


class ObjectReads:
    """Mixed into `Store`: uses its `query`, `query_dicts`, `connect`, `ids_in`, `with_id_table`, `json_text`,
    `home`, `url`, `location` and `schema`."""

    def current_rows(self, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        with self.connect() as con:
            where, params = self.ids_in(con, "id", "_ids", ids)
            cur = con.execute(
                "SELECT id, kind, version, lifecycle, content_hash, verification, evidence_hash, "
                f"{self.json_text('data', 'provenance', 'producer')} FROM objects WHERE {where}", params
            )
            return {r[0]: dict(kind=r[1], version=r[2], lifecycle=r[3], content_hash=r[4], verification=r[5],
                               evidence_hash=r[6], producer=r[7]) for r in cur.fetchall()}

    def current_sentences(self, locators: Iterable[str]) -> dict[str, str]:
        with self.connect() as con:
            where, params = self.ids_in(con, "locator", "_locs", locators)
            rows = con.execute(f"SELECT locator, text FROM sentences WHERE is_current AND {where}", params).fetchall()
        return dict(rows)

    def titles(self, paper_ids: Iterable[str]) -> dict[str, str]:
        """Each paper's title: its current sentence 0."""
        return {loc.rsplit(":", 1)[0]: t for loc, t in self.current_sentences({f"{p}:0" for p in paper_ids}).items()}

    def paper_sentences(self, paper_id: str, version: int | None = None) -> list[dict[str, Any]]:
        cond = "paper_version = ?" if version is not None else "is_current"
        params: list[Any] = [paper_id] + ([version] if version is not None else [])
        return self.query_dicts(
            f"SELECT locator, sid, section, start_char, end_char, text, coalesce(kind, 'prose') AS kind FROM sentences "
            f"WHERE paper_id = ? AND {cond} ORDER BY start_char, sid",
            params,
        )

    def next_free_sid(self, paper_id: str) -> int:
        """One past the largest sentence id this paper ever had: new sentences never reuse an old id."""
        return int(self.query("SELECT coalesce(max(sid), 0) + 1 FROM sentences WHERE paper_id = ?", [paper_id])[0][0])

    def version_evidence(self, obj_id: str, version: int) -> dict[str, str] | None:
        """The evidence sentence texts an object version was registered against: its snapshot, or,
        for versions registered before snapshots were kept, the sentences of the paper version
        that was current when it was written (sentences of every paper version are kept)."""
        rows = self.query("SELECT evidence_texts, created_at, data FROM object_versions WHERE id = ? AND version = ?", [obj_id, version])
        if not rows:
            return None
        snapshot, created_at, data = rows[0]
        if snapshot:
            return json.loads(snapshot)
        out = {}
        for loc in json.loads(data).get("evidence", []):
            found = self.query(
                "SELECT s.text FROM sentences s WHERE s.locator = ? AND s.paper_version = (SELECT max(pv.version) "
                "FROM object_versions pv WHERE pv.id = s.paper_id AND pv.kind = 'paper' AND pv.created_at <= ?)", [loc, created_at])
            if found:
                out[loc] = found[0][0]
        return out

    def get_row(self, obj_id: str, version: int | None = None) -> dict[str, Any] | None:
        if version is None:
            rows = self.query_dicts("SELECT * FROM objects WHERE id = ?", [obj_id])
        else:
            rows = self.query_dicts(
                "SELECT v.*, o.layer, o.paper_id, o.label FROM object_versions v "
                "LEFT JOIN objects o USING (id) WHERE v.id = ? AND v.version = ?",
                [obj_id, version],
            )
        if not rows:
            return None
        row = rows[0]
        row["data"] = json.loads(row["data"])
        return row

    def get_rows(self, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """Current rows of many objects in one query (as get_row gives one)."""
        with self.connect() as con:
            where, params = self.ids_in(con, "id", "_rows", ids)
            cur = con.execute(f"SELECT * FROM objects WHERE {where}", params)
            cols = [d[0] for d in cur.description]
            rows = [dict(zip(cols, r)) for r in cur.fetchall()]
        for row in rows:
            row["data"] = json.loads(row["data"])
        return {row["id"]: row for row in rows}

    def history(self, obj_id: str) -> list[dict[str, Any]]:
        return self.query_dicts(
            "SELECT version, lifecycle, verification, content_hash, run_id, created_at FROM object_versions "
            "WHERE id = ? ORDER BY version",
            [obj_id],
        )

    def events_for(self, obj_id: str) -> list[dict[str, Any]]:
        return self.query_dicts(
            "SELECT seq, ts, run_id, event, version, detail FROM events WHERE obj_id = ? ORDER BY seq", [obj_id]
        )

    def cited_by(self, obj_id: str) -> list[dict[str, Any]]:
        return self.query_dicts(
            "SELECT r.src_id AS id, o.kind, r.role, o.lifecycle FROM refs r JOIN objects o ON o.id = r.src_id "
            "WHERE r.dst_id = ? ORDER BY o.kind, r.src_id",
            [obj_id],
        )

    def cites(self, obj_id: str) -> list[dict[str, Any]]:
        return self.query_dicts("SELECT dst_id AS id, role FROM refs WHERE src_id = ? ORDER BY role, dst_id", [obj_id])

    def evidence_of(self, obj_id: str) -> list[str]:
        return [r[0] for r in self.query("SELECT locator FROM evidence WHERE obj_id = ?", [obj_id])]

    def objects(self, kind: str, lifecycle: tuple[str, ...] = LIVE, paper_id: str | None = None) -> list[dict[str, Any]]:
        sql = f"SELECT * FROM objects WHERE kind = ? AND lifecycle IN ({marks(lifecycle)})"
        params: list[Any] = [kind, *lifecycle]
        if paper_id is not None:
            sql += " AND paper_id = ?"
            params.append(paper_id)
        rows = self.query_dicts(sql + " ORDER BY id", params)
        for r in rows:
            r["data"] = json.loads(r["data"])
        return rows

    def content_hashes(self, kinds: Iterable[str], lifecycle: tuple[str, ...] = LIVE,
                       buckets: tuple[int, int] | None = None) -> list[tuple[str, str, str, str, str]]:
        """(id, kind, paper_id or '', content hash, verification) of the objects of `kinds` in
        `lifecycle` (`buckets`: whose id's bucket is in that range, `schema.md5_within`), by id:
        what a build or the vector index compares against, read without parsing any object."""
        kinds = list(kinds)
        if not kinds:
            return []
        cond, params = md5_within("id", buckets)
        return [tuple(r) for r in self.query(
            f"SELECT id, kind, coalesce(paper_id, ''), content_hash, verification FROM objects WHERE kind IN ({marks(kinds)}) "
            f"AND lifecycle IN ({marks(lifecycle)}){cond} ORDER BY id", [*kinds, *lifecycle, *params])]

    def current_models(self, kind: str, ids: Iterable[str] | None = None) -> list:
        """The current (and needs-recheck) objects of `kind` (of them, those in `ids`) as typed models, by id. Each is parsed
        and validated once per process and kept while its row is unchanged (version, lifecycle,
        content hash, update time): one compile's L1 check, L2, its check and L3 read every fact,
        ~80k of them at 978 papers, and parsing each again took ~20 s of a one-paper update.
        The models are shared: read them, never change them in place."""
        sql = f"SELECT id, {STAMP} FROM objects WHERE kind = ? AND lifecycle IN (?, ?)"
        with self.connect() as con:
            if ids is not None:  # only these: read their rows' stamps, not the whole kind's
                self.with_id_table(con, "_want", ids)
                sql += " AND id IN (SELECT id FROM _want)"
            stamps = con.execute(sql + " ORDER BY id", [kind, *LIVE]).fetchall()
        store = (str(self.home), self.url, self.schema)
        if _LOADED_FOR[0] != store:
            _LOADED.clear()
            _LOADED_FOR[0] = store
        missing = [oid for oid, *stamp in stamps if _LOADED.get(oid, (None,))[0] != tuple(stamp)]
        if len(_LOADED) + len(missing) > MAX_LOADED:
            _LOADED.clear()
            missing = [oid for oid, *_ in stamps]
        with paused_gc():
            for oid, row in self.get_rows(missing).items():
                _LOADED[oid] = (tuple(row[c] for c in STAMP_COLUMNS), load_object(row))
        return [_LOADED[oid][1] for oid, *_ in stamps if oid in _LOADED]

    def objects_needing_recheck(self, ids: list[str] | None = None) -> list[dict[str, Any]]:
        with self.connect() as con:
            self.with_id_table(con, "_rc", ids or [])
            rows = self.query_dicts(
                "SELECT * FROM objects WHERE lifecycle = 'needs_recheck'"
                + ("" if ids is None else " AND id IN (SELECT id FROM _rc)") + " ORDER BY id")
        for r in rows:
            r["data"] = json.loads(r["data"])
        return rows

    def status(self) -> dict[str, Any]:
        with self.connect() as con:
            by_state = con.execute(
                "SELECT layer, kind, lifecycle, verification, count(*) FROM objects GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4"
            ).fetchall()
            versions = con.execute("SELECT count(*), count(DISTINCT id) FROM object_versions").fetchall()[0]
            rejections = con.execute("SELECT kind, count(*) FROM rejections GROUP BY kind ORDER BY kind").fetchall()
            sentences = con.execute("SELECT count(*), count(DISTINCT paper_id) FROM sentences WHERE is_current").fetchall()[0]
        layers: dict[str, Any] = {}
        for layer, kind, lifecycle, verification, n in by_state:
            k = layers.setdefault(layer, {}).setdefault(kind, {"total": 0, "lifecycle": {}, "verification": {}})
            k["total"] += n
            k["lifecycle"][lifecycle] = k["lifecycle"].get(lifecycle, 0) + n
            k["verification"][verification] = k["verification"].get(verification, 0) + n
        needs = sum(n for _, _, lc, _, n in by_state if lc == "needs_recheck")
        return {
            "store": str(self.home),
            "tables": f"{self.location} schema {self.schema}" if self.url else "duckdb",
            "layers": layers,
            "sentences": sentences[0],
            "papers_with_sentences": sentences[1],
            "versions": versions[0],
            "objects_with_history": versions[1],
            "needs_recheck": needs,
            "rejections": dict(rejections),
        }

    def rejections(self, limit: int = 50) -> list[dict[str, Any]]:
        return self.query_dicts(
            "SELECT ts, run_id, kind, candidate_id, reason, producer FROM rejections ORDER BY ts DESC LIMIT ?", [limit]
        )
