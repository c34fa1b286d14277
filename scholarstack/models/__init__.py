"""Typed research objects, one module a layer."""

from .common import Lifecycle, Provenance, ResearchObject, Verification, make_locator, split_locator
from .l1 import Context, Fact, FactType, Quantity, Study, StudyType
from .l2 import (
    Assignment,
    Category,
    Certainty,
    Dimension,
    Entity,
    EntityType,
    Mention,
    Relation,
    RelationType,
    Taxonomy,
)
from .l3 import BasisItem, BasisRole, ReviewState, Scope, Synthesis, SynthesisKind
from .judgement import Judgement, JudgementTask, Source
from .source import Sentence, SourceMap
from .writing import CitedSentence, Section, Writing, WritingTask

KINDS: dict[str, type[ResearchObject]] = {
    cls.kind: cls for cls in (SourceMap, Fact, Taxonomy, Entity, Assignment, Relation, Synthesis, Writing, Judgement)
}
LAYER_OF = {
    "paper": "source",
    "fact": "L1",
    "taxonomy": "L2",
    "entity": "L2",
    "assignment": "L2",
    "relation": "L2",
    "synthesis": "L3",
    "writing": "task",  # task-derived: written from the layers, cites them
    "judgement": "task",
}



def load_object(row: dict) -> ResearchObject:
    """A stored row (kind, data) as its typed object."""
    data = {k: v for k, v in row["data"].items() if k not in ("kind", "n_sentences")}
    return KINDS[row["kind"]].model_validate(data)


__all__ = [name for name in dir() if not name.startswith("_")]
