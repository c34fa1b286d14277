"""The store's tests run on both engines (DuckDB, PostgreSQL)."""

from __future__ import annotations

import pytest


@pytest.fixture
def store(backend, tmp_path):
    from scholarstack.store import Store

    return Store(tmp_path / "store", lock_timeout=30)
