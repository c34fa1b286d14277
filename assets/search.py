"""Deep literature search as assets: one partition per configured query paper."""

import asyncio
import json

import yaml
from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, StaticPartitionsDefinition, asset

from resources import StoreResource
from scholarstack.settings import CONFIG_DIR

SEARCH = yaml.safe_load((CONFIG_DIR / "search.yaml").read_text())
query_partitions = StaticPartitionsDefinition(SEARCH["query_papers"])


@asset(partitions_def=query_partitions, group_name="search",
       description="Keyword search + citation-graph expansion + re-ranking for a query paper, scored against its references.")
def literature_search(context: AssetExecutionContext, store: StoreResource) -> MaterializeResult:
    from scholarstack.index.embed import TfidfSvdEmbedder
    from scholarstack.search.local import LocalProvider
    from scholarstack.search.metrics import precision_recall_at_k
    from scholarstack.search.pipeline import deep_search
    from scholarstack.search.rerank import make_reranker, rerank

    provider = LocalProvider.acl()
    qid = context.partition_key
    if qid not in provider.papers:
        raise LookupError(f"query paper {qid} is not in the local corpus")
    qp = provider.papers[qid]
    reference = set(qp.references)
    provider.hide(qid)
    text = f"{qp.title}. {qp.abstract}"
    res = asyncio.run(deep_search(text, [provider], depth=SEARCH["depth"], budget=SEARCH["budget"]))
    ranked = rerank(text, res.candidates, make_reranker(SEARCH["reranker"], TfidfSvdEmbedder()))
    ids = [c.paper.id for c in ranked]
    out = store.get().home / "search" / f"{qid}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"queries": res.queries, "ranked": [{"id": c.paper.id, "title": c.paper.title, "depth": c.depth,
                                                                    "score": c.score} for c in ranked]}, indent=1))
    meta = {"queries": MetadataValue.json(res.queries), "candidates": len(ids), "references": len(reference),
            "depth_counts": MetadataValue.json({str(k): v for k, v in res.depth_counts.items()}), "file": MetadataValue.path(str(out))}
    for k in (10, 20, 50):
        meta[f"recall@{k}"] = round(precision_recall_at_k(ids, reference, k)[1], 4)
    return MaterializeResult(metadata=meta)
