"""L1: source-grounded facts per paper, with evidence locators and a verification status."""


from dagster import AssetExecutionContext, MaterializeResult, asset

from resources import LLMResource, StoreResource
from scholarstack.compile import compile_facts

from .common import clean_metadata, over_partitions, run_id
from .partitions import paper_backfill_policy, paper_partitions
from .settings import CompileSettings


@asset(partitions_def=paper_partitions, backfill_policy=paper_backfill_policy(), deps=["source_maps"],
       group_name="L1", kinds={"duckdb"}, code_version="1",
       description="Facts (statement, subject, type, context, quantities, evidence, verification) per paper.")
def l1_facts(context: AssetExecutionContext, store: StoreResource, llm: LLMResource, settings: CompileSettings) -> MaterializeResult:
    s = store.get()
    extractor = llm.extractor(s)
    validator = settings.validator()
    meta = over_partitions(context, lambda key: compile_facts(s, key, extractor, run_id(context), validator), f"L1 facts ({llm.backend})",
                           settings.progress, hold=s if llm.backend == "offline" else None)
    meta["backend"] = llm.backend
    return MaterializeResult(metadata=clean_metadata(meta))
