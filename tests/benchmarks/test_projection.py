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
