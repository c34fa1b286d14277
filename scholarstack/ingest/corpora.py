"""Readers for the pre-segmented corpora in ../shared/data; sentence ids are kept as published."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path

from .records import PaperRecord, Section, safe_paper_id


def _lines(path: Path) -> Iterator[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{path}: line {n} is not JSON ({exc.msg})") from exc


def read_acl(path: Path, limit: int | None = None) -> Iterator[PaperRecord]:
    """ACL ScisummNet: abstract + sections with global sentence ids (`sid`)."""
    for n, doc in enumerate(_lines(path)):
        if limit is not None and n >= limit:
            return
        abstract = Section(title="abstract", sentences=[(s["sid"], s["text"]) for s in doc.get("abstract") or []])
        sections = [
            Section(title=sec.get("title") or "", sentences=[(s["sid"], s["text"]) for s in sec.get("sentences") or []])
            for sec in doc.get("sections") or []
        ]
        yield PaperRecord(
            paper_id=safe_paper_id(doc["paper_id"]), title=doc.get("title") or "", source_format="acl_jsonl",
            source=f"{path}#{doc['paper_id']}", abstract=abstract if abstract.sentences else None,
            sections=[s for s in sections if s.sentences],
        )


def read_scifact(path: Path, limit: int | None = None) -> Iterator[PaperRecord]:
    """SciFact corpus: abstracts as sentence lists; sid = index in the list, as in the claims' rationales."""
    for n, doc in enumerate(_lines(path)):
        if limit is not None and n >= limit:
            return
        yield PaperRecord(
            paper_id=f"scifact-{doc['doc_id']}", title=doc.get("title") or "", source_format="scifact_jsonl",
            source=f"{path}#{doc['doc_id']}",
            # sids are shifted by one: 0 is the title in every source map.
            abstract=Section(title="abstract", sentences=[(i + 1, s) for i, s in enumerate(doc.get("abstract") or [])]),
            external_ids={"scifact": str(doc["doc_id"])},
        )


def corpus_reader(path: Path):
    """The reader for a JSONL corpus file, recognised by the fields of its first record."""
    if not path.name.endswith((".jsonl", ".jsonl.gz")):
        return None
    try:
        first = next(_lines(path), None)
    except (OSError, ValueError, EOFError):
        return None
    if not isinstance(first, dict):
        return None
    if {"paper_id", "sections"} <= first.keys():
        return read_acl
    if {"doc_id", "abstract"} <= first.keys():
        return read_scifact
    return None
