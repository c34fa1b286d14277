"""Typed relations between entities, each anchored in the facts that connect its endpoints.

A fact that names two entities and carries a relational cue yields a relation from the fact's
subject entity to the other; a finding that names a dataset yields evaluated_on with the reported
results as payload. Relations with the same endpoints and type are merged, keeping every anchor.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..models import Entity, EntityType, Fact, FactType, Provenance, Relation, RelationType
from .entities import normalise
from .mentions import extract_mentions

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


Contribution = tuple[str, str, str, tuple[tuple[str, str], ...]]  # (source id, relation type, target id, payload items)


def fact_relations(f: Fact, lookup: dict[str, Entity]) -> tuple[Contribution, ...]:
    """The relations one fact anchors, given the entity lookup (a function of the two alone)."""
    linked = _link(f, lookup)
    if len(linked) < 2:
        return ()
    subj_key = normalise(f.subject)
    source = next((e for _, e in linked if normalise(e.name) in subj_key or subj_key in {normalise(a) for a in [e.name, *e.aliases]}), None)
    if source is None:
        source = next((e for _, e in linked if e.type in (EntityType.method, EntityType.other)), None)
    if source is None:
        return ()
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
    payload = tuple((q.metric or "value", q.text + (f" on {q.dataset}" if q.dataset else "")) for q in f.quantities)
    return tuple((source.id, rtype.value, target.id, payload) for rtype, target in found)


Slot = tuple[list[str], dict[str, str]]  # (anchoring fact ids, payload)


def merge_contributions(contributions: Iterable[tuple[str, tuple[Contribution, ...]]]) -> dict[tuple[str, str, str], Slot]:
    """(source, type, target) → its anchoring facts and payload, from (fact id, contributions) in
    fact order: every anchoring fact kept, the first report of each metric."""
    merged: dict[tuple[str, str, str], Slot] = {}
    for fid, contribs in contributions:
        for src, rtype, dst, payload in contribs:
            facts, values = merged.setdefault((src, rtype, dst), ([], {}))
            if fid not in facts:
                facts.append(fid)
            for label, text in payload:
                values.setdefault(label, text)
    return dict(sorted(merged.items()))


def relation_for(key: tuple[str, str, str], slot: Slot, provenance: Provenance) -> Relation:
    (src, rtype, dst), (facts, payload) = key, slot
    return Relation(source_id=src, target_id=dst, type=RelationType(rtype), payload=payload | {"reports": str(len(facts))},
                    anchoring_facts=sorted(facts)[:MAX_ANCHORS], provenance=provenance)
