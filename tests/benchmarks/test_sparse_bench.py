"""The sparse benchmark's Qdrant side: Edge's BM25 with the IDF modifier finds the document that
shares the query's rare words, and Qdrant's RRF over the sparse and dense legs keeps both legs' best."""

import numpy as np

from benchmarks.sparse_bench import _qdrant_shard, _search


def test_qdrant_bm25_and_fusion(tmp_path):
    texts = ["hidden markov models for part of speech tagging", "statistical machine translation with phrases",
             "a maximum entropy parser trained on the penn treebank", "tagging unknown words with suffix features"]
    vectors = np.eye(4, 8, dtype=np.float32)
    shard, bm25 = _qdrant_shard(tmp_path / "s", texts, vectors, avg_len=6.0)
    assert _search(shard, bm25, "phrase-based translation", 4)[0] == 1  # stemmed: "phrases" matches "phrase"
    assert _search(shard, bm25, "the of and", 4) == []  # stopwords only: nothing to match
    fused = _search(shard, bm25, "penn treebank parser", 4, qvec=vectors[3])
    assert set(fused[:2]) == {2, 3}  # the sparse leg's best (2) and the dense leg's best (3)
