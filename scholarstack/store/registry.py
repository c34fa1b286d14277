"""register(): the one gate into the store, and the revision / recheck semantics around it.

Order of checks for every candidate: schema (pydantic, then the batch validator, e.g. Great
Expectations suites), identity (equal current object → reused), reference integrity (every
locator resolves to a current sentence, every cited id exists and is not withdrawn), versioning.
A rejected candidate is written to `rejections` with its reason; the rest of the batch goes on.
The whole batch is one transaction: an exception leaves the store exactly as it was.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Literal

import pyarrow as pa
from pydantic import ValidationError

from ..models import KINDS, LAYER_OF, Lifecycle, ResearchObject, SourceMap, Verification, load_object
from .admission import Admission, RecheckContext, Verifier
from .db import OBJECT_COLUMNS, SENTENCE_COLUMNS, VERSION_COLUMNS, Store, sql

# Given a kind and its candidates, return {index in list: reason} for those that fail.
BatchValidator = Callable[[str, Sequence[ResearchObject]], dict[int, str]]
Status = Literal["new", "revised", "reused", "rejected"]
LAYER_ORDER = ["paper", "fact", "taxonomy", "entity", "assignment", "relation", "synthesis", "writing", "judgement"]


def new_run_id() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S") + "-" + uuid.uuid4().hex[:8]


@dataclass
class Outcome:
    index: int
    kind: str
    id: str | None
    status: Status
    version: int | None = None
    reason: str = ""


@dataclass
class RegistrationReport:
    run_id: str
    outcomes: list[Outcome] = field(default_factory=list)
    marked_for_recheck: int = 0

    def count(self, status: Status) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def accepted_ids(self) -> list[str]:
        return [o.id for o in self.outcomes if o.status != "rejected" and o.id]

    @property
    def rejected(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == "rejected"]

    def summary(self) -> dict[str, int]:
        return {s: self.count(s) for s in ("new", "revised", "reused", "rejected")} | {
            "marked_for_recheck": self.marked_for_recheck
        }


def coerce(candidate: ResearchObject | dict[str, Any]) -> ResearchObject:
    if isinstance(candidate, ResearchObject):
        return candidate
    if not isinstance(candidate, dict) or candidate.get("kind") not in KINDS:
        raise ValueError(f"candidate has no known 'kind' (one of {sorted(KINDS)})")
    data = {k: v for k, v in candidate.items() if k != "kind"}
    return KINDS[candidate["kind"]].model_validate(data)


def _short(exc: Exception, limit: int = 400) -> str:
    if isinstance(exc, ValidationError):
        parts = [f"{'.'.join(map(str, e['loc'])) or '<root>'}: {e['msg']}" for e in exc.errors()[:5]]
        return "schema: " + "; ".join(parts)[:limit]
    return str(exc)[:limit]


def _dump(obj: ResearchObject) -> str:
    exclude = {"sentences"} if isinstance(obj, SourceMap) else set()
    data = obj.model_dump(mode="json", exclude=exclude)
    data["kind"] = obj.kind
    if isinstance(obj, SourceMap):
        data["n_sentences"] = len(obj.sentences)
    return json.dumps(data, ensure_ascii=False)


def register(store: Store, candidate: ResearchObject | dict[str, Any], **kwargs: Any) -> Outcome:
    return register_many(store, [candidate], **kwargs).outcomes[0]


def revise(store: Store, candidates: Iterable[ResearchObject | dict[str, Any]], **kwargs: Any) -> RegistrationReport:
    """The explicit revise path: a changed fact on unchanged evidence becomes a new version of the
    current fact with its identity (register() would make it another fact)."""
    return register_many(store, candidates, allow_revision=True, **kwargs)


def _prepare(cands: list, task: str | None, producer: str | None, run_id: str,
             reject: Callable[[int, str, str | None, str, Any], None]) -> list[tuple[int, ResearchObject]]:
    """Stage 1, schema: pydantic models with provenance stamped; the caller's verification is discarded."""
    models: list[tuple[int, ResearchObject]] = []
    for i, c in enumerate(cands):
        try:
            obj = coerce(c)
        except (ValidationError, ValueError) as exc:
            kind = c.get("kind", "?") if isinstance(c, dict) else type(c).__name__
            reject(i, str(kind), None, _short(exc), c)
            continue
        update: dict[str, Any] = {"verification": Verification.unverified, "verification_note": ""}
        if task or producer or obj.provenance.run_id is None:
            update["provenance"] = obj.provenance.model_copy(
                update={"run_id": obj.provenance.run_id or run_id}
                | ({"task": task} if task else {})
                | ({"producer": producer} if producer else {})
            )
        models.append((i, obj.model_copy(update=update)))
    return models


def _validate(models, validator: BatchValidator | None, reject) -> list[tuple[int, ResearchObject]]:
    """Stage 2, expectations: the batch validator (Great Expectations suites) per kind."""
    if validator is None or not models:
        return models
    by_kind: dict[str, list[tuple[int, ResearchObject]]] = {}
    for i, obj in models:
        by_kind.setdefault(obj.kind, []).append((i, obj))
    failed: set[int] = set()
    for kind, items in by_kind.items():
        for j, reason in validator(kind, [o for _, o in items]).items():
            i, obj = items[j]
            failed.add(i)
            reject(i, kind, obj.id, f"expectation: {reason}", obj.model_dump(mode="json"))
    return [(i, o) for i, o in models if i not in failed]


def register_many(
    store: Store,
    candidates: Iterable[ResearchObject | dict[str, Any]],
    *,
    run_id: str | None = None,
    validator: BatchValidator | None = None,
    task: str | None = None,
    producer: str | None = None,
    allow_revision: bool = False,
) -> RegistrationReport:
    """Register a batch atomically. `task` marks every object as derived by that task.

    The gate trusts no caller: verification is computed here from the cited sentences and
    objects (a candidate's own `verification` is ignored); a fact whose statement differs from the
    current fact with its identity is a revision only when the same producer re-extracted it from
    changed evidence, or through `revise()`; otherwise it is registered as another fact (a
    variant). A task-derived synthesis whose account its basis does not support is rejected.
    """
    from ..verify import default_verifier

    report = RegistrationReport(run_id=run_id or new_run_id())
    now = datetime.now(timezone.utc)
    cands = list(candidates)
    outcomes: list[Outcome | None] = [None] * len(cands)
    rejection_rows: list[tuple] = []

    def reject(i: int, kind: str, obj_id: str | None, reason: str, data: Any) -> None:
        outcomes[i] = Outcome(i, kind, obj_id, "rejected", reason=reason)
        text = data if isinstance(data, str) else json.dumps(data, default=str, ensure_ascii=False)[:20000]
        rejection_rows.append((now, report.run_id, kind, obj_id, reason, producer or "", text))

    models = _validate(_prepare(cands, task, producer, report.run_id, reject), validator, reject)

    ids = {i: o.id for i, o in models}  # ids hash the identity: compute each once
    settled, settled_rejections = list(outcomes), list(rejection_rows)  # what a retried transaction starts from
    for attempt in store.write_attempts():
        with attempt, store.transaction() as con:
            outcomes[:], rejection_rows[:] = settled, settled_rejections
            batch = Admission(store, models, ids, allow_revision, reject, default_verifier)
            for i, obj in models:
                admitted = batch.admit(i, obj, ids[i])
                if admitted is not None:
                    outcomes[i] = Outcome(i, admitted.obj.kind, admitted.id, admitted.status, admitted.version)
            writes, clears, state = batch.writes, batch.clears, batch.state
            _write(store, con, report.run_id, now, writes, clears, rejection_rows)
            revised = [oid for oid, (_, _, st, *_) in writes.items() if st == "revised"]
            report.marked_for_recheck = _propagate(store, con, revised, set(state), report.run_id, now, "revised")

    report.outcomes = [o for o in outcomes if o is not None]
    return report


def register_changed(store: Store, candidates: Sequence[ResearchObject], **kwargs: Any) -> RegistrationReport:
    """`register_many` for a rebuild (L2, L3) that produces every object again: a candidate equal to
    its current version (same content, lifecycle current) would come back reused with nothing
    written, so it skips the gate and is reported reused. That is exact: its inputs did not change,
    since a change to anything it cites marks it needs_recheck, and such candidates do go through.
    Not for facts, whose identity the gate may turn into a variant."""
    ids = [c.id for c in candidates]
    rows = store.current_rows(ids)
    unchanged = {oid for c, oid in zip(candidates, ids)
                 if (r := rows.get(oid)) and r["lifecycle"] == Lifecycle.current and r["content_hash"] == c.content_hash()}
    report = register_many(store, [c for c, oid in zip(candidates, ids) if oid not in unchanged], **kwargs)
    report.outcomes += [Outcome(-1, rows[oid]["kind"], oid, "reused", rows[oid]["version"]) for oid in sorted(unchanged)]
    return report


def _write(store: Store, con, run_id: str, now: datetime, writes, clears, rejection_rows) -> None:
    events: list[tuple] = []
    if writes:
        for statement, column in (("DELETE FROM objects WHERE {}", "id"), ("DELETE FROM refs WHERE {}", "src_id"),
                                  ("DELETE FROM evidence WHERE {}", "obj_id"),
                                  ("UPDATE object_versions SET lifecycle = 'superseded' WHERE {} AND lifecycle <> 'withdrawn'", "id")):
            where, params = store.ids_in(con, column, "_w", writes)
            sql(con, statement.format(where), params)
        obj_rows, ver_rows, ref_rows, ev_rows, sent_rows = [], [], [], [], []
        for oid, (obj, version, status, snapshot, h, ev_hash) in writes.items():
            data = _dump(obj)
            obj_rows.append((oid, obj.kind, LAYER_OF[obj.kind], version, "current", obj.verification.value,
                             obj.verification_note, h, obj.paper_id, obj.label()[:300], obj.provenance.task,
                             None, run_id, now, data, ev_hash))
            ver_rows.append((oid, version, obj.kind, "current", obj.verification.value, h, run_id, now, data,
                             json.dumps(snapshot, ensure_ascii=False) if snapshot else None))
            ref_rows.extend((oid, dst, role) for dst, role in obj.cited_ids())
            ev_rows.extend((oid, loc) for loc in obj.locators())
            events.append((now, run_id, status, oid, version, obj.provenance.task or ""))
            if isinstance(obj, SourceMap):
                sent_rows.extend(
                    (obj.locator(s.sid), oid, s.sid, version, s.section, s.start, s.end, s.text, True, s.kind)
                    for s in obj.sentences
                )
        papers = [oid for oid, (o, *_) in writes.items() if isinstance(o, SourceMap)]
        if papers:
            where, params = store.ids_in(con, "paper_id", "_p", papers)
            sql(con, f"UPDATE sentences SET is_current = false WHERE {where}", params)
        store.insert_rows(con, "objects", OBJECT_COLUMNS, obj_rows)
        store.insert_rows(con, "object_versions", VERSION_COLUMNS, ver_rows)
        store.insert_rows(con, "refs", ["src_id", "dst_id", "role"], ref_rows)
        store.insert_rows(con, "evidence", ["obj_id", "locator"], ev_rows)
        store.insert_rows(con, "sentences", SENTENCE_COLUMNS, sent_rows)
    if clears:  # one statement for all (a rebuild after a revision re-registers hundreds unchanged)
        store.with_text_table(con, "_clear", {"id": list(clears), "verification": [o.verification.value for o in clears.values()],
                                              "note": [o.verification_note for o in clears.values()]})
        sql(con, "UPDATE objects SET lifecycle = 'current', recheck_cause = NULL, verification = _clear.verification, "
                 "verification_note = _clear.note, updated_at = ? FROM _clear WHERE objects.id = _clear.id", [now])
    for oid, obj in clears.items():
        events.append((now, run_id, "reverified", oid, None, f"re-registered unchanged; verification {obj.verification.value}"))
    store.insert_events(con, events)
    store.insert_rows(con, "rejections", ["ts", "run_id", "kind", "candidate_id", "reason", "producer", "data"], rejection_rows)


def _propagate(store: Store, con, changed: list[str], fresh: set[str], run_id: str, now: datetime, why: str) -> int:
    """Mark every object that cites a changed object, transitively, needs_recheck with the cause.

    Traversal stops at objects registered fresh in this batch: they were just built from the
    current versions, so they and what depends only through them keep their standing.
    """
    if not changed:
        return 0
    store.with_id_table(con, "_changed", changed)
    store.with_id_table(con, "_fresh", fresh)
    rows = con.execute(
        """
        WITH RECURSIVE dep(id, cause) AS (
            SELECT r.src_id, r.dst_id FROM refs r
            WHERE r.dst_id IN (SELECT id FROM _changed) AND r.src_id NOT IN (SELECT id FROM _fresh)
            UNION
            SELECT r.src_id, dep.cause FROM refs r JOIN dep ON r.dst_id = dep.id
            WHERE r.src_id NOT IN (SELECT id FROM _fresh)
        )
        SELECT d.id, min(d.cause) FROM dep d JOIN objects o ON o.id = d.id
        WHERE o.lifecycle = 'current' GROUP BY d.id
        """
    ).fetchall()
    if not rows:
        return 0
    causes = [(oid, f"cites {cause} ({why} in run {run_id})") for oid, cause in rows]
    store.with_id_table(con, "_marked", [oid for oid, _ in causes])
    con.register("_causes", pa.table({"id": [c[0] for c in causes], "cause": [c[1] for c in causes]}))
    sql(con, 
        "UPDATE objects SET lifecycle = 'needs_recheck', recheck_cause = _causes.cause, updated_at = ? "
        "FROM _causes WHERE objects.id = _causes.id",
        [now],
    )
    con.unregister("_causes")
    store.insert_events(con, [(now, run_id, "needs_recheck", oid, None, cause) for oid, cause in causes])
    return len(causes)


def withdraw(store: Store, ids: Iterable[str], reason: str, run_id: str | None = None) -> int:
    """Withdraw current objects: a withdrawn version is recorded and dependents are marked."""
    run_id = run_id or new_run_id()
    now = datetime.now(timezone.utc)
    ids = list(ids)
    for attempt in store.write_attempts():
        with attempt, store.transaction() as con:
            rows = store.current_rows(ids)
            live_ids = [i for i, r in rows.items() if r["lifecycle"] != Lifecycle.withdrawn]
            if not live_ids:
                return 0
            store.with_id_table(con, "_wd", live_ids)
            sql(con, 
                # The withdrawn version says what the last one said, on the evidence that one was checked against.
                "INSERT INTO object_versions (id, version, kind, lifecycle, verification, content_hash, run_id, created_at, data, evidence_texts) "
                "SELECT o.id, o.version + 1, o.kind, 'withdrawn', o.verification, o.content_hash, ?, ?, o.data, v.evidence_texts "
                "FROM objects o LEFT JOIN object_versions v ON v.id = o.id AND v.version = o.version WHERE o.id IN (SELECT id FROM _wd)",
                [run_id, now],
            )
            sql(con, 
                "UPDATE object_versions SET lifecycle = 'superseded' WHERE id IN (SELECT id FROM _wd) AND lifecycle = 'current'"
            )
            sql(con, 
                "UPDATE objects SET version = version + 1, lifecycle = 'withdrawn', recheck_cause = ?, run_id = ?, updated_at = ? "
                "WHERE id IN (SELECT id FROM _wd)",
                [reason, run_id, now],
            )
            sql(con, "DELETE FROM refs WHERE src_id IN (SELECT id FROM _wd)")
            store.insert_events(con, [(now, run_id, "withdrawn", oid, rows[oid]["version"] + 1, reason) for oid in live_ids])
            _propagate(store, con, live_ids, set(), run_id, now, "withdrawn")
    return len(live_ids)


def withdraw_missing(store: Store, kind: str, keep_ids: Iterable[str], paper_id: str | None = None, reason: str = "", run_id: str | None = None) -> int:
    """Withdraw current objects of `kind` (optionally of one paper) that a rebuild no longer produced."""
    keep = set(keep_ids)
    current = store.query(
        "SELECT id FROM objects WHERE kind = ? AND lifecycle <> 'withdrawn'" + (" AND paper_id = ?" if paper_id else ""),
        [kind] + ([paper_id] if paper_id else []),
    )
    gone = [r[0] for r in current if r[0] not in keep]
    return withdraw(store, gone, reason or f"no longer produced by a rebuild of {kind}s", run_id) if gone else 0


# -- recheck -----------------------------------------------------------------------------------

def recheck(store: Store, verifier: Verifier | None = None, ids: Iterable[str] | None = None, run_id: str | None = None) -> list[dict[str, Any]]:
    """Re-verify objects marked needs_recheck (all, or `ids`), lower layers first.

    References must resolve (cited objects live, locators current); then the verifier records the
    semantic result, and the object returns to `current`. Reads and writes are batched.
    """
    if verifier is None:
        from ..verify import default_verifier as verifier
    run_id = run_id or new_run_id()
    now = datetime.now(timezone.utc)
    ids = list(ids) if ids is not None else None
    for attempt in store.write_attempts():
        with attempt, store.transaction() as con:
            results = []
            rows = store.objects_needing_recheck(ids)
            rows.sort(key=lambda r: LAYER_ORDER.index(r["kind"]))
            objs = [load_object(r) for r in rows]
            cited_ids = {c for o in objs for c, _ in o.cited_ids()}
            cited_rows = store.current_rows(cited_ids)
            texts = store.current_sentences({loc for o in objs for loc in o.locators()})
            ctx = RecheckContext(store, texts)
            ctx.preload(c for c, r in cited_rows.items() if r["kind"] != "paper")
            ctx.preload_cited(objs)
            updates = []
            for row, obj in zip(rows, objs):
                missing = [c for c, _ in obj.cited_ids() if c not in cited_rows or cited_rows[c]["lifecycle"] == Lifecycle.withdrawn]
                missing += [loc for loc in obj.locators() if loc not in texts]
                if missing:
                    result, note = Verification.failed, "references no longer resolve: " + ", ".join(missing[:5])
                else:
                    result, note = verifier(obj, ctx)
                updates.append((row["id"], result.value, note[:500]))
                results.append({"id": row["id"], "kind": row["kind"], "verification": result.value, "note": note, "cause": row["recheck_cause"]})
            if updates:
                con.register("_upd", pa.table({"id": [u[0] for u in updates], "verification": [u[1] for u in updates], "note": [u[2] for u in updates]}))
                sql(con, "UPDATE objects SET lifecycle = 'current', verification = _upd.verification, verification_note = _upd.note, "
                         "recheck_cause = NULL, updated_at = ? FROM _upd WHERE objects.id = _upd.id", [now])
                con.unregister("_upd")
                versions = {r["id"]: r["version"] for r in rows}
                store.insert_events(con, [(now, run_id, "rechecked", oid, versions[oid], f"{v}: {n}"[:500]) for oid, v, n in updates])
    return results
