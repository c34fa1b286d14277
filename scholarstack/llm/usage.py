"""Token, call and time accounting for every extraction step, surfaced as asset metadata."""

from __future__ import annotations

from pydantic import BaseModel


class Usage(BaseModel):
    calls: int = 0
    cache_hits: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    seconds: float = 0.0
    failures: int = 0

    def add(self, other: "Usage") -> "Usage":
        for f in type(self).model_fields:
            setattr(self, f, getattr(self, f) + getattr(other, f))
        return self

    def as_metadata(self) -> dict[str, float | int]:
        return {f"llm_{k}": (round(v, 3) if isinstance(v, float) else v) for k, v in self.model_dump().items()}
