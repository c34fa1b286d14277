"""Shared pieces of every research object: ids, locators, states and provenance.

Ids are derived from an object's *identity key* (what it is about), and a content hash from
everything it says. The same identity with new content is a new version of the same id; the same
identity and content is the same object, so re-registration is idempotent by construction.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime, timezone
from enum import StrEnum
from functools import lru_cache
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

LOCATOR_RE = re.compile(r"^[^:\s]+:\d+$")


def stable_hash(value: Any, length: int = 16) -> str:
    """sha256 of a canonical JSON rendering, truncated; stable across processes and runs."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:length]


def make_locator(paper_id: str, sid: int) -> str:
    return f"{paper_id}:{sid}"


@lru_cache(maxsize=1 << 18)  # a fact's id reads its paper from its first locator: hundreds of thousands of times per L2 build
def split_locator(locator: str) -> tuple[str, int]:
    if not LOCATOR_RE.match(locator):
        raise ValueError(f"not a sentence locator (paper_id:sid): {locator!r}")
    paper_id, sid = locator.rsplit(":", 1)
    return paper_id, int(sid)


class Lifecycle(StrEnum):
    current = "current"
    superseded = "superseded"
    withdrawn = "withdrawn"
    needs_recheck = "needs_recheck"


class Verification(StrEnum):
    unverified = "unverified"
    passed = "passed"
    failed = "failed"
    unresolved = "unresolved"


class Provenance(BaseModel):
    producer: str = "unknown"
    backend: str = "offline"
    model: str | None = None
    prompt_hash: str | None = None
    run_id: str | None = None
    task: str | None = Field(None, description="set when the object is task-derived: the task that produced it")
    created_at: datetime = Field(default_factory=lambda: datetime.now(timezone.utc))


class ResearchObject(BaseModel):
    """Base of every registrable object. Subclasses set `kind` and `identity_fields`."""

    model_config = ConfigDict(extra="forbid")

    kind: ClassVar[str] = "object"
    # Fields whose values make up the identity key (and hence the id).
    identity_fields: ClassVar[tuple[str, ...]] = ()
    # Fields excluded from the content hash: bookkeeping, not what the object says.
    bookkeeping: ClassVar[frozenset[str]] = frozenset({"provenance", "verification", "verification_note"})

    provenance: Provenance = Field(default_factory=Provenance)
    verification: Verification = Verification.unverified
    verification_note: str = ""

    @property
    def id(self) -> str:
        values = tuple(getattr(self, f) for f in self.identity_fields)
        try:
            return _memo_id(self.kind, values)
        except TypeError:  # an unhashable identity value (a settings dict): hashed each time
            return _object_id(self.kind, values)

    def content_hash(self) -> str:
        return stable_hash(self.hashed_content(), 32)

    def hashed_content(self) -> dict[str, Any]:
        """What the content hash covers; fields added later drop out at their default, so the
        objects of an existing store keep their hashes."""
        return self.model_dump(mode="json", exclude=set(self.bookkeeping))

    def cited_ids(self) -> list[tuple[str, str]]:
        """(object id, role) pairs this object cites; roles name the reference kind."""
        return []

    def locators(self) -> list[str]:
        """Sentence locators this object cites directly."""
        return []

    @property
    def paper_id(self) -> str | None:
        return None

    def label(self) -> str:
        return self.id


def _object_id(kind: str, values: tuple) -> str:
    return f"{kind[:3]}_{stable_hash([kind] + [_identity_value(v) for v in values])}"


# An id is a pure function of the identity values; L2 and L3 ask for ids about a million times at
# 978 papers, and hashing each time took ~30 s of a one-paper update.
_memo_id = lru_cache(maxsize=1 << 18)(_object_id)


def _identity_value(value: Any) -> Any:
    if isinstance(value, str):
        return " ".join(value.lower().split())
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    return value


def check_locators(values: list[str]) -> list[str]:
    for v in values:
        split_locator(v)
    return values


class HasEvidence(BaseModel):
    evidence: list[str] = Field(..., min_length=1, description="sentence locators paper_id:sid")

    @field_validator("evidence")
    @classmethod
    def _locators(cls, v: list[str]) -> list[str]:
        return check_locators(v)
