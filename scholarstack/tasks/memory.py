"""Continuous research: what a task derived is registered, and a later task asking the same reuses it.

A registered task output (a judgement, a piece of writing) is reused while it is current and every
object it read (facts, papers) is still at the version it recorded; the reuse is an event in its
history and costs no tokens. A revision of anything it read marks it `needs_recheck` (the gate's
propagation), or changes a recorded version; either way the next use derives it again, and
registering that is a new version of the same id, the old one kept.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..models import Judgement, JudgementTask, ResearchObject, load_object
from ..store import Store
from .common import TaskAnswer

# Keys of an answer's `extra` that describe one run, not the judgement.
TRANSIENT = frozenset({"reuse", "registration", "llm_cache_hits", "error"})


def versions(store: Store, ids: list[str]) -> dict[str, int]:
    """The current version of each id that is current or awaiting recheck."""
    return {oid: row["version"] for oid, row in store.current_rows(ids).items() if row["lifecycle"] != "withdrawn"}


def with_versions(store: Store, obj: ResearchObject) -> ResearchObject:
    """`obj` with the versions of everything it cites recorded."""
    return obj.model_copy(update={"cited_versions": versions(store, [oid for oid, _ in obj.cited_ids()])})


def recall(store: Store, obj_id: str) -> tuple[ResearchObject | None, dict[str, Any] | None, str]:
    """(the registered output, its stored row, "reused") when it can be reused, else (None, None, why not)."""
    row = store.get_row(obj_id)
    if row is None:
        return None, None, "not derived before"
    if row["lifecycle"] != "current":
        return None, None, f"{row['lifecycle']}" + (f": {row['recheck_cause']}" if row.get("recheck_cause") else "")
    obj = load_object(row)
    now = versions(store, list(obj.cited_versions))
    changed = [f"{oid} v{v}→" + (f"v{now[oid]}" if oid in now else "withdrawn") for oid, v in obj.cited_versions.items() if now.get(oid) != v]
    if changed:
        return None, None, "basis changed: " + ", ".join(changed[:3])
    return obj, row, "reused"


def note_reuse(store: Store, obj_id: str, version: int, saved_tokens: int) -> dict[str, Any]:
    store.record_event("reused", obj_id, version, f"reused by a later task; {saved_tokens} tokens not spent")
    return {"hit": True, "id": obj_id, "version": version, "saved_tokens": saved_tokens}


def register_output(store: Store, obj: ResearchObject, task: str) -> dict[str, Any]:
    """Register a task output through the gate: its id, status, version and verification (or why not)."""
    from ..store.registry import register_many

    outcome = register_many(store, [obj], task=task, producer=f"task.{task}").outcomes[0]
    out = {"id": outcome.id, "status": outcome.status, "version": outcome.version, "reason": outcome.reason}
    if outcome.status != "rejected":
        out["verification"] = store.get_row(outcome.id)["verification"]
    return out


def judgement_of(task: JudgementTask, request: str, scope: list[str], settings: str, answer: TaskAnswer) -> Judgement:
    return Judgement(task_name=task, request=request, scope=scope, settings=settings, answer=answer.answer[:5000],
                     sources=answer.sources_state[:20], interpretation=answer.interpretation[:2000],
                     unanswerable=answer.unanswerable, tokens_in=answer.tokens_in, tokens_out=answer.tokens_out,
                     details={k: v for k, v in answer.extra.items() if k not in TRANSIENT} | {"mode": answer.mode})


def answer_of(obj: Judgement, reuse: dict[str, Any], seconds: float) -> TaskAnswer:
    return TaskAnswer(task=obj.task_name.value, question=obj.request, answer=obj.answer, mode=obj.details.get("mode", "view"),
                      sources_state=obj.sources, interpretation=obj.interpretation, unanswerable=obj.unanswerable,
                      seconds=round(seconds, 4), extra={k: v for k, v in obj.details.items() if k != "mode"} | {"reuse": reuse})


def judged(store: Store, task: JudgementTask, request: str, scope: list[str], settings: str,
           derive: Callable[[], TaskAnswer], reuse: bool = True, register: bool = True) -> TaskAnswer:
    """The registered judgement for (task, request, papers, settings) when it can be reused, else
    `derive()` registered as one. A failed derivation (an outage, invalid model output) is returned
    with its error and registered as nothing, so it is never reused."""
    started = time.perf_counter()
    scope = sorted(set(scope))
    key = Judgement.model_construct(task_name=task, request=request.strip(), scope=scope, settings=settings).id
    why = "reuse not asked"
    if reuse:
        obj, row, why = recall(store, key)
        if obj is not None:
            return answer_of(obj, note_reuse(store, key, row["version"], obj.tokens_in + obj.tokens_out), time.perf_counter() - started)
    answer = derive()
    answer.extra["reuse"] = {"hit": False, "why": why}
    if register and not answer.extra.get("error"):
        judgement = with_versions(store, judgement_of(task, request.strip(), scope, settings, answer))
        answer.extra["registration"] = register_output(store, judgement, task.value)
    return answer
