"""A sensor on a watched folder and a schedule that refreshes the configured sources.

Both ingest (dlt) what is new or changed and request runs for exactly those papers' partitions,
so a changed file re-materialises only its own partition; L2, L3 and the recheck follow by
their eager automation conditions."""


import hashlib
import json
from pathlib import Path

from dagster import DefaultSensorStatus, RunRequest, SensorEvaluationContext, SensorResult, ScheduleEvaluationContext, schedule, sensor

from assets.partitions import paper_partitions
from assets.sources import configured_sources
from scholarstack.ingest.catalog import discover, ingest_paths
from scholarstack.settings import CONFIG_DIR, REPO_ROOT
from scholarstack.store import Store

from .jobs import compile_papers_job


def _watch_dir() -> Path:
    import yaml

    from scholarstack.settings import settings

    if (env := settings().watch_dir) is not None:
        return env
    cfg = yaml.safe_load((CONFIG_DIR / "corpora.yaml").read_text())
    return REPO_ROOT / cfg.get("watch", "sample_inbox")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:20]


def ingest_and_request(instance, store: Store, paths: list[str], tag: str) -> tuple[list[RunRequest], list[str], dict]:
    report = ingest_paths(store, paths)
    new = [p for p in report["paper_ids"] if not instance.has_dynamic_partition(paper_partitions.name, p)]
    todo = sorted(set(new) | set(report["changed_ids"]))
    requests = [RunRequest(run_key=f"{tag}:{pid}:{report['run_id']}", partition_key=pid) for pid in todo]
    return requests, new, report


@sensor(job=compile_papers_job, minimum_interval_seconds=30, default_status=DefaultSensorStatus.STOPPED,
        description="Ingests new or changed files in the watched folder and compiles their partitions.")
def watched_folder_sensor(context: SensorEvaluationContext) -> SensorResult:
    folder = _watch_dir()
    if not folder.is_dir():
        return SensorResult(skip_reason=f"watched folder {folder} does not exist")
    seen = json.loads(context.cursor) if context.cursor else {}
    files = {str(p): _digest(p) for p in discover([folder])[0]}
    changed = [p for p, h in files.items() if seen.get(p) != h]
    if not changed:
        return SensorResult(skip_reason="no new or changed files", cursor=json.dumps(files))
    requests, new, _ = ingest_and_request(context.instance, Store(), changed, "watch")
    return SensorResult(run_requests=requests, dynamic_partitions_requests=[paper_partitions.build_add_request(new)] if new else [],
                        cursor=json.dumps(files))


@schedule(job=compile_papers_job, cron_schedule="0 3 * * *", description="Nightly: re-read configured sources, compile what changed.")
def refresh_sources_schedule(context: ScheduleEvaluationContext):
    paths, _ = configured_sources()
    requests, new, _ = ingest_and_request(context.instance, Store(), paths, "refresh")
    if new:
        context.instance.add_dynamic_partitions(paper_partitions.name, new)
    return requests
