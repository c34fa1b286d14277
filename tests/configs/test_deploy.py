"""The Kubernetes deployment (configs/deploy/kubernetes/): loaded and validated, not run.

Dagster's own schemas check the instance (storage, run coordinator, the Kubernetes run launcher);
the Helm values, the ScholarStack config map and Qdrant's values are checked against it and
against the settings the code reads, so a renamed setting or a drifted value fails here."""

import importlib
import importlib.util
import shutil

import pytest
import yaml

from scholarstack.settings import CONFIG_DIR, Settings

DEPLOY = CONFIG_DIR / "deploy" / "kubernetes"
pytest.importorskip("dagster_k8s", reason="dagster-k8s is not installed (the `deploy` extra; `make install` installs it)")


def _load(name: str) -> dict:
    return yaml.safe_load((DEPLOY / name).read_text())


def _validate(section: dict) -> object:
    """A `module`/`class`/`config` section of dagster.yaml through its class's own config schema."""
    from dagster._config import process_config, resolve_to_config_type

    module = section["module"].replace("dagster.core.", "dagster._core.")  # the public alias Dagster itself resolves
    cls = getattr(importlib.import_module(module), section["class"])
    return process_config(resolve_to_config_type(cls.config_type()), section.get("config") or {})


@pytest.fixture
def instance(monkeypatch, tmp_path):
    from dagster._core.instance.config import dagster_instance_config

    monkeypatch.setenv("DAGSTER_PG_HOST", "postgres.example")
    monkeypatch.setenv("DAGSTER_PG_PASSWORD", "secret")
    shutil.copy(DEPLOY / "dagster.yaml", tmp_path / "dagster.yaml")
    config, custom_class = dagster_instance_config(str(tmp_path))
    assert custom_class is None
    return config


def test_the_instance_passes_dagsters_schemas(instance):
    from dagster_postgres import DagsterPostgresStorage

    for key in ("run_launcher", "run_coordinator"):
        result = _validate(instance[key])
        assert result.success, (key, result.errors)
    storage = DagsterPostgresStorage.config_type()
    from dagster._config import process_config, resolve_to_config_type

    result = process_config(resolve_to_config_type(storage), instance["storage"]["postgres"])
    assert result.success, result.errors
    assert result.value["postgres_db"]["hostname"] == "postgres.example"  # read from the environment, as on a pod
    assert instance["run_launcher"]["class"] == "K8sRunLauncher" and instance["run_coordinator"]["class"] == "QueuedRunCoordinator"


def test_a_misspelt_launcher_setting_fails_validation(instance):
    section = dict(instance["run_launcher"], config={**instance["run_launcher"]["config"], "job_namspace": "x"})
    assert not _validate(section).success


def test_helm_values_render_the_same_instance(instance):
    values = _load("dagster-values.yaml")
    launcher, coordinator = instance["run_launcher"]["config"], instance["run_coordinator"]["config"]
    k8s = values["runLauncher"]["config"]["k8sRunLauncher"]
    queued = values["dagsterDaemon"]["runCoordinator"]["config"]["queuedRunCoordinator"]
    assert values["runLauncher"]["type"] == instance["run_launcher"]["class"]
    assert queued["maxConcurrentRuns"] == coordinator["max_concurrent_runs"]
    assert queued["tagConcurrencyLimits"] == coordinator["tag_concurrency_limits"]
    assert [m["name"] for m in k8s["envConfigMaps"]] == launcher["env_config_maps"]
    assert [s["name"] for s in k8s["envSecrets"]] == launcher["env_secrets"]
    assert k8s["runK8sConfig"]["containerConfig"]["resources"] == launcher["run_k8s_config"]["container_config"]["resources"]
    assert k8s["jobNamespace"] == launcher["job_namespace"]
    (code,) = values["dagster-user-deployments"]["deployments"]
    image = code["image"]
    assert f"{image['repository']}:{image['tag']}" == launcher["job_image"]
    module = code["dagsterApiGrpcArgs"][code["dagsterApiGrpcArgs"].index("--module-name") + 1]
    assert importlib.util.find_spec(module) is not None  # the code location the pods load exists
    pg = values["postgresql"]
    assert pg["postgresqlParams"] == instance["storage"]["postgres"]["postgres_db"]["params"]
    assert pg["postgresqlDatabase"] == instance["storage"]["postgres"]["postgres_db"]["db_name"]


def test_the_config_map_sets_only_settings_the_code_reads(monkeypatch, instance):
    cm = _load("scholarstack-env.yaml")
    assert cm["metadata"]["name"] in instance["run_launcher"]["config"]["env_config_maps"]
    data = cm["data"]
    ours = {k for k in data if k.startswith("SCHOLARSTACK_")}
    assert ours, "the config map sets no ScholarStack setting"
    unknown = {k for k in ours if k.removeprefix("SCHOLARSTACK_").lower() not in Settings.model_fields}
    assert not unknown, f"not read by scholarstack/settings.py: {sorted(unknown)}"
    assert "DAGSTER_PG_HOST" in data  # dagster.yaml's storage reads it
    for k, v in data.items():
        monkeypatch.setenv(k, v)
    env = Settings()
    qdrant = _load("qdrant-values.yaml")
    assert qdrant["config"]["cluster"]["enabled"] and qdrant["replicaCount"] >= env.qdrant_replicas
    assert env.qdrant_shards % qdrant["replicaCount"] == 0  # shards spread evenly over the nodes


def test_the_config_map_lays_out_collections_and_backfills(monkeypatch):
    """Its settings reach the code: a collection is created sharded, replicated and on disk, and a
    backfill of papers becomes a run per SCHOLARSTACK_PAPERS_PER_RUN papers."""
    import numpy as np

    from assets.partitions import paper_backfill_policy
    from scholarstack.index import vectors

    for k, v in _load("scholarstack-env.yaml")["data"].items():
        monkeypatch.setenv(k, v)
    created = {}
    real = vectors.QdrantIndex

    def in_memory(url=None, **kw):  # the server's layout, on qdrant-client's in-memory engine
        ix = real(location=":memory:", **kw)
        create = ix.client.create_collection
        ix.client.create_collection = lambda name, **args: created.update(args) or create(name, **args)
        return ix

    monkeypatch.setattr(vectors, "QdrantIndex", in_memory)
    ix = vectors.open_index("unused", url="http://qdrant.example:6333")
    ix.upsert("objects_minilm", ["fac_1"], np.ones((1, 4), dtype=np.float32), [{"kind": "fact"}])
    assert (created["shard_number"], created["replication_factor"]) == (12, 2)
    assert created["vectors_config"][vectors.DENSE].on_disk and created["quantization_config"] is not None
    assert [h[0] for h in ix.search("objects_minilm", np.ones(4, dtype=np.float32))] == ["fac_1"]
    policy = paper_backfill_policy()
    assert policy.max_partitions_per_run == 200
    monkeypatch.delenv("SCHOLARSTACK_PAPERS_PER_RUN")
    assert paper_backfill_policy().max_partitions_per_run is None  # one run takes every paper


def test_the_code_location_loads_with_runs_per_papers(monkeypatch):
    """What a user-code pod does with the config map: load the definitions; the per-paper assets
    then backfill a run per 200 papers."""
    import ast
    import os
    import subprocess
    import sys

    env = os.environ | {k: v for k, v in _load("scholarstack-env.yaml")["data"].items()}
    code = ("from orchestration.definitions import defs\n"
            "g = defs.resolve_asset_graph()\n"
            "print({k.to_user_string(): str(g.get(k).backfill_policy) for k in g.get_all_asset_keys()\n"
            "       if getattr(g.get(k).partitions_def, 'name', None) == 'papers'})")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    policies = ast.literal_eval(out.stdout.strip().splitlines()[-1])
    assert set(policies) == {"source_maps", "l1_facts"}
    assert set(policies.values()) == {"BackfillPolicy.multi_run(max_partitions_per_run=200)"}


def test_the_index_job_runs_one_shard_per_pod(monkeypatch):
    """The first index of a large corpus: an Indexed Job whose pods each sync one shard into the
    Qdrant server the config map names; its command is one the CLI accepts, shards as many as pods."""
    from scholarstack.cli import build_parser

    job = _load("index-job.yaml")
    spec = job["spec"]
    pod = spec["template"]["spec"]
    container = pod["containers"][0]
    args = build_parser().parse_args(container["command"][1:])
    assert job["kind"] == "Job" and spec["completionMode"] == "Indexed"
    assert spec["completions"] == spec["parallelism"] == args.shards > 1 and args.shard is None  # the shard: JOB_COMPLETION_INDEX
    assert container["command"][0] == "scholarstack" and args.command == "index"
    assert {"configMapRef": {"name": _load("scholarstack-env.yaml")["metadata"]["name"]}} in container["envFrom"]
    assert _load("scholarstack-env.yaml")["data"]["SCHOLARSTACK_QDRANT_URL"].startswith("http")  # shards need the server
    assert pod["serviceAccountName"] == _load("dagster-values.yaml")["global"]["serviceAccountName"]
