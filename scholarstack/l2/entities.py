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

from ..models import Entity, EntityType, Fact, Mention, Provenance
from .mentions import acronym_pairs, extract_mentions, prefetch

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
    type: EntityType
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


def collect_mentions(facts: Iterable[Fact]) -> tuple[list[_Rec], Counter, dict[str, str]]:
    """Typed mentions, (long key, short key) abbreviation pairs, and each long key's surface form."""
    recs: list[_Rec] = []
    pairs: Counter = Counter()
    long_surface: dict[str, str] = {}
    facts = list(facts)
    prefetch([f.statement for f in facts])
    for f in facts:
        for m in extract_mentions(f.statement):
            recs.append(_Rec(m.text, m.type, f.id, f.paper_id))
        for long, short in acronym_pairs(f.statement):
            pairs[(normalise(long), normalise(short))] += 1
            long_surface.setdefault(normalise(long), long)
    return recs, pairs, long_surface


def long_form_type(surface: str) -> EntityType:
    """An abbreviation's type from its spelled-out form; spelled-out names in papers are mostly methods."""
    typed = [m.type for m in extract_mentions(surface) if m.type != EntityType.other]
    return typed[0] if typed else EntityType.method


def build_entities(facts: list[Fact], adjudicate: Adjudicator | None = None, run_id: str | None = None,
                   backend: str = "offline") -> list[Entity]:
    adjudicate = adjudicate or offline_adjudicator
    recs, pairs, long_surface = collect_mentions(facts)
    by_key: dict[str, list[_Rec]] = defaultdict(list)
    for r in recs:
        key = normalise(r.surface)
        if key:
            by_key[key].append(r)
    uf = _UnionFind()
    notes: dict[str, list[str]] = defaultdict(list)
    for key in by_key:
        uf.find(key)
    for (long, short), n in pairs.items():
        if long in by_key or short in by_key:
            by_key.setdefault(long, [])
            by_key.setdefault(short, [])
            uf.union(long, short)
            notes[long].append(f"'{short}' is written as the abbreviation of '{long}' ({n}x)")
    # Ambiguous near-matches: blocked by their head-stripped key and first word to stay near-linear.
    blocks: dict[str, list[str]] = defaultdict(list)
    for key in by_key:
        blocks[strip_head(key).split(" ")[0]].append(key)
    contexts = {k: [r.surface for r in v[:3]] for k, v in by_key.items()}
    for block in blocks.values():
        if len(block) < 2 or len(block) > 60:
            continue
        for i, a in enumerate(block):
            for b in block[i + 1:]:
                if uf.find(a) == uf.find(b):
                    continue
                near = strip_head(a) == strip_head(b) or (min(len(a), len(b)) >= 6 and _alike(a, b))
                if near:
                    same, reason = adjudicate(a, b, contexts.get(a, []) + contexts.get(b, []))
                    notes[a].append(("merged: " if same else "not merged: ") + reason)
                    if same:
                        uf.union(a, b)
    groups: dict[str, list[str]] = defaultdict(list)
    for key in by_key:
        groups[uf.find(key)].append(key)
    prov = Provenance(producer="organise.entities", backend=backend, run_id=run_id)
    entities = []
    for keys in groups.values():
        members = [r for k in keys for r in by_key[k]]
        if not members:
            continue
        types = Counter(r.type for r in members if r.type != EntityType.other)
        longs = [k for k in keys if k in long_surface]
        if types:
            etype = types.most_common(1)[0][0]
        else:
            etype = long_form_type(long_surface[longs[0]]) if longs else EntityType.other
        surfaces = Counter(r.surface for r in members)
        for k in longs:  # the spelled-out form is a name of the entity even if only seen beside its abbreviation
            surfaces.setdefault(long_surface[k], 0)
        facts_cited = sorted({(r.fact_id, r.paper_id, r.surface) for r in members})
        if etype == EntityType.other and len({f for f, _, _ in facts_cited}) < 2:
            continue  # a lone unexplained acronym is more often noise than an entity
        # The canonical key is the longest key (the spelled-out form), stable across rebuilds.
        canon_key = max(keys, key=lambda k: (len(k), k))
        name = max((s for s in surfaces if normalise(s) == canon_key), key=lambda s: (surfaces[s], s), default=surfaces.most_common(1)[0][0])
        aliases = sorted({s for s in surfaces if s.lower() != name.lower()}, key=lambda s: (s.lower(), s))  # ties by case too: set order varies by process
        mentions = [Mention(text=s, fact_id=f, paper_id=p) for f, p, s in facts_cited[:MAX_MENTIONS]]
        entities.append(Entity(type=etype, key=canon_key, name=name, aliases=aliases[:30], mentions=mentions,
                               merge_notes=sorted(set(n for k in keys for n in notes.get(k, [])))[:10], provenance=prov))
    return sorted(entities, key=lambda e: e.id)


def entity_lookup(entities: Iterable[Entity]) -> dict[str, Entity]:
    """Normalised surface form (name or alias) → entity, for linking text back to entities."""
    out: dict[str, Entity] = {}
    for e in entities:
        for s in [e.name, *e.aliases]:
            out.setdefault(normalise(s), e)
    return out
