"""Task-derived writing: related-work sections, reviews and paper summaries, every sentence cited.

A sentence cites sentence locators (`A00-1031:152`) or registered object ids (`fac_…`); one that
cites nothing is the writer's interpretation and says so. Registered through the gate like every
object, so a revision of a cited object marks the writing `needs_recheck`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar

from pydantic import BaseModel, Field, model_validator

from .common import LOCATOR_RE, ResearchObject, split_locator


class WritingTask(StrEnum):
    related_work = "related_work"
    review = "review"
    summary = "summary"
    design = "design"


class CitedSentence(BaseModel):
    text: str = Field(..., min_length=1, max_length=2000)
    citations: list[str] = Field(default_factory=list, max_length=12, description="sentence locators or object ids")
    interpretation: bool = Field(False, description="the writer's reading, attributed to no source")

    @model_validator(mode="after")
    def _cited_or_marked(self) -> "CitedSentence":
        if not self.citations and not self.interpretation:
            raise ValueError(f"sentence cites nothing and is not marked as interpretation: {self.text[:80]!r}")
        return self

    def rendered(self) -> str:
        return self.text + (f" [{'; '.join(self.citations)}]" if self.citations else " [interpretation]")


class Section(BaseModel):
    heading: str = Field(..., min_length=1, max_length=300)
    scope: str = Field("", max_length=1000, description="what the section covers: papers, category, conditions")
    sentences: list[CitedSentence] = Field(default_factory=list)
    table: list[dict[str, str]] = Field(default_factory=list, description="rows aligned on dataset and metric (reviews)")


class Writing(ResearchObject):
    kind: ClassVar[str] = "writing"
    identity_fields: ClassVar[tuple[str, ...]] = ("task_name", "request", "settings")

    task_name: WritingTask
    request: str = Field(..., min_length=1, max_length=2000, description="the paper id, topic or abstract written for")
    settings: str = Field("", max_length=300, description="what shapes the text: backend, length, number of papers")
    title: str = Field(..., min_length=1, max_length=500)
    sections: list[Section] = Field(..., min_length=1)
    cited_versions: dict[str, int] = Field(default_factory=dict, description="object id → version the text was written from")

    def sentences(self) -> list[CitedSentence]:
        return [s for sec in self.sections for s in sec.sentences]

    def locators(self) -> list[str]:
        return sorted({c for s in self.sentences() for c in s.citations if LOCATOR_RE.match(c)})

    def cited_ids(self) -> list[tuple[str, str]]:
        """Cited objects, table rows' facts, and the papers of cited sentences (a revised paper marks it)."""
        ids = {c for s in self.sentences() for c in s.citations if not LOCATOR_RE.match(c)}
        ids |= {row["fact"] for sec in self.sections for row in sec.table if row.get("fact")}
        papers = {split_locator(loc)[0] for loc in self.locators()}
        return sorted({(c, "cites") for c in ids} | {(p, "source") for p in papers})

    def label(self) -> str:
        return self.title

    def text(self) -> str:
        """Markdown: headings, cited sentences, tables."""
        out = [f"# {self.title}"]
        for sec in self.sections:
            out.append(f"\n## {sec.heading}\n" + (f"\n*Scope: {sec.scope}*\n" if sec.scope else ""))
            out.append(" ".join(s.rendered() for s in sec.sentences))
            if sec.table:
                cols = list(sec.table[0])
                out.append("\n| " + " | ".join(cols) + " |\n|" + "---|" * len(cols))
                out += ["| " + " | ".join(str(r.get(c, "")).replace("|", "/") for c in cols) + " |" for r in sec.table]
        return "\n".join(out)
