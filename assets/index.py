"""The vector index over facts, entities, syntheses and sentences, kept in sync with the store."""

from dagster import AssetExecutionContext, AutomationCondition, MaterializeResult, asset

from resources import StoreResource
from resources.vectors import VectorIndexResource
from scholarstack.index.sync import sync_index

from .common import clean_metadata
from .settings import CompileSettings


@asset(deps=["l3_syntheses", "store_recheck"], group_name="index", kinds={"qdrant"}, automation_condition=AutomationCondition.eager(),
       description="Embeddings of every current fact, entity and synthesis and of the front matter's sentences (all sentences with "
                   "SCHOLARSTACK_INDEX_SENTENCES=all); only changed documents are re-embedded.")
def vector_index(context: AssetExecutionContext, store: StoreResource, vectors: VectorIndexResource, settings: CompileSettings) -> MaterializeResult:
    s = store.get()
    meta = sync_index(s, vectors.open(s), vectors.make_embedder(s), progress=settings.progress)
    context.log.info(f"index: {meta}")
    return MaterializeResult(metadata=clean_metadata(meta))
