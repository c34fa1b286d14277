"""Fault matrix, failures: a clear one-line error, or a recorded and skipped item while the rest goes on."""

from __future__ import annotations

import gzip
import json
import os
import subprocess

import pytest

from orchestration.run import compile_store
from scholarstack.ingest.catalog import ingest_paths, raw_paper_ids
from scholarstack.store import Store
from tests.conftest import duckdb_only

from .conftest import TAGGER, cli, read_only, run_cli, write_md

DOWN = "http://127.0.0.1:9/v1"


def test_one_malformed_record_is_rejected_alone(backend, tmp_path):
    scifact = tmp_path / "corpus.jsonl"
    scifact.write_text("\n".join(json.dumps(d) for d in [
        {"doc_id": "12:34", "title": "Colon id", "abstract": ["Aspirin reduces the risk of stroke by 20% in adults."]},
        {"doc_id": "56 78", "title": "Space id", "abstract": ["Statins lower cholesterol in most patients."]},
        {"doc_id": 9, "title": "Plain", "abstract": ["Exercise improves sleep quality in older adults."]},
    ]) + "\n")
    acl = tmp_path / "acl.jsonl"
    good = {"paper_id": "P1", "title": "Good", "abstract": [{"sid": 1, "text": TAGGER[2]}], "sections": []}
    bad = {"paper_id": "P2", "title": "Bad", "abstract": [{"sid": -5, "text": TAGGER[3]}], "sections": []}
    acl.write_text(json.dumps(bad) + "\n" + json.dumps(good) + "\n")
    store = Store(tmp_path / "store")
    report = ingest_paths(store, [scifact, acl])
    assert sorted(report["paper_ids"]) == ["P1", "scifact-12_34", "scifact-56_78", "scifact-9"]
    assert len(report["failed"]) == 1 and "line 1" in report["failed"][0]["reason"] and "-5" in report["failed"][0]["reason"]
    summary = compile_store(str(store.home), progress=False, organise=False)
    assert summary["ok"] and summary["source_maps"]["papers"] == 4 and summary["source_maps"].get("status_rejected", 0) == 0
    facts = {r["paper_id"] for r in store.objects("fact")}
    assert {"P1", "scifact-12_34", "scifact-9"} <= facts


def test_a_record_that_slips_past_ingest_fails_alone_at_compile(backend, tmp_path):
    """Even a raw row written by another tool (a negative sid) costs only its own paper."""
    store = Store(tmp_path / "store")
    ingest_paths(store, [write_md(tmp_path / "a.md", "Good paper", TAGGER), write_md(tmp_path / "b.md", "Other", TAGGER[:3])])
    with store.connect() as con:
        rec = json.loads(con.execute(f"SELECT record FROM {store.raw_schema}.papers WHERE paper_id = 'b'").fetchone()[0])
        rec["sections"][0]["sentences"] = [[-5, "Broken."]]
        con.execute(f"UPDATE {store.raw_schema}.papers SET record = ? WHERE paper_id = 'b'", [json.dumps(rec)])
    summary = compile_store(str(store.home), progress=False, organise=False)
    assert summary["source_maps"]["status_rejected"] == 1 and summary["source_maps"]["papers"] == 2
    assert {r["paper_id"] for r in store.objects("fact")} == {"a"}
    assert "malformed paper record" in store.query("SELECT reason FROM rejections WHERE candidate_id = 'b'")[0][0]


def test_truncated_gzip_keeps_what_was_read(backend, tmp_path):
    path = tmp_path / "papers.jsonl.gz"
    docs = [{"paper_id": f"P{i}", "title": f"T{i}", "abstract": [{"sid": 1, "text": TAGGER[i % 6] * 40}], "sections": []} for i in range(60)]
    with gzip.open(path, "wt") as fh:
        fh.writelines(json.dumps(d) + "\n" for d in docs)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    report = ingest_paths(Store(tmp_path / "store"), [path])
    assert 0 < report["loaded"] < 60
    assert len(report["failed"]) == 1 and "truncated" in report["failed"][0]["reason"]


def _compiled_small(tmp_path) -> Store:
    store = Store(tmp_path / "store")
    ingest_paths(store, [write_md(tmp_path / "tnt.md", "TnT", TAGGER)])
    assert compile_store(str(store.home), progress=False, organise=False)["ok"]
    return store


def test_read_only_store_can_be_read(tmp_path, one_line_error):
    src = _compiled_small(tmp_path)
    fid = src.objects("fact")[0]["id"]
    with read_only(src.home) as home:
        res = run_cli("status", "--store", str(home), "--json")
        assert res.returncode == 0, res.stderr
        assert json.loads(res.stdout)["layers"]["L1"]["fact"]["total"] > 0
        res = run_cli("show", fid, "--store", str(home))
        assert res.returncode == 0 and fid in res.stdout, res.stderr
        res = run_cli("ingest", str(tmp_path / "tnt.md"), "--store", str(home))  # a write is refused in one line
        one_line_error(res.returncode, res.stderr, "not writable")


def test_bad_store_paths_give_one_line_errors(tmp_path, capsys, one_line_error):
    a_file = tmp_path / "plain.txt"
    a_file.write_text("x")
    code, _, err = cli(capsys, "ingest", str(a_file), "--store", str(a_file))
    one_line_error(code, err, "is a file")
    code, _, err = cli(capsys, "status", "--store", str(tmp_path / "typo"))
    one_line_error(code, err, "no store at")
    assert not (tmp_path / "typo").exists()  # a read never creates a store
    corrupt = tmp_path / "corrupt"
    corrupt.mkdir()
    (corrupt / "store.duckdb").write_bytes(b"this is not a database" * 1000)
    code, _, err = cli(capsys, "status", "--store", str(corrupt))
    one_line_error(code, err, "cannot open store")
    code, _, err = cli(capsys, "ingest", str(a_file), "--store", str(corrupt))
    one_line_error(code, err, "cannot open store")
    parent = tmp_path / "parent"
    parent.mkdir()
    with read_only(parent) as ro:
        res = run_cli("ingest", str(a_file), "--store", str(ro / "new"))
        one_line_error(res.returncode, res.stderr, "cannot create store directory")


@duckdb_only
def test_disk_full_is_a_one_line_error(tmp_path, one_line_error):
    if os.geteuid() != 0:
        pytest.skip("a small tmpfs needs root to mount")
    mnt = tmp_path / "small"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=600k", "tmpfs", str(mnt)], capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (no privilege): the disk-full case needs one")
    try:
        big = tmp_path / "big.md"
        big.write_text("# Big\n\n" + " ".join(f"Sentence {i} says TnT reaches {i % 97}.5% accuracy on corpus {i}." for i in range(20000)))
        res = run_cli("ingest", str(big), "--store", str(mnt / "store"))
        one_line_error(res.returncode, res.stderr, "space")
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


def test_llm_down_is_an_error_not_an_answer(compiled_sample, copy_store, capsys, monkeypatch, one_line_error):
    store = copy_store(compiled_sample)
    monkeypatch.setenv("SCHOLARSTACK_LLM_BASE_URL", DOWN)
    code, out, err = cli(capsys, "ask", "What accuracy does TnT reach?", "--paper", "A00-1031", "--backend", "openai", "--store", str(store.home))
    one_line_error(code, err, "unreachable")
    assert out == ""
    code, out, err = cli(capsys, "verify-claim", "TnT uses second order Markov models.", "--paper", "A00-1031",
                         "--backend", "openai", "--store", str(store.home))
    one_line_error(code, err, "unreachable")
    assert "NOT ENOUGH INFO" not in out


def test_ingest_where_every_file_fails_exits_nonzero(tmp_path, capsys):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "empty.md").write_text("")
    (tmp_path / "in" / "junk.pdf").write_bytes(b"%PDF-1.4 not really")
    code, out, err = cli(capsys, "ingest", str(tmp_path / "in"), "--store", str(tmp_path / "store"))
    assert code == 1 and "ingested 0 papers" in out and err.count("failed:") == 2
    assert raw_paper_ids(Store(tmp_path / "store")) == []
    code, out, _ = cli(capsys, "ingest", str(tmp_path / "in"), str(write_md(tmp_path / "ok.md", "OK", TAGGER)), "--store", str(tmp_path / "store"))
    assert code == 0 and "1 failed" not in out and "2 failed" in out  # some loaded: done, failures listed
