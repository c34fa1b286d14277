"""What every parser returns: a paper as sections of sentences, plus where it came from."""

from __future__ import annotations

import re
from pydantic import BaseModel, Field

from ..models import Sentence, SourceMap
from ..models.common import stable_hash


class Section(BaseModel):
    title: str = ""
    # Either pre-segmented sentences (sid, text) from a corpus, or raw text to segment.
    sentences: list[tuple[int, str]] = Field(default_factory=list)
    text: str = ""


class PaperRecord(BaseModel):
    paper_id: str = Field(..., min_length=1)
    title: str = ""
    authors: list[str] = Field(default_factory=list)
    year: int | None = None
    source_format: str
    source: str = Field(..., description="file path, corpus file#id, or API url")
    abstract: Section | None = None
    sections: list[Section] = Field(default_factory=list)
    references: list[str] = Field(default_factory=list, description="bibliography entries as text")
    external_ids: dict[str, str] = Field(default_factory=dict)
    warnings: list[str] = Field(default_factory=list, description="what parsing had to guess or skip (encoding, damaged pages)")

    def content_hash(self) -> str:
        return stable_hash(self.model_dump(mode="json", exclude={"source", "warnings"}), 32)


ANTHOLOGY_ID = re.compile(r"^[A-Z](\d\d)-\d{4}$")


def anthology_year(paper_id: str | None) -> int | None:
    """The year an ACL Anthology id carries (P05-1022: 2005; W99-0613: 1999); None for other ids."""
    m = ANTHOLOGY_ID.match(paper_id or "")
    if not m:
        return None
    yy = int(m.group(1))
    return 1900 + yy if yy >= 50 else 2000 + yy


class EmptyPaperError(ValueError):
    pass


def max_paper_chars() -> int:
    from ..settings import settings

    return settings().max_paper_chars


def safe_paper_id(raw: str) -> str:
    """Paper ids appear in locators (paper_id:sid), so no colons or spaces."""
    pid = re.sub(r"[^A-Za-z0-9._\-]+", "_", raw.strip()).strip("_")
    if not pid:
        raise ValueError(f"cannot derive a paper id from {raw!r}")
    return pid


def to_source_map(record: PaperRecord, previous: list[Sentence] | None = None, next_free: int = 0) -> SourceMap:
    """Flatten sections into sentences with locators and character spans in the flat text.

    Pre-segmented corpora keep their own sentence ids (so gold annotations line up); raw text is
    segmented here and numbered from 1 (0 is the title). When the paper had a version before
    (`previous`, its current sentences), segmented sentences keep the ids of the sentences they
    continue (see `carry_sids`), so an edit elsewhere in the paper never moves a locator.
    """
    from .hygiene import join_broken_words, join_split_words, repair, sentence_kind, split_glued_words
    from .segment import split_sentences

    sentences: list[Sentence] = []
    offset = 0
    next_sid = 1
    used: set[int] = set()
    if record.title:
        sentences.append(Sentence(sid=0, text=record.title, section="title", start=0, end=len(record.title)))
        used.add(0)
        offset = len(record.title) + 1
    parts = ([record.abstract] if record.abstract else []) + list(record.sections)
    items_of = [list(sec.sentences) or [(None, s) for s in split_sentences(sec.text)] for sec in parts]
    # Repaired one by one; broken, split and glued words over the whole paper, whose words tell them from compounds.
    texts = [repair(text) for items in items_of for _, text in items]
    texts = iter(split_glued_words(join_split_words(join_broken_words(texts))))
    for sec, items in zip(parts, items_of):
        name = sec.title or ("abstract" if sec is record.abstract else "")
        for (sid, _), text in zip(items, texts):
            if not text:
                continue
            if sid is None or sid in used:
                while next_sid in used:
                    next_sid += 1
                sid = next_sid
            used.add(sid)
            next_sid = max(next_sid, sid + 1)
            sentences.append(Sentence(sid=sid, text=text, section=name, start=offset, end=offset + len(text),
                                      kind=sentence_kind(text, name)))
            offset += len(text) + 1
    segmented = not any(sec.sentences for sec in parts)
    if previous and segmented:
        sentences = carry_sids(previous, sentences, next_free)
    body = [s for s in sentences if s.section != "title"]
    if not body:
        raise EmptyPaperError(f"{record.source}: the paper has no text (no sentences after parsing)")
    return SourceMap(
        paper_key=record.paper_id,
        title=record.title,
        source_format=record.source_format,
        source=record.source,
        content_hash_raw=record.content_hash(),
        sentences=sentences,
    )


def carry_sids(previous: list[Sentence], current: list[Sentence], next_free: int) -> list[Sentence]:
    """Give each sentence of a new version the id of the old sentence it continues.

    Sentences are aligned in reading order (difflib over their texts): an unchanged sentence keeps
    its id; an edited one (same place, similar text) keeps its id too, so facts on it are revised,
    not orphaned; an inserted sentence gets an id never used before in this paper (`next_free` and
    up), so an old locator never resolves to other text. Positions (start, end) give reading order.
    """
    from difflib import SequenceMatcher

    old = sorted((s for s in previous if s.sid != 0), key=lambda s: s.start)  # the title is always sid 0
    body = [s for s in current if s.sid != 0]
    new_sids: list[int | None] = [None] * len(body)
    matcher = SequenceMatcher(None, [s.text for s in old], [s.text for s in body], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():  # each old sentence lands in at most one opcode
        if op == "equal":
            for k in range(i2 - i1):
                new_sids[j1 + k] = old[i1 + k].sid
        elif op == "replace":
            for k in range(min(i2 - i1, j2 - j1)):
                if SequenceMatcher(None, old[i1 + k].text, body[j1 + k].text, autojunk=False).ratio() >= 0.6:
                    new_sids[j1 + k] = old[i1 + k].sid
    fresh = max([next_free, 1, *(s.sid + 1 for s in previous)])
    out = [s for s in current if s.sid == 0]
    for sent, sid in zip(body, new_sids):
        if sid is None:
            sid, fresh = fresh, fresh + 1
        out.append(sent.model_copy(update={"sid": sid}))
    return out
