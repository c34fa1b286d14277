"""Source maps: a paper's sentences with stable locators, sections and character spans."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, Field

from .common import ResearchObject, make_locator


class Sentence(BaseModel):
    sid: int = Field(..., ge=0)
    text: str = Field(..., min_length=1)
    section: str = ""
    start: int = Field(0, ge=0, description="character offset in the paper's flat text")
    end: int = Field(0, ge=0)
    kind: str = Field("prose", description="prose, heading, caption, table_row, equation, reference, garbled or "
                                           "instruction (ingest/hygiene.py); facts come from prose only")


class SourceMap(ResearchObject):
    """A paper version: its metadata and sentences. Sentences are stored in their own table."""

    kind: ClassVar[str] = "paper"
    identity_fields: ClassVar[tuple[str, ...]] = ("paper_key",)

    paper_key: str = Field(..., min_length=1, pattern=r"^[^:\s]+$", description="the paper id used in locators")
    title: str = ""
    source_format: str = "text"
    source: str = Field("", description="file path, corpus name or API the paper came from")
    content_hash_raw: str = Field("", description="hash of the raw source file/record: the paper's version")
    sentences: list[Sentence] = Field(..., min_length=1)

    @property
    def paper_id(self) -> str:
        return self.paper_key

    @property
    def id(self) -> str:  # papers are addressed by their own id
        return self.paper_key

    def hashed_content(self) -> dict:
        data = super().hashed_content()
        for sent in data["sentences"]:
            if sent.get("kind") == "prose":
                del sent["kind"]
        return data

    def locator(self, sid: int) -> str:
        return make_locator(self.paper_key, sid)

    def text_of(self, sid: int) -> str:
        return self._by_sid()[sid].text

    def _by_sid(self) -> dict[int, Sentence]:
        return {s.sid: s for s in self.sentences}
