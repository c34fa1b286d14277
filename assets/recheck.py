"""Recheck: re-verify exactly the objects marked needs_recheck after a revision or withdrawal."""


from collections import Counter

from dagster import AssetExecutionContext, AutomationCondition, MaterializeResult, asset

from resources import StoreResource
from scholarstack.store import recheck

from .common import clean_metadata, run_id


@asset(deps=["l3_syntheses"], group_name="registry", kinds={"duckdb"}, automation_condition=AutomationCondition.eager(),
       description="Objects whose cited objects were revised or withdrawn, re-verified; the result recorded.")
def store_recheck(context: AssetExecutionContext, store: StoreResource) -> MaterializeResult:
    s = store.get()
    results = recheck(s, run_id=run_id(context))
    meta = {"rechecked": len(results), "by_kind": dict(Counter(r["kind"] for r in results)),
            "verification": dict(Counter(r["verification"] for r in results)), "still_needs_recheck": s.status()["needs_recheck"]}
    return MaterializeResult(metadata=clean_metadata(meta))
