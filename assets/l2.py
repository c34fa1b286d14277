"""L2: canonical entities, taxonomy, category assignments and typed relations over the corpus."""


from dagster import AssetExecutionContext, MaterializeResult, asset

from resources import LLMResource, StoreResource
from scholarstack.compile import compile_organisation

from .common import EAGER_UNLESS_BLOCKED, clean_metadata, run_id
from .settings import CompileSettings


@asset(deps=["l1_facts"], group_name="L2", kinds={"duckdb"}, code_version="1", automation_condition=EAGER_UNLESS_BLOCKED,
       description="Entities with aliases, the taxonomy, assignments citing facts, relations anchored in facts.")
def l2_organisation(context: AssetExecutionContext, store: StoreResource, llm: LLMResource, settings: CompileSettings) -> MaterializeResult:
    s = store.get()
    meta = compile_organisation(s, run_id(context), taxonomy_path=settings.taxonomy_path(), induce_k=settings.induce_k,
                                adjudicator=llm.adjudicator(s), validator=settings.validator(), backend=llm.backend)
    context.log.info(f"L2: {meta}")
    return MaterializeResult(metadata=clean_metadata(meta))
