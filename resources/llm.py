"""The LLM resource: `offline` (rules, no model; the default) or `openai` (any OpenAI-compatible
endpoint through instructor). Settings come from configs/backends.yaml or the run config."""

from __future__ import annotations

from dagster import ConfigurableResource

from scholarstack.l1.backends import LLMExtractor, OfflineExtractor
from scholarstack.llm.client import LLMClient, LLMConfig, store_client
from scholarstack.l2.entities import Adjudicator, offline_adjudicator
from scholarstack.store import Store


_LLM = LLMConfig()  # the client's defaults are the only ones


class LLMResource(ConfigurableResource):
    backend: str = "offline"  # offline | openai
    base_url: str = _LLM.base_url
    model: str = _LLM.model
    api_key: str = _LLM.api_key
    mode: str = _LLM.mode
    max_retries: int = _LLM.max_retries
    max_tokens: int = _LLM.max_tokens
    window: int = 8
    max_windows: int | None = None  # cap windows per paper (small local models are slow)

    def client(self, store: Store) -> LLMClient:
        cfg = LLMConfig(base_url=self.base_url, model=self.model, api_key=self.api_key, mode=self.mode,
                        max_retries=self.max_retries, max_tokens=self.max_tokens)
        return store_client(cfg, store.home)

    def extractor(self, store: Store):
        if self.backend == "offline":
            return OfflineExtractor()
        if self.backend == "openai":
            return LLMExtractor(self.client(store), window=self.window, max_windows=self.max_windows)
        raise ValueError(f"unknown LLM backend {self.backend!r} (offline or openai)")

    def adjudicator(self, store: Store) -> Adjudicator:
        if self.backend == "openai":
            from scholarstack.l2.adjudicate import llm_adjudicator

            return llm_adjudicator(self.client(store))
        return offline_adjudicator
