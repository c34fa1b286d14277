"""One interface for structured LLM calls: `structured(prompt, response_model) → (object, usage)`.

instructor over any OpenAI-compatible endpoint. Every call is cached on disk (response_cache) under a hash of
backend, model, prompt and schema, so re-materialising is free and runs are reproducible.
Output that stays invalid after the retries raises LLMOutputError; callers record it as failed.
An endpoint that cannot be reached (refused, timed out, 5xx, auth) raises LLMUnavailableError: an
outage is an error to report, never an empty answer, and never a reason to withdraw data.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from ..response_cache import ResponseCache
from .usage import Usage

T = TypeVar("T", bound=BaseModel)


class LLMCallError(RuntimeError):
    """A structured call that did not give an object; `usage` is what it cost."""

    usage: Usage = Usage()


class LLMOutputError(LLMCallError):
    """The model's output did not validate against the schema after all retries."""


class LLMUnavailableError(LLMCallError):
    """The endpoint could not be reached or refused to serve: the call was not answered at all."""


def _is_outage(exc: BaseException) -> bool:
    """Walk the cause chain (instructor wraps openai's errors) for a transport or server failure."""
    import openai

    seen: set[int] = set()
    stack: list[BaseException | None] = [exc]
    while stack:
        e = stack.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, (openai.APIConnectionError, openai.APITimeoutError, openai.AuthenticationError,
                          openai.PermissionDeniedError, openai.NotFoundError, ConnectionError, TimeoutError)):
            return True
        if isinstance(e, openai.APIStatusError) and e.status_code >= 500:
            return True
        stack += [e.__cause__, e.__context__]
    return False


class LLMConfig(BaseModel):
    base_url: str = "http://127.0.0.1:8080/v1"
    model: str = "local"
    api_key: str = "not-needed"
    mode: str = "JSON_SCHEMA"
    max_retries: int = 2
    timeout_s: float = 120.0
    temperature: float = 0.0
    max_tokens: int = 512
    context_tokens: int = 8192  # the model's window: long prompts (a whole paper) are fitted to it, and say so


def backend_config() -> dict[str, Any]:
    """configs/backends.yaml: the default backend and the openai section's overrides."""
    import yaml

    from ..settings import CONFIG_DIR

    return yaml.safe_load((CONFIG_DIR / "backends.yaml").read_text()) or {}


def configured_openai() -> dict[str, Any]:
    """The openai backend's settings: configs/backends.yaml's section, then SCHOLARSTACK_LLM_* (the
    client's defaults fill the rest). Extraction keys (window, max_windows) are kept for the caller."""
    from ..settings import settings

    env = settings()
    cfg = {k: v for k, v in (backend_config().get("openai") or {}).items() if v is not None}
    return cfg | {k: v for k, v in (("base_url", env.llm_base_url), ("model", env.llm_model), ("api_key", env.llm_api_key)) if v}


def store_client(config: LLMConfig, store_home: str | Path) -> LLMClient:
    """A client whose answers are cached in the store's `llm_cache` (one place for every caller)."""
    return LLMClient(config, cache_dir=Path(store_home) / "llm_cache")


def configured_client(store_home: str | Path) -> LLMClient:
    """A client for the openai backend as configured, caching under the store."""
    cfg = configured_openai()
    return store_client(LLMConfig(**{k: v for k, v in cfg.items() if k in LLMConfig.model_fields}), store_home)


class LLMClient:
    backend = "openai"

    def __init__(self, config: LLMConfig, cache_dir: str | Path | None = None):
        self.config = config
        self.cache = ResponseCache(cache_dir)
        self._client = None

    def _instructor(self):
        if self._client is None:
            import logging

            import instructor
            from openai import OpenAI

            # instructor logs every failed attempt on stderr; the outcome is reported once by our callers.
            logging.getLogger("instructor").setLevel(logging.CRITICAL)

            raw = OpenAI(base_url=self.config.base_url, api_key=self.config.api_key, timeout=self.config.timeout_s, max_retries=1)
            self._client = instructor.from_openai(raw, mode=getattr(instructor.Mode, self.config.mode))
        return self._client

    def cache_key(self, prompt: str, system: str, response_model: type[BaseModel]) -> str:
        return ResponseCache.key(self.backend, self.config.model, self.config.mode, system, prompt, response_model.model_json_schema())

    def prompt_hash(self, prompt: str) -> str:
        return hashlib.sha256(prompt.encode()).hexdigest()[:16]

    def structured(self, prompt: str, response_model: type[T], system: str = "", max_tokens: int | None = None) -> tuple[T, Usage]:
        """`max_tokens`: the reply's limit for this call (a batch answer needs more than the default)."""
        key = self.cache_key(prompt, system, response_model)
        if (cached := self.cache.get(key)) is not None:
            return response_model.model_validate(cached["output"]), Usage(cache_hits=1)
        started = time.perf_counter()
        messages = ([{"role": "system", "content": system}] if system else []) + [{"role": "user", "content": prompt}]
        try:
            obj, completion = self._instructor().chat.completions.create_with_completion(
                model=self.config.model,
                response_model=response_model,
                messages=messages,
                max_retries=self.config.max_retries,
                temperature=self.config.temperature,
                max_tokens=max_tokens or self.config.max_tokens,
            )
        except Exception as exc:  # instructor wraps validation, HTTP and timeout errors alike
            kind = LLMUnavailableError if _is_outage(exc) else LLMOutputError
            what = "unreachable" if kind is LLMUnavailableError else "invalid output"
            err = kind(f"LLM {what}: {self.config.model} at {self.config.base_url}: {type(exc).__name__}: {str(exc)[:300]}")
            err.usage = Usage(calls=1, failures=1, seconds=time.perf_counter() - started)
            raise err from exc
        usage = Usage(calls=1, seconds=time.perf_counter() - started)
        if getattr(completion, "usage", None) is not None:
            usage.tokens_in = completion.usage.prompt_tokens or 0
            usage.tokens_out = completion.usage.completion_tokens or 0
        self.cache.put(key, {"output": obj.model_dump(mode="json"), "usage": usage.model_dump()})
        return obj, usage
