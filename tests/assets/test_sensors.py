"""The watched-folder sensor ingests new or changed files and requests runs for exactly their partitions."""

from __future__ import annotations

import json
import shutil

from dagster import DagsterInstance, build_sensor_context

from orchestration.sensors import watched_folder_sensor
from scholarstack.settings import SAMPLE_DIR


def test_sensor_requests_only_new_or_changed_papers(tmp_path, monkeypatch):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    monkeypatch.setenv("SCHOLARSTACK_WATCH_DIR", str(inbox))
    monkeypatch.setenv("SCHOLARSTACK_HOME", str(tmp_path / "store"))
    instance = DagsterInstance.ephemeral()
    empty = watched_folder_sensor(build_sensor_context(instance=instance))
    assert not empty.run_requests

    shutil.copy(SAMPLE_DIR / "N18-3011.tei.xml", inbox)
    (inbox / "note.md").write_text("# A Note On Taggers\n\nWe use a CRF tagger. It reaches 97.1% accuracy on WSJ.\n")
    first = watched_folder_sensor(build_sensor_context(instance=instance))
    assert sorted(r.partition_key for r in first.run_requests) == ["N18-3011", "note"]
    assert sorted(first.dynamic_partitions_requests[0].partition_keys) == ["N18-3011", "note"]
    instance.add_dynamic_partitions("papers", ["N18-3011", "note"])

    quiet = watched_folder_sensor(build_sensor_context(instance=instance, cursor=first.cursor))
    assert not quiet.run_requests  # nothing changed

    (inbox / "note.md").write_text("# A Note On Taggers\n\nWe use a CRF tagger. It reaches 97.4% accuracy on WSJ.\n")
    changed = watched_folder_sensor(build_sensor_context(instance=instance, cursor=quiet.cursor))
    assert [r.partition_key for r in changed.run_requests] == ["note"]
    assert not changed.dynamic_partitions_requests
    assert set(json.loads(changed.cursor)) == {str(inbox / "N18-3011.tei.xml"), str(inbox / "note.md")}
