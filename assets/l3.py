"""L3: scoped syntheses per taxonomy category, with a basis of cited facts and assignments."""


from dagster import AssetExecutionContext, MaterializeResult, asset

from resources import LLMResource, StoreResource
from scholarstack.compile import compile_syntheses

from .common import EAGER_UNLESS_BLOCKED, clean_metadata, run_id
from .settings import CompileSettings


@asset(deps=["l2_organisation"], group_name="L3", kinds={"duckdb"}, code_version="1", automation_condition=EAGER_UNLESS_BLOCKED,
       description="Cross-paper accounts with scope (topic, conditions, studies) and supporting/opposing/limiting basis.")
def l3_syntheses(context: AssetExecutionContext, store: StoreResource, llm: LLMResource, settings: CompileSettings) -> MaterializeResult:
    meta = compile_syntheses(store.get(), run_id(context), validator=settings.validator(), backend=llm.backend)
    return MaterializeResult(metadata=clean_metadata(meta))
