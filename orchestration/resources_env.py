"""Resource sets per environment: `local` (embedded store, offline backend) is the default;
`SCHOLARSTACK_BACKEND=openai` with SCHOLARSTACK_LLM_BASE_URL/MODEL switches the LLM."""

from __future__ import annotations

import os

from assets.settings import CompileSettings
from resources import LLMResource, StoreResource, VectorIndexResource


def backend_config() -> dict:
    import yaml

    from scholarstack.settings import CONFIG_DIR

    return yaml.safe_load((CONFIG_DIR / "backends.yaml").read_text())


def local_resources(store_home: str | None = None, backend: str | None = None, progress: bool = False,
                    embedder: str | None = None, **llm: object) -> dict:
    cfg = backend_config()
    backend = backend or os.environ.get("SCHOLARSTACK_BACKEND") or cfg.get("default", "offline")
    openai_cfg = {k: v for k, v in (cfg.get("openai") or {}).items() if v is not None}
    for key in ("base_url", "model", "api_key"):
        if os.environ.get(f"SCHOLARSTACK_LLM_{key.upper()}"):
            openai_cfg[key] = os.environ[f"SCHOLARSTACK_LLM_{key.upper()}"]
    llm_cfg = {"backend": backend} | openai_cfg | llm
    return {
        "store": StoreResource(home=store_home),
        "llm": LLMResource(**llm_cfg),
        "settings": CompileSettings(progress=progress),
        "vectors": VectorIndexResource(url=os.environ.get("SCHOLARSTACK_QDRANT_URL") or None,
                                       embedder=embedder or os.environ.get("SCHOLARSTACK_EMBEDDER", "minilm")),
    }
