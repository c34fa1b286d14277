"""Stage 3 of the gate, inside the batch's transaction: reference integrity, identity, verification
and versioning of each candidate against the store as the batch stands; and the context a
verifier reads (current sentences and cited objects), shared with `recheck`."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..models import Fact, Judgement, Lifecycle, ResearchObject, SourceMap, Synthesis, Verification, Writing, load_object
from ..models.common import stable_hash
from .db import Store

Reject = Callable[[int, str, "str | None", str, Any], None]


def evidence_hash(snapshot: dict[str, str]) -> str | None:
    return stable_hash(sorted(snapshot.items()), 16) if snapshot else None


def load_current(store: Store, con, ids: list[str]) -> dict[str, ResearchObject]:
    where, params = store.ids_in(con, "id", "_cited", ids)
    return {rid: load_object({"kind": kind, "data": json.loads(data)})
            for rid, kind, data in con.execute(f"SELECT id, kind, data FROM objects WHERE {where}", params).fetchall()}


@dataclass
class RecheckContext:
    """What a verifier may look at: current sentence texts and the objects being cited."""

    store: Store
    sentences: dict[str, str]
    cited: dict[str, ResearchObject] = field(default_factory=dict)

    def preload(self, ids: Iterable[str]) -> None:
        """Load the objects a verifier will ask for in one query, not one query each."""
        missing = sorted({i for i in ids if i not in self.cited})
        if not missing:
            return
        with self.store.connect() as con:
            found = load_current(self.store, con, missing)
        for oid in missing:
            self.cited[oid] = found.get(oid)

    def preload_cited(self, objs: Iterable[ResearchObject]) -> None:
        """What a synthesis's cited objects cite in turn (an assignment's entity and supporting facts,
        which `verify_account` reads). Other verifiers read only what their object cites: loading what
        a relation's entities cite would read every fact that mentions them."""
        first = {c for o in objs if isinstance(o, Synthesis) for c, role in o.cited_ids() if role != "source"}
        self.preload(c for i in first if (o := self.cited.get(i)) is not None for c, role in o.cited_ids() if role != "source")

    def object(self, obj_id: str) -> ResearchObject | None:
        if obj_id not in self.cited:
            row = self.store.get_row(obj_id)
            self.cited[obj_id] = load_object(row) if row is not None and row["kind"] != "paper" else None
        return self.cited[obj_id]


Verifier = Callable[[ResearchObject, RecheckContext], tuple[Verification, str]]


@dataclass
class Admitted:
    obj: ResearchObject  # as registered: verification set, a variant where it is not a revision
    id: str
    status: str  # new / revised / reused
    version: int


class Admission:
    """One batch's candidates admitted in order; later candidates see earlier ones (a paper's new
    sentences, a fact cited by an assignment in the same batch)."""

    def __init__(self, store: Store, models: list[tuple[int, ResearchObject]], ids: dict[int, str], allow_revision: bool,
                 reject: Reject, verifier: Verifier):
        self.store, self.allow_revision, self.reject, self.verifier = store, allow_revision, reject, verifier
        self.existing = store.current_rows(ids.values())  # ids hash the identity: the caller computes each once
        self.cited_rows = store.current_rows({cid for _, o in models for cid, _ in o.cited_ids()})
        self.texts = store.current_sentences({loc for _, o in models for loc in o.locators()})
        self.ctx = RecheckContext(store, self.texts)
        self.ctx.preload(c for c, r in self.cited_rows.items() if r["kind"] != "paper")
        self.ctx.preload_cited(o for _, o in models)
        self.state: dict[str, dict[str, Any]] = {}  # id → row state as the batch proceeds
        self.writes: dict[str, tuple] = {}  # id → (obj, version, status, evidence snapshot, content hash, evidence hash)
        self.clears: dict[str, ResearchObject] = {}  # reused objects whose lifecycle/verification changes
        self.accepted_papers: dict[str, dict[int, str]] = {}

    def live(self, obj_id: str) -> bool:
        row = self.state.get(obj_id) or self.cited_rows.get(obj_id) or self.existing.get(obj_id)
        return row is not None and row["lifecycle"] != Lifecycle.withdrawn

    def sentence_text(self, loc: str) -> str | None:
        paper, sid = loc.rsplit(":", 1)
        if paper in self.accepted_papers:  # this batch replaces the paper's sentences
            return self.accepted_papers[paper].get(int(sid))
        return self.texts.get(loc)

    def previous(self, oid: str, look_up: bool = False) -> dict[str, Any] | None:
        """The id's row as the batch stands; `look_up` for ids made here (variants), not loaded above."""
        if oid in self.state:
            return self.state[oid]
        if look_up and oid not in self.existing:
            self.existing.update(self.store.current_rows([oid]))
        return self.existing.get(oid)

    def integrity(self, i: int, obj: ResearchObject, oid: str) -> bool:
        """Unique sentence ids in a source map; every locator a current sentence; every cited id live."""
        if isinstance(obj, SourceMap):
            sids = [s.sid for s in obj.sentences]
            if len(set(sids)) != len(sids):
                self.reject(i, obj.kind, oid, "duplicate sentence ids in source map", {"paper": oid})
                return False
        bad_locs = [loc for loc in obj.locators() if self.sentence_text(loc) is None]
        if bad_locs:
            self.reject(i, obj.kind, oid, f"evidence locator(s) do not resolve to a current sentence: {', '.join(bad_locs[:5])}",
                        obj.model_dump(mode="json"))
            return False
        bad_refs = [f"{cid} ({role})" for cid, role in obj.cited_ids() if cid != oid and not self.live(cid)]
        if bad_refs:
            self.reject(i, obj.kind, oid, f"cites unknown or withdrawn object(s): {', '.join(bad_refs[:5])}", obj.model_dump(mode="json"))
            return False
        return True

    def identity(self, obj: ResearchObject, oid: str, ev_hash: str | None) -> tuple[ResearchObject, str, dict[str, Any] | None]:
        """(the object, its id, the current row it would replace). A changed fact is a revision only
        when its producer re-extracted it from changed evidence (or through `revise()`); otherwise it
        is another fact (a variant), never a version of this one."""
        prev = self.previous(oid)
        if (isinstance(obj, Fact) and not self.allow_revision and prev is not None and prev["lifecycle"] != Lifecycle.withdrawn
                and prev["content_hash"] != obj.content_hash()
                and not (prev.get("producer") == obj.provenance.producer and prev.get("evidence_hash") not in (None, ev_hash))):
            obj = obj.model_copy(update={"variant": stable_hash(obj.hashed_content(), 10)})
            oid = obj.id
            prev = self.previous(oid, look_up=True)
        return obj, oid, prev

    def version(self, obj: ResearchObject, oid: str, prev: dict[str, Any] | None, h: str) -> tuple[int, str]:
        if prev is None:
            return 1, "new"
        if prev["content_hash"] == h and prev["lifecycle"] != Lifecycle.withdrawn:
            if prev["lifecycle"] == Lifecycle.needs_recheck or prev["verification"] != obj.verification:
                self.clears[oid] = obj
            return prev["version"], "reused"
        if oid in self.writes:  # a second candidate for the same id in this batch replaces the pending write
            return self.writes[oid][1], ("new" if self.writes[oid][2] == "new" else "revised")
        return prev["version"] + 1, "revised"

    def admit(self, i: int, obj: ResearchObject, oid: str) -> Admitted | None:
        """The candidate admitted, or None when it was rejected (through `reject`)."""
        if not self.integrity(i, obj, oid):
            return None
        snapshot = {loc: self.sentence_text(loc) or "" for loc in obj.locators()}
        ev_hash = evidence_hash(snapshot)
        obj, oid, prev = self.identity(obj, oid, ev_hash)
        h = obj.content_hash()  # verification is bookkeeping: the hash does not change with it below
        self.ctx.sentences.update(snapshot)
        verification, note = self.verifier(obj, self.ctx)
        if isinstance(obj, (Synthesis, Writing, Judgement)) and obj.provenance.task and verification == Verification.failed:
            self.reject(i, obj.kind, oid, f"{note} (text written by a caller is registered only when its basis supports it)",
                        obj.model_dump(mode="json"))
            return None
        obj = obj.model_copy(update={"verification": verification, "verification_note": note[:500]})
        version, status = self.version(obj, oid, prev, h)
        if status != "reused":
            self.writes[oid] = (obj, version, status, snapshot, h, ev_hash)
            self.clears.pop(oid, None)
        self.state[oid] = dict(kind=obj.kind, version=version, lifecycle=Lifecycle.current, content_hash=h,
                               verification=obj.verification, producer=obj.provenance.producer, evidence_hash=ev_hash)
        self.ctx.cited[oid] = obj
        if isinstance(obj, SourceMap):
            self.accepted_papers[oid] = {s.sid: s.text for s in obj.sentences}
        return Admitted(obj, oid, status, version)
