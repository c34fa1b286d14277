"""Inspection: one stored object with its evidence sentences, versions and what cites it
(what `scholarstack show` prints and the MCP `show` tool returns)."""

from __future__ import annotations

from typing import Any

from ..models.text import display_text, named_ids


def show_object(store, obj_id: str, version: int | None = None) -> dict[str, Any]:
    row = store.get_row(obj_id, version)
    if row is None:
        what = f"{obj_id} version {version}" if version is not None else obj_id
        raise LookupError(f"no object {what} in store {store.home}")
    data = row["data"]
    if version is None:
        locs = store.evidence_of(obj_id)
        texts, missing = store.current_sentences(locs), "(sentence not current)"
    else:  # the text the version was registered against, not today's
        locs = _locators_in(data)
        texts, missing = store.version_evidence(obj_id, version) or {}, "(text at this version not recorded)"
    if row["kind"] == "paper":
        sents = store.paper_sentences(obj_id, row["version"] if version is not None else None)
        data = data | {"first_sentences": [f"{s['locator']} {s['text']}" for s in sents[:5]]}
    names = store.names(named_ids(row["kind"], data))
    return {
        "id": obj_id,
        "kind": row["kind"],
        "text": display_text(row["kind"], data, names, row["label"] or obj_id),
        "version": row["version"],
        "lifecycle": row["lifecycle"],
        "verification": row["verification"],
        "verification_note": row.get("verification_note"),
        "recheck_cause": row.get("recheck_cause"),
        "data": data,
        "evidence": [{"locator": loc, "text": texts.get(loc) or missing} for loc in locs],
        "history": store.history(obj_id),
        "cites": store.cites(obj_id),
        "cited_by": store.cited_by(obj_id),
    }


def _locators_in(data: dict[str, Any]) -> list[str]:
    return list(data.get("evidence", []))
