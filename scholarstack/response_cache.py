"""Answers kept on disk under a hash of the request (diskcache: atomic, safe across processes),
shared by the LLM client and the scholarly HTTP client, so a rerun makes no calls. Only
successful answers are stored: a failure is asked again next time."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any


class ResponseCache:
    def __init__(self, directory: str | Path | None):
        """No directory: nothing is kept."""
        if directory is None:
            self._cache = None
            return
        import diskcache

        self._cache = diskcache.Cache(str(directory))

    @staticmethod
    def key(*parts: Any) -> str:
        return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()

    def get(self, key: str) -> Any | None:
        return None if self._cache is None else self._cache.get(key)

    def put(self, key: str, value: Any) -> None:
        if self._cache is not None:
            self._cache.set(key, value)

    def __len__(self) -> int:
        return 0 if self._cache is None else len(self._cache)
