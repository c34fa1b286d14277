"""The deep-search relevance judge: features, the shipped weights as a re-ranker, training."""

from __future__ import annotations

import json

import numpy as np

from scholarstack.scholarly.providers import PaperMeta
from scholarstack.search.rerank import make_reranker
from tests.conftest import need_shared


def test_the_learned_relevance_judge_prefers_what_the_query_is_about():
    from scholarstack.search.judge import FEATURES, JudgeReranker, features, load
    from scholarstack.search.pipeline import Candidate
    from scholarstack.search.rerank import default_reranker

    assert load() is not None and load().card["queries"] > 100  # the shipped judge, trained by `make models`
    query = ("Unsupervised part-of-speech tagging. We induce a tagger from raw text with a hidden Markov model. "
             "Tagging accuracy on the Penn Treebank improves over earlier unsupervised taggers.")
    papers = [PaperMeta(provider="local", id="pos", title="TnT: a statistical part-of-speech tagger", references=["hmm"],
                        abstract="Trigrams'n'Tags is an efficient statistical part-of-speech tagger. It uses a second order Markov model "
                                 "and reaches 96.7% accuracy on the Penn Treebank."),
              PaperMeta(provider="local", id="fold", title="Protein structure prediction with deep networks",
                        abstract="We predict the three-dimensional structure of proteins from their amino acid sequence. "
                                 "The method folds proteins with atomic accuracy."),
              PaperMeta(provider="local", id="hmm", title="A tutorial on hidden Markov models",
                        abstract="Hidden Markov models are introduced with their three basic problems and their solutions.")]
    cands = [Candidate(id=m.id, paper=m, depth=d, found_by="test") for m, d in zip(papers, (0, 0, 1))]
    judge = make_reranker("relevance")
    assert isinstance(judge, JudgeReranker)
    X = features(query, cands, judge.embedder, judge.verifier)
    assert X.shape == (3, len(FEATURES)) and X[2, FEATURES.index("cited_by_collection")] > 0 == X[1, FEATURES.index("cited_by_collection")]
    scores = judge.score(query, cands)
    assert set(scores) == {"pos", "fold", "hmm"} and all(0 <= v <= 1 for v in scores.values())
    assert scores["pos"] > scores["fold"]
    assert default_reranker(None) == "relevance" and default_reranker(object()) == "debate"


def test_the_judge_trains_on_a_few_query_papers(tmp_path):
    need_shared("acl_scisummnet", "citances_dev.jsonl")
    from scholarstack.index.embed import TfidfSvdEmbedder
    from scholarstack.search.judge import SearchJudge, train_from_shared

    emb = TfidfSvdEmbedder(dim=32)
    emb.fit(["part-of-speech tagging with hidden Markov models", "statistical machine translation of phrases",
             "dependency parsing with beam search", "speech recognition in noise", "semantic role labelling of verbs",
             "word sense disambiguation with dictionaries", "coreference resolution of pronouns", "named entity recognition"] * 5)
    card = train_from_shared(emb, out=tmp_path / "judge.json", limit=6)  # no verifier reads TF-IDF vectors: rationale is 0
    assert card["queries"] >= 5 and card["positives"] > 0 and card["rows"] > 100
    assert (tmp_path / "judge.json").stat().st_size < 10_000 and card["cross_fitted_recall@10"] is not None
    assert 0 <= SearchJudge(json.loads((tmp_path / "judge.json").read_text())).scores(np.zeros((1, 12), dtype=np.float32))[0] <= 1
