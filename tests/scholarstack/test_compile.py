"""The core's compile (no orchestrator; what benchmarks use inside a Dagster run) builds exactly the
objects the Dagster compile builds from the same papers, and records a failing paper without
stopping the others."""

from __future__ import annotations

from orchestration.run import compile_store
from scholarstack.compile import compile_papers
from scholarstack.ingest.catalog import ingest_paths
from scholarstack.store import Store, new_run_id
from tests.assets.test_compile_assets import part_of_sample

OBJECTS = "SELECT kind, id, version, lifecycle FROM objects WHERE kind <> 'paper' ORDER BY 1, 2"


def test_compile_papers_matches_the_dagster_compile(tmp_path):
    from expectations.suites import ge_validator

    papers = part_of_sample(tmp_path, others=1)
    core, dagster = Store(tmp_path / "core"), Store(tmp_path / "dagster")
    ids = ingest_paths(core, [papers])["paper_ids"]
    ingest_paths(dagster, [papers])
    out = compile_papers(core, ids + ["nope"], new_run_id(), validator=ge_validator)
    assert not out["ok"] and [f.split(":")[0] for f in out["failed"]] == ["source_maps nope"]  # recorded, named
    l1 = out["l1_facts"]
    assert l1.get("status_ok", 0) + l1.get("status_partial", 0) == len(ids) and l1.get("status_skipped", 0) == 1  # the others went on
    assert compile_store(str(dagster.home), progress=False, index=False)["ok"]
    assert core.query(OBJECTS) == dagster.query(OBJECTS) and len(core.query(OBJECTS)) > 50
