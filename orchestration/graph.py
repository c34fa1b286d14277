"""The asset graph (assets and checks) in one list, for the code location and the in-process runs."""

from assets.ideas import idea_critic, idea_episodes
from assets.index import vector_index
from assets.l1 import l1_facts
from assets.l2 import l2_organisation
from assets.l3 import l3_syntheses
from assets.metrics import benchmark_results, eval_report
from assets.models import (
    claim_verifier, evidence_localiser, index_static_embedder, l1_verb_forms, retrieval_query_adapter, retrieval_ranker,
    scirex_doc_entities, scirex_mention_tagger, search_relevance_judge)
from assets.recheck import store_recheck
from assets.source_maps import source_maps
from assets.search import literature_search
from assets.sources import paper_sources
from assets.tasks import task_answers, writings
from expectations.checks import CHECKS

__all__ = ["ASSETS", "CHECKS"]

ASSETS = [paper_sources, source_maps, l1_facts, l2_organisation, l3_syntheses, store_recheck, vector_index,
          benchmark_results, eval_report, idea_critic, idea_episodes, task_answers, literature_search, claim_verifier,
          scirex_mention_tagger, scirex_doc_entities, retrieval_query_adapter, retrieval_ranker, evidence_localiser,
          search_relevance_judge, index_static_embedder, l1_verb_forms, writings]
