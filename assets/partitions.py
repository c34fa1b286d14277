"""One partition per paper: added by ingestion, the folder sensor and the refresh schedule."""

from dagster import BackfillPolicy, DynamicPartitionsDefinition

from scholarstack.settings import settings

paper_partitions = DynamicPartitionsDefinition(name="papers")


def paper_backfill_policy() -> BackfillPolicy:
    """A backfill of papers in one run (one machine), or, with SCHOLARSTACK_PAPERS_PER_RUN=N, a run
    per N papers: under a run launcher that starts each run on its own pod they compile in parallel."""
    n = settings().papers_per_run
    return BackfillPolicy.multi_run(n) if n else BackfillPolicy.single_run()
