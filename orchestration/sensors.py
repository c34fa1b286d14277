"""A sensor on a watched folder, a schedule that refreshes the configured sources, and a sensor
that compiles what an ingest brought.

Evaluating a sensor or schedule changes nothing (the UI's "Test sensor" is safe): the folder
sensor only hashes files and requests an `ingest_sources` run for the new or changed ones; the
ingest run loads them; the compile sensor reads that run's materialization and requests runs for
exactly the new or changed papers' partitions, so a changed file re-materialises only its own
partition. L2, L3 and the recheck follow by their eager automation conditions."""


import hashlib
import json
from pathlib import Path

from dagster import (AssetKey, DefaultSensorStatus, EventLogEntry, RunRequest, ScheduleEvaluationContext, SensorEvaluationContext,
                     SensorResult, asset_sensor, schedule, sensor)

from assets.sources import configured_sources
from scholarstack.ingest.catalog import discover
from scholarstack.settings import CONFIG_DIR, REPO_ROOT

from .jobs import compile_papers_job, ingest_job


def _watch_dir() -> Path:
    import yaml

    from scholarstack.settings import settings

    if (env := settings().watch_dir) is not None:
        return env
    cfg = yaml.safe_load((CONFIG_DIR / "corpora.yaml").read_text())
    return REPO_ROOT / cfg.get("watch", "sample_inbox")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:20]


def ingest_request(paths: list[str], run_key: str) -> RunRequest:
    return RunRequest(run_key=run_key, job_name=ingest_job.name,
                      run_config={"ops": {"paper_sources": {"config": {"paths": paths}}}})


@sensor(job=ingest_job, minimum_interval_seconds=30, default_status=DefaultSensorStatus.STOPPED,
        description="Requests an ingest of the new or changed files in the watched folder (reads nothing else).")
def watched_folder_sensor(context: SensorEvaluationContext) -> SensorResult:
    folder = _watch_dir()
    if not folder.is_dir():
        return SensorResult(skip_reason=f"watched folder {folder} does not exist")
    seen = json.loads(context.cursor) if context.cursor else {}
    files = {str(p): _digest(p) for p in discover([folder])[0]}
    changed = sorted(p for p, h in files.items() if seen.get(p) != h)
    if not changed:
        return SensorResult(skip_reason="no new or changed files", cursor=json.dumps(files))
    key = hashlib.sha256(json.dumps([[p, files[p]] for p in changed]).encode()).hexdigest()[:16]
    return SensorResult(run_requests=[ingest_request(changed, f"watch:{key}")], cursor=json.dumps(files))


@asset_sensor(asset_key=AssetKey("paper_sources"), job=compile_papers_job, minimum_interval_seconds=30,
              default_status=DefaultSensorStatus.STOPPED,
              description="After each ingest, requests compile runs for exactly the papers it brought new or changed.")
def compile_ingested_sensor(context: SensorEvaluationContext, asset_event: EventLogEntry):
    meta = asset_event.asset_materialization.metadata if asset_event.asset_materialization else {}
    todo = meta["to_compile"].value if "to_compile" in meta else []
    for pid in todo:
        yield RunRequest(run_key=f"compile:{pid}:{asset_event.run_id}", partition_key=pid)


@schedule(job=ingest_job, cron_schedule="0 3 * * *", description="Nightly: re-read the configured sources; what changed is compiled.")
def refresh_sources_schedule(context: ScheduleEvaluationContext):
    paths, _ = configured_sources()
    return ingest_request(paths, f"refresh:{context.scheduled_execution_time.isoformat()}")
