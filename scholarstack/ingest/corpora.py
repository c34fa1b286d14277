"""Readers for the pre-segmented corpora in ../shared/data; sentence ids are kept as published.

A bad line (not JSON, a record without its id, a negative sentence id, text that is not text) is
yielded as (source, reason) and the reader goes on with the next line; a truncated gzip file
yields what was read before the damage and one failure naming the line where it broke.
"""

from __future__ import annotations

import gzip
import json
import re
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .records import PaperRecord, Section, safe_paper_id

Failure = tuple[str, str]


def _lines(path: Path) -> Iterator[tuple[int, dict[str, Any] | str]]:
    """(line number, record) or (line number, reason) for each non-blank line."""
    opener = gzip.open if path.suffix == ".gz" else open
    n = 0
    try:
        with opener(path, "rt", encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    doc = json.loads(line)
                except json.JSONDecodeError as exc:
                    yield n, f"line {n} is not JSON ({exc.msg})"
                    continue
                yield n, doc if isinstance(doc, dict) else f"line {n} is not a JSON object"
    except (EOFError, zlib.error, gzip.BadGzipFile, UnicodeDecodeError) as exc:
        yield n + 1, f"the file is damaged or truncated after line {n} ({type(exc).__name__}: {exc}); lines before it were read"


def _sentences(items: Any, what: str) -> list[tuple[int, str]]:
    out = []
    for s in items or []:
        sid, text = s.get("sid") if isinstance(s, dict) else None, s.get("text") if isinstance(s, dict) else None
        if not isinstance(sid, int) or isinstance(sid, bool) or sid < 0:
            raise ValueError(f"{what}: sentence id {sid!r} is not a non-negative integer")
        if not isinstance(text, str):
            raise ValueError(f"{what}: sentence {sid} has no text")
        out.append((sid, text))
    return out


def _acl_title(doc: dict[str, Any]) -> str:
    """The record's title; where the scanned header ran on into it ("Explo i t ing a Probabi l ist ic
    ... Generat ion Srinivas Bangalore and Owen Rambow AT&T Labs ..."), the title its summary opens
    with, which is that header's start, letter for letter but for OCR slips ("~om" for "from")."""
    from difflib import SequenceMatcher

    title = str(doc.get("title") or "")
    summary = doc.get("human_summary")
    first = summary.split("\n", 1)[0].strip() if isinstance(summary, str) else ""
    a, b = (_letters(first), _letters(title))
    if a and len(b) >= len(a) + 15 and (b.startswith(a) or SequenceMatcher(None, a, b[:len(a)], autojunk=False).ratio() >= 0.95):
        return first
    return title


def _letters(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())


def _acl(doc: dict[str, Any], path: Path, n: int) -> PaperRecord:
    raw_id = doc.get("paper_id")
    if not isinstance(raw_id, str) or not raw_id.strip():
        raise ValueError("record has no paper_id")
    where = f"paper {raw_id}"
    abstract = Section(title="abstract", sentences=_sentences(doc.get("abstract"), where))
    sections = [Section(title=str(sec.get("title") or ""), sentences=_sentences(sec.get("sentences"), where))
                for sec in doc.get("sections") or [] if isinstance(sec, dict)]
    return PaperRecord(
        paper_id=safe_paper_id(raw_id), title=_acl_title(doc), source_format="acl_jsonl",
        source=f"{path}#{raw_id}", abstract=abstract if abstract.sentences else None,
        sections=[s for s in sections if s.sentences],
    )


def _scifact(doc: dict[str, Any], path: Path, n: int) -> PaperRecord:
    raw_id = doc.get("doc_id")
    if raw_id is None or not str(raw_id).strip():
        raise ValueError("record has no doc_id")
    abstract = doc.get("abstract") or []
    if not isinstance(abstract, list) or not all(isinstance(s, str) for s in abstract):
        raise ValueError(f"doc {raw_id}: abstract is not a list of sentences")
    return PaperRecord(
        # A doc_id with ':' or spaces cannot stand in a locator: sanitised, the raw id kept in external_ids.
        paper_id=f"scifact-{safe_paper_id(str(raw_id))}", title=str(doc.get("title") or ""), source_format="scifact_jsonl",
        source=f"{path}#{raw_id}",
        # sids are shifted by one: 0 is the title in every source map.
        abstract=Section(title="abstract", sentences=[(i + 1, s) for i, s in enumerate(abstract)]),
        external_ids={"scifact": str(raw_id)},
    )


DOC_PREFIX = re.compile(r"^document:\s*", re.I)  # how most SciREX titles open


def _detokenize(words: list[str]) -> str:
    text = " ".join(words)
    return re.sub(r"([(\[]) ", r"\1", re.sub(r" ([,.;:%)\]'])", r"\1", text)).replace(" - ", "-")


def _scirex(doc: dict[str, Any], path: Path, n: int) -> PaperRecord:
    raw_id = doc.get("doc_id")
    if not isinstance(raw_id, str) or not raw_id.strip():
        raise ValueError("record has no doc_id")
    words, spans, parts = doc.get("words"), doc.get("sentences"), doc.get("sections")
    if not (isinstance(words, list) and isinstance(spans, list) and isinstance(parts, list) and parts):
        raise ValueError(f"doc {raw_id}: words, sentences and sections are required")
    # sid = the sentence's index in the document: sentence 0 is the title. Most SciREX docs prefix it
    # "document:" and run the abstract on in the title's section, without a heading; the others give the
    # abstract a section of its own, opened by its heading ("section: Abstract") as every later section is.
    sentences = [(i, _detokenize(words[a:b])) for i, (a, b) in enumerate(spans)]
    named: list[tuple[str, list[tuple[int, str]]]] = []
    title = ""
    for j, (a, b) in enumerate(parts):
        inside = [(sid, t) for sid, t in sentences if a <= spans[sid][0] < b and t]
        heading = None
        if inside and inside[0][1].lower().startswith("section:"):
            heading, inside = inside[0][1].split(":", 1)[1].strip() or None, inside[1:]  # "section:" alone names none
        if j == 0:
            # "InfoGAN:" and "Interpretable Representation Learning by …" were split as two sentences
            cut = 2 if len(inside) > 1 and inside[0][1].endswith(":") else 1
            title = DOC_PREFIX.sub("", " ".join(t for _, t in inside[:cut]))
            named.append(("abstract", inside[cut:]))
            continue
        name = heading or f"section {j}"
        if name.lower() == "abstract" or (heading is None and j == 1 and not named[0][1]):
            name = "abstract"
        named.append((name, inside))
    sections = [Section(title=name, sentences=inside) for name, inside in named if inside]
    abstract = next((s for s in sections if s.title == "abstract"), None)
    return PaperRecord(paper_id=f"scirex-{safe_paper_id(raw_id)[:16]}", title=title, source_format="scirex_jsonl",
                       source=f"{path}#{raw_id}", abstract=abstract, sections=[s for s in sections if s is not abstract],
                       external_ids={"scirex": raw_id})


def _reader(build: Callable[[dict[str, Any], Path, int], PaperRecord]):
    def read(path: Path, limit: int | None = None) -> Iterator[PaperRecord | Failure]:
        produced = 0
        for n, doc in _lines(path):
            if limit is not None and produced >= limit:
                return
            if isinstance(doc, str):
                yield (f"{path}:{n}", f"{path}: {doc}; skipped")
                continue
            try:
                record = build(doc, path, n)
            except (ValueError, ValidationError, TypeError, AttributeError) as exc:
                reason = " ".join(str(exc).split())[:300]
                yield (f"{path}:{n}", f"{path}: line {n}: {reason}; skipped")
                continue
            produced += 1
            yield record
    return read


read_acl = _reader(_acl)  # ACL ScisummNet: abstract + sections with global sentence ids (`sid`)
read_scifact = _reader(_scifact)  # SciFact corpus: abstracts as sentence lists; sid = index + 1
read_scirex = _reader(_scirex)  # SciREX: tokens with sentence and section spans; sid = sentence index (0: the title)


def corpus_reader(path: Path):
    """The reader for a JSONL corpus file, recognised by the fields of its first good record."""
    if not path.name.endswith((".jsonl", ".jsonl.gz")):
        return None
    first = None
    try:
        for _, doc in _lines(path):
            if isinstance(doc, dict):
                first = doc
                break
    except OSError:
        return None
    if first is None:
        return None
    if {"words", "sentences", "sections"} <= first.keys():
        return read_scirex
    if "sections" in first or "paper_id" in first:
        return read_acl
    if {"doc_id", "abstract"} & first.keys():
        return read_scifact
    return None
