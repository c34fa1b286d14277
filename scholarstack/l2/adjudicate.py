"""Model adjudication of ambiguous entity merges; any failure falls back to the offline rule, and
the note says so, so a merge decision is never silently lost."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..llm.client import LLMClient, LLMOutputError
from .entities import Adjudicator, offline_adjudicator


class SameEntity(BaseModel):
    same: bool
    reason: str = Field("", max_length=160)


def llm_adjudicator(client: LLMClient) -> Adjudicator:
    def decide(a: str, b: str, contexts: list[str]) -> tuple[bool, str]:
        prompt = (f"Do these two names refer to the same research object (method, dataset, metric or task)?\n"
                  f"A: {a}\nB: {b}\nSeen as: {'; '.join(contexts[:6])}\nAnswer same=true or false with a short reason.")
        try:
            out, _ = client.structured(prompt, SameEntity)
        except LLMOutputError as exc:
            same, reason = offline_adjudicator(a, b, contexts)
            return same, f"{reason} (model adjudication failed: {str(exc)[:80]})"
        return out.same, f"model: {out.reason or ('same' if out.same else 'different')}"

    return decide
