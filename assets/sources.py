"""Sources: papers loaded with dlt into the store's raw tables; each paper becomes a partition."""


from dagster import AssetExecutionContext, Config, MaterializeResult, asset

from resources import StoreResource
from scholarstack.ingest.catalog import ingest_paths

from .common import clean_metadata
from .partitions import paper_partitions


class SourcesConfig(Config):
    paths: list[str] = []  # files, folders, corpus files; default: configs/corpora.yaml
    limit: int | None = None


def configured_sources() -> tuple[list[str], int | None]:
    import yaml

    from scholarstack.settings import CONFIG_DIR, REPO_ROOT

    cfg = yaml.safe_load((CONFIG_DIR / "corpora.yaml").read_text())
    paths = [str((REPO_ROOT / p).resolve()) if not p.startswith("/") else p for p in cfg.get("paths", [])]
    return paths, cfg.get("limit")


@asset(group_name="sources", kinds={"dlt", "duckdb"}, description="Papers parsed and loaded into raw.papers (dlt); registers one partition per paper.")
def paper_sources(context: AssetExecutionContext, config: SourcesConfig, store: StoreResource) -> MaterializeResult:
    paths, limit = (config.paths, config.limit) if config.paths else configured_sources()
    report = ingest_paths(store.get(), paths, limit=config.limit or limit)
    new = [p for p in report["paper_ids"] if not context.instance.has_dynamic_partition(paper_partitions.name, p)]
    if new:
        context.instance.add_dynamic_partitions(paper_partitions.name, new)
    meta = {k: v for k, v in report.items() if k not in ("paper_ids",)}
    meta["failed"] = [f["reason"] for f in report["failed"]]
    meta["partitions_added"] = len(new)
    # What the compile sensor requests runs for: new and changed papers, nothing else.
    meta["to_compile"] = sorted(set(new) | set(report["changed_ids"]))
    return MaterializeResult(metadata=clean_metadata(meta))
