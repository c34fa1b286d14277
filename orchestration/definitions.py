"""The Dagster code location: `dagster dev -w workspace.yaml` shows this asset graph."""

from scholarstack.settings import quiet_telemetry

quiet_telemetry()
import warnings  # noqa: E402

warnings.filterwarnings("ignore", message=".*is currently in beta.*")

from dagster import Definitions  # noqa: E402

from assets.ideas import idea_critic, idea_episodes  # noqa: E402
from assets.index import vector_index  # noqa: E402
from assets.l1 import l1_facts  # noqa: E402
from assets.l2 import l2_organisation  # noqa: E402
from assets.l3 import l3_syntheses  # noqa: E402
from assets.metrics import benchmark_results, eval_report  # noqa: E402
from assets.models import (  # noqa: E402
    claim_verifier, evidence_localiser, retrieval_query_adapter, scirex_doc_entities, scirex_mention_tagger)
from assets.recheck import store_recheck  # noqa: E402
from assets.source_maps import source_maps  # noqa: E402
from assets.search import literature_search  # noqa: E402
from assets.sources import paper_sources  # noqa: E402
from assets.tasks import task_answers  # noqa: E402
from expectations.checks import CHECKS  # noqa: E402

from .jobs import compile_papers_job, organise_job  # noqa: E402
from .resources_env import local_resources  # noqa: E402

__all__ = ["ASSETS", "CHECKS", "defs"]
from .sensors import refresh_sources_schedule, watched_folder_sensor  # noqa: E402

ASSETS = [paper_sources, source_maps, l1_facts, l2_organisation, l3_syntheses, store_recheck, vector_index,
          benchmark_results, eval_report, idea_critic, idea_episodes, task_answers, literature_search, claim_verifier,
          scirex_mention_tagger, scirex_doc_entities, retrieval_query_adapter, evidence_localiser]

defs = Definitions(
    assets=ASSETS,
    asset_checks=CHECKS,
    jobs=[compile_papers_job, organise_job],
    sensors=[watched_folder_sensor],
    schedules=[refresh_sources_schedule],
    resources=local_resources(),
)
