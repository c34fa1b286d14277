"""Citation contexts: sentences in other papers that cite a corpus paper ("... like TnT [CITATION] ...").

They describe a paper in the words its readers use, which is what a citing request looks like, so
retrieval uses them as document expansion. Read from JSONL records with `cited_paper_id`,
`citing_paper_id` and `query` (or `text`), as in ACL ScisummNet's citances; each bad line is
reported and skipped, the others are loaded. Kept in the store's `citation_contexts` table.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from ..store import Store
from .records import safe_paper_id

MARKER = "[CITATION]"
# "[3]", "(Collins, 2002; Brill and Ngai 1999)", and unarXive's "{{cite:…}}" / "{{formula:…}}".
INLINE_CITATION = re.compile(r"\[[\d,;\s\-–]+\]|\((?:[A-Z][A-Za-z\-]+(?: et al\.)?(?: (?:and|&) [A-Z][A-Za-z\-]+)?,? (?:19|20)\d\d[a-z]?;?\s*)+\)|"
                             r"\{\{cite:[^}]+\}\}|\{\{formula:[^}]+\}\}")
# "Collins (2002)", "Collins et al., 2002", "Brill and Ngai, 1999": the cited authors named in the
# running text. The year is in parentheses or after a comma or "et al.", so "In 2000 sentences" stays.
_AUTHORS = r"\b[A-Z][A-Za-z\-]+(?: et al\.?| (?:and|&) [A-Z][A-Za-z\-]+)?"
_YEAR = r"(?:19|20)\d\d[a-z]?"
NARRATIVE_CITATION = re.compile(rf"{_AUTHORS}(?:,? \({_YEAR}\)|, {_YEAR})|\b[A-Z][A-Za-z\-]+ et al\.? {_YEAR}|"
                                rf"\([^()]*\b{_YEAR}\b[^()]*\)")  # and any parenthesis holding a year: "(van Halteren et al 1998; …)"


def strip_citation_markers(text: str, narrative: bool = False) -> str:
    """The text without inline citation markers (and, with `narrative`, without cited authors'
    names and years, which say nothing about what the cited paper wrote)."""
    text = INLINE_CITATION.sub(" ", text)
    if narrative:
        text = NARRATIVE_CITATION.sub(" ", text)
    return " ".join(text.split())


def read_contexts(path: Path) -> tuple[list[tuple[str, str, str, str]], list[str]]:
    """(rows (context_id, cited_id, citing_id, text), failures) from a JSONL file."""
    rows, failed = [], []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        return [], [f"{path}: cannot read ({exc})"]
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec: Any = json.loads(line)
            cited, citing = rec["cited_paper_id"], rec["citing_paper_id"]
            text = rec.get("query") or rec.get("text")
            if not isinstance(text, str) or not text.strip() or not isinstance(cited, str) or not isinstance(citing, str):
                raise ValueError("needs string fields cited_paper_id, citing_paper_id and query (or text)")
        except (ValueError, KeyError, TypeError) as exc:
            failed.append(f"{path}: line {n}: {' '.join(str(exc).split())[:200]}; skipped")
            continue
        text = " ".join(text.replace(MARKER, " ").split())
        cid = rec.get("query_id") or hashlib.sha256(f"{cited}|{citing}|{text}".encode()).hexdigest()[:16]
        rows.append((str(cid), safe_paper_id(cited), safe_paper_id(citing), text))
    return rows, failed


def load_contexts(store: Store, path: Path) -> dict[str, Any]:
    """Add (or replace, by context id) the file's citation contexts; report what was loaded and skipped."""
    rows, failed = read_contexts(path)
    store.replace_citation_contexts(rows)
    known = store.current_ids("paper")
    return {"file": str(path), "loaded": len(rows), "failed": failed,
            "cited_in_store": len({r[1] for r in rows} & known), "cited_papers": len({r[1] for r in rows})}


def contexts_from_store(store: Store) -> list[tuple[str, str, str]]:
    """(cited id, citing id, text) for every stored citation context."""
    return store.citation_contexts()
