"""Typed relations between entities, each anchored in the facts that connect its endpoints.

A fact that names two entities and carries a relational cue yields a relation from the fact's
subject entity to the other; a finding that names a dataset yields evaluated_on with the reported
results as payload. Relations with the same endpoints and type are merged, keeping every anchor.
"""

from __future__ import annotations

import re

from ..models import Entity, EntityType, Fact, FactType, Provenance, Relation, RelationType
from .entities import normalise
from .mentions import extract_mentions, prefetch

CUES: list[tuple[RelationType, re.Pattern]] = [
    (RelationType.improves_over, re.compile(r"\b(outperform\w*|better than|superior to|surpass\w*|improv\w* (?:over|on|upon)|beats?)\b", re.I)),
    (RelationType.extends, re.compile(r"\b(extend\w*|(?:is|are) based on|builds? (?:on|upon)|variant of|modification of|generali[sz]\w* of)\b", re.I)),
    (RelationType.compared_with, re.compile(r"\b(compar\w* (?:with|to|against)|versus|vs\.?|than)\b", re.I)),
    (RelationType.uses, re.compile(r"\b(uses?|using|used|employ\w*|adopt\w*|appl(?:y|ies|ied)|relies on|incorporat\w*)\b", re.I)),
]
MAX_ANCHORS = 20


def _link(fact: Fact, lookup: dict[str, Entity]) -> list[tuple[int, Entity]]:
    out = []
    for m in extract_mentions(fact.statement):
        e = lookup.get(normalise(m.text))
        if e is not None and all(e.id != x.id for _, x in out):
            out.append((m.start, e))
    return out


def extract_relations(facts: list[Fact], lookup: dict[str, Entity], run_id: str | None = None, backend: str = "offline") -> list[Relation]:
    merged: dict[tuple[str, RelationType, str], dict] = {}
    prefetch([f.statement for f in facts])
    for f in facts:
        linked = _link(f, lookup)
        if len(linked) < 2:
            continue
        subj_key = normalise(f.subject)
        source = next((e for _, e in linked if normalise(e.name) in subj_key or subj_key in {normalise(a) for a in [e.name, *e.aliases]}), None)
        if source is None:
            source = next((e for _, e in linked if e.type in (EntityType.method, EntityType.other)), None)
        if source is None:
            continue
        found: list[tuple[RelationType, Entity]] = []
        if f.type == FactType.finding:
            found += [(RelationType.evaluated_on, e) for _, e in linked if e.type == EntityType.dataset and e.id != source.id]
        for rtype, cue in CUES:
            m = cue.search(f.statement)
            if not m:
                continue
            targets = [e for pos, e in linked if pos > m.start() and e.id != source.id and e.type in (EntityType.method, EntityType.other)]
            if rtype == RelationType.uses:
                targets = [e for pos, e in linked if pos > m.start() and e.id != source.id]
            if targets:
                found.append((rtype, targets[0]))
                break  # the first (strongest) cue decides the fact's relation
        for rtype, target in found:
            key = (source.id, rtype, target.id)
            slot = merged.setdefault(key, {"facts": [], "payload": {}})
            if f.id not in slot["facts"]:
                slot["facts"].append(f.id)
            for q in f.quantities:
                label = q.metric or "value"
                slot["payload"].setdefault(label, q.text + (f" on {q.dataset}" if q.dataset else ""))
    prov = Provenance(producer="organise.relations", backend=backend, run_id=run_id)
    out = []
    for (src, rtype, dst), slot in sorted(merged.items(), key=lambda kv: (kv[0][0], kv[0][1].value, kv[0][2])):
        payload = dict(slot["payload"]) | {"reports": str(len(slot["facts"]))}
        out.append(Relation(source_id=src, target_id=dst, type=rtype, payload=payload,
                            anchoring_facts=sorted(slot["facts"])[:MAX_ANCHORS], provenance=prov))
    return out
