"""Resource sets per environment: `local` (embedded store, offline backend) is the default;
`SCHOLARSTACK_BACKEND=openai` with SCHOLARSTACK_LLM_BASE_URL/MODEL switches the LLM."""

from __future__ import annotations

from assets.settings import CompileSettings
from resources import LLMResource, StoreResource, VectorIndexResource
from scholarstack.settings import settings


def backend_config() -> dict:
    import yaml

    from scholarstack.settings import CONFIG_DIR

    return yaml.safe_load((CONFIG_DIR / "backends.yaml").read_text())


def local_resources(store_home: str | None = None, backend: str | None = None, progress: bool = False,
                    embedder: str | None = None, **llm: object) -> dict:
    env = settings()
    cfg = backend_config()
    backend = backend or env.backend or cfg.get("default", "offline")
    openai_cfg = {k: v for k, v in (cfg.get("openai") or {}).items() if v is not None}
    openai_cfg |= {k: v for k, v in (("base_url", env.llm_base_url), ("model", env.llm_model), ("api_key", env.llm_api_key)) if v}
    llm_cfg = {"backend": backend} | openai_cfg | llm
    return {
        "store": StoreResource(home=store_home),
        "llm": LLMResource(**llm_cfg),
        "settings": CompileSettings(progress=progress),
        "vectors": VectorIndexResource(url=env.qdrant_url, embedder=embedder or env.embedder),
    }
