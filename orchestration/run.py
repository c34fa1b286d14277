"""Run the compile assets in-process (what `scholarstack compile` and `make demo` do).

The Dagster instance lives in $DAGSTER_HOME when set, else in `<store>/dagster` (what `make dev`
shares): SQLite files there beside a DuckDB store, the store's database for a PostgreSQL one.
"""

from __future__ import annotations

import os
import time
import warnings
from pathlib import Path
from typing import Any

from scholarstack.settings import quiet_telemetry

quiet_telemetry()
warnings.filterwarnings("ignore", message=".*is currently in beta.*")
warnings.filterwarnings("ignore", category=DeprecationWarning)

# Failures are summarised in our own lines (the step and its root cause); Dagster's console log
# would print each one again as a traceback.
QUIET = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}
RANGE_START, RANGE_END = "dagster/asset_partition_range_start", "dagster/asset_partition_range_end"


def dagster_home(store_home: Path) -> Path:
    """The store's Dagster instance directory (`<store>/dagster`, what `make dev` and the CLI share).
    Beside a DuckDB store its runs and events are SQLite files there; a PostgreSQL store keeps them
    in its database, in their own schema (`<store schema>_dagster`), so the UI, the daemon and
    compile workers on other machines share one instance. A dagster.yaml already there is kept, a
    PostgreSQL store's storage section added to it when missing."""
    from scholarstack.store.db import recorded_database
    from scholarstack.store.postgres import dagster_storage_yaml

    home = Path(store_home) / "dagster"
    home.mkdir(parents=True, exist_ok=True)
    cfg = home / "dagster.yaml"
    before = cfg.read_text() if cfg.exists() else None
    text = before or "telemetry:\n  enabled: false\n"
    if "storage:" not in text and (pg := recorded_database(Path(store_home))) is not None:
        text += dagster_storage_yaml(pg[0], f"{pg[1]}_dagster")
    if text != before:
        cfg.write_text(text)
    return home


def instance_for(store_home: Path):
    from dagster import DagsterInstance

    if os.environ.get("DAGSTER_HOME"):
        return DagsterInstance.get()
    return DagsterInstance.from_config(str(dagster_home(store_home)))


def _metadata(result, key: str) -> dict[str, Any]:
    """An asset's metadata from its materialization, or from its step's Failure when it failed."""
    out = {}
    for ev in result.get_asset_materialization_events():
        if ev.asset_key.to_user_string() == key:
            for k, v in ev.materialization.metadata.items():
                out[k] = getattr(v, "value", v)
    if not out:
        for ev in result.all_events:
            data = getattr(ev.event_specific_data, "user_failure_data", None)
            if ev.event_type_value == "STEP_FAILURE" and ev.step_key == key and data is not None:
                out = {k: getattr(v, "value", v) for k, v in (data.metadata or {}).items()}
    return out


def _sum_metadata(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Numbers added over the runs of several partition ranges (so every range is counted)."""
    total: dict[str, Any] = {}
    for part in parts:
        for k, v in part.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                total[k] = total.get(k, 0) + v
            else:
                total.setdefault(k, v)
    return total


def _root_cause(error) -> str:
    """The user's exception that Dagster recorded, not Dagster's wrapper around it."""
    while error.cls_name and error.cls_name.startswith("Dagster") and getattr(error, "cause", None) is not None:
        error = error.cause
    return " ".join(error.message.split())[:400]


def _checks(result) -> list[str]:
    lines = [f"FAILED step {ev.step_key}: {_root_cause(ev.event_specific_data.error)}"
             for ev in result.all_events if ev.event_type_value == "STEP_FAILURE"]
    for ev in result.get_asset_check_evaluations():
        lines.append(f"check {ev.check_name} on {ev.asset_key.to_user_string()}: {'passed' if ev.passed else 'FAILED'}")
    return lines


def _failed_blocking(result) -> list[str]:
    """The blocking checks (as their specs declare them) that failed in this run."""
    from orchestration.graph import CHECKS

    blocking = {spec.key for c in CHECKS for spec in c.check_specs if spec.blocking}
    return [f"check {ev.check_name} on {ev.asset_key.to_user_string()}" for ev in result.get_asset_check_evaluations()
            if not ev.passed and ev.asset_check_key in blocking]


def resources_for(store_home: str | None = None, backend: str | None = None, **kw: Any) -> dict[str, Any]:
    """The local resources (orchestration.resources_env) for this store and backend."""
    from orchestration.resources_env import local_resources

    return local_resources(store_home, backend, **kw)


def _l1_run(instance, resources: dict[str, Any], first: str, last: str) -> tuple[bool, dict, dict, list[str], list[str]]:
    """One run of source maps and L1 over a contiguous range of paper partitions: (success,
    source-map metadata, L1 metadata, check lines, failed blocking checks)."""
    from dagster import materialize

    from orchestration.graph import ASSETS, CHECKS

    res = materialize([*ASSETS, *CHECKS], selection=["source_maps", "l1_facts"], instance=instance, resources=resources,
                      run_config=QUIET, tags={RANGE_START: first, RANGE_END: last}, raise_on_error=False)
    return res.success, _metadata(res, "source_maps"), _metadata(res, "l1_facts"), _checks(res), _failed_blocking(res)


def _worker_l1_run(store_home: str, backend: str, first: str, last: str, llm: dict | None,
                   embedder: str | None) -> tuple[bool, dict, dict, list[str], list[str]]:
    """`_l1_run` in a worker process, with its own instance and resources (neither crosses processes)."""
    resources = resources_for(store_home, backend, progress=False, embedder=embedder, **(llm or {}))
    return _l1_run(instance_for(Path(store_home)), resources, first, last)


def _share_cores(workers: int) -> None:
    """In a worker: torch gets its share of the cores (workers each taking all of them thrash)."""
    threads = str(max(1, (os.cpu_count() or 1) // workers))
    os.environ["OMP_NUM_THREADS"] = os.environ["MKL_NUM_THREADS"] = threads
    import torch

    torch.set_num_threads(int(threads))


def _split(keys: list[str], parts: int) -> list[list[str]]:
    size = -(-len(keys) // parts)
    return [keys[i:i + size] for i in range(0, len(keys), size)]


def compile_store(store_home: str | None, backend: str = "offline", papers: list[str] | None = None,
                  progress: bool = True, llm: dict | None = None, organise: bool = True, index: bool = True,
                  embedder: str | None = None, workers: int = 1) -> dict[str, Any]:
    """Source maps and L1 per paper, then L2, L3, recheck and the index. `workers` > 1 (PostgreSQL
    stores only: DuckDB has one writer) compiles the papers in that many worker processes, each a
    Dagster run over its own contiguous range of partitions; the organisation runs once after."""
    from scholarstack.bulk import long_lived

    with long_lived():  # Dagster and the asset graph stay for the process (bulk.long_lived)
        from dagster import materialize

        from assets.partitions import paper_partitions
        from orchestration.graph import ASSETS, CHECKS
        from scholarstack.ingest.catalog import raw_paper_ids
        from scholarstack.store import Store

    store = Store(store_home)
    if workers > 1 and not store.postgres:
        raise ValueError(f"--workers {workers} needs a PostgreSQL store (SCHOLARSTACK_STORE_URL): {store.home} is DuckDB, "
                         "which takes one writer at a time")
    known = raw_paper_ids(store)
    if not known:
        raise ValueError(f"no papers ingested in {store.home}; run `scholarstack ingest PATH` first")
    if papers:
        unknown = sorted(set(papers) - set(known))
        if unknown:
            raise LookupError(f"unknown paper id(s) {', '.join(unknown[:5])} in {store.home}")
    instance = instance_for(store.home)
    existing = set(instance.get_dynamic_partitions(paper_partitions.name))
    missing = [p for p in known if p not in existing]
    if missing:
        instance.add_dynamic_partitions(paper_partitions.name, missing)
    resources = resources_for(str(store.home), backend, progress=progress, embedder=embedder, **(llm or {}))
    lines: list[str] = []
    summary: dict[str, Any] = {"store": str(store.home), "backend": backend, "ok": True}
    started = time.perf_counter()
    order = instance.get_dynamic_partitions(paper_partitions.name)
    # papers=None: all ingested papers; papers=[]: none (organise only).
    wanted = set(papers) if papers is not None else set(known)
    targets = [p for p in order if p in wanted]
    # One run per contiguous range of requested partitions (all papers: one run).
    ranges, cur = [], []
    pos = {p: i for i, p in enumerate(order)}
    for p in targets:
        if cur and pos[p] != pos[cur[-1]] + 1:
            ranges.append(cur)
            cur = []
        cur.append(p)
    if cur:
        ranges.append(cur)
    if workers > 1 and ranges:
        from concurrent.futures import ProcessPoolExecutor
        from multiprocessing import get_context

        jobs = [(str(store.home), backend, c[0], c[-1], llm, embedder) for rng in ranges for c in _split(rng, workers)]
        with ProcessPoolExecutor(min(workers, len(jobs)), mp_context=get_context("spawn"), initializer=_share_cores,
                                 initargs=(workers,)) as pool:
            results = list(pool.map(_worker_l1_run, *zip(*jobs)))
    else:
        results = [_l1_run(instance, resources, rng[0], rng[-1]) for rng in ranges]
    blocked: list[str] = []
    for ok, sm_meta, l1_meta, checks, failed_blocking in results:
        summary["ok"] &= ok
        blocked += failed_blocking
        summary.setdefault("source_maps", []).append(sm_meta)
        summary.setdefault("l1_facts", []).append(l1_meta)
        lines += checks
    sm = _sum_metadata(summary.get("source_maps", []))
    l1 = _sum_metadata(summary.get("l1_facts", []))
    summary["source_maps"], summary["l1_facts"] = sm, l1
    lines.insert(0, f"source maps: {sm.get('papers', 0)} papers, {sm.get('sentences', 0)} sentences; "
                    f"rejected {sm.get('status_rejected', 0)}, failed {sm.get('status_failed', 0)}")
    lines.insert(1, f"L1 facts ({backend}): {l1.get('facts', 0)} facts ({l1.get('new', 0)} new, {l1.get('revised', 0)} revised, "
                    f"{l1.get('reused', 0)} reused, {l1.get('withdrawn', 0)} withdrawn, {l1.get('rejected', 0)} rejected); "
                    f"LLM calls {l1.get('llm_calls', 0)}, cache hits {l1.get('llm_cache_hits', 0)}, tokens {l1.get('llm_tokens_in', 0)}/{l1.get('llm_tokens_out', 0)}; "
                    f"papers failed {l1.get('status_failed', 0)} (their facts kept), partial {l1.get('status_partial', 0)}")
    if organise and blocked:  # as Dagster's blocking check does within one run: nothing is built on failed facts
        lines.append(f"L2, L3, recheck and index: not run: {blocked[0]} failed (a blocking check; the store keeps what it had)")
        summary["ok"] = False
    elif organise:
        res = materialize([*ASSETS, *CHECKS], selection=["l2_organisation", "l3_syntheses", "store_recheck"] + (["vector_index"] if index else []),
                          instance=instance, resources=resources, run_config=QUIET, raise_on_error=False)
        summary["ok"] &= res.success
        l2, l3, rc, ix = (_metadata(res, k) for k in ("l2_organisation", "l3_syntheses", "store_recheck", "vector_index"))
        summary |= {"l2_organisation": l2, "l3_syntheses": l3, "store_recheck": rc, "vector_index": ix}
        skipped = "not run: an earlier step failed (the store keeps what it had)"
        same = " (unchanged: no fact or organisation changed since the last build, nothing rebuilt)"
        uncertain = "" if l2.get("unchanged") else f" ({l2.get('assignments_uncertain', 0)} uncertain)"
        lines.append(f"L2: {l2.get('entities', 0)} entities, {l2.get('assignments', 0)} assignments{uncertain}, "
                     f"{l2.get('relations', 0)} relations" + (same if l2.get("unchanged") else "") if l2 else f"L2: {skipped}")
        lines.append(f"L3: {l3.get('syntheses', 0)} syntheses" + (same if l3.get("unchanged") else f" ({l3.get('disagreements', 0)} with disagreements)")
                     if l3 else f"L3: {skipped}")
        lines.append(f"recheck: {rc.get('rechecked', 0)} objects re-verified" if rc else f"recheck: {skipped}")
        if index:
            sentences = "front-matter sentences" if ix.get("sentences") == "front" else "every sentence"
            lines.append(f"index ({ix.get('embedder', '?')}; facts, entities, syntheses, {sentences}): {ix.get('indexed', 0)} embedded, "
                         f"{ix.get('deleted', 0)} deleted, {ix.get('total', 0)} in all" if ix else f"index: {skipped}")
        lines += _checks(res)
    summary["seconds"] = round(time.perf_counter() - started, 1)
    lines.append(f"done in {summary['seconds']}s; store {store.home}" + ("" if summary["ok"] else " (some steps FAILED: see above)"))
    summary["lines"] = lines
    return summary


def run_sweep(store_home: str | None, sweep: str, backend: str = "offline", progress: bool = True) -> dict[str, Any]:
    """Materialise `benchmark_results` for every configuration of a sweep, then its report."""
    from dagster import materialize

    from evaluations.sweep import load_sweep
    from orchestration.graph import ASSETS
    from scholarstack.store import Store

    store = Store(store_home)
    configs = load_sweep(sweep)
    instance = instance_for(store.home)
    resources = resources_for(str(store.home), backend)
    lines, ok = [], True
    started = time.perf_counter()
    for cfg in configs:
        t0 = time.perf_counter()
        res = materialize(ASSETS, selection=["benchmark_results"], partition_key=cfg.key, instance=instance,
                          resources=resources, run_config=QUIET, raise_on_error=False)
        ok &= res.success
        lines.append(f"{cfg.key}: {'ok' if res.success else 'FAILED'} in {time.perf_counter() - t0:.1f}s")
        lines += _checks(res)
        if progress:
            print(lines[-1], flush=True)
    res = materialize(ASSETS, selection=["eval_report"], instance=instance, resources=resources,
                      run_config={**QUIET, "ops": {"eval_report": {"config": {"sweep": sweep}}}}, raise_on_error=False)
    ok &= res.success
    report = _metadata(res, "eval_report")
    lines.append(f"report: {report.get('html', '?')}")
    return {"ok": ok, "lines": lines, "seconds": round(time.perf_counter() - started, 1), "report": report.get("html")}


def run_chain(store_home: str | None, path: str, fresh: bool = False) -> dict[str, Any]:
    """Materialise every step of a chain file, in order; each step's result from its metadata. A
    transcript (steps, reuse, costs) is written under `<store>/chains/`."""
    import json

    from dagster import materialize

    from assets.chains import chain_assets, step_key
    from scholarstack.chain import StepResult, load_chain
    from scholarstack.store import Store

    chain = load_chain(path)
    store = Store(store_home)
    resources = resources_for(str(store.home), chain.backend)
    started = time.perf_counter()
    res = materialize(chain_assets(chain, fresh), instance=instance_for(store.home), resources=resources, run_config=QUIET,
                      raise_on_error=False)
    steps, lines = [], _checks(res)
    for i in range(1, len(chain.steps) + 1):
        meta = _metadata(res, step_key(chain, i).to_user_string())
        if meta.get("task"):
            steps.append(StepResult.model_validate(meta))
    hits = sum(s.reused for s in steps)
    tasks = sum(s.task not in ("ingest", "compile") for s in steps)
    summary = {"chain": chain.name, "ok": res.success and len(steps) == len(chain.steps), "steps": [s.model_dump() for s in steps],
               "run_id": res.run_id, "reused": hits, "task_steps": tasks, "hit_rate": round(hits / max(1, tasks), 4),
               "tokens_in": sum(s.tokens_in for s in steps), "tokens_out": sum(s.tokens_out for s in steps),
               "seconds": round(time.perf_counter() - started, 2), "failures": lines}
    out = store.home / "chains" / chain.name / f"{res.run_id}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=1))
    summary["transcript"] = str(out)
    return summary
