"""L3: Scoped Syntheses (account, scope, basis)."""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar

from pydantic import BaseModel, Field

from .common import ResearchObject


class BasisRole(StrEnum):
    supporting = "supporting"
    opposing = "opposing"
    limiting = "limiting"


class BasisItem(BaseModel):
    object_id: str = Field(..., description="a registered fact or assignment")
    role: BasisRole
    note: str = ""


class Scope(BaseModel):
    topic: str = Field(..., min_length=1)
    conditions: list[str] = Field(default_factory=list)
    studies: list[str] = Field(..., min_length=1, description="paper ids considered")


class SynthesisKind(StrEnum):
    method_family = "method_family"
    disagreement = "disagreement"
    open_problem = "open_problem"
    result_comparison = "result_comparison"


class ReviewState(StrEnum):
    candidate = "candidate"
    unreviewed = "unreviewed"
    reviewed = "reviewed"


class Synthesis(ResearchObject):
    kind: ClassVar[str] = "synthesis"
    identity_fields: ClassVar[tuple[str, ...]] = ("scope_key",)

    synthesis_type: SynthesisKind = SynthesisKind.method_family
    account: str = Field(..., min_length=1, max_length=8000)
    scope: Scope
    basis: list[BasisItem] = Field(..., min_length=1)
    disagreements: list[str] = Field(default_factory=list)
    context_differences: list[str] = Field(default_factory=list)
    review_state: ReviewState = ReviewState.unreviewed

    @property
    def scope_key(self) -> str:
        return self.scope.topic

    def cited_ids(self) -> list[tuple[str, str]]:
        return [(b.object_id, b.role.value) for b in self.basis]

    def label(self) -> str:
        return self.scope.topic
