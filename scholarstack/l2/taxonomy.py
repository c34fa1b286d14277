"""Taxonomy (supplied in YAML or induced from the collection) and category assignments."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import yaml

from ..models import Assignment, Category, Certainty, Dimension, Entity, EntityType, Fact, Provenance, Taxonomy

DECLARED_RE = r"\b(?:is|are|as)\s+(?:a|an|the)?\s*(?:\w+\s){{0,3}}{kw}|\bbased on\s+(?:\w+\s){{0,3}}{kw}|\b{kw}\w*[- ]based\b"


def load_taxonomy(path: str | Path) -> Taxonomy:
    path = Path(path)
    try:
        raw = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as exc:
        raise ValueError(f"{path}: cannot read taxonomy YAML ({exc})") from exc
    try:
        return Taxonomy(name=raw["name"], origin="supplied", dimensions=[
            Dimension(key=d["key"], name=d.get("name", d["key"]), categories=[Category(**c) for c in d["categories"]])
            for d in raw["dimensions"]
        ])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{path}: not a taxonomy (needs name and dimensions with categories): {exc}") from exc


def induce_taxonomy(entities: list[Entity], facts: dict[str, Fact], k: int = 8, name: str = "induced") -> Taxonomy:
    """One dimension whose categories are clusters of method entities by the words of their facts."""
    from sklearn.cluster import KMeans
    from sklearn.feature_extraction.text import TfidfVectorizer

    methods = [e for e in entities if e.type == EntityType.method]
    docs = [" ".join([e.name] + [facts[m.fact_id].statement for m in e.mentions[:10] if m.fact_id in facts]) for e in methods]
    if len(docs) < k:
        raise ValueError(f"cannot induce {k} categories from {len(docs)} method entities; supply a taxonomy in configs/")
    vec = TfidfVectorizer(stop_words="english", max_features=5000, min_df=2 if len(docs) > 50 else 1)
    X = vec.fit_transform(docs)
    km = KMeans(n_clusters=k, n_init=4, random_state=0).fit(X)
    terms = vec.get_feature_names_out()
    cats = []
    for c in range(k):
        top = [terms[i] for i in km.cluster_centers_[c].argsort()[::-1][:4]]
        cats.append(Category(key=f"c{c}_" + re.sub(r"[^a-z0-9]+", "_", top[0].lower()).strip("_"), name=" / ".join(top),
                             criteria=f"methods whose facts are about {', '.join(top)}", keywords=top))
    return Taxonomy(name=name, origin="induced", induced_from=len(methods),
                    dimensions=[Dimension(key="method_cluster", name="Method cluster", categories=cats)])


REINDUCE_CHANGE = 0.10  # share of method entities gained or lost before an induced taxonomy is clustered again


def keeps(current: Taxonomy | None, methods: int, k: int) -> bool:
    """Whether the current induced taxonomy stands: the method entities number within
    REINDUCE_CHANGE of those it was clustered from and `k` is unchanged (so a nightly refresh of a
    few papers does not rename every category and re-create every assignment)."""
    return current is not None and current.origin == "induced" and bool(current.induced_from) \
        and sum(len(d.categories) for d in current.dimensions) == k \
        and abs(methods - current.induced_from) <= REINDUCE_CHANGE * current.induced_from


@lru_cache(maxsize=4096)
def _cue_patterns(keywords: tuple[str, ...]) -> tuple[re.Pattern, re.Pattern]:
    """One alternation per category (compiled once): its cues, and its 'declared' phrasings."""
    alt = "|".join(re.escape(k.lower()) for k in sorted(keywords, key=len, reverse=True))
    return re.compile(rf"\b(?:{alt})"), re.compile(DECLARED_RE.format(kw=f"(?:{alt})"))


def assign_categories(taxonomy: Taxonomy, entities: list[Entity], facts: dict[str, Fact], run_id: str | None = None,
                      backend: str = "offline") -> list[Assignment]:
    """Place entities in categories, citing the facts that support membership.

    Declared: the entity's own name carries the category's cue, or a fact says the entity *is* /
    *is based on* it. Inferred: only the surrounding statements do. Two categories of one
    dimension scoring alike are both kept, marked uncertain, rather than forcing one.
    """
    prov = Provenance(producer="organise.assign", backend=backend, run_id=run_id)
    out: list[Assignment] = []
    tax_id = taxonomy.id
    cues = {(dim.key, cat.key): _cue_patterns(tuple(cat.keywords)) for dim in taxonomy.dimensions for cat in dim.categories if cat.keywords}
    matched: dict[str, frozenset] = {}  # a statement → the categories whose cue it carries: facts recur across entities

    def cue_in(low: str) -> frozenset:
        if low not in matched:
            matched[low] = frozenset(k for k, (cue, _) in cues.items() if cue.search(low))
        return matched[low]

    for e in entities:
        if e.type not in (EntityType.method, EntityType.task, EntityType.other):
            continue
        names = " ".join([e.name, *e.aliases]).lower()
        mention_facts = [facts[m.fact_id] for m in e.mentions if m.fact_id in facts][:30]
        lowered = [f.statement.lower() for f in mention_facts]
        for dim in taxonomy.dimensions:
            scored = []
            for cat in dim.categories:
                if not cat.keywords:
                    continue
                cue, declared_re = cues[(dim.key, cat.key)]
                in_name = len(cue.findall(names))
                hits = [i for i, low in enumerate(lowered) if (dim.key, cat.key) in cue_in(low)]
                support = [mention_facts[i] for i in hits]
                declared = in_name > 0 or any(declared_re.search(lowered[i]) for i in hits)
                score = 3 * in_name + len(support)
                if score >= 2 and (support or mention_facts):
                    scored.append((score, cat, support or mention_facts[:1], declared))
            if not scored:
                continue
            scored.sort(key=lambda x: -x[0])
            best = scored[0][0]
            close = [s for s in scored if best - s[0] <= 1]
            for score, cat, support, declared in close[:3]:
                if len(close) > 1:
                    certainty = Certainty.uncertain
                elif declared or (score >= 5 and best - (scored[1][0] if len(scored) > 1 else 0) >= 2):
                    certainty = Certainty.high
                else:
                    certainty = Certainty.medium
                out.append(Assignment(
                    entity_id=e.id, taxonomy_id=tax_id, category_id=f"{tax_id}/{dim.key}/{cat.key}",
                    supporting_facts=sorted({f.id for f in support})[:8], declared=declared, certainty=certainty,
                    rationale=f"cue score {score} for '{cat.name}'" + (f"; tied with {len(close) - 1} other(s)" if len(close) > 1 else ""),
                    provenance=prov,
                ))
    return out


def category_index(taxonomy: Taxonomy) -> dict[str, tuple[Dimension, Category]]:
    return {f"{taxonomy.id}/{d.key}/{c.key}": (d, c) for d in taxonomy.dimensions for c in d.categories}
