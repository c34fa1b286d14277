"""The HTML report: contents linking every configuration, its table, and the headline metric
plotted over the stored runs once there are two."""

from __future__ import annotations

import time

from evaluations.report import write_report
from evaluations.sweep import Config, save_result
from scholarstack.store import Store


def test_report_has_contents_tables_and_runs_over_time(tmp_path):
    store = Store(tmp_path / "evals")
    cfg = Config(sweep="t", benchmark="claims")
    save_result(store, cfg, {"n": 10, "systems": {"view": {"macro_f1": 0.50, "tokens_per_claim": 300},
                                                    "fulltext": {"macro_f1": 0.52, "tokens_per_claim": 400}}}, "run1")
    time.sleep(0.01)
    save_result(store, cfg, {"n": 10, "systems": {"view": {"macro_f1": 0.61, "tokens_per_claim": 300},
                                                    "fulltext": {"macro_f1": 0.59, "tokens_per_claim": 400}}}, "run2")
    save_result(store, Config(sweep="t", benchmark="qa"), {"n": 5, "systems": {"rag": {"answer_f1": 0.2}}}, "run3")
    out = write_report(store, "t", tmp_path / "report")
    html = (tmp_path / "report" / "report.html").read_text()
    assert '<a href="#t-claims-offline">t.claims.offline</a>' in html and 'id="t-claims-offline"' in html
    assert 'href="#t-qa-offline"' in html
    assert "best macro_f1 0.61" in html  # the newest run's figures, not the first one's
    assert "2 runs stored" in html and "t.claims.offline: runs over time" in html
    assert "t.qa.offline: runs over time" not in html  # one run: nothing to plot over time
    assert out["configs"] == 2 and (tmp_path / "report" / "t_claims_offline__runs_over_time.png").exists()


def test_a_second_measurement_of_a_run_is_stored_and_reported(tmp_path):
    store = Store(tmp_path / "evals")
    save_result(store, Config(sweep="t", benchmark="scirex"),
                {"n": 90, "systems": {"offline_learned": {"mention_f1": 0.66}},
                 "own_method": {"n": 90, "systems": {"scholarstack": {"accuracy": 0.52}, "title_name": {"accuracy": 0.21}}}}, "run1")
    write_report(store, "t", tmp_path / "report")
    md = (tmp_path / "report" / "report.md").read_text()
    assert "| own_method/scholarstack |" in md and "0.52" in md and "| offline_learned |" in md
