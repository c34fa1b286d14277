"""The L2 build (entities, taxonomy, assignments, relations), recomputing only what changed.

A full build and an update are one code path: every step's per-unit results are kept in an
`OrganisationMemo` under the store's `cache/`, keyed by their inputs, and a unit is computed again
only when its inputs changed or its object does not stand in the store as the memo says
(withdrawn, marked for recheck, rejected). The whole-corpus parts that remain (grouping mention
keys, the entity lookup, merging relations) are cheap dictionary work over what the memo holds; a
one-paper update loads and tags only that paper's facts, not the ~80k of the corpus.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from .l2.entities import Adjudicator, FactMentions, cluster, entity_for, entity_lookup, fact_mentions
from .l2.memo import MISSING, AssignmentRef, Carry, EntityRef, FactBrief, OrganisationMemo, RelationRef
from .l2.mentions import prefetch
from .l2.relations import fact_relations, merge_contributions, relation_for
from .l2.taxonomy import assign_categories, induce_taxonomy, keeps, load_taxonomy
from .models import Entity, EntityType, Fact, Provenance, Taxonomy
from .models.common import stable_hash
from .store import Store, withdraw_missing
from .store.registry import BatchValidator, register_changed

ASSIGNABLE = (EntityType.method, EntityType.task, EntityType.other)  # what assign_categories places
ORGANISATION = ("entity", "assignment", "relation")  # the kinds the build registers and keeps in the memo
MEMO_FILE = "cache/l2_memo.pickle"  # under the store's home


class _Facts:
    """Facts by id, loaded from the store on first use (a one-paper update reads a few dozen)."""

    def __init__(self, store: Store) -> None:
        self.store, self.loaded = store, {}

    def get(self, ids) -> dict[str, Fact]:
        want = [i for i in dict.fromkeys(ids) if i not in self.loaded]
        if want:
            self.loaded |= {f.id: f for f in self.store.current_models("fact", ids=want)}
        return {i: self.loaded[i] for i in ids if i in self.loaded}


def organise(store: Store, run_id: str, settings: str, taxonomy_path: str | Path | None = None, induce_k: int = 8,
             adjudicator: Adjudicator | None = None, validator: BatchValidator | None = None,
             backend: str = "offline") -> dict[str, Any]:
    memo_path = store.home / MEMO_FILE
    old = OrganisationMemo.load(memo_path, settings)
    new = OrganisationMemo(settings)
    fact_hashes = {oid: h for oid, _, _, h, _ in store.content_hashes(("fact",))}
    standing = {oid: h for oid, _, _, h, _ in store.content_hashes(ORGANISATION, lifecycle=("current",))}
    facts = _Facts(store)

    # Mentions: tagged only for facts the memo has not seen with this content.
    stale = [fid for fid, h in fact_hashes.items() if old.facts.get(fid, ("",))[0] != h]
    prefetch([f.statement for f in facts.get(stale).values()])
    mentions: dict[str, FactMentions] = {}
    for fid, h in fact_hashes.items():
        if fid in facts.loaded:
            f = facts.loaded[fid]
            new.facts[fid] = (h, fact_mentions(f), FactBrief.of(f))
        else:
            new.facts[fid] = old.facts[fid]
        mentions[fid] = new.facts[fid][1]

    # Entities: a group whose inputs are unchanged keeps its entity, if that stands in the store.
    prov = Provenance(producer="organise.entities", backend=backend, run_id=run_id)
    blocks, known = Carry(old.blocks), Carry(old.entities)
    refs: dict[str, EntityRef] = {}
    built: dict[str, Entity] = {}
    for group in cluster(mentions, adjudicator, blocks):
        sig = group.signature()
        ref = known.get(sig, MISSING)
        if ref is MISSING or (ref is not None and standing.get(ref.id) != ref.content_hash):
            entity = entity_for(group, prov)
            ref = None if entity is None else EntityRef.of(entity)
            if entity is not None:
                built[entity.id] = entity
        known[sig] = ref
        if ref is not None:
            refs[ref.id] = ref
    ent_report = register_changed(store, sorted(built.values(), key=lambda e: e.id), run_id=run_id, validator=validator,
                                  producer="organise.entities")
    accepted = set(ent_report.accepted_ids)
    refs = {i: r for i, r in sorted(refs.items()) if i not in built or i in accepted}
    new.blocks, new.entities = blocks.new, known.new

    def entities(ids) -> list[Entity]:
        ids = sorted(ids)
        loaded = {e.id: e for e in store.current_models("entity", ids=[i for i in ids if i not in built])}
        return [built.get(i) or loaded[i] for i in ids if i in built or i in loaded]

    taxonomy = _taxonomy(store, taxonomy_path, induce_k, refs, entities, facts, fact_hashes)
    tax_report = register_changed(store, [taxonomy], run_id=run_id, validator=validator, producer="organise.taxonomy")

    # Assignments: an entity's are computed again when it, its first 30 live facts or the taxonomy changed.
    scope = stable_hash((taxonomy.id, taxonomy.content_hash()), 32)
    placed, todo = Carry(old.assignments), {}
    kept: list[AssignmentRef] = []
    for eid, ref in refs.items():
        if ref.type not in ASSIGNABLE:
            continue
        live = [f for f in ref.mention_fids if f in fact_hashes][:30]
        unit = stable_hash((scope, ref.content_hash, [(f, fact_hashes[f]) for f in live]), 32)
        got = placed.get(unit)
        if got is not None and all(standing.get(a.id) == a.content_hash for a in got):
            kept += got
        else:
            todo[eid] = (unit, live)
    fresh = assign_categories(taxonomy, entities(todo), facts.get([f for _, live in todo.values() for f in live]), run_id, backend)
    by_entity = defaultdict(list)
    for a in fresh:
        by_entity[a.entity_id].append(AssignmentRef.of(a))
    for eid, (unit, _) in todo.items():
        placed[unit] = tuple(by_entity.get(eid, ()))
    new.assignments = placed.new
    asg_report = register_changed(store, fresh, run_id=run_id, validator=validator, producer="organise.assign")

    # Relations: a fact's are extracted again when it, or an entity its mentions link to, changed.
    lookup = entity_lookup(refs.values())  # refs are by id: the first entity to claim a name keeps it
    anchored, contributions, todo_facts = Carry(old.contributions), {}, {}
    for fid, found in mentions.items():
        keys = sorted({key for _, _, key in found.mentions})
        if len(keys) < 2:  # a relation links two entities
            continue
        unit = stable_hash((fid, fact_hashes[fid], [(k, lookup[k].link_signature() if k in lookup else None) for k in keys]), 32)
        got = anchored.get(unit)
        if got is None:
            todo_facts[fid] = unit
        else:
            contributions[fid] = got
    loaded = facts.get(todo_facts)
    prefetch([f.statement for f in loaded.values()])
    for fid, unit in todo_facts.items():
        contributions[fid] = anchored[unit] = fact_relations(loaded[fid], lookup)
    new.contributions = anchored.new
    # A relation is built again only when its anchoring facts or payload changed (or it does not stand).
    rel_prov = Provenance(producer="organise.relations", backend=backend, run_id=run_id)
    made, rel_refs, rel_built = Carry(old.relations), [], []
    for key, slot in merge_contributions(sorted(contributions.items())).items():
        unit = stable_hash((key, slot), 32)
        ref = made.get(unit)
        if ref is None or standing.get(ref.id) != ref.content_hash:
            relation = relation_for(key, slot, rel_prov)
            rel_built.append(relation)
            ref = RelationRef.of(relation)
        made[unit] = ref
        rel_refs.append(ref)
    new.relations = made.new
    rel_report = register_changed(store, rel_built, run_id=run_id, validator=validator, producer="organise.relations")

    fresh_accepted = set(asg_report.accepted_ids)
    new.out_entities = refs
    new.out_assignments = sorted(kept + [a for refs_ in by_entity.values() for a in refs_ if a.id in fresh_accepted])
    rebuilt, rel_accepted = {r.id for r in rel_built}, set(rel_report.accepted_ids)
    new.out_relations = sorted(r for r in rel_refs if r.id not in rebuilt or r.id in rel_accepted)  # by id, as the store reads them
    asg_ids = [a.id for a in new.out_assignments]
    withdrawn = sum(
        withdraw_missing(store, kind, ids, reason=f"no longer produced by the {kind} rebuild", run_id=run_id)
        for kind, ids in (("entity", list(refs)), ("assignment", asg_ids), ("relation", [r.id for r in new.out_relations]))
    )
    new.save(memo_path, old)
    return {
        "facts_in": len(fact_hashes), "facts_tagged": len(stale), "facts_read": len(facts.loaded),
        "entities": len(refs), "entities_built": len(built),
        "taxonomy": taxonomy.id, "taxonomy_origin": taxonomy.origin, "assignments": len(asg_ids),
        "assignments_uncertain": sum(1 for a in new.out_assignments if a.certainty == "uncertain"),
        "relations": len(new.out_relations), "relations_built": len(rel_built), "withdrawn": withdrawn,
        "rejected": sum(len(r.rejected) for r in (ent_report, tax_report, asg_report, rel_report)),
        "entity_types": dict(Counter(r.type.value for r in refs.values())),
        "relation_types": dict(Counter(r.type for r in new.out_relations)),
    }


def _taxonomy(store: Store, taxonomy_path, induce_k: int, refs: dict[str, EntityRef], entities, facts: _Facts,
              fact_hashes: dict[str, str]) -> Taxonomy:
    """The supplied taxonomy; else the current induced one while it `keeps`; else a new induction
    (which reads every method entity and their facts)."""
    if taxonomy_path:
        return load_taxonomy(taxonomy_path)
    current = [t for t in store.current_models("taxonomy") if t.origin == "induced" and t.name == "induced"]
    methods = [i for i, r in refs.items() if r.type == EntityType.method]
    if keeps(current[0] if current else None, len(methods), induce_k):
        return current[0]
    chosen = entities(methods)
    return induce_taxonomy(chosen, facts.get([m.fact_id for e in chosen for m in e.mentions[:10] if m.fact_id in fact_hashes]), k=induce_k)


def organisation_inputs(store: Store) -> tuple[dict[str, Fact | FactBrief], dict[str, Entity | EntityRef], list, list]:
    """What L3 reads: facts, entities, assignments and relations. From the last L2 build's memo
    when it describes the store as it is (every live fact, entity, assignment and relation with the
    content the memo holds; verification as the store has it now), which takes a second where
    loading ~150k objects took ~15 s; loaded from the store otherwise."""
    memo = OrganisationMemo.load(store.home / MEMO_FILE, None)
    facts = {fid: (h, v) for fid, _, _, h, v in store.content_hashes(("fact",))}
    organisation = {oid: h for oid, _, _, h, _ in store.content_hashes(ORGANISATION)}
    held = {r.id: r.content_hash for r in [*memo.out_entities.values(), *memo.out_assignments, *memo.out_relations]}
    if held == organisation and len(memo.facts) == len(facts) and all(memo.facts.get(fid, ("",))[0] == h for fid, (h, _) in facts.items()):
        briefs = {}
        for fid in sorted(facts):
            brief, verification = memo.facts[fid][2], facts[fid][1]
            briefs[fid] = brief if brief.verification == verification else brief._replace(verification=verification)
        return briefs, memo.out_entities, memo.out_assignments, memo.out_relations
    return ({f.id: f for f in store.current_models("fact")}, {e.id: e for e in store.current_models("entity")},
            store.current_models("assignment"), store.current_models("relation"))
