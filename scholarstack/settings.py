"""Process-wide settings: telemetry off, offline model hubs, where the repository's files are."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
CONFIG_DIR = REPO_ROOT / "configs"
SAMPLE_DIR = REPO_ROOT / "sample"


def shared_data_dir() -> Path:
    """`../shared/data` beside the repository, or $SCHOLARSTACK_SHARED_DATA."""
    env = os.environ.get("SCHOLARSTACK_SHARED_DATA")
    return Path(env) if env else REPO_ROOT.parent / "shared" / "data"


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
