"""Fault matrix, forgery: the gate verifies what it registers and trusts no caller."""

from __future__ import annotations

import asyncio
import json

from orchestration.run import compile_store
from scholarstack.ingest.catalog import ingest_paths
from scholarstack.models import BasisItem, Fact, Scope, Sentence, SourceMap, Synthesis
from scholarstack.store import Store, register, revise, withdraw

from .conftest import TAGGER, cli, write_md


def _paper(store: Store) -> Fact:
    register(store, SourceMap(paper_key="A00-1031", title="TnT", sentences=[Sentence(sid=i + 1, text=t) for i, t in enumerate(TAGGER)]))
    real = Fact(statement=TAGGER[2], subject="TnT", type="finding", evidence=["A00-1031:3"])
    assert register(store, real).status == "new"
    return real


def test_gate_computes_verification_and_never_versions_a_forgery(backend, tmp_path):
    store = Store(tmp_path / "store")
    real = _paper(store)
    assert store.get_row(real.id)["verification"] == "passed"
    forged = Fact(statement="TnT reaches 99.9% accuracy on every corpus", subject="TnT", type="finding",
                  evidence=["A00-1031:3"], verification="passed", verification_note="trust me")
    out = register(store, forged)
    assert out.status == "new" and out.id != real.id  # another fact, not v2 of the real one
    row = store.get_row(out.id)
    assert row["verification"] == "failed" and "99.9" in row["verification_note"]
    kept = store.get_row(real.id)
    assert kept["version"] == 1 and kept["data"]["statement"] == TAGGER[2] and kept["verification"] == "passed"
    # Registering the forgery again is idempotent; only revise() changes the real fact.
    assert register(store, forged).status == "reused"
    rev = revise(store, [real.model_copy(update={"statement": "TnT achieves 96.7% accuracy on the Penn Treebank WSJ."})]).outcomes[0]
    assert rev.id == real.id and rev.status == "revised" and rev.version == 2


def test_same_producer_reextracting_changed_evidence_revises(backend, tmp_path):
    store = Store(tmp_path / "store")
    real = _paper(store)
    edited = TAGGER[:2] + ["TnT achieves 96.7% accuracy on the Penn Treebank WSJ corpus."] + TAGGER[3:]
    register(store, SourceMap(paper_key="A00-1031", title="TnT", sentences=[Sentence(sid=i + 1, text=t) for i, t in enumerate(edited)]))
    again = real.model_copy(update={"statement": edited[2]})
    out = register(store, again)
    assert out.id == real.id and out.status == "revised"


def test_mcp_synthesis_cannot_register_caller_text(compiled_sample, copy_store, monkeypatch):
    monkeypatch.setenv("SCHOLARSTACK_EMBEDDER", "tfidf")
    from scholarstack.mcp_server import build_server

    store = copy_store(compiled_sample)
    server = build_server(str(store.home))

    def call(name: str, args: dict) -> dict:
        result = asyncio.run(server.call_tool(name, args))
        assert not result.is_error, result.content[0].text
        return json.loads(result.content[0].text)

    fact = store.objects("fact")[0]
    forged_view = {"query": "x", "items": [{"id": fact["id"], "kind": "fact", "text": "GoodTagger achieves 100% accuracy and cures cancer.",
                                            "paper_id": fact["paper_id"], "locators": fact["data"]["evidence"], "data": {"type": "finding"}}]}
    got = call("synthesize_view", {"view": forged_view, "question": "How good is GoodTagger?", "register_candidate": True})
    assert "cures cancer" not in got["candidate"]["account"]  # the text came from the store, not the client
    assert fact["data"]["statement"] in got["candidate"]["account"]
    assert got["registration"]["status"] == "new"
    row = store.get_row(got["id"])
    assert row["verification"] != "passed" and row["task"] == "mcp.synthesize"

    # A caller who registers its own account directly is checked against the basis it cites.
    lie = Synthesis(account="GoodTagger achieves 100% accuracy and cures cancer.", scope=Scope(topic="GoodTagger", studies=[fact["paper_id"]]),
                    basis=[BasisItem(object_id=fact["id"], role="supporting")])
    out = register(store, lie, task="mcp.synthesize")
    assert out.status == "rejected" and "not supported by its basis" in out.reason and "100" in out.reason


def test_inserting_a_sentence_changes_only_what_it_touches(tmp_path):
    home = tmp_path / "store"
    path = write_md(tmp_path / "tnt.md", "TnT: a statistical tagger", TAGGER)
    ingest_paths(Store(home), [path])
    assert compile_store(str(home), progress=False, organise=False)["ok"]
    store = Store(home)
    before = {r["id"]: (r["version"], r["data"]["evidence"]) for r in store.objects("fact")}
    texts_before = {s["locator"]: s["text"] for s in store.paper_sentences("tnt")}

    write_md(path, "TnT: a statistical tagger", ["We first summarise prior taggers."] + TAGGER)
    ingest_paths(store, [path])
    second = compile_store(str(home), progress=False, organise=False)
    assert second["ok"]
    l1 = second["l1_facts"]
    assert l1.get("withdrawn", 0) == 0 and l1.get("revised", 0) == 0
    after = {r["id"]: (r["version"], r["data"]["evidence"]) for r in store.objects("fact")}
    assert all(after[i] == before[i] for i in before)  # every old fact: same id, version, locator
    texts_after = {s["locator"]: s["text"] for s in store.paper_sentences("tnt")}
    assert all(texts_after[loc] == text for loc, text in texts_before.items())  # old locators, same text
    new = set(texts_after) - set(texts_before)
    assert [texts_after[loc] for loc in new] == ["We first summarise prior taggers."]
    assert [s["text"] for s in store.paper_sentences("tnt")][1] == "We first summarise prior taggers."  # reading order kept


def test_old_version_shows_the_evidence_it_was_registered_against(tmp_path, capsys):
    store = Store(tmp_path / "store")
    real = _paper(store)
    edited = TAGGER[:2] + ["TnT achieves 96.7% accuracy on the Penn Treebank WSJ corpus."] + TAGGER[3:]
    register(store, SourceMap(paper_key="A00-1031", title="TnT", sentences=[Sentence(sid=i + 1, text=t) for i, t in enumerate(edited)]))
    register(store, real.model_copy(update={"statement": edited[2]}))
    code, out, _ = cli(capsys, "show", real.id, "--version", "1", "--store", str(store.home), "--json")
    old = json.loads(out)
    assert code == 0 and old["evidence"][0]["text"] == TAGGER[2]
    code, out, _ = cli(capsys, "show", real.id, "--store", str(store.home), "--json")
    assert json.loads(out)["evidence"][0]["text"] == edited[2]
    # A withdrawn version shows the evidence its last version was checked against, not a later paper's.
    register(store, SourceMap(paper_key="A00-1031", title="TnT", sentences=[Sentence(sid=i + 1, text=t) for i, t in enumerate(TAGGER[:2])]))
    assert withdraw(store, [real.id], reason="sentence removed") == 1
    code, out, _ = cli(capsys, "show", real.id, "--version", "3", "--store", str(store.home), "--json")
    gone = json.loads(out)
    assert code == 0 and gone["lifecycle"] == "withdrawn" and gone["evidence"][0]["text"] == edited[2]
