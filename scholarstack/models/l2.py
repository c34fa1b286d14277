"""L2: domain organisation O = (T, E, A, R)."""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar

from pydantic import BaseModel, Field

from .common import ResearchObject


class Category(BaseModel):
    key: str = Field(..., min_length=1, pattern=r"^[a-z0-9_]+$")
    name: str
    criteria: str = Field("", description="membership criteria in words")
    keywords: list[str] = Field(default_factory=list, description="cue terms the offline classifier uses")


class Dimension(BaseModel):
    key: str = Field(..., min_length=1, pattern=r"^[a-z0-9_]+$")
    name: str
    categories: list[Category] = Field(..., min_length=1)


class Taxonomy(ResearchObject):
    kind: ClassVar[str] = "taxonomy"
    identity_fields: ClassVar[tuple[str, ...]] = ("name",)

    name: str = Field(..., min_length=1)
    origin: str = Field("supplied", pattern="^(supplied|induced)$")
    dimensions: list[Dimension] = Field(..., min_length=1)
    induced_from: int = Field(0, ge=0, description="method entities an induced taxonomy was clustered from")

    def hashed_content(self) -> dict:
        data = super().hashed_content()
        if not data.get("induced_from"):  # added later: unset, it leaves older taxonomies' hashes alone
            data.pop("induced_from", None)
        return data

    def category_ids(self) -> dict[str, Category]:
        return {f"{self.id}/{d.key}/{c.key}": c for d in self.dimensions for c in d.categories}

    def label(self) -> str:
        return self.name


class EntityType(StrEnum):
    method = "method"
    dataset = "dataset"
    metric = "metric"
    task = "task"
    other = "other"


class Mention(BaseModel):
    text: str
    fact_id: str
    paper_id: str


class Entity(ResearchObject):
    kind: ClassVar[str] = "entity"
    identity_fields: ClassVar[tuple[str, ...]] = ("type", "key")

    type: EntityType
    key: str = Field(..., min_length=1, description="normalised canonical form; identity")
    name: str = Field(..., min_length=1)
    aliases: list[str] = Field(default_factory=list)
    mentions: list[Mention] = Field(default_factory=list)
    merge_notes: list[str] = Field(default_factory=list, description="how ambiguous merges were adjudicated")

    def cited_ids(self) -> list[tuple[str, str]]:
        return sorted({(m.fact_id, "mention") for m in self.mentions})

    def label(self) -> str:
        return f"{self.name} ({self.type})"


class Certainty(StrEnum):
    high = "high"
    medium = "medium"
    uncertain = "uncertain"


class Assignment(ResearchObject):
    kind: ClassVar[str] = "assignment"
    identity_fields: ClassVar[tuple[str, ...]] = ("entity_id", "category_id")

    entity_id: str
    taxonomy_id: str
    category_id: str = Field(..., description="taxonomy_id/dimension/category")
    supporting_facts: list[str] = Field(..., min_length=1)
    declared: bool = Field(False, description="author-declared (True) or inferred (False)")
    certainty: Certainty = Certainty.medium
    rationale: str = ""

    def cited_ids(self) -> list[tuple[str, str]]:
        ids = [(self.entity_id, "entity"), (self.taxonomy_id, "taxonomy")]
        return ids + [(f, "support") for f in self.supporting_facts]

    def label(self) -> str:
        return f"{self.entity_id} in {self.category_id}"


class RelationType(StrEnum):
    evaluated_on = "evaluated_on"
    compared_with = "compared_with"
    improves_over = "improves_over"
    extends = "extends"
    uses = "uses"


class Relation(ResearchObject):
    kind: ClassVar[str] = "relation"
    identity_fields: ClassVar[tuple[str, ...]] = ("source_id", "type", "target_id")

    source_id: str
    target_id: str
    type: RelationType
    payload: dict[str, str] = Field(default_factory=dict, description="reported results, gains, settings")
    anchoring_facts: list[str] = Field(..., min_length=1)

    def cited_ids(self) -> list[tuple[str, str]]:
        return [(self.source_id, "source"), (self.target_id, "target")] + [
            (f, "anchor") for f in self.anchoring_facts
        ]

    def label(self) -> str:
        return f"{self.source_id} {self.type} {self.target_id}"
