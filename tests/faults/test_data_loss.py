"""Fault matrix, data loss: each case must lose nothing, say so clearly, and exit non-zero when it failed."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import textwrap

from orchestration.run import compile_store
from scholarstack.ingest.catalog import ingest_paths, raw_paper_ids, raw_sources
from scholarstack.store import Store

from .conftest import REPO, TAGGER, cli, write_md

DOWN = "http://127.0.0.1:9/v1"  # nothing listens on the discard port: every call is refused


def _counts(store: Store) -> dict[str, int]:
    return dict(store.query("SELECT kind, count(*) FROM objects WHERE lifecycle <> 'withdrawn' GROUP BY kind"))


def test_llm_outage_withdraws_nothing_and_exits_nonzero(backend, tmp_path, capsys, monkeypatch):
    home = tmp_path / "store"
    write_md(tmp_path / "papers" / "tnt.md", "TnT: a statistical tagger", TAGGER)
    write_md(tmp_path / "papers" / "maxent.md", "A maximum entropy tagger",
             ["The Maximum Entropy tagger reaches 96.6% accuracy on the Penn Treebank.",
              "We compare it with TnT, which achieves 96.7% accuracy on the Penn Treebank."])
    ingest_paths(Store(home), [tmp_path / "papers"])
    first = compile_store(str(home), progress=False, embedder="tfidf")
    assert first["ok"], first["lines"]
    store = Store(home)
    before = _counts(store)
    vectors_before = first["vector_index"]["total"]
    assert before.get("fact", 0) >= 5

    monkeypatch.setenv("SCHOLARSTACK_LLM_BASE_URL", DOWN)
    monkeypatch.setenv("SCHOLARSTACK_EMBEDDER", "tfidf")
    code, out, _ = cli(capsys, "compile", "--backend", "openai", "--store", str(home))
    assert code != 0, out
    assert "FAILED" in out and "unreachable" in out
    assert _counts(store) == before  # nothing withdrawn, nothing added
    assert store.query("SELECT count(*) FROM events WHERE event = 'withdrawn'")[0][0] == 0
    runs = store.query("SELECT candidate_id, reason FROM rejections WHERE kind = 'paper_run'")
    assert {r[0] for r in runs} == set(raw_paper_ids(store)) and all("kept as they were" in r[1] for r in runs)
    again = compile_store(str(home), progress=False, embedder="tfidf")  # offline again: all still there
    assert again["ok"] and again["vector_index"]["total"] == vectors_before and again["vector_index"]["deleted"] == 0


def test_two_files_with_one_name_are_two_papers(backend, tmp_path):
    store = Store(tmp_path / "store")
    a = write_md(tmp_path / "dirA" / "paper.md", "Paper A", TAGGER[:3])
    b = write_md(tmp_path / "dirB" / "paper.md", "Paper B", TAGGER[3:])
    first = ingest_paths(store, [a])
    second = ingest_paths(store, [b])
    assert first["paper_ids"] == ["paper"] and second["new"] == 1 and second["changed"] == 0
    assert second["paper_ids"][0].startswith("paper-") and "is taken by" in second["renamed"][0]["reason"]
    sources = raw_sources(store)
    assert sources["paper"].endswith("dirA/paper.md") and sources[second["paper_ids"][0]].endswith("dirB/paper.md")
    # The same files again: each keeps its id, nothing changes; an edit to B changes B only.
    assert ingest_paths(store, [a, b])["unchanged"] == 2
    write_md(b, "Paper B", TAGGER[3:5])
    edit = ingest_paths(store, [b])
    assert edit["changed_ids"] == second["paper_ids"]
    # A name that sanitises to an existing id is told apart too.
    c = write_md(tmp_path / "dirC" / "a b.md", "Paper C", TAGGER[:2])
    d = write_md(tmp_path / "dirC" / "a_b.md", "Paper D", TAGGER[2:4])
    both = ingest_paths(store, [c, d])
    assert both["new"] == 2 and len(set(both["paper_ids"])) == 2


KILLED_INGEST = textwrap.dedent("""
    import os, signal, sys
    from dlt.pipeline.pipeline import Pipeline
    Pipeline.load = lambda self, *a, **k: os.kill(os.getpid(), signal.SIGKILL)  # die with rows pending
    from scholarstack.ingest.catalog import ingest_paths
    from scholarstack.store import Store
    ingest_paths(Store(sys.argv[1]), [sys.argv[2]])
""")


def test_killed_ingest_does_not_poison_the_next(tmp_path):
    home = tmp_path / "store"
    corpus = REPO / "sample" / "acl_tagging_sample.jsonl.gz"
    proc = subprocess.run([sys.executable, "-c", KILLED_INGEST, str(home), str(corpus)], cwd=REPO, capture_output=True, timeout=300)
    assert proc.returncode == -9, proc.stderr.decode()[-500:]  # a real kill -9 mid-ingest
    store = Store(home)
    assert raw_paper_ids(store) == []  # the killed load never landed
    good = write_md(tmp_path / "good.md", "A good paper", TAGGER)
    report = ingest_paths(store, [good])
    assert report["paper_ids"] == ["good"] and report["discarded_pending_loads"] >= 1
    assert raw_paper_ids(store) == ["good"]  # exactly what was reported, not the 12 leftovers


def test_one_bad_jsonl_line_skips_only_that_line(tmp_path):
    src = [json.loads(line) for line in gzip.open(REPO / "sample" / "acl_tagging_sample.jsonl.gz", "rt")][:3]
    no_id = {k: v for k, v in src[2].items() if k != "paper_id"}
    lines = [json.dumps(src[0]), "{this is not json", json.dumps(src[1]), json.dumps(no_id), json.dumps(src[2])]
    path = tmp_path / "corpus.jsonl"
    path.write_text("\n".join(lines) + "\n")
    store = Store(tmp_path / "store")
    report = ingest_paths(store, [path])
    assert report["paper_ids"] == [src[0]["paper_id"], src[1]["paper_id"], src[2]["paper_id"]]
    reasons = [f["reason"] for f in report["failed"]]
    assert len(reasons) == 2 and "line 2 is not JSON" in reasons[0] and "line 4" in reasons[1] and "no paper_id" in reasons[1]
    assert store.query("SELECT count(*) FROM rejections WHERE kind = 'source'")[0][0] == 2
