"""Helpers shared by the thin asset functions: run id, progress over partitions, metadata."""


import time
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from dagster import AssetExecutionContext, AssetObservation, AutomationCondition, Failure, MetadataValue

from scholarstack.compile import countable, each_paper
from scholarstack.llm.usage import Usage
from scholarstack.store import Store

# L2 and L3 follow their inputs at once, except onto an input whose blocking check failed.
EAGER_UNLESS_BLOCKED = AutomationCondition.eager() & AutomationCondition.all_deps_blocking_checks_passed()
HOLD_SECONDS = 5.0  # how long one store connection serves consecutive papers before others get the lock


def run_id(context: AssetExecutionContext) -> str:
    return context.run.run_id


def partition_keys(context: AssetExecutionContext) -> list[str]:
    return list(context.partition_keys) if context.has_partition_key_range or context.has_partition_key else []


def over_partitions(context: AssetExecutionContext, step: Callable[[str], dict[str, Any]], label: str, progress: bool,
                    hold: Store | None = None, ahead: Callable[[list[str]], str | None] | None = None) -> dict[str, Any]:
    """Run `step` per paper with a progress bar; sum its numeric metadata; list failures.

    `ahead`: given the next AHEAD papers before their steps, to read them together; it returns a
    fault to log or None. It only saves time: each paper's own step meets that fault again and
    reports it.

    `hold`: steps that take well under a second (offline) share one store connection for up to
    HOLD_SECONDS, since opening and checkpointing DuckDB costs ~50 ms a time; steps that wait on
    a model must not keep the store locked meanwhile, so they pass None. After a failure the
    connection is reopened, so a fault cannot leave the next paper a broken connection."""
    keys = partition_keys(context)
    totals: Counter = Counter()
    statuses: Counter = Counter()
    problems: list[str] = []
    usage = Usage()
    failed: list[str] = []
    held, since = ExitStack(), 0.0

    def held_step(key: str) -> dict[str, Any]:
        nonlocal since
        if hold is not None and not since:
            held.enter_context(hold.connect())
            since = time.monotonic()
        return step(key)

    with held:
        for key, out, fault in each_paper(keys, held_step, ahead, label, progress):
            if fault:
                context.log.warning(f"{label}: {fault}")
            if since and (out.get("status") == "failed" or time.monotonic() - since > HOLD_SECONDS):
                held.close()
                since = 0.0
            _tally(out, key, totals, statuses, problems, failed, usage)
            # One run covers many papers and its materialization sums them; each paper's own
            # figures go on an observation of its partition, which the UI shows per partition.
            context.log_event(AssetObservation(asset_key=context.asset_key, partition=key, metadata=clean_metadata(_own(out))))
    meta: dict[str, Any] = {"papers": len(keys), **{k: v for k, v in totals.items()}, **{f"status_{k}": v for k, v in statuses.items()}}
    meta |= usage.as_metadata()
    if problems:
        meta["problems"] = MetadataValue.md("\n".join(f"- {p}" for p in problems[:50]))
    context.log.info(f"{label}: {len(keys)} papers, {dict(statuses)}")
    if failed:  # the step fails (the run exits non-zero) after every other paper was done
        raise Failure(description=f"{label}: {len(failed)} of {len(keys)} papers failed; first: {failed[0]}",
                      metadata=clean_metadata(meta))
    return meta


def _tally(out: dict[str, Any], key: str, totals: Counter, statuses: Counter, problems: list[str], failed: list[str],
           usage: Usage) -> None:
    statuses[out.get("status", "ok")] += 1
    if out.get("status") in ("rejected", "skipped", "failed", "partial"):
        problems.append(f"{key}: {out.get('reason', '') or out.get('status')}"[:300])
    if out.get("status") == "failed":
        failed.append(f"{key}: {out.get('reason', '')}"[:400])
    for k, v in countable(out).items():
        if k.startswith("llm_"):
            setattr(usage, k[4:], getattr(usage, k[4:]) + v)
        else:
            totals[k] += v


def _own(out: dict[str, Any]) -> dict[str, Any]:
    """A paper's figures as metadata: its status, the reason when it has one, its counts."""
    own = {k: v for k, v in out.items() if isinstance(v, str)} | countable(out)
    return {"status": out.get("status", "ok"), **own} | ({"reason": str(out["reason"])[:300]} if out.get("reason") else {})


def clean_metadata(meta: dict[str, Any]) -> dict[str, Any]:
    """Dagster metadata values must be scalars, MetadataValues or JSON."""
    out = {}
    for k, v in meta.items():
        if isinstance(v, MetadataValue):
            out[k] = v
        elif isinstance(v, dict):
            out[k] = MetadataValue.json(v)
        elif isinstance(v, (list, tuple)):
            out[k] = MetadataValue.json(list(v))
        else:
            out[k] = v
    return out
