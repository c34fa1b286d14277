"""Resource sets per environment: `local` (embedded store, offline backend) is the default;
`SCHOLARSTACK_BACKEND=openai` with SCHOLARSTACK_LLM_BASE_URL/MODEL switches the LLM."""

from __future__ import annotations

from assets.settings import CompileSettings
from resources import LLMResource, StoreResource, VectorIndexResource
from scholarstack.llm.client import backend_config, configured_openai
from scholarstack.settings import settings


def local_resources(store_home: str | None = None, backend: str | None = None, progress: bool = False,
                    embedder: str | None = None, **llm: object) -> dict:
    env = settings()
    backend = backend or env.backend or backend_config().get("default", "offline")
    llm_cfg = {"backend": backend} | configured_openai() | llm
    return {
        "store": StoreResource(home=store_home),
        "llm": LLMResource(**llm_cfg),
        "settings": CompileSettings(progress=progress),
        "vectors": VectorIndexResource(url=env.qdrant_url, embedder=embedder or env.embedder),
    }
