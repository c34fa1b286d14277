"""What every task answer carries: what sources state (with locators) kept apart from
interpretation, and the cost (input/output tokens, seconds)."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, Field

from ..models import Source

TOKEN_RE = re.compile(r"\w+|[^\w\s]")


def count_tokens(text: str) -> int:
    """A model-independent token count (words and punctuation), used for every system alike."""
    return len(TOKEN_RE.findall(text))


Statement = Source  # what a cited source states: one model for tasks and the judgements they register


class TaskAnswer(BaseModel):
    task: str
    question: str
    answer: str
    mode: str = Field("view", description="view | fulltext | rag")
    sources_state: list[Statement] = Field(default_factory=list, description="what the cited sources say, with locators")
    interpretation: str = Field("", description="the system's own reading, not attributed to a source")
    unanswerable: bool = False
    tokens_in: int = 0
    tokens_out: int = 0
    seconds: float = 0.0
    extra: dict[str, Any] = Field(default_factory=dict)


LOCATOR_IN_TEXT = re.compile(r"[^\s\[\]|@,]+:\d+")


def cited_sources(store, context: str, cited: list[str], allowed: set[str] | None = None) -> tuple[list[Statement], list[str]]:
    """A model's citations checked against the context it was given: (sources with their sentence
    text, citations that were not in the context). Invalid ones are returned for the record, never
    used. `allowed`: the context's locators when it does not spell them out (a compact rendering)."""
    allowed = allowed if allowed is not None else set(LOCATOR_IN_TEXT.findall(context))
    valid = [c for c in cited if c in allowed]
    texts = store.current_sentences(valid)
    return [Statement(text=texts.get(c, ""), locators=[c]) for c in valid], [c for c in cited if c not in allowed]


def check_text_input(text: str, what: str, max_chars: int = 20_000) -> str:
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"empty {what}")
    if len(text) > max_chars:
        raise ValueError(f"{what} is {len(text):,} characters; the limit is {max_chars:,} (pass the essential sentence)")
    return text.strip()
