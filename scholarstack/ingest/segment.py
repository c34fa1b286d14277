"""Sentence segmentation for raw text (PDF, TEI, JATS, Markdown): rules that know scientific prose.

A boundary is end punctuation followed by space and an upper-case letter, digit or bracket, unless
the token before it is a known abbreviation (e.g., et al., Fig., i.e.), an initial ("J. Smith"), or
a number inside a decimal.
"""

from __future__ import annotations

import re

ABBREVIATIONS = frozenset(
    "al e.g i.e cf fig figs eq eqs sec secs tab vs etc approx ref refs no nos vol pp ed eds dr mr mrs ms prof "
    "st jr inc ltd co corp resp viz ca univ dept ch app".split()
)
BOUNDARY = re.compile(r"([.!?])([\"')\]]*)\s+(?=[A-Z0-9(\[\"'])")


def split_sentences(text: str) -> list[str]:
    text = " ".join(text.split())
    if not text:
        return []
    out: list[str] = []
    start = 0
    for m in BOUNDARY.finditer(text):
        end = m.end(2)
        before = text[start:m.start(1)]
        last = before.rsplit(" ", 1)[-1].lower().rstrip(".")
        if last in ABBREVIATIONS or (len(last) == 1 and last.isalpha()):
            continue
        piece = text[start:end].strip()
        if len(piece) < 12 and out:  # a fragment like "(1)." belongs to the sentence before
            out[-1] = f"{out[-1]} {piece}"
        elif piece:
            out.append(piece)
        start = m.end()
    tail = text[start:].strip()
    if tail:
        if len(tail) < 12 and out:
            out[-1] = f"{out[-1]} {tail}"
        else:
            out.append(tail)
    return out
