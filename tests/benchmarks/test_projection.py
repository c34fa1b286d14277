"""The 1M-paper projection scales measured per-paper costs linearly and names a missing input."""

from __future__ import annotations

import json

import pytest

from benchmarks.projection import main, project

COMPILE = [{"store": "postgres:2", "papers": 100, "facts": 6000, "entities": 4400, "sentences": 19000, "relations": 800,
            "syntheses": 20, "papers_per_minute": 100.0}]
REGISTRY = {"duckdb": {"facts": 1000, "sentences": 1000, "entities": 0, "assignments": 0, "syntheses": 0, "store_mb": 2.0},
            "postgres": {"facts": 1000, "sentences": 1000, "entities": 0, "assignments": 0, "syntheses": 0, "store_mb": 6.0}}


def test_projection_scales_per_paper_costs():
    row = project(COMPILE, REGISTRY, 1_000_000)[0]
    assert row["facts"] == 60_000_000 and row["sentences"] == 190_000_000
    assert row["rows"] == (60 + 44 + 190 + 8 + 0.2) * 1_000_000
    assert row["store_gb"] == round(row["rows"] * 3000 / 1e9, 1)  # PostgreSQL's bytes per row, not DuckDB's
    assert row["compile_hours"] == round(1_000_000 / 100 / 60, 1)


def test_vectors_count_the_sentences_the_index_embeds():
    before = project(COMPILE, REGISTRY, 1_000_000)[0]  # a run from before the choice: every sentence was embedded
    assert before["vectors"] == (190 + 60 + 44 + 0.2) * 1_000_000
    front = project([COMPILE[0] | {"embedded_sentences": 1000}], REGISTRY, 1_000_000)[0]
    assert front["vectors"] == (10 + 60 + 44 + 0.2) * 1_000_000 and front["sentences"] == before["sentences"]


def test_missing_benchmark_output_is_named(tmp_path, monkeypatch):
    (tmp_path / "compile_bench.json").write_text(json.dumps(COMPILE))
    monkeypatch.setattr("sys.argv", ["projection", "--out", str(tmp_path)])
    with pytest.raises(SystemExit, match="registry_bench.json: run the compile and registry benchmarks first"):
        main()


def test_runs_with_the_index_are_projected_from_their_end_to_end_speed(tmp_path, monkeypatch, capsys):
    (tmp_path / "compile_bench.json").write_text(json.dumps(COMPILE))
    (tmp_path / "registry_bench.json").write_text(json.dumps(REGISTRY))
    for run, embedder, speed in (("with_index", "minilm", 25.0), ("with_static_index", "static", 50.0)):
        (tmp_path / run).mkdir()
        (tmp_path / run / "compile_bench.json").write_text(json.dumps([COMPILE[0] | {
            "store": "duckdb", "index": True, "index_embedder": embedder, "papers_per_minute": speed}]))
    monkeypatch.setattr("sys.argv", ["projection", "--out", str(tmp_path)])
    main()
    rows = {r["store"]: r for r in json.loads((tmp_path / "projection.json").read_text())}
    assert set(rows) == {"postgres:2", "duckdb + index (minilm)", "duckdb + index (static)"}
    assert rows["duckdb + index (minilm)"]["compile_hours"] == round(1_000_000 / 25 / 60, 1)
    assert rows["duckdb + index (static)"]["compile_hours"] == round(1_000_000 / 50 / 60, 1)
    assert rows["duckdb + index (minilm)"]["store_gb"] == round(rows["duckdb + index (minilm)"]["rows"] * 1000 / 1e9, 1)  # DuckDB's bytes per row
    assert "duckdb + index (static)" in capsys.readouterr().out
