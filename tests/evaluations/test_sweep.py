"""A sweep is a materialisation: every benchmark of the smoke sweep runs as an asset partition,
results are stored with their versions and reloadable, and the report is written."""

from __future__ import annotations

from evaluations.sweep import all_config_keys, latest_results, load_sweep
from orchestration.run import run_sweep
from scholarstack.store import Store
from tests.conftest import need_shared


def test_sweep_configs_expand_benchmarks_backends_budgets():
    keys = [c.key for c in load_sweep("ci")]
    assert "ci.qa.offline.b1500" in keys and "ci.qa.offline.b4000" in keys and "ci.retrieval.offline" in keys
    assert set(keys) <= set(all_config_keys())


def test_smoke_sweep_end_to_end(tmp_path):
    need_shared("acl_scisummnet")
    out = run_sweep(str(tmp_path / "store"), "smoke", progress=False)
    assert out["ok"], out["lines"]
    es = Store(tmp_path / "store" / "evals")
    rows = latest_results(es, "smoke")
    assert {r["benchmark"] for r in rows} == {"retrieval", "claims", "qa", "localisation", "pdf_fidelity", "scirex", "store_fidelity"}
    assert all(r["code_version"] and r["data_version"] and r["run_id"] for r in rows)
    html = (tmp_path / "store" / "evals" / "reports" / "smoke" / "report.html").read_text()
    assert "<table>" in html and "data:image/png;base64," in html and "smoke.retrieval.offline" in html
    # Rerunning appends a new run; "latest" keeps one row set per configuration.
    assert len(latest_results(es, "smoke")) == len(rows)
