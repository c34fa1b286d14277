"""Source maps: each paper's sentences with stable locators, sections and character spans."""


from dagster import AssetExecutionContext, MaterializeResult, asset

from resources import StoreResource
from scholarstack.compile import compile_source_map, prepare_source_maps

from .common import clean_metadata, over_partitions, run_id
from .partitions import paper_backfill_policy, paper_partitions
from .settings import CompileSettings


@asset(partitions_def=paper_partitions, backfill_policy=paper_backfill_policy(), deps=["paper_sources"],
       group_name="source_maps", kinds={"duckdb"}, code_version="1",
       description="Sentences with locators paper_id:sid, registered per paper; a changed paper gets a new version.")
def source_maps(context: AssetExecutionContext, store: StoreResource, settings: CompileSettings) -> MaterializeResult:
    s = store.get()
    validator = settings.validator()
    meta = over_partitions(context, lambda key: compile_source_map(s, key, run_id(context), validator), "source maps", settings.progress, hold=s,
                           ahead=lambda keys: prepare_source_maps(s, keys))
    return MaterializeResult(metadata=clean_metadata(meta))
