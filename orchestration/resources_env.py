"""Resource sets per environment: `local` (embedded store, offline backend) is the default;
`SCHOLARSTACK_BACKEND=openai` with SCHOLARSTACK_LLM_BASE_URL/MODEL switches the LLM."""

from __future__ import annotations

import os

from assets.settings import CompileSettings
from resources import LLMResource, StoreResource


def local_resources(store_home: str | None = None, backend: str | None = None, progress: bool = False, **llm: object) -> dict:
    backend = backend or os.environ.get("SCHOLARSTACK_BACKEND", "offline")
    llm_cfg = {
        "backend": backend,
        "base_url": os.environ.get("SCHOLARSTACK_LLM_BASE_URL", "http://127.0.0.1:8080/v1"),
        "model": os.environ.get("SCHOLARSTACK_LLM_MODEL", "local"),
        "api_key": os.environ.get("SCHOLARSTACK_LLM_API_KEY", "not-needed"),
    } | llm
    return {
        "store": StoreResource(home=store_home),
        "llm": LLMResource(**llm_cfg),
        "settings": CompileSettings(progress=progress),
    }
