"""Sentence kinds that keep text out of facts: instructions addressed to a model (prompt
injection planted in a paper) are kept as sentences, marked, and never become facts or answers.

A rule is right here: the pattern is imperative text addressed to an AI system, not science.
"""

from __future__ import annotations

import re

INSTRUCTION_RE = re.compile(
    r"\b(?:ignore|disregard|forget|override)\b[^.]{0,40}\b(?:previous|prior|above|earlier|all|any|your)\b[^.]{0,30}"
    r"\b(?:instructions?|prompts?|rules|context|directions)\b"
    r"|\b(?:you are (?:now )?(?:an? )?(?:ai|assistant|language model|llm|chatbot))\b"
    r"|\b(?:as an? (?:ai|large language model|llm)|(?:ai|llm|language model) (?:reviewers?|assistants?)[^.]{0,20}\b(?:must|should))\b"
    r"|\b(?:system prompt|jailbreak)\b"
    r"|\b(?:give|rate|score)\b[^.]{0,30}\b(?:positive review|high(?:est)? score|accept(?:ance)?)\b[^.]{0,40}\b(?:only|regardless)\b",
    re.I,
)

PROSE, INSTRUCTION = "prose", "instruction"


def sentence_kind(text: str) -> str:
    return INSTRUCTION if INSTRUCTION_RE.search(text) else PROSE
