"""register(): each object type, rejection with reasons, identity, versions, recheck, atomicity, concurrency."""

from __future__ import annotations

import multiprocessing as mp

import pytest

from scholarstack.models import (
    Assignment,
    BasisItem,
    Category,
    Dimension,
    Entity,
    Fact,
    Mention,
    Quantity,
    Relation,
    Scope,
    Sentence,
    SourceMap,
    Synthesis,
    Taxonomy,
)
from scholarstack.store import (
    Store,
    StoreBusyError,
    load_object,
    recheck,
    register,
    register_many,
    revise,
    withdraw,
)
from scholarstack.store import registry as registry_module
from tests.conftest import duckdb_only

SENTENCES = [
    "TnT achieves 96.7% accuracy on the Penn Treebank.",
    "We use second order Markov models with linear interpolation smoothing.",
    "The Maximum Entropy tagger reaches 96.6% accuracy on the Penn Treebank.",
]


def paper(key: str = "P1", texts: list[str] = SENTENCES) -> SourceMap:
    return SourceMap(paper_key=key, title=f"Paper {key}", sentences=[Sentence(sid=i + 1, text=t) for i, t in enumerate(texts)])


def fact(sid: int = 1, statement: str | None = None, paper_key: str = "P1", **kw) -> Fact:
    return Fact(statement=statement or SENTENCES[sid - 1], subject=kw.pop("subject", "TnT"), type=kw.pop("type", "finding"),
                evidence=[f"{paper_key}:{sid}"], **kw)


@pytest.fixture
def graph(store):
    """A small linked store: paper → facts → entity, taxonomy → assignment → synthesis, relation."""
    register(store, paper())
    f1 = fact(1, quantities=[Quantity(value=96.7, text="96.7%", unit="%", metric="accuracy", dataset="Penn Treebank")])
    f2 = fact(2, type="method_description")
    f3 = fact(3, subject="Maximum Entropy tagger")
    register_many(store, [f1, f2, f3])
    tnt = Entity(type="method", key="tnt", name="TnT", mentions=[Mention(text="TnT", fact_id=f1.id, paper_id="P1")])
    me = Entity(type="method", key="maximum entropy tagger", name="Maximum Entropy tagger",
                mentions=[Mention(text="Maximum Entropy tagger", fact_id=f3.id, paper_id="P1")])
    ptb = Entity(type="dataset", key="penn treebank", name="Penn Treebank", mentions=[Mention(text="Penn Treebank", fact_id=f1.id, paper_id="P1")])
    tax = Taxonomy(name="t", dimensions=[Dimension(key="family", name="Family", categories=[Category(key="stat", name="Statistical")])])
    register_many(store, [tnt, me, ptb, tax])
    asg = Assignment(entity_id=tnt.id, taxonomy_id=tax.id, category_id=f"{tax.id}/family/stat", supporting_facts=[f2.id])
    rel = Relation(source_id=tnt.id, target_id=ptb.id, type="evaluated_on", payload={"accuracy": "96.7%"}, anchoring_facts=[f1.id])
    register_many(store, [asg, rel])
    syn = Synthesis(account="Statistical taggers such as the Maximum Entropy tagger reach 96.6% accuracy on the Penn Treebank.", scope=Scope(topic="Statistical", studies=["P1"]),
                    basis=[BasisItem(object_id=asg.id, role="supporting"), BasisItem(object_id=f3.id, role="limiting")])
    register(store, syn)
    return dict(f1=f1, f2=f2, f3=f3, tnt=tnt, me=me, ptb=ptb, tax=tax, asg=asg, rel=rel, syn=syn)


def test_each_object_type_registers_and_reads_back(store, graph):
    for obj in graph.values():
        row = store.get_row(obj.id)
        assert row is not None and row["version"] == 1 and row["lifecycle"] == "current"
        back = load_object(row)
        assert back.content_hash() == obj.content_hash()
    assert store.get_row("P1")["kind"] == "paper"
    assert len(store.paper_sentences("P1")) == 3
    st = store.status()
    assert st["layers"]["L1"]["fact"]["total"] == 3
    assert st["layers"]["L3"]["synthesis"]["total"] == 1


def test_unknown_locator_is_rejected_with_reason_stored(store):
    register(store, paper())
    out = register(store, fact(9, statement="A sentence that is not in the paper."))
    assert out.status == "rejected"
    assert "P1:9" in out.reason and "do not resolve" in out.reason
    rows = store.rejections()
    assert rows[0]["kind"] == "fact" and "P1:9" in rows[0]["reason"]
    assert store.status()["layers"] == {"source": store.status()["layers"]["source"]}


def test_citation_of_unknown_object_is_rejected(store, graph):
    bad = Assignment(entity_id="ent_missing", taxonomy_id=graph["tax"].id, category_id="x/y/z", supporting_facts=[graph["f1"].id])
    out = register(store, bad)
    assert out.status == "rejected" and "ent_missing" in out.reason
    assert any("ent_missing" in r["reason"] for r in store.rejections())


def test_schema_invalid_candidate_is_rejected_not_dropped(store):
    report = register_many(store, [{"kind": "fact", "statement": "x"}, {"kind": "nonsense"}])
    assert report.count("rejected") == 2
    reasons = [r["reason"] for r in store.rejections()]
    assert any(r.startswith("schema:") for r in reasons) and any("kind" in r for r in reasons)


def test_identity_reuse_creates_no_new_version(store, graph):
    out = register(store, graph["f1"])
    assert out.status == "reused" and out.version == 1
    assert len(store.history(graph["f1"].id)) == 1


def test_revision_creates_version_and_keeps_old_readable(store, graph):
    old = graph["f1"]
    new = old.model_copy(update={"statement": "TnT achieves 96.7% accuracy on the Penn Treebank (WSJ)."})
    assert new.id == old.id
    out = revise(store, [new]).outcomes[0]
    assert out.status == "revised" and out.version == 2
    assert store.get_row(old.id)["data"]["statement"].endswith("(WSJ).")
    v1 = store.get_row(old.id, version=1)
    assert v1["data"]["statement"] == old.statement and v1["lifecycle"] == "superseded"
    assert [h["version"] for h in store.history(old.id)] == [1, 2]


def test_revision_marks_dependents_transitively(store, graph):
    # f2 supports the assignment, which the synthesis cites: both must be marked, with the cause.
    revised = graph["f2"].model_copy(update={"statement": "We use second order Markov models."})
    report = revise(store, [revised])
    assert report.marked_for_recheck == 2
    asg, syn = store.get_row(graph["asg"].id), store.get_row(graph["syn"].id)
    assert asg["lifecycle"] == syn["lifecycle"] == "needs_recheck"
    assert graph["f2"].id in asg["recheck_cause"] and graph["f2"].id in syn["recheck_cause"]
    # Untouched objects keep their standing.
    assert store.get_row(graph["rel"].id)["lifecycle"] == "current"


def test_recheck_clears_and_records_result(store, graph):
    revise(store, [graph["f2"].model_copy(update={"statement": "We use second order Markov models."})])
    results = recheck(store)
    assert {r["id"] for r in results} == {graph["asg"].id, graph["syn"].id}
    assert store.status()["needs_recheck"] == 0
    syn = store.get_row(graph["syn"].id)
    assert syn["verification"] == "unverified"  # a synthesis never inherits verification
    assert any(e["event"] == "rechecked" for e in store.events_for(graph["asg"].id))


def test_reregistering_marked_objects_unchanged_clears_them_together(store, graph):
    # A rebuild after a revision produces its marked objects again unchanged: one statement clears them all.
    revise(store, [graph["f2"].model_copy(update={"statement": "We use second order Markov models."})])
    report = register_many(store, [graph["asg"], graph["syn"]])
    assert sorted(o.status for o in report.outcomes) == ["reused", "reused"]
    for key in ("asg", "syn"):
        row = store.get_row(graph[key].id)
        assert row["lifecycle"] == "current" and row["recheck_cause"] is None
        assert any(e["event"] == "reverified" for e in store.events_for(graph[key].id))
    assert store.status()["needs_recheck"] == 0
    assert store.get_row(graph["rel"].id)["lifecycle"] == "current"  # what was not marked is untouched


def test_withdrawal_propagates_and_recheck_fails_dangling(store, graph):
    assert withdraw(store, [graph["f3"].id], reason="retracted") == 1
    assert store.get_row(graph["f3"].id)["lifecycle"] == "withdrawn"
    assert store.get_row(graph["me"].id)["lifecycle"] == "needs_recheck"
    results = {r["id"]: r for r in recheck(store)}
    assert results[graph["syn"].id]["verification"] == "failed"
    assert "no longer resolve" in results[graph["syn"].id]["note"]
    # New citations of a withdrawn object are rejected.
    out = register(store, Relation(source_id=graph["tnt"].id, target_id=graph["me"].id, type="compared_with", anchoring_facts=[graph["f3"].id]))
    assert out.status == "rejected" and "withdrawn" in out.reason


def test_task_derived_objects_are_marked(store, graph):
    alias = graph["tnt"].model_copy(update={"aliases": ["Trigrams'n'Tags"]})
    report = register_many(store, [alias], task="qa")
    row = store.get_row(graph["tnt"].id)
    assert report.outcomes[0].status == "revised" and row["task"] == "qa"
    assert row["data"]["provenance"]["task"] == "qa"


def test_batch_is_atomic_under_injected_failure(store, graph, monkeypatch):
    before = store.status()
    versions_before = store.query("SELECT count(*) FROM object_versions")[0][0]

    def boom(*args, **kwargs):
        raise RuntimeError("injected failure after the writes")

    monkeypatch.setattr(registry_module, "_propagate", boom)
    revised = graph["f1"].model_copy(update={"statement": "TnT achieves 96.7% accuracy (revised)."})
    with pytest.raises(RuntimeError, match="injected"):
        register_many(store, [revised, fact(2, statement="A new statement about Markov models.", type="hypothesis")])
    assert store.status() == before
    assert store.query("SELECT count(*) FROM object_versions")[0][0] == versions_before
    assert store.get_row(graph["f1"].id)["version"] == 1


def _writer(home: str, start: int, n: int, q) -> None:
    s = Store(home, lock_timeout=60)
    types = ["finding", "method_description", "limitation", "hypothesis"]
    facts = [Fact(statement=f"Statement number {i} about TnT.", subject="TnT", type=types[i % 4], evidence=["P1:1"])
             for i in range(start, start + n)]
    total = 0
    for i in range(0, n, 10):
        total += len(revise(s, facts[i:i + 10]).outcomes)  # explicit revisions: one version per id per batch
    q.put(total)


def test_two_concurrent_writers_serialize(backend, tmp_path):
    """Two processes revise the same four facts at once: on DuckDB they queue for the file lock, on
    PostgreSQL their SERIALIZABLE transactions conflict and the loser runs again. Either way nothing
    is lost or duplicated and every id's versions are contiguous."""
    home = str(tmp_path / "store")
    s = Store(home)  # on "postgres" the spawned writers find the database through the directory
    register(s, SourceMap(paper_key="P1", title="T", sentences=[Sentence(sid=1, text=SENTENCES[0])]))
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    procs = [ctx.Process(target=_writer, args=(home, k * 1000, 40, q)) for k in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert all(p.exitcode == 0 for p in procs)
    assert q.get() + q.get() == 80
    # Facts share an anchor sentence, so identities collide by (paper, anchor, type): 4 ids, and each
    # batch of 10 (all four types) adds one version of each: 8 batches → 8 contiguous versions per id.
    rows = s.query("SELECT id, count(*), max(version) FROM object_versions WHERE kind = 'fact' GROUP BY id")
    assert sorted((n, v) for _, n, v in rows) == [(8, 8)] * 4
    assert s.query("SELECT count(DISTINCT id) FROM objects WHERE kind = 'fact'")[0][0] == 4
    assert s.query("SELECT count(*) FROM objects WHERE kind = 'fact'")[0][0] == 4
    seqs = [r[0] for r in s.query("SELECT seq FROM events")]
    assert len(seqs) == len(set(seqs)) and s.query("SELECT count(*) FROM events WHERE event = 'revised'")[0][0] == 4 * 7


@duckdb_only
def test_busy_store_gives_clear_error(tmp_path):  # DuckDB's file lock (PostgreSQL has none to wait for)
    home = tmp_path / "store"
    a, b = Store(home), Store(home, lock_timeout=0.2)
    with a.exclusive():
        with pytest.raises(StoreBusyError, match="locked by another process"):
            b.status()
