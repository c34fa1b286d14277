"""Sweeps: `configs/sweeps/*.yaml` names benchmarks × backends × budgets. Each configuration is
one partition of the `benchmark_results` asset; its results are stored in the store's
`eval_results` table with the run id, config, code version and data version, and reloadable."""

from __future__ import annotations

import hashlib
import json
import subprocess
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

import yaml

from scholarstack.settings import CONFIG_DIR, REPO_ROOT, shared_data_dir
from scholarstack.store import Store

SWEEP_DIR = CONFIG_DIR / "sweeps"
ANSWERING = {"qa", "claims"}  # the benchmarks an LLM answers, so they differ by backend
BUDGETED = {"qa"}  # claims read the whole L1 set: no budget
DATA_FILES = {
    "retrieval": ["acl_scisummnet/citances_dev.jsonl", "acl_scisummnet/papers.jsonl.gz"],
    "claims": ["scifact/claims_train.jsonl", "scifact/corpus.jsonl.gz"],
    "qa": ["qasper_leval/scientific_qa.jsonl"],
    "localisation": ["clscisumm2018"],
    "pdf_fidelity": ["clscisumm2018"],
    "scirex": ["scirex/docs.jsonl.gz"],
    "store_fidelity": [],
    "related_work": ["acl_scisummnet/citances_dev.jsonl", "acl_scisummnet/papers.jsonl.gz"],
    "summary": ["acl_scisummnet/papers.jsonl.gz", "clscisumm2018"],
    "review": ["acl_scisummnet/papers.jsonl.gz"],
    "chain": [],
    "design": ["scirex/docs.jsonl.gz"],
    "ideas": ["liveideabench/kws.csv"],
    "novelty": ["acl_scisummnet/citances_dev.jsonl", "acl_scisummnet/papers.jsonl.gz"],
    "deep_search": ["acl_scisummnet/citances_dev.jsonl", "acl_scisummnet/papers.jsonl.gz"],
}


@dataclass
class Config:
    sweep: str
    benchmark: str
    backend: str = "offline"
    budget: int | None = None
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.sweep}.{self.benchmark}.{self.backend}" + (f".b{self.budget}" if self.budget else "")


def load_sweep(name: str) -> list[Config]:
    path = SWEEP_DIR / f"{name}.yaml"
    if not path.exists():
        raise LookupError(f"no sweep {name!r}: expected {path} (have: {', '.join(sweep_names()) or 'none'})")
    cfg = yaml.safe_load(path.read_text())
    out = []
    for bench, params in (cfg.get("benchmarks") or {}).items():
        params = dict(params or {})
        if cfg.get("embedder") and bench in ("retrieval", "claims", "qa", "localisation", "related_work", "review", "novelty", "design"):
            params.setdefault("embedder", cfg["embedder"])
        for backend in cfg.get("backends", ["offline"]):
            if backend != "offline" and bench not in ANSWERING:
                continue  # only the LLM-answering benchmarks differ by backend
            budgets = cfg.get("budgets", [None]) if bench in BUDGETED else [None]
            for budget in budgets:
                out.append(Config(name, bench, backend, budget, params))
    return out


def sweep_names() -> list[str]:
    return sorted(p.stem for p in SWEEP_DIR.glob("*.yaml"))


def all_config_keys() -> list[str]:
    return [c.key for name in sweep_names() for c in load_sweep(name)]


def config_for(key: str) -> Config:
    sweep = key.split(".", 1)[0]
    for c in load_sweep(sweep):
        if c.key == key:
            return c
    raise LookupError(f"no sweep configuration {key!r}")


def code_version() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=5)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=5)
        return out.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "") if out.returncode == 0 else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def data_version(benchmark: str) -> str:
    parts = []
    for rel in DATA_FILES.get(benchmark, []):
        p = shared_data_dir() / rel
        files = sorted(p.rglob("*")) if p.is_dir() else [p]
        parts += [f"{f.relative_to(shared_data_dir())}:{f.stat().st_size}" for f in files if f.is_file()]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:12] if parts else "none"


def run_config(cfg: Config, eval_store: Store, run_id: str, client=None, progress: bool = False, compiler=None,
               results: Store | None = None) -> dict[str, Any]:
    """`compiler`: the orchestration's in-process compile (evaluations.benchmarks.Compiler);
    `results`: where the result is kept (default the store it ran on)."""
    from .benchmarks import BENCHMARKS
    from .chain_eval import eval_chain
    from .design_eval import eval_design
    from .novelty_eval import eval_novelty
    from .writing_eval import WRITING_BENCHMARKS

    kwargs = dict(cfg.params) | {"progress": progress, "compiler": compiler}
    if cfg.budget:
        kwargs["budget"] = cfg.budget
    if cfg.benchmark in ANSWERING:
        kwargs["client"] = client
    from .ideas_eval import eval_ideas_on_store
    from .search_eval import eval_search_on_store

    result = (BENCHMARKS | WRITING_BENCHMARKS | {"chain": eval_chain, "novelty": eval_novelty, "design": eval_design,
                                                 "ideas": eval_ideas_on_store, "deep_search": eval_search_on_store})[cfg.benchmark](eval_store, **kwargs)
    save_result(results or eval_store, cfg, result, run_id)
    return result


RESULTS_TABLE = """CREATE TABLE IF NOT EXISTS eval_results (
    run_id VARCHAR, sweep VARCHAR, config_key VARCHAR, benchmark VARCHAR, backend VARCHAR, budget INTEGER,
    system VARCHAR, metric VARCHAR, value DOUBLE PRECISION, n INTEGER, code_version VARCHAR, data_version VARCHAR,
    ts TIMESTAMP, config VARCHAR)"""


def second_measurements(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The other measurements a run made beside its main one, each with its own systems (scirex's
    own_method, deep search's co-authorship distance)."""
    return {key: part for key, part in result.items() if isinstance(part, dict) and isinstance(part.get("systems"), dict)}


def save_result(store: Store, cfg: Config, result: dict[str, Any], run_id: str) -> None:
    now = datetime.now(timezone.utc)
    cv, dv = code_version(), data_version(cfg.benchmark)
    # A second measurement is kept too, its systems named after it ("own_method/scholarstack"), so reports show it.
    systems = dict(result["systems"]) | {f"{key}/{system}": metrics for key, part in second_measurements(result).items()
                                         for system, metrics in part["systems"].items()}
    rows = [(run_id, cfg.sweep, cfg.key, cfg.benchmark, cfg.backend, cfg.budget, system, metric, float(value), result.get("n", 0),
             cv, dv, now, json.dumps(cfg.params))
            for system, metrics in systems.items() for metric, value in metrics.items()
            if isinstance(value, (int, float)) and not isinstance(value, bool)]
    with store.transaction() as con:
        con.execute(RESULTS_TABLE)
        store.insert_rows(con, "eval_results", ["run_id", "sweep", "config_key", "benchmark", "backend", "budget", "system",
                                                "metric", "value", "n", "code_version", "data_version", "ts", "config"], rows)


def all_results(store: Store, sweep: str | None = None) -> list[dict[str, Any]]:
    """Every stored run's rows (optionally of one sweep), oldest first: the report's history."""
    if not store.table_exists("main", "eval_results"):
        return []
    cond, params = ("WHERE sweep = ?", [sweep]) if sweep else ("", [])
    return store.query_dicts(f"SELECT * FROM eval_results {cond} ORDER BY ts, config_key, system, metric", params)


def newest_runs(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Of stored rows, those of each configuration's newest run, by configuration, system and metric."""
    newest: dict[str, Any] = {}
    for r in rows:
        newest[r["config_key"]] = max(newest.get(r["config_key"], r["ts"]), r["ts"])
    return sorted((r for r in rows if r["ts"] == newest[r["config_key"]]), key=lambda r: (r["config_key"], r["system"], r["metric"]))


def latest_results(store: Store, sweep: str | None = None) -> list[dict[str, Any]]:
    """The newest run of each configuration (optionally of one sweep)."""
    return newest_runs(all_results(store, sweep))
