"""Process-wide settings: every SCHOLARSTACK_* environment variable (one pydantic-settings model),
telemetry off, offline model hubs, where the repository's files are."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal, get_args

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

Embedders = Literal["minilm", "static", "tfidf"]  # the vector index's encoders (`index.embed.make_embedder`)
EMBEDDERS: tuple[str, ...] = get_args(Embedders)

REPO_ROOT = Path(__file__).resolve().parent.parent
CONFIG_DIR = REPO_ROOT / "configs"
SAMPLE_DIR = REPO_ROOT / "sample"


class Settings(BaseSettings):
    """What the environment may set, read where it is used (so a test's monkeypatched variable counts).
    An invalid value (SCHOLARSTACK_LOCK_TIMEOUT=soon) is a ValueError naming the variable."""

    model_config = SettingsConfigDict(env_prefix="SCHOLARSTACK_", env_ignore_empty=True, extra="ignore")

    home: Path | None = None  # the store directory when --store is not given (else ./.scholarstack)
    shared_data: Path | None = None  # the data sets (else ../shared/data beside the repository)
    backend: Literal["offline", "openai"] | None = None  # else configs/backends.yaml's default
    llm_base_url: str | None = None  # these three override configs/backends.yaml's openai section
    llm_model: str | None = None
    llm_api_key: str | None = None
    # The vector index's encoder: MiniLM; "static", its learned word-piece table (29x faster to embed
    # with, weaker to search with: benchmarks/index_bench.py), for corpora where embedding dominates.
    embedder: Embedders = "minilm"
    # The sentences the vector index embeds besides every fact, entity and synthesis: "front" (titles
    # and abstracts; the rest are found through the facts citing them and by BM25, at 42 % of the
    # vectors: benchmarks/index_bench.py) or "all" (every prose sentence, ~1.6x the embedding time).
    index_sentences: Literal["front", "all"] = "front"
    store_url: str | None = None  # postgresql://… : new stores keep their tables there; else DuckDB in the store
    qdrant_url: str | None = None  # a Qdrant server; else the embedded index in the store
    qdrant_api_key: str | None = None
    # How a Qdrant server lays out a new collection (configs/deploy/kubernetes/: a cluster): shards
    # spread vectors over nodes, replicas survive a node's loss, on_disk keeps full vectors on disk
    # with int8 copies in RAM (a quarter of the memory; past ~10M vectors memory decides).
    qdrant_shards: int = Field(1, ge=1)
    qdrant_replicas: int = Field(1, ge=1)
    qdrant_on_disk: bool = False
    # Papers per Dagster run when a backfill of the per-paper partitions is launched (the UI, the
    # daemon): unset, one run takes them all; N, a run per N papers, which a run launcher such as
    # Kubernetes' puts on its own pod, so papers compile on many machines at once.
    papers_per_run: int | None = Field(None, ge=1)
    lock_timeout: float = 300.0  # seconds a writer waits for the store lock
    max_paper_chars: int = 3_000_000  # a larger paper is rejected at ingestion, named
    watch_dir: Path | None = None  # the sensor's inbox (else configs/corpora.yaml's)


def settings() -> Settings:
    from pydantic import ValidationError

    try:
        return Settings()
    except ValidationError as exc:
        bad = "; ".join(f"SCHOLARSTACK_{str(e['loc'][0]).upper()}={e.get('input')!r}: {e['msg']}" for e in exc.errors())
        raise ValueError(f"invalid environment: {bad}") from None


def shared_data_dir() -> Path:
    """`../shared/data` beside the repository, or $SCHOLARSTACK_SHARED_DATA."""
    return settings().shared_data or REPO_ROOT.parent / "shared" / "data"


def quiet_telemetry() -> None:
    """Nothing here may reach the network: switch off every library's phone-home."""
    for key, value in {
        "DAGSTER_DISABLE_TELEMETRY": "1",
        "RUNTIME__DLTHUB_TELEMETRY": "false",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "HF_HUB_DISABLE_TELEMETRY": "1",
        "DO_NOT_TRACK": "1",
        "GX_ANALYTICS_ENABLED": "false",
        "TOKENIZERS_PARALLELISM": "false",
        "RUNTIME__LOG_LEVEL": "CRITICAL",  # dlt's own log lines would bury our one-line errors
    }.items():
        os.environ.setdefault(key, value)
