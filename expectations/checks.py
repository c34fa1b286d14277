"""Asset checks: the Great Expectations suites run over what each layer put in the store, plus the
reference-integrity checks that only the store can answer."""


from dagster import AssetCheckResult, AssetCheckSeverity, asset_check

from resources import StoreResource
from scholarstack.build_inputs import read_record, write_record
from scholarstack.models.common import stable_hash
from scholarstack.store import Store

from .suites import _rows, _suite_spec, validate_frame


def _suite_check(store: Store, kind: str) -> AssetCheckResult:
    """The kind's suite over its live objects. Every expectation is about one row, so only rows not
    seen passing before (by id, content hash and verification) are validated: after a one-paper
    update that is the paper's, not the corpus's 80k facts. The record of passed rows is a file in
    the store directory, kept per suite; without it every row is validated."""
    live = [(oid, h, v) for oid, _, _, h, v in store.content_hashes((kind,))]
    version = stable_hash(_suite_spec(kind))
    seen = read_record(store, f"checked_{kind}")
    passed = set(seen.get("rows", [])) if seen.get("suite") == version else set()
    stamps = {oid: f"{oid}\t{h}\t{v}" for oid, h, v in live}
    todo = [oid for oid, stamp in stamps.items() if stamp not in passed]
    objs = store.current_models(kind, ids=todo) if todo else []
    meta = {"objects": len(live), "validated": len(objs)}
    if not objs:
        return AssetCheckResult(passed=True, metadata=meta | {"failed_expectations": "none"})
    result = validate_frame(kind, _rows(kind, objs))
    failed = [f"{r.expectation_config.type}({r.expectation_config.kwargs.get('column')})" for r in result.results if not r.success]
    if result.success:
        write_record(store, f"checked_{kind}", {"suite": version, "rows": sorted(stamps.values())})
    return AssetCheckResult(passed=result.success, metadata=meta | {"failed_expectations": ", ".join(failed) or "none"})


@asset_check(asset="l1_facts", blocking=True,  # a failure stops L2 and L3 from building on it
             description="GX suite over current facts; every evidence locator resolves to a current sentence.")
def facts_valid(store: StoreResource) -> AssetCheckResult:
    s = store.get()
    suite = _suite_check(s, "fact")
    unresolved = s.unresolved_evidence("fact")
    return AssetCheckResult(passed=suite.passed and unresolved == 0,
                            metadata={**suite.metadata, "unresolved_locators": unresolved})


@asset_check(asset="l2_organisation", blocking=True,  # a failure stops L3 from building on it
             description="GX suites over entities, assignments and relations; no citation dangles.")
def organisation_valid(store: StoreResource) -> AssetCheckResult:
    s = store.get()
    results = {k: _suite_check(s, k) for k in ("entity", "assignment", "relation")}
    dangling = s.dangling_refs(("entity", "assignment", "relation"))
    return AssetCheckResult(passed=all(r.passed for r in results.values()) and dangling == 0,
                            metadata={f"{k}_passed": r.passed for k, r in results.items()} | {"dangling_references": dangling})


@asset_check(asset="l3_syntheses", description="GX suite over syntheses; every basis citation resolves.")
def syntheses_valid(store: StoreResource) -> AssetCheckResult:
    s = store.get()
    suite = _suite_check(s, "synthesis")
    dangling = s.dangling_refs(("synthesis",))
    return AssetCheckResult(passed=suite.passed and dangling == 0, severity=AssetCheckSeverity.ERROR,
                            metadata={**suite.metadata, "dangling_basis": dangling})


CHECKS = [facts_valid, organisation_valid, syntheses_valid]
