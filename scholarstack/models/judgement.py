"""Task-derived judgements: an answer to a question, a claim's verdict, kept so later tasks reuse them.

A judgement records what was asked (task, request, the papers asked over, the settings that shape
the answer), the answer, the sources it rests on (sentence locators and object ids, with what they
say) and the versions of everything it read. Registered through the gate, it is reused while those
versions stand; a revision of any of them marks it `needs_recheck`, and the next use derives it again.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar

from pydantic import BaseModel, Field, field_validator

from .common import LOCATOR_RE, ResearchObject, check_locators, split_locator


class JudgementTask(StrEnum):
    qa = "qa"
    verify_claim = "verify_claim"
    novelty = "novelty"
    open_world_search = "open_world_search"


class Source(BaseModel):
    """What one cited source states: its text, the sentences it stands on, the object when it is one."""

    text: str = Field("", max_length=5000)
    locators: list[str] = Field(default_factory=list, max_length=20)
    object_id: str = Field("", max_length=100)

    @field_validator("locators")
    @classmethod
    def _locators(cls, v: list[str]) -> list[str]:
        return check_locators(v)


class Judgement(ResearchObject):
    kind: ClassVar[str] = "judgement"
    identity_fields: ClassVar[tuple[str, ...]] = ("task_name", "request", "scope", "settings")

    task_name: JudgementTask
    request: str = Field(..., min_length=1, max_length=5000, description="the question or claim")
    scope: list[str] = Field(default_factory=list, max_length=50, description="the papers asked over (none: the whole corpus)")
    settings: str = Field("", max_length=300, description="what shapes the answer: mode, backend, method, budget")
    answer: str = Field(..., max_length=5000)
    sources: list[Source] = Field(default_factory=list, max_length=20)
    interpretation: str = Field("", max_length=2000, description="the system's own reading, attributed to no source")
    unanswerable: bool = False
    details: dict[str, Any] = Field(default_factory=dict, description="task-specific: quality label, rationale, papers")
    cited_versions: dict[str, int] = Field(default_factory=dict, description="object id → version the judgement read")
    tokens_in: int = Field(0, ge=0, description="what deriving it cost, saved by every reuse")
    tokens_out: int = Field(0, ge=0)

    def locators(self) -> list[str]:
        return sorted({loc for s in self.sources for loc in s.locators})

    def cited_ids(self) -> list[tuple[str, str]]:
        """The sources' objects and the papers asked over or cited: revising any of them marks it."""
        papers = set(self.scope) | {split_locator(loc)[0] for loc in self.locators()}
        objects = {s.object_id for s in self.sources if s.object_id and not LOCATOR_RE.match(s.object_id)}
        return sorted({(o, "cites") for o in objects} | {(p, "source") for p in papers})

    @property
    def paper_id(self) -> str | None:
        return self.scope[0] if len(self.scope) == 1 else None

    def label(self) -> str:
        return f"{self.task_name}: {self.request[:200]}"
