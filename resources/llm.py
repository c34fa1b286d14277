"""The LLM resource: `offline` (rules, no model; the default) or `openai` (any OpenAI-compatible
endpoint through instructor). Settings come from configs/backends.yaml or the run config."""

from __future__ import annotations

from dagster import ConfigurableResource

from scholarstack.extract.backends import LLMExtractor, OfflineExtractor
from scholarstack.llm.client import LLMClient, LLMConfig
from scholarstack.organise.entities import Adjudicator, offline_adjudicator
from scholarstack.store import Store


class LLMResource(ConfigurableResource):
    backend: str = "offline"  # offline | openai
    base_url: str = "http://127.0.0.1:8080/v1"
    model: str = "local"
    api_key: str = "not-needed"
    mode: str = "JSON_SCHEMA"
    max_retries: int = 2
    max_tokens: int = 512
    window: int = 8
    max_windows: int | None = None  # cap windows per paper (small local models are slow)

    def client(self, store: Store) -> LLMClient:
        cfg = LLMConfig(base_url=self.base_url, model=self.model, api_key=self.api_key, mode=self.mode,
                        max_retries=self.max_retries, max_tokens=self.max_tokens)
        return LLMClient(cfg, cache_dir=store.home / "llm_cache")

    def extractor(self, store: Store):
        if self.backend == "offline":
            return OfflineExtractor()
        if self.backend == "openai":
            return LLMExtractor(self.client(store), window=self.window, max_windows=self.max_windows)
        raise ValueError(f"unknown LLM backend {self.backend!r} (offline or openai)")

    def adjudicator(self, store: Store) -> Adjudicator:
        if self.backend == "openai":
            from scholarstack.organise.adjudicate import llm_adjudicator

            return llm_adjudicator(self.client(store))
        return offline_adjudicator
