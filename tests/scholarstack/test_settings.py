"""Settings: every SCHOLARSTACK_* variable in one model, read at use, invalid values named."""

import pytest

from orchestration.resources_env import local_resources
from scholarstack.llm.client import LLMConfig
from scholarstack.settings import settings, shared_data_dir
from scholarstack.store import Store


def test_environment_is_read_where_used(monkeypatch, tmp_path):
    monkeypatch.setenv("SCHOLARSTACK_HOME", str(tmp_path / "h"))
    monkeypatch.setenv("SCHOLARSTACK_LOCK_TIMEOUT", "7.5")
    monkeypatch.setenv("SCHOLARSTACK_SHARED_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("SCHOLARSTACK_QDRANT_URL", "")  # empty counts as unset
    store = Store()
    assert store.home == tmp_path / "h" and store.lock_timeout == 7.5
    assert shared_data_dir() == tmp_path / "data" and settings().qdrant_url is None


def test_llm_variables_override_the_backend_config(monkeypatch):
    monkeypatch.setenv("SCHOLARSTACK_BACKEND", "openai")
    monkeypatch.setenv("SCHOLARSTACK_LLM_MODEL", "smollm2")
    llm = local_resources()["llm"]
    assert llm.backend == "openai" and llm.model == "smollm2" and llm.base_url == LLMConfig().base_url  # the rest: defaults


def test_an_invalid_value_is_named(monkeypatch):
    monkeypatch.setenv("SCHOLARSTACK_LOCK_TIMEOUT", "soon")
    with pytest.raises(ValueError, match="SCHOLARSTACK_LOCK_TIMEOUT='soon'"):
        settings()
    monkeypatch.setenv("SCHOLARSTACK_LOCK_TIMEOUT", "3")
    monkeypatch.setenv("SCHOLARSTACK_BACKEND", "gpt")
    with pytest.raises(ValueError, match="SCHOLARSTACK_BACKEND='gpt'"):
        settings()
