"""Shared fixtures: temporary stores, ../shared/data (skipped with a message when absent), and one
local llama.cpp server per test session (per xdist worker) for the OpenAI-compatible backend."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from scholarstack.settings import quiet_telemetry, shared_data_dir

quiet_telemetry()
os.environ.setdefault("SCHOLARSTACK_EMBEDDER", "tfidf")  # MiniLM is tested on its own; TF-IDF keeps the suite quick
os.environ.setdefault("DAGSTER_HOME", "")  # in-process runs use an instance under each test's store
if not os.environ["DAGSTER_HOME"]:
    del os.environ["DAGSTER_HOME"]

if os.environ.get("PYTEST_XDIST_WORKER"):  # `make test` runs a worker per core: one math thread each
    os.environ.setdefault("OMP_NUM_THREADS", "1")

try:
    # absl (rouge_score's logging, imported when the tests are collected) binds its root handler to
    # sys.stderr as it is then: a worker's capture file. Every Dagster run calls logging's dictConfig,
    # which closes all handlers, and absl closes a stream that is not the current sys.stderr: in a
    # test that swapped it (capsys), pytest's capture file, failing every later test of that worker.
    import absl.logging

    absl.logging.get_absl_handler().python_handler.stream = sys.__stderr__
except ImportError:
    pass

SHARED = shared_data_dir()
# For what only the embedded engine has (its file lock, its warm connection, its file on a full disk).
duckdb_only = pytest.mark.skipif(os.environ.get("SCHOLARSTACK_TEST_BACKEND") == "postgres",
                                 reason="DuckDB only: the whole suite runs on PostgreSQL here")


def need_shared(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs ../shared/data ({path} is absent): real data sets are not in the repository")
    return path


@pytest.fixture
def store(tmp_path):
    from scholarstack.store import Store

    return Store(tmp_path / "store", lock_timeout=30)


@pytest.fixture(scope="session")
def postgres():
    """A throwaway PostgreSQL server for the session: the URL of its test database."""
    from scholarstack.store.local_postgres import start_local_postgres

    try:
        pg = start_local_postgres()
    except RuntimeError as exc:
        pytest.skip(f"PostgreSQL store tests need a local server: {exc}")
    yield pg.create_database("scholarstack_tests")
    pg.stop()


@pytest.fixture(scope="session", autouse=True)
def whole_suite_on_postgres(request):
    """`make test-postgres` (SCHOLARSTACK_TEST_BACKEND=postgres): every store of every test on PostgreSQL."""
    if os.environ.get("SCHOLARSTACK_TEST_BACKEND") != "postgres":
        yield
        return
    url = request.getfixturevalue("postgres")
    mp = pytest.MonkeyPatch()
    mp.setenv("SCHOLARSTACK_STORE_URL", url)
    yield
    mp.undo()


@pytest.fixture(params=["duckdb", "postgres"])
def backend(request, monkeypatch):
    """Both store engines: on "postgres" every store the test creates keeps its tables in the session's
    server (SCHOLARSTACK_STORE_URL; one schema per store directory)."""
    if request.param == "postgres":
        monkeypatch.setenv("SCHOLARSTACK_STORE_URL", request.getfixturevalue("postgres"))
    return request.param


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects: `make test` runs the llm tests in a phase of their own
def pytest_collection_modifyitems(items):
    for item in items:
        if "llm_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.llm)


@pytest.fixture(scope="session")
def llm_server():
    pytest.importorskip("xllamacpp", reason="xllamacpp is not installed (make install)")
    from scholarstack.llm.local_server import start_local_server

    try:
        server, base_url = start_local_server()
    except RuntimeError as exc:
        pytest.skip(str(exc))
    yield base_url
    del server


def local_llm(base_url: str, cache_dir: Path, max_tokens: int = 300, max_retries: int = 0, **kw):
    """A client of the session's local server that by default asks once a call: the small model's
    weak answers are what the tests check the handling of, and retrying them only repeats the cost
    (the retry path itself is tested in tests/scholarstack/l1/test_llm_backend.py)."""
    from scholarstack.llm.client import LLMClient, LLMConfig

    return LLMClient(LLMConfig(base_url=base_url, model="smollm2", max_tokens=max_tokens, max_retries=max_retries, **kw),
                     cache_dir=cache_dir)


@pytest.fixture(scope="session")
def compiled_sample(tmp_path_factory) -> Path:
    """The bundled sample compiled through L3 with a TF-IDF vector index; treat as read-only
    (copy it with `copy_store` before writing)."""
    from orchestration.run import compile_store
    from scholarstack.ingest.catalog import ingest_paths
    from scholarstack.settings import SAMPLE_DIR
    from scholarstack.store import Store

    home = tmp_path_factory.mktemp("sample") / "store"
    ingest_paths(Store(home), [SAMPLE_DIR])
    summary = compile_store(str(home), progress=False, embedder="tfidf")
    assert summary["ok"], summary["lines"]
    return home


@pytest.fixture
def copy_store(tmp_path):
    import shutil

    def make(src: Path):
        from scholarstack.store import Store

        dst = tmp_path / "copy"
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns("*.lock", "store.url"))
        source = Store(src, read_only=True)
        if source.postgres:  # a copied directory would share the source's schema: copy the tables too
            copy = Store(dst, url=source.url)
            with copy.connect() as con:
                for (table,) in source.query("SELECT table_name FROM information_schema.tables WHERE table_schema = ?", [source.schema]):
                    con.execute(f"INSERT INTO {copy.schema}.{table} SELECT * FROM {source.schema}.{table}")
                con.execute(f"CREATE SCHEMA IF NOT EXISTS {copy.raw_schema}")
                for (table,) in source.query("SELECT table_name FROM information_schema.tables WHERE table_schema = ?", [source.raw_schema]):
                    con.execute(f"CREATE TABLE {copy.raw_schema}.{table} AS SELECT * FROM {source.raw_schema}.{table}")
                con.execute("SELECT setval('event_seq', (SELECT coalesce(max(seq), 0) + 1 FROM events))")
            return copy
        return Store(dst)

    return make
