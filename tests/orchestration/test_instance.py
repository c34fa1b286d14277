"""The store's Dagster instance: SQLite files beside a DuckDB store; the store's own database
(schema `<store schema>_dagster`) for a PostgreSQL store, so every process shares its runs."""

from __future__ import annotations

from orchestration.run import compile_store, dagster_home, instance_for
from scholarstack.ingest.catalog import ingest_paths
from scholarstack.settings import SAMPLE_DIR
from scholarstack.store import Store


def test_a_postgresql_store_keeps_its_dagster_runs_in_its_database(postgres, tmp_path):
    store = Store(tmp_path / "pg", url=postgres)
    ingest_paths(store, [SAMPLE_DIR / "N18-3011.tei.xml"])
    out = compile_store(str(store.home), progress=False, organise=False)
    assert out["ok"], out["lines"]
    cfg = (store.home / "dagster" / "dagster.yaml").read_text()
    assert "postgres_url" in cfg and f"search_path%3D{store.schema}_dagster" in cfg
    with instance_for(store.home) as instance:
        assert type(instance.run_storage).__name__ == "PostgresRunStorage"
        runs = instance.get_runs()
        assert runs and all(r.is_success for r in runs)
    [(n,)] = store.query("SELECT count(*) FROM information_schema.tables WHERE table_schema = ? AND table_name = 'runs'",
                         [f"{store.schema}_dagster"])
    assert n == 1  # Dagster's tables sit in the store's database, beside the store's own schema


def test_a_duckdb_store_keeps_sqlite_and_a_users_dagster_yaml_is_kept(tmp_path):
    home = dagster_home(tmp_path / "duck")
    assert "storage:" not in (home / "dagster.yaml").read_text()
    with instance_for(tmp_path / "duck") as instance:
        assert type(instance.run_storage).__name__ == "SqliteRunStorage"
    mine = "telemetry:\n  enabled: false\nrun_monitoring:\n  enabled: true\n"
    (home / "dagster.yaml").write_text(mine)
    dagster_home(tmp_path / "duck")
    assert (home / "dagster.yaml").read_text() == mine
