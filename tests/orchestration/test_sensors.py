"""Sensors and the schedule request runs and change nothing themselves: the folder sensor requests an
ingest of exactly the new or changed files; after the ingest run, the compile sensor requests runs
for exactly the papers it brought new or changed."""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timezone

from dagster import DagsterInstance, build_schedule_context, build_sensor_context, materialize

from assets.sources import paper_sources
from orchestration.run import resources_for
from orchestration.sensors import compile_ingested_sensor, refresh_sources_schedule, watched_folder_sensor
from scholarstack.settings import SAMPLE_DIR


def _ingest(instance, request, home):
    assert request.job_name == "ingest_sources"
    result = materialize([paper_sources], run_config=request.run_config, instance=instance, resources=resources_for(str(home)))
    assert result.success


def _compiled(instance, cursor=None):
    from orchestration.definitions import defs

    from dagster import partition_loading_context

    with partition_loading_context(dynamic_partitions_store=instance):  # what the daemon provides
        tick = compile_ingested_sensor.evaluate_tick(build_sensor_context(instance=instance, cursor=cursor, definitions=defs))
    return sorted(r.partition_key for r in tick.run_requests), tick.cursor


def test_folder_changes_become_ingest_runs_then_compile_runs_for_exactly_those_papers(tmp_path, monkeypatch):
    inbox, home = tmp_path / "inbox", tmp_path / "store"
    inbox.mkdir()
    monkeypatch.setenv("SCHOLARSTACK_WATCH_DIR", str(inbox))
    monkeypatch.setenv("SCHOLARSTACK_HOME", str(home))
    instance = DagsterInstance.ephemeral()
    assert not watched_folder_sensor(build_sensor_context(instance=instance)).run_requests

    shutil.copy(SAMPLE_DIR / "N18-3011.tei.xml", inbox)
    (inbox / "note.md").write_text("# A Note On Taggers\n\nWe use a CRF tagger. It reaches 97.1% accuracy on WSJ.\n")
    first = watched_folder_sensor(build_sensor_context(instance=instance))
    [request] = first.run_requests
    assert request.run_config["ops"]["paper_sources"]["config"]["paths"] == [str(inbox / "N18-3011.tei.xml"), str(inbox / "note.md")]
    assert not home.exists()  # evaluating the sensor ingested nothing
    _ingest(instance, request, home)
    todo, cursor = _compiled(instance)
    assert todo == ["N18-3011", "note"]
    assert sorted(instance.get_dynamic_partitions("papers")) == ["N18-3011", "note"]

    quiet = watched_folder_sensor(build_sensor_context(instance=instance, cursor=first.cursor))
    assert not quiet.run_requests  # nothing changed
    assert _compiled(instance, cursor)[0] == []  # and no new ingest to compile

    (inbox / "note.md").write_text("# A Note On Taggers\n\nWe use a CRF tagger. It reaches 97.4% accuracy on WSJ.\n")
    changed = watched_folder_sensor(build_sensor_context(instance=instance, cursor=quiet.cursor))
    [request] = changed.run_requests
    assert request.run_config["ops"]["paper_sources"]["config"]["paths"] == [str(inbox / "note.md")]
    assert set(json.loads(changed.cursor)) == {str(inbox / "N18-3011.tei.xml"), str(inbox / "note.md")}
    _ingest(instance, request, home)
    assert _compiled(instance, cursor)[0] == ["note"]


def test_the_nightly_schedule_requests_an_ingest_of_the_configured_sources(tmp_path, monkeypatch):
    monkeypatch.setenv("SCHOLARSTACK_HOME", str(tmp_path / "store"))
    when = datetime(2026, 12, 2, 3, tzinfo=timezone.utc)
    [request] = refresh_sources_schedule.evaluate_tick(build_schedule_context(scheduled_execution_time=when)).run_requests
    assert request.job_name == "ingest_sources" and request.run_config["ops"]["paper_sources"]["config"]["paths"]
    assert not (tmp_path / "store").exists()
