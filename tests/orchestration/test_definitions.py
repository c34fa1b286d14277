"""The code location `dagster dev` loads: workspace.yaml names it, its definitions validate and hold every layer."""

import importlib

import yaml
from dagster import Definitions

from scholarstack.settings import REPO_ROOT


def test_workspace_loads_the_scholarstack_location():
    [entry] = yaml.safe_load((REPO_ROOT / "workspace.yaml").read_text())["load_from"]
    module = entry["python_module"]
    assert module["location_name"] == "scholarstack"
    defs = importlib.import_module(module["module_name"]).defs
    Definitions.validate_loadable(defs)
    graph = defs.resolve_asset_graph()
    keys = {k.to_user_string() for k in graph.get_all_asset_keys()}
    assert {"paper_sources", "source_maps", "l1_facts", "l2_organisation", "l3_syntheses", "vector_index",
            "store_recheck", "benchmark_results", "scirex_mention_tagger", "retrieval_ranker"} <= keys
    checks = {(c.asset_key.to_user_string(), c.name) for c in graph.asset_check_keys}
    assert checks == {("l1_facts", "facts_valid"), ("l2_organisation", "organisation_valid"), ("l3_syntheses", "syntheses_valid")}
    blocking = {k.name for k in graph.asset_check_keys if graph.get_check_spec(k).blocking}
    assert blocking == {"facts_valid", "organisation_valid"}  # L1's and L2's checks stop what builds on them
