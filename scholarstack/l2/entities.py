"""Canonical entities: mentions in facts merged by deterministic rules, ambiguous cases adjudicated.

Rules, in order: (1) the same normalised key; (2) an acronym written beside its long form anywhere
in the collection ("conditional random fields (CRFs)"); (3) ambiguous near-matches — a key that is
another plus a generic head ("maximum entropy" / "maximum entropy model"), or keys that differ by a
few characters — go to an adjudicator (offline: a rule; openai: the model), and its decision and
reason are kept in the entity's merge_notes.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any, NamedTuple

from ..models import Entity, EntityType, Fact, Mention, Provenance
from ..models.common import stable_hash
from .mentions import acronym_pairs, extract_mentions

GENERIC_HEADS = frozenset("model models approach approaches method methods algorithm algorithms system systems framework technique".split())
MAX_MENTIONS = 200  # an entity cites at most this many facts; enough for recheck, bounded in size

# (key a, key b, example contexts) → (same?, reason)
Adjudicator = Callable[[str, str, list[str]], tuple[bool, str]]


def normalise(surface: str) -> str:
    text = re.sub(r"[^a-z0-9 ]+", " ", surface.lower().replace("-", " "))
    words = text.split()
    if words and len(words[-1]) > 3 and words[-1].endswith("s") and not words[-1].endswith("ss"):
        words[-1] = words[-1][:-1]
    return " ".join(words)


def strip_head(key: str) -> str:
    words = key.split()
    return " ".join(words[:-1]) if len(words) > 1 and words[-1] in GENERIC_HEADS else key


def _alike(a: str, b: str, at_least: float = 0.9) -> bool:
    """difflib's ratio ≥ at_least, asking its two cheap upper bounds first (the same answer; most
    pairs fail the first, which a one-paper update meets ~176k times at 978 papers)."""
    sm = SequenceMatcher(None, a, b)
    return sm.real_quick_ratio() >= at_least and sm.quick_ratio() >= at_least and sm.ratio() >= at_least


def offline_adjudicator(a: str, b: str, contexts: list[str]) -> tuple[bool, str]:
    core = strip_head(a)
    if core == strip_head(b):
        # "learning system" vs "learning method" share only a generic modifier: not the same object.
        if " " in core or (len(core) <= 5 and any(c.isupper() and len(c) <= 6 for c in contexts)):
            return True, f"'{a}' and '{b}' differ only by a generic head noun"
        return False, f"'{a}' and '{b}' share only the generic word '{core}'; kept apart"
    if a.replace(" ", "") == b.replace(" ", ""):
        return True, f"'{a}' and '{b}' differ only in spacing"
    return False, f"'{a}' and '{b}' look alike but differ in content words; kept apart"


@dataclass
class _Rec:
    surface: str
    type: str  # an EntityType's value
    fact_id: str
    paper_id: str


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def long_form_type(surface: str) -> EntityType:
    """An abbreviation's type from its spelled-out form; spelled-out names in papers are mostly methods."""
    typed = [m.type for m in extract_mentions(surface) if m.type != EntityType.other]
    return typed[0] if typed else EntityType.method


class FactMentions(NamedTuple):
    """What one fact gives the entity build: its typed mentions and its written abbreviations."""
    paper_id: str
    mentions: tuple[tuple[str, str, str], ...]  # (surface, type, normalised key)
    pairs: tuple[tuple[str, str, str], ...]  # (long key, short key, long surface)


def fact_mentions(fact: Fact) -> FactMentions:
    mentions = tuple((m.text, m.type.value, normalise(m.text)) for m in extract_mentions(fact.statement))
    pairs = tuple((normalise(long), normalise(short), long) for long, short in acronym_pairs(fact.statement))
    return FactMentions(fact.paper_id, mentions, pairs)


@dataclass
class Group:
    """The keys one entity is made of, with everything its entity is built from."""
    keys: list[str]
    members: list[_Rec]
    longs: dict[str, str]  # key → its spelled-out surface, for keys written as a long form
    notes: list[str]

    def signature(self) -> str:
        """A digest of the group's inputs: equal signatures build equal entities."""
        parts = (self.keys, [(r.surface, r.type, r.fact_id, r.paper_id) for r in self.members], sorted(self.longs.items()), self.notes)
        return stable_hash(parts, 32)


Edge = tuple[str, str, bool, str]  # (key a, key b, merged?, the adjudicator's reason)


def _block_edges(keys: list[str], contexts: dict[str, list[str]], adjudicate: Adjudicator) -> list[Edge]:
    """The adjudicated near-matches within one block, a function of its keys and their contexts
    alone (so a later build can reuse it while they stand): pairs already joined within the block
    are not asked again."""
    uf = _UnionFind()
    edges = []
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            if uf.find(a) == uf.find(b):
                continue
            if strip_head(a) == strip_head(b) or (min(len(a), len(b)) >= 6 and _alike(a, b)):
                same, reason = adjudicate(a, b, contexts.get(a, []) + contexts.get(b, []))
                edges.append((a, b, same, reason))
                if same:
                    uf.union(a, b)
    return edges


def cluster(mentions: dict[str, FactMentions], adjudicate: Adjudicator | None = None,
            edges_memo: Any = None) -> list[Group]:
    """Group mention keys into entities. `edges_memo` (block digest → its edges; `.get` and item
    assignment, a dict or an `l2.memo.Carry`) is read and filled:
    a block whose keys and contexts are unchanged is not adjudicated again."""
    adjudicate = adjudicate or offline_adjudicator
    by_key: dict[str, list[_Rec]] = defaultdict(list)
    pairs: Counter = Counter()
    long_surface: dict[str, str] = {}
    for fid in sorted(mentions):  # fact id order: a key's contexts and a long form's surface do not depend on the caller
        paper_id, recs, fact_pairs = mentions[fid]
        for surface, etype, key in recs:
            if key:
                by_key[key].append(_Rec(surface, etype, fid, paper_id))
        for long, short, surface in fact_pairs:
            pairs[(long, short)] += 1
            long_surface.setdefault(long, surface)
    uf = _UnionFind()
    notes: dict[str, list[str]] = defaultdict(list)
    for (long, short), n in sorted(pairs.items()):
        if long in by_key or short in by_key:
            by_key.setdefault(long, [])
            by_key.setdefault(short, [])
            uf.union(long, short)
            notes[long].append(f"'{short}' is written as the abbreviation of '{long}' ({n}x)")
    # Ambiguous near-matches: blocked by their head-stripped key and first word to stay near-linear.
    blocks: dict[str, list[str]] = defaultdict(list)
    for key in sorted(by_key):
        uf.find(key)
        blocks[strip_head(key).split(" ")[0]].append(key)
    for block in blocks.values():
        if len(block) < 2 or len(block) > 60:
            continue
        contexts = {k: [r.surface for r in by_key[k][:3]] for k in block}
        digest = stable_hash([(k, contexts[k]) for k in block], 32)
        edges = edges_memo.get(digest) if edges_memo is not None else None
        if edges is None:
            edges = _block_edges(block, contexts, adjudicate)
            if edges_memo is not None:
                edges_memo[digest] = edges
        for a, b, same, reason in edges:
            notes[a].append(("merged: " if same else "not merged: ") + reason)
            if same:
                uf.union(a, b)
    grouped: dict[str, list[str]] = defaultdict(list)
    for key in sorted(by_key):
        grouped[uf.find(key)].append(key)
    return [Group(keys, [r for k in keys for r in by_key[k]], {k: long_surface[k] for k in keys if k in long_surface},
                  sorted(set(n for k in keys for n in notes.get(k, []))))
            for keys in grouped.values()]


def entity_for(group: Group, provenance: Provenance) -> Entity | None:
    """The entity a group makes; None for a lone unexplained acronym."""
    members = group.members
    if not members:
        return None
    types = Counter(r.type for r in members if r.type != EntityType.other)
    if types:
        etype = EntityType(max(types, key=lambda t: (types[t], t)))
    else:
        etype = long_form_type(group.longs[min(group.longs)]) if group.longs else EntityType.other
    surfaces = Counter(r.surface for r in members)
    for surface in group.longs.values():  # the spelled-out form is a name of the entity even if only seen beside its abbreviation
        surfaces.setdefault(surface, 0)
    facts_cited = sorted({(r.fact_id, r.paper_id, r.surface) for r in members})
    if etype == EntityType.other and len({f for f, _, _ in facts_cited}) < 2:
        return None  # a lone unexplained acronym is more often noise than an entity
    # The canonical key is the longest key (the spelled-out form), stable across rebuilds.
    canon_key = max(group.keys, key=lambda k: (len(k), k))
    name = max((s for s in surfaces if normalise(s) == canon_key), key=lambda s: (surfaces[s], s),
               default=max(surfaces, key=lambda s: (surfaces[s], s)))
    aliases = sorted({s for s in surfaces if s.lower() != name.lower()}, key=lambda s: (s.lower(), s))  # ties by case too: set order varies by process
    mentions = [Mention(text=s, fact_id=f, paper_id=p) for f, p, s in facts_cited[:MAX_MENTIONS]]
    return Entity(type=etype, key=canon_key, name=name, aliases=aliases[:30], mentions=mentions,
                  merge_notes=group.notes[:10], provenance=provenance)


def entity_lookup(entities: Iterable[Entity]) -> dict[str, Entity]:
    """Normalised surface form (name or alias) → entity, for linking text back to entities."""
    out: dict[str, Entity] = {}
    for e in entities:
        for s in [e.name, *e.aliases]:
            out.setdefault(normalise(s), e)
    return out
