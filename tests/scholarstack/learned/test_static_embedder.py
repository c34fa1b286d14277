"""The static embedder: trained on a tiny SciREX slice, and the committed table on real sentences."""

import numpy as np
import pytest

from scholarstack.index.embed import StaticEmbedder, make_embedder
from scholarstack.index.sync import collection_for, sync_index
from scholarstack.index.vectors import EdgeIndex
from scholarstack.learned import static_embedder
from scholarstack.store import register_many
from scholarstack.views.views import open_kb, retrieve
from tests.conftest import need_shared
from tests.scholarstack.store.test_registry import fact, paper


def test_training_on_a_slice_moves_the_table_towards_minilm(tmp_path):
    data = need_shared("scirex", "train_docs.jsonl.gz").parents[1]
    out = tmp_path / "static.npz"
    card = static_embedder.train_from_shared(data, out=out, limit=4, epochs=3, log=lambda *_: None)
    assert card["train_sentences"] > 100 and card["dev_sentences"] > 0 and card["dim"] == 384
    assert card["dev_cosine_to_minilm"] > card["dev_cosine_to_minilm_distilled"]  # learning helped on held-out sentences
    model = static_embedder.load(out)
    assert model.card["seed"] == 0 and model.table.dtype == np.float32
    static_embedder.load.cache_clear()


def test_the_committed_table_embeds_like_minilm():
    emb = make_embedder("static")
    v = emb.encode(["A part-of-speech tagger.", "A tagger for parts of speech.", "Protein folding in yeast cells.", ""])
    assert v.shape == (4, 384) and np.allclose(np.linalg.norm(v[:3], axis=1), 1, atol=1e-5)
    assert not v[3].any()  # no word piece: the zero vector, not an error
    assert float(v[0] @ v[1]) > float(v[0] @ v[2]) + 0.2


def test_an_index_built_with_the_static_table_is_what_its_views_search(store):
    register_many(store, [paper()])
    accuracy, _ = register_many(store, [
        fact(1, statement="TnT achieves 96.7% accuracy on the Penn Treebank (WSJ)."),
        fact(2, type="method_description", statement="The tagger smooths trigram probabilities by linear interpolation.")]).accepted_ids
    ix, emb = EdgeIndex(store.home / "qdrant"), StaticEmbedder()
    assert collection_for(emb) == "objects_static"
    assert sync_index(store, ix, emb)["indexed"] == 3 + 2
    hits = ix.search(collection_for(emb), emb.encode(["Penn Treebank tagging accuracy"])[0], 1, where={"kind": "fact"})
    assert [h[0] for h in hits] == [accuracy]
    kb = open_kb(store, "static")  # a reader with the same setting searches that collection
    assert isinstance(kb.embedder, StaticEmbedder) and kb.index is not None
    assert retrieve(kb, "Penn Treebank tagging accuracy", layers=("fact",), k=1).items[0].id == accuracy
    assert open_kb(store, "minilm").index is None  # no MiniLM collection: lexical only, not the other encoder's vectors


def test_missing_weights_are_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="static embedder's weights are missing"):
        static_embedder.load(tmp_path / "absent.npz")
