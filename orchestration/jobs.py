"""Jobs: ingest sources, compile papers (per partition), organise the corpus (L2, L3, recheck)."""

from dagster import AssetSelection, define_asset_job

ingest_job = define_asset_job(
    "ingest_sources", selection=AssetSelection.assets("paper_sources"),
    description="Parse and load the given paths (run config) or the configured sources; new papers become partitions.")
compile_papers_job = define_asset_job(
    "compile_papers", selection=AssetSelection.assets("source_maps", "l1_facts"),  # partitioned by paper, as its assets
    description="Source maps and L1 facts for the requested paper partitions.")
organise_job = define_asset_job(
    "organise_corpus", selection=AssetSelection.assets("l2_organisation", "l3_syntheses", "store_recheck", "vector_index"),
    description="L2 organisation, L3 syntheses and the recheck over the whole store.")
