"""The compile steps the assets call: each reads from the store, computes, registers through the
gate and returns metadata. One paper at a time for source maps and L1; the corpus for L2 and L3."""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import ValidationError

from .ingest.catalog import raw_record
from .ingest.records import EmptyPaperError, to_source_map
from .llm.client import LLMUnavailableError
from .llm.usage import Usage
from .models import Sentence, SourceMap, Taxonomy
from .l2.entities import Adjudicator
from .organise import organisation_inputs, organise
from .bulk import paused_gc
from .build_inputs import build_key, code_version, last_key, remember
from .store import Store, register_many, withdraw_missing
from .store.object_reads import LIVE
from .store.registry import BatchValidator, register_changed
from .l3 import synthesize_categories, synthesize_results

if TYPE_CHECKING:
    from .l1.backends import ExtractionResult

L2_KINDS = ("fact", "entity", "taxonomy", "assignment", "relation")  # what L2 reads and writes
L3_KINDS = (*L2_KINDS, "synthesis")


class Extractor(Protocol):
    backend: str

    def extract(self, sm: SourceMap, run_id: str | None = None): ...


def load_source_map(store: Store, paper_id: str) -> SourceMap:
    row = store.get_row(paper_id)
    if row is None or row["kind"] != "paper":
        raise LookupError(f"paper {paper_id!r} has no source map in {store.home}; materialise source_maps first")
    data = {k: v for k, v in row["data"].items() if k not in ("kind", "n_sentences")}
    return SourceMap.model_validate(data | {"sentences": stored_sentences(store, paper_id)})


def stored_sentences(store: Store, paper_id: str) -> list[Sentence]:
    return [Sentence(sid=s["sid"], text=s["text"], section=s["section"], start=s["start_char"], end=s["end_char"], kind=s["kind"])
            for s in store.paper_sentences(paper_id)]


def _previous_sentences(store: Store, paper_id: str) -> tuple[list[Sentence], int]:
    prev = stored_sentences(store, paper_id)
    return prev, (store.next_free_sid(paper_id) if prev else 0)


AHEAD = 16  # papers whose ingested records are read in one query


def prepare_source_maps(store: Store, paper_ids: list[str]) -> str | None:
    """Read the next papers' records in one query (`Store.read_ahead`). Only a speed-up: a fault is
    returned for the log, never raised, and each paper's own step meets it again and reports it; an
    unusable store still stops the run."""
    from .store import StoreError

    try:
        with store.connect():
            store.read_ahead(paper_ids)
    except StoreError:
        raise
    except Exception as exc:  # noqa: BLE001
        return f"reading {', '.join(paper_ids[:2])}… ahead failed ({type(exc).__name__}: {exc}); each is read on its own"
    return None


def each_paper(paper_ids: list[str], step: Callable[[str], dict[str, Any]], ahead: Callable[[list[str]], str | None] | None = None,
               desc: str = "", progress: bool = False) -> Iterator[tuple[str, dict[str, Any], str | None]]:
    """(paper id, its step's metadata, a read-ahead fault or None) for each paper, in order: the one
    per-paper loop of the assets and of `compile_papers`. Before every AHEAD papers, `ahead` is given
    them to read together (only a speed-up: each paper's step meets its fault again). A paper whose step
    raises is "failed" with the reason and the others go on; a StoreError (the store itself unusable:
    busy, disk full) stops the loop, nothing half-written."""
    from tqdm import tqdm

    from .store import StoreError

    for n, paper_id in enumerate(tqdm(paper_ids, desc=desc, unit="paper", disable=not progress, file=sys.stderr, leave=False)):
        fault = ahead(paper_ids[n:n + AHEAD]) if ahead is not None and n % AHEAD == 0 else None
        try:
            meta = step(paper_id)
        except StoreError:
            raise
        except Exception as exc:  # noqa: BLE001 - one paper's fault must not stop the others; it is reported
            meta = {"status": "failed", "reason": f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"}
        yield paper_id, meta, fault


def compile_source_map(store: Store, paper_id: str, run_id: str, validator: BatchValidator | None = None) -> dict[str, Any]:
    with store.connect():  # one connection for the paper's reads and writes (opening one costs ~20 ms)
        return _compile_source_map(store, paper_id, run_id, validator)


def _compile_source_map(store: Store, paper_id: str, run_id: str, validator: BatchValidator | None) -> dict[str, Any]:
    record = raw_record(store, paper_id)
    try:
        sm = to_source_map(record, *_previous_sentences(store, paper_id))
    except (EmptyPaperError, ValidationError, ValueError) as exc:  # a malformed record is rejected alone
        reason = str(exc) if isinstance(exc, EmptyPaperError) else f"{record.source}: malformed paper record: {' '.join(str(exc).split())[:300]}"
        store.add_rejections([(run_id, paper_id, "paper", reason, "compile.source_map", json.dumps({"source": record.source}))])
        return {"paper_id": paper_id, "status": "rejected", "reason": reason, "sentences": 0}
    report = register_many(store, [sm], run_id=run_id, validator=validator, producer="compile.source_map")
    out = report.outcomes[0]
    return {"paper_id": paper_id, "status": out.status, "version": out.version, "reason": out.reason,
            "sentences": len(sm.sentences), "marked_for_recheck": report.marked_for_recheck}


def compile_facts(store: Store, paper_id: str, extractor: Extractor, run_id: str, validator: BatchValidator | None = None) -> dict[str, Any]:
    try:
        with store.connect():
            sm = load_source_map(store, paper_id)
    except LookupError as exc:
        return {"paper_id": paper_id, "status": "skipped", "reason": str(exc), "facts": 0}
    try:
        result = extractor.extract(sm, run_id)
    except LLMUnavailableError as exc:
        # An outage is not an empty paper: nothing is registered and nothing is withdrawn.
        reason = f"{paper_id}: extraction failed, the paper's facts are kept as they were: {exc}"
        store.add_rejections([(run_id, paper_id, "paper_run", reason, f"extract.{extractor.backend}", "")])
        return {"paper_id": paper_id, "status": "failed", "reason": reason, "facts": 0, **exc.usage.as_metadata()}
    with store.connect():
        return _register_facts(store, paper_id, extractor, run_id, validator, result)


def _register_facts(store: Store, paper_id: str, extractor: Extractor, run_id: str, validator: BatchValidator | None,
                    result: ExtractionResult) -> dict[str, Any]:
    report = register_many(store, result.facts, run_id=run_id, validator=validator, producer=f"extract.{extractor.backend}")
    if result.rejections:
        store.add_rejections([(run_id, cid, "fact", reason, f"extract.{extractor.backend}", data) for cid, reason, data in result.rejections])
    withdrawn = 0
    if result.complete:  # a partial extraction (some windows failed) never withdraws what it did not reach
        withdrawn = withdraw_missing(store, "fact", report.accepted_ids, paper_id=paper_id,
                                     reason=f"not extracted from the current version of {paper_id}", run_id=run_id)
    return {
        **report.summary(), "paper_id": paper_id, "status": "ok" if result.complete else "partial",
        "facts": len(report.accepted_ids), "withdrawn": withdrawn, "failed_windows": result.failed_windows,
        "rejected": len(report.rejected) + len(result.rejections),  # the gate's and the extractor's
        "types": dict(Counter(f.type.value for f in result.facts)),
        "verification": dict(Counter(f.verification.value for f in result.facts)), **result.usage.as_metadata(),
    }


def current_models(store: Store, kind: str) -> list:
    return store.current_models(kind)


def compile_organisation(store: Store, run_id: str, taxonomy_path: str | Path | None = None, induce_k: int = 8,
                         adjudicator: Adjudicator | None = None, validator: BatchValidator | None = None,
                         backend: str = "offline") -> dict[str, Any]:
    with store.connect():  # one connection for the step's reads and writes (DuckDB's open costs ~35 ms, and there are dozens)
        return _compile_organisation(store, run_id, taxonomy_path, induce_k, adjudicator, validator, backend)


def _compile_organisation(store: Store, run_id: str, taxonomy_path: str | Path | None, induce_k: int,
                          adjudicator: Adjudicator | None, validator: BatchValidator | None, backend: str) -> dict[str, Any]:
    from .l2.mentions import keep_on_disk

    started = time.perf_counter()
    built = {"taxonomy": Path(taxonomy_path).read_text() if taxonomy_path else None, "induce_k": induce_k, "backend": backend,
             "validated": validator is not None}
    if build_key(store, L2_KINDS, built) == last_key(store, "l2"):
        return _unchanged(store, ("fact", "entity", "assignment", "relation"), started)
    keep_on_disk(store.home / "cache" / "mentions")  # a one-paper update tags that paper's statements, not the corpus's
    with paused_gc():  # bulk work over every fact's mentions (see bulk.paused_gc)
        meta = organise(store, run_id, json.dumps([code_version(), built], sort_keys=True), taxonomy_path, induce_k, adjudicator,
                        validator, backend)
    remember(store, "l2", build_key(store, L2_KINDS, built))  # what the store holds now is this build's result
    return meta | {"seconds": round(time.perf_counter() - started, 2)}


def compile_syntheses(store: Store, run_id: str, validator: BatchValidator | None = None, backend: str = "offline") -> dict[str, Any]:
    with store.connect():  # one connection for the step (see compile_organisation)
        return _compile_syntheses(store, run_id, validator, backend)


def _compile_syntheses(store: Store, run_id: str, validator: BatchValidator | None, backend: str) -> dict[str, Any]:
    started = time.perf_counter()
    built = {"backend": backend, "validated": validator is not None}
    if build_key(store, L3_KINDS, built) == last_key(store, "l3"):
        return _unchanged(store, ("synthesis",), started)
    taxonomies: list[Taxonomy] = current_models(store, "taxonomy")
    with paused_gc():  # bulk work over every fact (see bulk.paused_gc)
        facts, entities, assignments, relations = organisation_inputs(store)
        syntheses = []
        for tax in taxonomies:
            mine = [a for a in assignments if a.taxonomy_id == tax.id]
            syntheses += synthesize_categories(tax, mine, entities, facts, relations, run_id, backend)
        syntheses += synthesize_results(facts, run_id, backend)
    report = register_changed(store, syntheses, run_id=run_id, validator=validator, producer="synthesis")
    withdrawn = withdraw_missing(store, "synthesis", report.accepted_ids, reason="scope no longer produced", run_id=run_id)
    remember(store, "l3", build_key(store, L3_KINDS, built))
    return {
        "syntheses": len(report.accepted_ids), "withdrawn": withdrawn, "rejected": len(report.rejected),
        "disagreements": sum(1 for s in syntheses if s.disagreements), "basis_items": sum(len(s.basis) for s in syntheses),
        **report.summary(), "seconds": round(time.perf_counter() - started, 2), **Usage().as_metadata(),
    }


def _unchanged(store: Store, kinds: tuple[str, ...], started: float) -> dict[str, Any]:
    """A build's metadata when its inputs and outputs stand as it left them: nothing rebuilt."""
    rows = dict(store.query(f"SELECT kind, count(*) FROM objects WHERE kind IN ({', '.join('?' * len(kinds))}) "
                            f"AND lifecycle IN ({', '.join('?' * len(LIVE))}) GROUP BY kind", [*kinds, *LIVE]))
    names = {"fact": "facts_in", "entity": "entities", "assignment": "assignments", "relation": "relations", "synthesis": "syntheses"}
    counts = {names[k]: int(rows.get(k, 0)) for k in kinds}
    return {**counts, "unchanged": True, "withdrawn": 0, "rejected": 0, "seconds": round(time.perf_counter() - started, 2)}


def countable(meta: dict[str, Any]) -> dict[str, int | float]:
    """A step's figures that add up over papers: its numbers, not its version."""
    return {k: v for k, v in meta.items() if isinstance(v, (int, float)) and not isinstance(v, bool) and k != "version"}


def compile_papers(store: Store, paper_ids: list[str], run_id: str, extractor: Extractor | None = None,
                   validator: BatchValidator | None = None, taxonomy_path: str | Path | None = "configs/taxonomies/nlp.yaml",
                   induce_k: int = 8, adjudicator: Adjudicator | None = None, progress: bool = False) -> dict[str, Any]:
    """The layers for these papers with no orchestrator: source maps and L1 per paper, then L2, L3
    and the recheck over the store, the same steps the assets run. For benchmarks, which compile
    their papers from inside a Dagster run and must not start Dagster runs there. A paper that
    fails is recorded and the others go on, as in the assets; what the assets log as a warning (a
    failed read-ahead) is listed under "warnings"."""
    from .l1.backends import OfflineExtractor
    from .settings import REPO_ROOT
    from .store import recheck

    extractor = extractor or OfflineExtractor()
    if taxonomy_path is not None and not Path(taxonomy_path).is_absolute():
        taxonomy_path = REPO_ROOT / taxonomy_path
    out: dict[str, Any] = {"ok": True, "failed": [], "warnings": []}
    with store.connect():  # one connection for the batch: reopening the file per read costs ~10 ms, ~1,800 times in a small benchmark
        for step, prepare, name in ((lambda p: compile_source_map(store, p, run_id, validator), lambda ps: prepare_source_maps(store, ps),
                                     "source_maps"),
                                    (lambda p: compile_facts(store, p, extractor, run_id, validator), None, "l1_facts")):
            totals: Counter = Counter()
            for paper_id, meta, fault in each_paper(paper_ids, step, prepare, name, progress):
                if fault:
                    out["warnings"].append(f"{name}: {fault}")  # the papers are read again one by one
                if meta.get("status") == "failed":
                    out["failed"].append(f"{name} {paper_id}: {meta.get('reason', '')}")
                totals.update(countable(meta))
                totals[f"status_{meta.get('status', 'ok')}"] += 1
            out[name] = dict(totals)
        out["l2_organisation"] = compile_organisation(store, run_id, taxonomy_path=taxonomy_path, induce_k=induce_k,
                                                      adjudicator=adjudicator, validator=validator, backend=extractor.backend)
        out["l3_syntheses"] = compile_syntheses(store, run_id, validator=validator, backend=extractor.backend)
        out["store_recheck"] = {"rechecked": len(recheck(store, run_id=run_id))}
    out["ok"] = not out["failed"]
    return out
