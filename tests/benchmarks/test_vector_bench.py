"""The vector benchmark runs small: Qdrant Edge's exact search agrees with a numpy matrix product."""

from benchmarks.vector_bench import run


def test_vector_bench_small():
    res = run(3000, 10, hnsw=True)
    assert res["n"] == 3000 and res["edge_exact_agrees_with_numpy"] == 1.0
    assert res["edge_exact"]["p50_ms"] > 0 and res["edge_exact_filtered"]["p95_ms"] >= res["edge_exact_filtered"]["p50_ms"]
    assert 0.5 <= res["edge_hnsw_recall_at_10"] <= 1.0 and res["edge_hnsw_build_s"] >= 0
    assert res["edge_hnsw_ef512"]["recall_at_10"] >= res["edge_hnsw_ef10"]["recall_at_10"]  # a wider search finds no fewer
