"""What the writers read from L2: which entities and taxonomy categories each paper touches."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ..store import Store


@dataclass
class PaperOrganisation:
    entities: dict[str, set[str]] = field(default_factory=dict)  # paper → entity ids it mentions
    names: dict[str, tuple[str, str]] = field(default_factory=dict)  # entity id → (name, type)
    categories: dict[str, Counter] = field(default_factory=dict)  # paper → category id → assignments through its entities
    category_names: dict[str, str] = field(default_factory=dict)
    entity_df: Counter = field(default_factory=Counter)  # entity id → papers mentioning it

    def dominant(self, paper: str, dimension: str) -> str | None:
        """The paper's most assigned category of one taxonomy dimension (method_family, task_area)."""
        counts = [(n, c) for c, n in self.categories.get(paper, Counter()).items() if f"/{dimension}/" in c]
        return max(counts)[1] if counts else None

    def specific(self, paper: str, types: tuple[str, ...] = ("method",), others: set[str] = frozenset(), limit: int = 3) -> list[str]:
        """The paper's entities of `types` that `others` do not mention, rarest in the corpus first."""
        ids = [e for e in self.entities.get(paper, ()) if self.names[e][1] in types and e not in others]
        return sorted(ids, key=lambda e: (self.entity_df[e], self.names[e][0].lower()))[:limit]


def read_organisation(store: Store) -> PaperOrganisation:
    org = PaperOrganisation()
    entities: dict[str, set[str]] = defaultdict(set)
    papers_of: dict[str, set[str]] = {}  # entity id → papers mentioning it
    for row in store.objects("entity"):
        d = row["data"]
        org.names[row["id"]] = (d["name"], d["type"])
        papers_of[row["id"]] = {m["paper_id"] for m in d["mentions"]}
        org.entity_df[row["id"]] = len(papers_of[row["id"]])
        for p in papers_of[row["id"]]:
            entities[p].add(row["id"])
    org.entities = dict(entities)
    categories: dict[str, Counter] = defaultdict(Counter)
    for row in store.objects("assignment"):
        for p in papers_of.get(row["data"]["entity_id"], ()):
            categories[p][row["data"]["category_id"]] += 1
    org.categories = dict(categories)
    org.category_names = category_names(store)
    return org


def category_names(store: Store) -> dict[str, str]:
    """Taxonomy category id (`taxonomy/dimension/key`) → its name."""
    return {f"{row['id']}/{d['key']}/{c['key']}": c["name"]
            for row in store.objects("taxonomy") for d in row["data"]["dimensions"] for c in d["categories"]}
