"""The core's compile (no orchestrator; what benchmarks use inside a Dagster run) builds exactly the
objects the Dagster compile builds from the same papers, and records a failing paper without
stopping the others."""

from __future__ import annotations

import pytest

from orchestration.run import compile_store
from scholarstack.compile import AHEAD, compile_papers, each_paper
from scholarstack.ingest.catalog import ingest_paths
from scholarstack.store import Store, StoreError, new_run_id
from tests.assets.test_compile_assets import part_of_sample

OBJECTS = "SELECT kind, id, version, lifecycle FROM objects WHERE kind <> 'paper' ORDER BY 1, 2"


def test_compile_papers_matches_the_dagster_compile(tmp_path, monkeypatch):
    """Even when reading papers ahead fails: the fault is reported, and each paper is read alone."""
    from expectations.suites import ge_validator

    papers = part_of_sample(tmp_path, others=1)
    core, dagster = Store(tmp_path / "core"), Store(tmp_path / "dagster")
    ids = ingest_paths(core, [papers])["paper_ids"]
    ingest_paths(dagster, [papers])

    def broken(ids):
        raise RuntimeError("out of memory")
    monkeypatch.setattr(core, "read_ahead", broken)
    out = compile_papers(core, ids + ["nope"], new_run_id(), validator=ge_validator)
    assert not out["ok"] and [f.split(":")[0] for f in out["failed"]] == ["source_maps nope"]  # recorded, named
    assert len(out["warnings"]) == 1 and "out of memory" in out["warnings"][0] and ids[0] in out["warnings"][0]
    l1 = out["l1_facts"]
    assert l1.get("status_ok", 0) + l1.get("status_partial", 0) == len(ids) and l1.get("status_skipped", 0) == 1  # the others went on
    assert compile_store(str(dagster.home), progress=False, index=False)["ok"]
    assert core.query(OBJECTS) == dagster.query(OBJECTS) and len(core.query(OBJECTS)) > 50


def test_layers_whose_inputs_did_not_change_are_not_rebuilt(compiled_sample, copy_store):
    """L2 and L3 reuse their last result while nothing they read or wrote changed (no event is
    written); an entity withdrawn behind L2's back makes it rebuild and restore it."""
    from assets.settings import CompileSettings
    from scholarstack.compile import compile_organisation, compile_syntheses
    from scholarstack.store import withdraw

    store = copy_store(compiled_sample)
    tax = CompileSettings().taxonomy_path()

    def build():
        return compile_organisation(store, new_run_id(), taxonomy_path=tax), compile_syntheses(store, new_run_id())

    build()  # whatever the compile's recheck changed since its own build
    events = store.generation()
    l2, l3 = build()
    assert l2["unchanged"] and l3["unchanged"] and store.generation() == events  # nothing rebuilt, nothing written
    assert l2["entities"] == len(store.objects("entity")) > 0 and l3["syntheses"] == len(store.objects("synthesis")) > 0
    entity = store.objects("entity")[0]["id"]
    withdraw(store, [entity], reason="behind L2's back")
    l2, _ = build()  # L3 reads the entity again as it was, so it may stand
    assert not l2.get("unchanged") and store.get_row(entity)["lifecycle"] == "current"  # rebuilt, registered again
    assert all(step.get("unchanged") for step in build())  # and then stands


def test_reading_papers_ahead_only_saves_time(store, monkeypatch):
    """A fault while reading the next papers' records together is returned for the log, never
    raised: each paper's own step reads its record again and reports what goes wrong."""
    from scholarstack.compile import prepare_source_maps

    def broken(ids):
        raise RuntimeError("out of memory")
    monkeypatch.setattr(store, "read_ahead", broken)
    fault = prepare_source_maps(store, ["P1", "P2"])
    assert "P1" in fault and "out of memory" in fault


def test_each_paper_reads_ahead_reports_a_failed_paper_and_stops_only_for_the_store():
    ids = [f"p{i}" for i in range(AHEAD + 2)]
    batches: list[list[str]] = []

    def ahead(batch):
        batches.append(batch)
        return "slow disk" if len(batches) == 2 else None

    def step(pid):
        if pid == "p1":
            raise ValueError("broken\nrecord")
        return {"status": "ok", "facts": 1}

    out = list(each_paper(ids, step, ahead))
    assert [p for p, _, _ in out] == ids and batches == [ids[:AHEAD], ids[AHEAD:]]
    assert out[1][1] == {"status": "failed", "reason": "ValueError: broken record"}  # the others went on
    assert [f for _, _, f in out if f] == ["slow disk"] and out[AHEAD][2] == "slow disk"

    def unusable(pid):
        raise StoreError("database is locked")

    with pytest.raises(StoreError):
        list(each_paper(ids, unusable))
