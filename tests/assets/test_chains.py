"""A chain materialised as Dagster assets, twice: the second run reuses every task step."""

from __future__ import annotations

from orchestration.run import run_chain


def test_a_chain_runs_as_assets_and_its_second_run_reuses_everything(compiled_sample, copy_store, tmp_path):
    store = copy_store(compiled_sample)
    path = tmp_path / "chain.yaml"
    path.write_text("name: t\nsteps:\n"
                    "  - {task: ask, question: 'What datasets are used?', papers: [A00-1031]}\n"
                    "  - {task: verify_claim, claim: 'TnT reaches 96.7% accuracy.', paper: A00-1031}\n"
                    "  - {task: ask, question: 'What datasets are used?', papers: [A00-1031]}\n"
                    "  - {task: summarize, paper: A00-1031, words: 100}\n")
    first = run_chain(str(store.home), str(path))
    assert first["ok"] and [s["status"] for s in first["steps"]] == ["new", "new", "hit", "new"]
    assert first["tokens_in"] > 0 and first["hit_rate"] == 0.25
    second = run_chain(str(store.home), str(path))
    assert second["ok"] and second["hit_rate"] == 1.0 and second["tokens_in"] == second["tokens_out"] == 0
    assert [s["output"] for s in second["steps"]] == [s["output"] for s in first["steps"]]
    assert (store.home / "chains" / "t").is_dir() and second["transcript"].endswith(".json")
    fresh = run_chain(str(store.home), str(path), fresh=True)
    assert fresh["ok"] and fresh["reused"] == 0


def test_a_chain_ingests_compiles_and_asks_the_new_paper(compiled_sample, copy_store, tmp_path):
    store = copy_store(compiled_sample)
    (tmp_path / "tiny.md").write_text("# A tiny tagger\n\nWe present TinyTag, a tagger for English. "
                                      "TinyTag reaches 95.1% accuracy on the Penn Treebank.\n")
    path = tmp_path / "chain.yaml"
    path.write_text("name: grow\nsteps:\n  - {task: ingest, paths: [tiny.md]}\n  - {task: compile, papers: [tiny]}\n"
                    "  - {task: ask, question: 'What accuracy does TinyTag reach?', papers: [tiny]}\n")
    out = run_chain(str(store.home), str(path))
    assert out["ok"] and [s["task"] for s in out["steps"]] == ["ingest", "compile", "ask"]
    assert "95.1" in out["steps"][2]["answer"] and out["steps"][2]["status"] == "new"
    path.write_text("name: bad\nsteps:\n  - {task: ask, question: 'What?', papers: [nope]}\n")
    failed = run_chain(str(store.home), str(path))  # a failing step is reported, not hidden
    assert not failed["ok"] and any("unknown paper" in line for line in failed["failures"])
