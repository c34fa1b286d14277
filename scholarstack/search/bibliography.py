"""When a provider has no reference list: parse the paper's bibliography and resolve each entry
by title (and author surnames) against a provider's search."""

from __future__ import annotations

import asyncio
import re
from difflib import SequenceMatcher

from ..scholarly.http import ProviderError
from ..scholarly.providers import PaperMeta, norm_title

QUOTED = re.compile(r"[“\"‘']([^”\"’']{12,300})[”\"’']")
YEAR = re.compile(r"\b(19|20)\d{2}[a-z]?\b")


def parse_entry(raw: str) -> tuple[str, list[str]]:
    """(title, author surnames) from a bibliography entry in the common styles:
    quoted titles; 'Authors. Year. Title. Venue'; 'Authors (Year). Title. Venue'; 'Authors. Title. Venue, Year'."""
    raw = " ".join(raw.split())
    m = QUOTED.search(raw)
    if m:
        title, head = m.group(1), raw[: m.start()]
    else:
        y = YEAR.search(raw)
        # Sentence-like segments; a full stop after a lone initial ("Q. H. Nguyen") is not a boundary.
        parts = [p.strip(" .") for p in re.split(r"(?<!\b[A-Z])\.\s+(?=[A-Z0-9“\"])", raw)]
        if y and y.start() < len(raw) // 2:  # author–year styles: the title follows the year
            after = raw[y.end():].lstrip(").,: ")
            title = re.split(r"\.\s+(?=[A-Z])", after, maxsplit=1)[0]
            head = raw[: y.start()]
        else:
            title = next((p for p in parts[1:] if len(p.split()) >= 3), parts[0] if parts else "")
            head = parts[0] if parts else ""
    surnames = [w for w in re.findall(r"\b([A-Z][a-z]+(?:-[A-Z][a-z]+)?)\b", head) if w.lower() not in {"and", "et", "al", "in", "proc"}]
    return title.strip(" .,"), surnames[:8]


def similarity(a: str, b: str) -> float:
    return SequenceMatcher(None, norm_title(a), norm_title(b)).ratio()


async def resolve_entries(entries: list[str], provider, threshold: float = 0.85, concurrency: int = 4) -> list[tuple[str, PaperMeta | None, float]]:
    sem = asyncio.Semaphore(concurrency)

    async def one(raw: str):
        title, surnames = parse_entry(raw)
        if len(title.split()) < 2:
            return raw, None, 0.0
        async with sem:
            try:
                found = await provider.search(title, 5)
            except ProviderError:
                return raw, None, 0.0
        best, best_score = None, 0.0
        for meta in found:
            score = similarity(title, meta.title)
            if surnames and meta.authors and any(s.lower() in " ".join(meta.authors).lower() for s in surnames):
                score += 0.05  # a shared author surname confirms a near-miss title
            if score > best_score:
                best, best_score = meta, score
        return raw, (best if best_score >= threshold else None), round(best_score, 3)

    return list(await asyncio.gather(*(one(e) for e in entries)))
