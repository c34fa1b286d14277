"""Every layer materialised in-process on real papers; a revised paper recompiles only its own
partition, and automation rechecks its dependents."""

from __future__ import annotations

import gzip
import shutil

import pytest
from dagster import AssetKey, Definitions, evaluate_automation_conditions, materialize

from orchestration.definitions import ASSETS, CHECKS
from orchestration.run import QUIET, compile_store, instance_for, resources_for
from scholarstack.ingest.catalog import ingest_paths
from scholarstack.settings import SAMPLE_DIR
from scholarstack.store import Store
from tests.conftest import need_shared


def test_all_layers_on_acl_papers(store):
    path = need_shared("acl_scisummnet", "papers.jsonl.gz")
    ingest_paths(store, [path], limit=12)
    summary = compile_store(str(store.home), progress=False)
    assert summary["ok"], summary["lines"]
    l1 = summary["l1_facts"]
    assert l1["papers"] == 12 and l1["facts"] > 200 and l1["llm_calls"] == 0
    assert summary["l2_organisation"]["entities"] > 50 and summary["l2_organisation"]["relations"] > 0
    assert summary["l3_syntheses"]["syntheses"] >= 1
    assert not any("FAILED" in line for line in summary["lines"])
    index = next(line for line in summary["lines"] if line.startswith("index ("))
    assert "front-matter sentences" in index and summary["vector_index"]["sentences"] == "front"  # what the index holds, said
    assert summary["vector_index"]["total"] == summary["vector_index"]["indexed"] > l1["facts"]
    st = store.status()
    assert st["layers"]["L1"]["fact"]["total"] == l1["facts"]
    # Empty papers in the corpus are recorded, not dropped.
    rejected = [r for r in store.rejections() if r["kind"] == "paper"]
    assert len(rejected) == l1.get("status_skipped", 0) == summary["source_maps"].get("status_rejected", 0)
    # Every fact's evidence resolves to a current sentence; every synthesis cites registered objects.
    assert store.query("SELECT count(*) FROM evidence e LEFT JOIN sentences s ON s.locator = e.locator AND s.is_current "
                       "WHERE s.locator IS NULL")[0][0] == 0
    syn = store.objects("synthesis")[0]
    for item in syn["data"]["basis"]:
        assert store.get_row(item["object_id"])["kind"] in ("fact", "assignment")
    # The run sums its papers; each paper partition carries its own figures too (what the UI shows per partition).
    with instance_for(store.home) as instance:
        own = {r.partition_key: r.asset_observation.metadata for r in instance.fetch_observations(AssetKey("l1_facts"), limit=50).records}
    assert len(own) == 12 and sum(m["facts"].value for m in own.values()) == l1["facts"]
    assert {m["status"].value for m in own.values()} <= {"ok", "partial", "skipped"} and all(m["paper_id"].value == k for k, m in own.items())


def part_of_sample(tmp_path, others: int = 3):
    """The sample's TEI paper and `others` of its other papers (the whole sample costs a minute more)."""
    folder = tmp_path / "papers"
    folder.mkdir()
    shutil.copy(SAMPLE_DIR / "N18-3011.tei.xml", folder)
    with gzip.open(SAMPLE_DIR / "acl_tagging_sample.jsonl.gz", "rt") as src, gzip.open(folder / "part.jsonl.gz", "wt") as dst:
        dst.writelines(line for _, line in zip(range(others), src))
    return folder


def test_recompile_is_idempotent(backend, store, tmp_path):
    """On PostgreSQL the first compile runs in two worker processes: the serial recompile then
    finding nothing new or revised shows the parallel one produced what a serial one would."""
    ingest_paths(store, [part_of_sample(tmp_path)])
    first = compile_store(str(store.home), progress=False, workers=2 if backend == "postgres" else 1)
    versions = store.query("SELECT count(*) FROM object_versions")[0][0]
    second = compile_store(str(store.home), progress=False)
    assert first["ok"] and second["ok"]
    assert second["l1_facts"]["new"] == second["l1_facts"]["revised"] == 0
    assert store.query("SELECT count(*) FROM object_versions")[0][0] == versions


def test_a_failed_blocking_check_on_facts_stops_l2_and_l3(store, tmp_path):
    ingest_paths(store, [part_of_sample(tmp_path, others=1)])
    assert compile_store(str(store.home), progress=False)["ok"]
    organisation = dict(store.query("SELECT id, version FROM objects WHERE kind IN ('entity', 'assignment', 'relation', 'synthesis')"))
    # Behind the gate's back: a cited sentence stops being current, so a fact's evidence dangles.
    [(loc,)] = store.query("SELECT min(locator) FROM evidence WHERE locator LIKE 'N18-3011:%'")
    with store.connect() as con:
        con.execute("UPDATE sentences SET is_current = false WHERE locator = ?", [loc])
    [(other,)] = store.query("SELECT DISTINCT paper_id FROM sentences WHERE paper_id <> 'N18-3011'")
    out = compile_store(str(store.home), papers=[other], progress=False)
    assert not out["ok"] and "check facts_valid on l1_facts: FAILED" in out["lines"]
    assert any(line.startswith("L2, L3, recheck and index: not run: check facts_valid") for line in out["lines"])
    assert dict(store.query("SELECT id, version FROM objects WHERE kind IN ('entity', 'assignment', 'relation', 'synthesis')")) == organisation


def test_revised_paper_recompiles_only_its_partition(store, tmp_path):
    folder = part_of_sample(tmp_path)
    ingest_paths(store, [folder])
    assert compile_store(str(store.home), progress=False)["ok"]
    before = dict(store.query("SELECT id, version FROM objects WHERE kind = 'fact'"))
    runs_before = dict(store.query("SELECT id, run_id FROM objects WHERE kind = 'fact'"))

    instance = instance_for(store.home)
    resources = resources_for(str(store.home))
    defs = Definitions(assets=ASSETS, resources=resources)
    baseline = evaluate_automation_conditions(defs=defs, instance=instance)  # the daemon's previous tick

    tei = folder / "N18-3011.tei.xml"
    marker = "with precision within 1 point from the statistical models"
    tei.write_text(tei.read_text().replace(marker, "with precision within 3 points from the statistical models"))
    assert ingest_paths(store, [folder])["changed_ids"] == ["N18-3011"]

    res = materialize([*ASSETS, *CHECKS], selection=["source_maps", "l1_facts"], partition_key="N18-3011",
                      instance=instance, resources=resources, run_config=QUIET)
    assert res.success
    after = dict(store.query("SELECT id, version FROM objects WHERE kind = 'fact'"))
    runs_after = dict(store.query("SELECT id, run_id FROM objects WHERE kind = 'fact'"))
    changed = {i for i in after if after[i] != before.get(i)}
    assert len(changed) == 1
    fid = changed.pop()
    assert fid.startswith("fac_") and after[fid] == 2 and store.get_row(fid)["paper_id"] == "N18-3011"
    assert "3 points" in store.get_row(fid)["data"]["statement"]
    assert "1 point" in store.get_row(fid, version=1)["data"]["statement"]
    # Facts of the other papers were not touched by this run.
    others = [i for i in after if store.get_row(i)["paper_id"] != "N18-3011"]
    assert others and all(runs_after[i] == runs_before[i] for i in others)
    marked = store.status()["needs_recheck"]
    assert marked > 0

    # Automation, as the daemon runs it: each tick materialises what the eager conditions request.
    cursor, ran = baseline.cursor, []
    for _ in range(4):
        result = evaluate_automation_conditions(defs=defs, instance=instance, cursor=cursor)
        cursor = result.cursor
        keys = [k for k in (AssetKey(n) for n in ("l1_facts", "l2_organisation", "l3_syntheses", "store_recheck"))
                if result.get_num_requested(k) > 0]
        if not keys:
            break
        assert AssetKey("l1_facts") not in keys  # no paper is recompiled by automation
        res = materialize([*ASSETS, *CHECKS], selection=[k.to_user_string() for k in keys], instance=instance,
                          resources=resources, run_config=QUIET)
        assert res.success
        ran += [k.to_user_string() for k in keys]
    assert {"l2_organisation", "l3_syntheses", "store_recheck"} <= set(ran)
    assert store.status()["needs_recheck"] == 0
    events = store.query("SELECT count(*) FROM events WHERE event IN ('reverified', 'rechecked')")[0][0]
    assert events >= marked

    # The update, which sent only what changed through the gate, equals a rebuild: a fresh store
    # compiled from the edited papers holds the same current objects with the same content.
    fresh = Store(tmp_path / "fresh")
    ingest_paths(fresh, [folder])
    assert compile_store(str(fresh.home), progress=False, index=False)["ok"]

    def current(s: Store) -> set[tuple]:
        return set(s.query("SELECT kind, id, content_hash FROM objects WHERE lifecycle = 'current'"))

    assert current(store) == current(fresh)


def test_unknown_paper_is_a_clear_error(store):
    ingest_paths(store, [SAMPLE_DIR / "N18-3011.tei.xml"])
    with pytest.raises(LookupError, match="unknown paper id"):
        compile_store(str(store.home), papers=["nope"], progress=False)
    if not store.postgres:
        with pytest.raises(ValueError, match="needs a PostgreSQL store"):
            compile_store(str(store.home), workers=2, progress=False)


def test_task_answers_asset(compiled_sample):
    from dagster import DagsterInstance

    res = materialize([*ASSETS, *CHECKS], selection=["task_answers"], instance=DagsterInstance.ephemeral(),
                      resources=resources_for(str(compiled_sample), embedder="tfidf"), run_config=QUIET)
    assert res.success
    meta = {k: getattr(v, "value", v) for ev in res.get_asset_materialization_events() for k, v in ev.materialization.metadata.items()}
    assert meta["answers"] == 12 and meta["view_tokens"] < meta["fulltext_tokens"]


def test_writings_asset_registers_cited_writing(compiled_sample, copy_store):
    from dagster import DagsterInstance

    store = copy_store(compiled_sample)
    res = materialize([*ASSETS, *CHECKS], selection=["writings"], instance=DagsterInstance.ephemeral(),
                      resources=resources_for(str(store.home), embedder="tfidf"), run_config=QUIET)
    assert res.success
    meta = {k: getattr(v, "value", v) for ev in res.get_asset_materialization_events() for k, v in ev.materialization.metadata.items()}
    assert meta["written"] == 5 and meta["rejected"] == 0 and not meta["skipped"]
    rows = store.objects("writing")
    assert len(rows) == 5 and {r["data"]["task_name"] for r in rows} == {"summary", "related_work", "review", "design"}
    assert all(r["verification"] == "passed" for r in rows)


def test_literature_search_asset(tmp_path):
    need_shared("acl_scisummnet", "citances_dev.jsonl")
    from dagster import DagsterInstance

    res = materialize(ASSETS, selection=["literature_search"], partition_key="P10-1142", instance=DagsterInstance.ephemeral(),
                      resources=resources_for(str(tmp_path / "store"), embedder="tfidf"), run_config=QUIET)
    assert res.success
    meta = {k: getattr(v, "value", v) for ev in res.get_asset_materialization_events() for k, v in ev.materialization.metadata.items()}
    assert meta["references"] == 11 and meta["candidates"] > 50 and 0 <= meta["recall@50"] <= 1
