"""Research chains as assets: each step of a chain file (configs/chains/*.yaml, or one a user
runs with `scholarstack chain FILE`) is an asset depending on the step before, so a chain is a
materialisable, re-runnable lineage. Task steps register what they derive and reuse it on the next
run while its basis stands; the metadata says which steps were reused and what they cost."""

from pathlib import Path

from dagster import AssetExecutionContext, AssetKey, AssetsDefinition, MaterializeResult, MetadataValue, asset

from resources import LLMResource, StoreResource
from resources.vectors import VectorIndexResource
from scholarstack.chain import Chain, StepResult, describe, load_chain
from scholarstack.settings import CONFIG_DIR

from .settings import CompileSettings


def step_key(chain: Chain, index: int) -> AssetKey:
    return AssetKey(["chain", chain.name, f"step_{index:03d}_{chain.steps[index - 1].task}"])


def chain_assets(chain: Chain, fresh: bool = False) -> list[AssetsDefinition]:
    """One asset per step; `fresh`: derive every task step again instead of reusing."""
    return [_step_asset(chain, i, fresh) for i in range(1, len(chain.steps) + 1)]


def _step_asset(chain: Chain, index: int, fresh: bool) -> AssetsDefinition:
    step = chain.steps[index - 1]
    base = Path(chain.source).parent if chain.source else Path.cwd()

    @asset(key=step_key(chain, index), deps=[step_key(chain, index - 1)] if index > 1 else [], group_name=f"chain_{chain.name}",
           description=f"{chain.name} step {index}: {step.task} {describe(step)[:200]}")
    def run_step(context: AssetExecutionContext, store: StoreResource, llm: LLMResource, vectors: VectorIndexResource,
                 settings: CompileSettings) -> MaterializeResult:
        from scholarstack.chain import run_task_step
        from scholarstack.ingest.catalog import ingest_paths, raw_paper_ids
        from scholarstack.views.views import KnowledgeBase

        s = store.get()
        if step.task == "ingest":
            report = ingest_paths(s, [base / p for p in step.paths])
            result = StepResult(index=index, task="ingest", request=describe(step), answer=f"{len(report['paper_ids'])} papers ingested",
                                status="failed" if report.get("failed") else "done")
        elif step.task == "compile":  # the core's compile: a chain step is a Dagster run, so no run inside it
            from scholarstack.compile import compile_papers
            from scholarstack.index.sync import sync_index

            papers = step.papers or raw_paper_ids(s)
            summary = compile_papers(s, papers, context.run.run_id, extractor=llm.extractor(s), validator=settings.validator(),
                                     taxonomy_path=settings.taxonomy_path(), induce_k=settings.induce_k, adjudicator=llm.adjudicator(s))
            for warning in summary["warnings"]:
                context.log.warning(warning)
            if not summary["ok"]:
                raise RuntimeError("compile failed:\n" + "\n".join(summary["failed"]))
            ix = sync_index(s, vectors.open(s), vectors.make_embedder(s))
            answer = (f"{len(papers)} papers: {summary['l1_facts'].get('facts', 0)} facts, {summary['l2_organisation'].get('entities', 0)} "
                      f"entities, {summary['l3_syntheses'].get('syntheses', 0)} syntheses; {ix['indexed']} vectors embedded")
            result = StepResult(index=index, task="compile", request=describe(step), answer=answer, status="done")
        else:
            kb = KnowledgeBase(s, vectors.open(s), vectors.make_embedder(s))
            client = llm.client(s) if chain.backend == "openai" else None
            result = run_task_step(s, kb, index, step, client=client, reuse=not fresh)
        context.log.info(f"step {index} {step.task}: {result.status} {result.output} ({result.tokens_in}/{result.tokens_out} tokens)")
        return MaterializeResult(metadata={**{k: v for k, v in result.model_dump().items() if k not in ("answer",)},
                                           "answer": MetadataValue.text(result.answer)})

    return run_step


def configured_chains() -> list[Chain]:
    """The chains in configs/chains/ (shown in `dagster dev`); a broken file is skipped with a warning."""
    import warnings

    out = []
    for path in sorted((CONFIG_DIR / "chains").glob("*.yaml")):
        try:
            out.append(load_chain(path))
        except (ValueError, OSError) as exc:
            warnings.warn(f"chain skipped: {exc}", stacklevel=1)
    return out
