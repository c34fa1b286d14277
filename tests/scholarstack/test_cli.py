"""The command-line contract: status, show, history (text and --json), one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

from scholarstack.cli import main
from tests.scholarstack.store.test_registry import fact, paper

from scholarstack.store import register, register_many, revise


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_status_show_history(store, capsys):
    register(store, paper())
    f = fact(1)
    register_many(store, [f])
    revise(store, [f.model_copy(update={"statement": "TnT achieves 96.7% accuracy on the Penn Treebank (v2)."})])
    home = str(store.home)
    code, out, _ = run(capsys, "status", "--store", home, "--json")
    st = json.loads(out)
    assert code == 0 and st["layers"]["L1"]["fact"]["total"] == 1 and st["versions"] >= 3
    code, out, _ = run(capsys, "show", f.id, "--store", home, "--json")
    shown = json.loads(out)
    assert shown["version"] == 2 and shown["evidence"][0]["text"].startswith("TnT achieves")
    assert [h["version"] for h in shown["history"]] == [1, 2]
    code, out, _ = run(capsys, "show", f.id, "--version", "1", "--store", home)
    assert code == 0 and "v1" in out and "(v2)" not in out
    assert out.splitlines()[1].strip() == f.statement  # the version's text, right under its header
    code, out, _ = run(capsys, "history", f.id, "--store", home)
    assert code == 0 and "v1  superseded" in out and "revised" in out
    code, out, _ = run(capsys, "status", "--store", home)
    assert "L1" in out and "fact" in out


def test_errors_are_one_line_and_nonzero(store, capsys):
    code, out, err = run(capsys, "show", "fac_nope", "--store", str(store.home))
    assert code == 2 and err.count("\n") == 1 and "no object fac_nope" in err
    code, _, err = run(capsys, "ingest", "/no/such/file.pdf", "--store", str(store.home))
    assert code == 2 and "no such file" in err


def test_help_shows_defaults_and_examples(capsys):
    import pytest

    with pytest.raises(SystemExit) as done:
        main(["find-papers", "--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0 and "(default: 10)" in out and "examples:" in out and "--before 2008" in out
    assert "(default: None)" not in out and "(default: False)" not in out  # empty defaults are not shown


def test_cli_status_does_not_import_heavy_libraries(tmp_path):
    code = ("import sys; from scholarstack.cli import main; main(['status', '--store', %r]); "
            "heavy = [m for m in ('dagster', 'torch', 'great_expectations', 'dlt') if m in sys.modules]; "
            "print('HEAVY', heavy)") % str(tmp_path / "s")
    from scholarstack.store import Store

    Store(tmp_path / "s")  # status reads a store; it never creates one
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "HEAVY []" in out


def test_version_and_a_closed_pipe(compiled_sample):
    out = subprocess.run([sys.executable, "-m", "scholarstack.cli", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("scholarstack ")
    # A reader that leaves early (`| head`) ends the command quietly: no traceback, exit 0.
    proc = subprocess.Popen([sys.executable, "-m", "scholarstack.cli", "retrieve", "tagging accuracy", "--k", "200", "--json",
                             "--store", str(compiled_sample)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={"SCHOLARSTACK_EMBEDDER": "tfidf", "PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1"})
    proc.stdout.close()  # the reader is gone before the first line is written
    err = proc.stderr.read().decode()
    assert proc.wait(120) == 0 and "Traceback" not in err and "BrokenPipe" not in err


def test_citations_and_find_papers(compiled_sample, copy_store, tmp_path, capsys):
    home = copy_store(compiled_sample).home
    f = tmp_path / "cites.jsonl"
    f.write_text(json.dumps({"query_id": "c1", "query": "the trigram tagger of [CITATION] with suffix tries", "cited_paper_id": "A00-1031",
                             "citing_paper_id": "Z99-0001"}) + "\n{broken\n")
    code, out, err = run(capsys, "citations", str(f), "--store", str(home))
    assert code == 0 and "loaded 1 citing sentences for 1 papers (1 of them in the store); 1 failed" in out
    assert "line 2" in err
    code, out, _ = run(capsys, "find-papers", "trigram tagger with suffix tries for unknown words", "--k", "3", "--store", str(home))
    assert code == 0 and out.splitlines()[0].split()[1] == "A00-1031"
    assert len(list((home / "vectors").glob("texts-*.npy"))) == 1  # the citing sentences' vectors, kept for the next call
    code, again, _ = run(capsys, "find-papers", "trigram tagger with suffix tries for unknown words", "--k", "3", "--store", str(home))
    assert code == 0 and again == out
    code, dated, _ = run(capsys, "find-papers", "trigram tagger with suffix tries for unknown words", "--before", "1999", "--store", str(home))
    years = [int(line.split()[2]) for line in dated.splitlines()]
    assert code == 0 and "A00-1031" not in dated and years and max(years) <= 1999


def test_eval_is_kept_with_the_sweeps_and_reported(compiled_sample, copy_store, capsys):
    home = copy_store(compiled_sample).home
    code, out, _ = run(capsys, "eval", "store_fidelity", "--store", str(home))
    assert code == 0 and "saved as eval.store_fidelity.offline" in out
    code, out, _ = run(capsys, "report", "--sweep", "eval", "--store", str(home), "--json")
    report = json.loads(out)
    assert code == 0 and report["configs"] == 1
    code, _, err = run(capsys, "eval", "claims", "--budget", "500", "--store", str(home))
    assert code != 0 and "--budget applies to qa, not claims" in err


def test_writing_commands(compiled_sample, copy_store, capsys):
    home = str(copy_store(compiled_sample).home)
    code, out, _ = run(capsys, "summarize", "A00-1031", "--words", "90", "--store", home)
    assert code == 0 and out.startswith("# Summary of") and "## Problem" in out and "registered wri_" in out
    code, out, _ = run(capsys, "review", "tagging", "--papers", "A00-1031", "A92-1018", "--store", home, "--json")
    data = json.loads(out)
    assert code == 0 and set(data["extra"]["papers"]) == {"A00-1031", "A92-1018"} and data["registration"]["verification"] == "passed"
    code, out, _ = run(capsys, "status", "--store", home)
    assert "task   writing" in out
    code, _, err = run(capsys, "related-work", "--paper", "nope", "--store", home)
    assert code == 2 and "neither a paper in store" in err
    code, out, _ = run(capsys, "summarize", "A00-1031", "--words", "90", "--store", home)
    assert code == 0 and "(reused, v1" in out and "tokens not spent" in out  # nothing it cites changed


def test_judgements_and_chains_from_the_cli(compiled_sample, copy_store, capsys, tmp_path):
    home = str(copy_store(compiled_sample).home)
    code, out, _ = run(capsys, "ask", "What datasets are used?", "--paper", "A00-1031", "--store", home)
    assert code == 0 and "registered jud_" in out
    code, out, _ = run(capsys, "ask", "What datasets are used?", "--paper", "A00-1031", "--store", home)
    assert code == 0 and "reused jud_" in out and "tokens in/out: 0/0" in out
    code, out, _ = run(capsys, "verify-claim", "TnT reaches 96.7% accuracy.", "--paper", "A00-1031", "--store", home, "--fresh")
    assert code == 0 and "registered jud_" in out
    code, out, _ = run(capsys, "novelty", "--paper", "D08-1036", "--k", "4", "--store", home)
    assert code == 0 and out.startswith("verdict: ") and "| problem |" in out and "registered jud_" in out
    assert "D08-1036" not in out.split("closest prior work: ")[1].split("\n")[0]
    code, _, err = run(capsys, "novelty", "--idea", " ", "--store", home)
    assert code == 2 and "empty idea" in err
    chain = tmp_path / "c.yaml"
    chain.write_text("name: c\nsteps:\n  - {task: ask, question: 'What datasets are used?', papers: [A00-1031]}\n")
    code, out, _ = run(capsys, "chain", str(chain), "--store", home)
    assert code == 0 and "| 1 | ask |" in out and "| hit |" in out and "1 of 1 task steps reused" in out
    chain.write_text("name: c\nsteps:\n  - {task: fly, paper: A00-1031}\n")
    code, _, err = run(capsys, "chain", str(chain), "--store", home)
    assert code == 2 and "step 1: unknown task 'fly'" in err


def test_search_ranks_with_the_learned_judge_offline(tmp_path, capsys):
    from tests.conftest import need_shared

    need_shared("acl_scisummnet", "citances_dev.jsonl")
    code, out, _ = run(capsys, "search", "unsupervised part-of-speech tagging", "--depth", "1", "--budget", "40", "--k", "5",
                       "--store", str(tmp_path / "s"), "--json")
    res = json.loads(out)
    assert code == 0 and res["reranker"] == "relevance" and len(res["results"]) == 5  # no LLM: the learned judge ranks
    assert [r["score"] for r in res["results"]] == sorted((r["score"] for r in res["results"]), reverse=True)
    assert all(0 <= r["score"] <= 1 for r in res["results"])
    code, out, _ = run(capsys, "search", "unsupervised part-of-speech tagging", "--depth", "1", "--budget", "40",
                       "--reranker", "lexical", "--store", str(tmp_path / "s"))
    assert code == 0 and "ranked by: lexical" in out


def test_index_syncs_the_store_and_refuses_shards_it_cannot_build(store, capsys, monkeypatch):
    register(store, paper())
    register_many(store, [fact(1)])
    home = str(store.home)
    monkeypatch.setenv("SCHOLARSTACK_EMBEDDER", "tfidf")
    monkeypatch.delenv("SCHOLARSTACK_QDRANT_URL", raising=False)
    code, _, err = run(capsys, "index", "--store", home, "--shards", "2")
    assert code == 2 and err.count("\n") == 1 and "Qdrant server" in err  # parallel writers need a server, not the embedded index
    monkeypatch.setenv("JOB_COMPLETION_INDEX", "5")  # an Indexed Job's pod names its shard
    code, _, err = run(capsys, "index", "--store", home, "--shards", "4")
    assert code == 2 and "a shard is 0 to 3" in err
    monkeypatch.delenv("JOB_COMPLETION_INDEX")
    code, out, _ = run(capsys, "index", "--store", home, "--json")
    meta = json.loads(out)
    assert code == 0 and meta["indexed"] == meta["total"] == 3 + 1 and meta["shard"] == "0 of 1"  # three sentences, one fact
    code, out, _ = run(capsys, "index", "--store", home)
    assert code == 0 and "0 embedded, 0 deleted, 4 in the shard" in out
