"""The query adapter: trained on (query vector, cited paper) pairs; applied only to its own corpus."""

import numpy as np

from scholarstack.learned import query_adapter


def test_adapter_learns_to_map_queries_to_their_papers(tmp_path):
    rng = np.random.default_rng(0)
    docs = rng.normal(size=(20, 16)).astype(np.float32)
    docs /= np.linalg.norm(docs, axis=1, keepdims=True)
    # Queries are the papers' vectors seen through a fixed rotation: the identity ranks them badly.
    rot, _ = np.linalg.qr(rng.normal(size=(16, 16)))
    targets = np.repeat(np.arange(20), 5)
    queries = (docs[targets] @ rot.T + 0.05 * rng.normal(size=(100, 16))).astype(np.float32)

    def hits(apply):
        return np.mean([int(np.argmax(docs @ apply(q))) == t for q, t in zip(queries, targets)])

    adapter, card = query_adapter.train(queries, targets, docs, steps=300, pull=0.0, batch=100)
    assert hits(adapter.apply) > hits(lambda q: q) + 0.3 and card["pairs"] == 100
    adapter.doc_ids = [f"P{i}" for i in range(20)]
    path = adapter.save(tmp_path / "a.npz")
    loaded = query_adapter.load(path)
    assert loaded.doc_ids == adapter.doc_ids and np.allclose(loaded.W, adapter.W, atol=1e-2)
    query_adapter.load.cache_clear()
