"""Vector index: embedded Qdrant Edge and the Qdrant client behave alike; a shard another process holds
is waited for, then named; sync re-embeds only changes."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from scholarstack.index.embed import MiniLMEmbedder, TfidfSvdEmbedder
from scholarstack.index.sync import collection_for, sync_index
from scholarstack.index import vectors
from scholarstack.index.vectors import EdgeIndex, QdrantIndex
from scholarstack.store import register_many
from tests.scholarstack.store.test_registry import fact, paper


def _vecs(n: int, seed: int = 0) -> np.ndarray:
    x = np.random.default_rng(seed).normal(size=(n, 16)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


@pytest.mark.parametrize("make", [lambda p: EdgeIndex(p), lambda p: QdrantIndex(location=":memory:")], ids=["edge", "qdrant"])
def test_index_contract(tmp_path, make):
    ix = make(tmp_path / "v")
    x = _vecs(50)
    ix.upsert("c", [f"o{i}" for i in range(50)], x, [{"kind": "fact" if i % 2 else "sentence", "paper_id": f"P{i % 5}", "hash": "h"} for i in range(50)])
    hits = ix.search("c", x[7], 3)
    assert hits[0][0] == "o7" and hits[0][1] == pytest.approx(1.0, abs=1e-5)
    only = ix.search("c", x[7], 5, where={"kind": "sentence"})
    assert only and all(p["kind"] == "sentence" for _, _, p in only) and "o7" not in [h[0] for h in only]
    several = ix.search("c", x[7], 50, where={"paper_id": ["P1", "P2"]})
    assert {p["paper_id"] for _, _, p in several} == {"P1", "P2"}
    ix.upsert("c", ["o7"], _vecs(1, seed=9), [{"kind": "fact", "paper_id": "P2", "hash": "h2"}])  # a revision
    assert ix.search("c", x[7], 1)[0][0] != "o7" and ix.ids("c")["o7"] == "h2"
    ix.delete("c", ["o8"])
    assert "o8" not in ix.ids("c") and len(ix.ids("c")) == 49
    assert ix.has("c") and not ix.has("nothing") and ix.search("nothing", x[0], 3) == [] and ix.ids("nothing") == {}


@pytest.mark.parametrize("make", [lambda p: EdgeIndex(p), lambda p: QdrantIndex(location=":memory:")], ids=["edge", "qdrant"])
def test_ids_of_a_bucket_range_are_that_range_alone(tmp_path, make):
    """A shard reads its range by the bucket field; a point from before the field (none in its
    payload) makes the read fall back to every point, filtered here, so nothing is missed."""
    ix = make(tmp_path / "v")
    oids = [f"o{i}" for i in range(40)]
    ix.upsert("c", oids, _vecs(40), [{"hash": "h", vectors.BUCKET: vectors.bucket(o)} for o in oids])
    half = (0, vectors.BUCKETS // 2)
    low = {o for o in oids if vectors.bucket(o) < half[1]}
    assert 0 < len(low) < 40 and set(ix.ids("c", half)) == low and len(ix.ids("c")) == 40
    ix.upsert("c", ["old"], _vecs(1, seed=3), [{"hash": "h"}])  # indexed before buckets
    expected = low | ({"old"} if vectors.bucket("old") < half[1] else set())
    assert set(ix.ids("c", half)) == expected and set(ix.ids("c", (half[1], vectors.BUCKETS))) == set(oids) - low | {"old"} - expected


PROBE = ("import sys; from scholarstack.index import vectors; vectors.WAIT_SECONDS = float(sys.argv[2]); "
         "print(len(vectors.EdgeIndex(sys.argv[1]).ids('c')))")


def test_edge_shard_is_released_when_idle_and_waited_for_by_another_process(tmp_path, monkeypatch):
    ix = EdgeIndex(tmp_path)
    ix.upsert("c", [f"o{i}" for i in range(20)], _vecs(20), [{"hash": "1"} for _ in range(20)])
    vectors.SHARDS.close_idle(idle=0)  # as the reaper does after IDLE_SECONDS unused
    freed = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path), "30"], capture_output=True, text=True, timeout=120)
    assert freed.returncode == 0 and freed.stdout.strip() == "20"  # another process reads it once this one let go
    monkeypatch.setattr(vectors, "IDLE_SECONDS", 600.0)
    assert ix.search("c", _vecs(20)[3], 1)[0][0] == "o3"  # this one opens it again, and holds it now
    held = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path), "1"], capture_output=True, text=True, timeout=120)
    assert held.returncode != 0 and "held by another process" in held.stderr and str(tmp_path / "c") in held.stderr
    vectors.SHARDS.close_idle(idle=0)


def test_sync_embeds_only_what_changed(store, monkeypatch):
    register_many(store, [paper()])
    register_many(store, [fact(1), fact(2, type="method_description")])
    ix, emb = EdgeIndex(store.home / "qdrant"), TfidfSvdEmbedder(store.home / "vectors" / "tfidf.pkl", dim=8)
    first = sync_index(store, ix, emb)
    assert first["indexed"] == first["total"] == 3 + 2  # three sentences, two facts
    with monkeypatch.context() as m:  # nothing changed: the keys are read in SQL, and no object is parsed or embedded
        for name in ("get_rows", "objects", "current_sentences"):
            m.setattr(type(store), name, lambda *a, **k: pytest.fail("a sync with nothing to embed read the objects"))
        assert sync_index(store, ix, emb)["indexed"] == 0
    register_many(store, [fact(1, statement="TnT achieves 96.7% accuracy on the Penn Treebank (WSJ).")])
    third = sync_index(store, ix, emb)
    assert third["indexed"] == 1 and third["deleted"] == 0
    hits = ix.search(collection_for(emb), emb.encode(["Penn Treebank WSJ accuracy"])[0], 1, where={"kind": "fact"})
    assert hits and hits[0][2]["paper_id"] == "P1"


def test_loading_minilm_prints_no_progress_bar():
    code = "from scholarstack.index.embed import MiniLMEmbedder; print(MiniLMEmbedder().encode(['a tagger']).shape)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env={"HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0 and "(1, 384)" in out.stdout and "Loading weights" not in out.stderr and "\r" not in out.stderr


def test_minilm_embeddings_from_the_packaged_model():
    emb = MiniLMEmbedder()
    v = emb.encode(["A part-of-speech tagger.", "A tagger for parts of speech.", "Protein folding in yeast cells."])
    assert v.shape == (3, 384)
    assert float(v[0] @ v[1]) > float(v[0] @ v[2]) + 0.2


def test_sync_embeds_the_front_matter_unless_told_all(store):
    words = "taggers parsers treebanks lexicons grammars corpora alignments lattices chunkers stemmers".split()
    register_many(store, [paper(texts=[f"Sentence {i} is about {w} and {words[i - 2]}." for i, w in enumerate(words, 1)])])
    ix, emb = EdgeIndex(store.home / "qdrant"), TfidfSvdEmbedder(store.home / "vectors" / "tfidf.pkl", dim=8)

    def sentences() -> set[int]:
        return {int(oid.rsplit(":", 1)[1]) for oid in ix.ids(collection_for(emb)) if oid.startswith("P1:")}

    assert sync_index(store, ix, emb)["sentences"] == "front" and sentences() == set(range(1, 7))  # no sections: those up to sid 6
    assert sync_index(store, ix, emb, sentences="all")["indexed"] == 4 and sentences() == set(range(1, 11))
    back = sync_index(store, ix, emb, sentences="front")
    assert back["deleted"] == 4 and back["indexed"] == 0 and sentences() == set(range(1, 7))


def eight_sentences_and_three_facts(store) -> list:
    """A paper of eight sentences (six of them front matter) and three facts on it: nine documents to shard."""
    words = "taggers parsers treebanks lexicons grammars corpora alignments lattices".split()
    register_many(store, [paper(texts=[f"Sentence {i} is about {w}." for i, w in enumerate(words, 1)])])
    facts = [fact(1), fact(2, type="method_description"), fact(3, subject="Maximum Entropy tagger")]
    register_many(store, facts)
    return facts


def test_shards_build_the_index_one_sync_builds(store):
    """Shards split the documents by id: together they hold what one sync holds, and a withdrawn
    document is deleted by the shard that embedded it, never by another."""
    from scholarstack.index.sync import shard_buckets
    from scholarstack.index.vectors import bucket
    from scholarstack.store import withdraw

    facts = eight_sentences_and_three_facts(store)
    emb = MiniLMEmbedder()
    one, many = EdgeIndex(store.home / "one"), EdgeIndex(store.home / "many")
    whole = sync_index(store, one, emb)
    parts = [sync_index(store, many, emb, shard=i, shards=3) for i in range(3)]
    assert sum(p["total"] for p in parts) == whole["total"] == 6 + 3 and sum(p["indexed"] for p in parts) == whole["total"]
    assert sum(1 for p in parts if 0 < p["indexed"] < whole["total"]) >= 2  # the work is split (9 ids fall 0/4/5 here)
    coll = collection_for(emb)
    assert many.ids(coll) == one.ids(coll)
    gone = facts[1].id
    owner = next(i for i in range(3) if shard_buckets(i, 3)[0] <= bucket(gone) < shard_buckets(i, 3)[1])
    withdraw(store, [gone], reason="test")
    assert [sync_index(store, many, emb, shard=i, shards=3)["deleted"] for i in range(3) if i != owner] == [0, 0]
    assert gone in many.ids(coll)
    assert sync_index(store, many, emb, shard=owner, shards=3)["deleted"] == 1 and gone not in many.ids(coll)
    with pytest.raises(ValueError, match="a shard is 0 to 2"):
        sync_index(store, many, emb, shard=3, shards=3)
    with pytest.raises(ValueError, match="fitted on the whole collection"):
        sync_index(store, many, TfidfSvdEmbedder(store.home / "vectors" / "tfidf.pkl", dim=8), shard=0, shards=2)
    vectors.SHARDS.close_idle(idle=0)
