"""Dagster resources: each an interface with an embedded/offline implementation by default."""

from .llm import LLMResource
from .store import StoreResource
from .vectors import VectorIndexResource

__all__ = ["LLMResource", "StoreResource", "VectorIndexResource"]
