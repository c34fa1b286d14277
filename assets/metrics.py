"""Benchmarks as assets: one partition per sweep configuration (configs/sweeps/*.yaml), and a
report over a sweep's newest results. Results live in `<store>/evals`, apart from the user's store."""

from dagster import AssetExecutionContext, Config, MaterializeResult, MetadataValue, StaticPartitionsDefinition, asset

from evaluations.report import HEADLINE, markdown_table, plots, tables, write_report
from evaluations.sweep import all_config_keys, config_for, latest_results, run_config
from resources import LLMResource, StoreResource
from scholarstack.store import Store

sweep_partitions = StaticPartitionsDefinition(all_config_keys())


def eval_store(store: StoreResource) -> Store:
    return Store(store.get().home / "evals")


@asset(partitions_def=sweep_partitions, group_name="metrics", kinds={"duckdb"},
       description="One benchmark configuration measured (all its systems on the same items, in one run).")
def benchmark_results(context: AssetExecutionContext, store: StoreResource, llm: LLMResource) -> MaterializeResult:
    """A benchmark's papers are compiled by the core's compile_papers: no Dagster run inside this one."""
    cfg = config_for(context.partition_key)
    es = eval_store(store)
    client = llm.client(es) if cfg.backend == "openai" else None
    result = run_config(cfg, es, context.run.run_id, client)
    tabs = {cfg.key: result["systems"]}
    meta = {"benchmark": cfg.benchmark, "n": result["n"], "table": MetadataValue.md(markdown_table(result["systems"]))}
    headline = HEADLINE.get(cfg.benchmark)
    for system, vals in result["systems"].items():
        if headline in vals:
            meta[f"{system}.{headline}"] = float(vals[headline])
    imgs = plots(tabs, {cfg.key: cfg.benchmark})
    if imgs:
        meta["plot"] = MetadataValue.md("\n".join(f"![{k}](data:image/png;base64,{v})" for k, v in imgs.items()))
    return MaterializeResult(metadata=meta)


class ReportConfig(Config):
    sweep: str = "ci"


@asset(deps=["benchmark_results"], group_name="metrics", description="HTML + Markdown report of a sweep's newest results.")
def eval_report(context: AssetExecutionContext, config: ReportConfig, store: StoreResource) -> MaterializeResult:
    es = eval_store(store)
    out = write_report(es, config.sweep, es.home / "reports" / config.sweep)
    rows = latest_results(es, config.sweep)
    summary = "\n\n".join(f"**{k}**\n\n{markdown_table(v)}" for k, v in tables(rows).items())
    return MaterializeResult(metadata={"html": MetadataValue.path(out["html"]), "configs": out["configs"],
                                       "summary": MetadataValue.md(summary)})
