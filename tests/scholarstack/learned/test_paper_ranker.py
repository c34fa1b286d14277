"""The learned paper ranker: features from rankings, training on a slice, the committed weights."""

from __future__ import annotations

import random

from scholarstack.learned.paper_ranker import NAMES, PER_RANKING, WEIGHTS, features, load, train, variant


def sample(rng: random.Random, gold: str) -> dict[str, list[str]]:
    """Rankings where citing sentences find the gold paper first and full text ranks it anywhere in the top 20."""
    papers = [f"P{i}" for i in range(60)]
    bm25 = rng.sample(papers, 40)
    if gold not in bm25[:20]:
        bm25.insert(rng.randrange(20), gold)
    return {"fulltext_bm25": bm25, "dense": rng.sample(papers, 40), "citations": [gold] + rng.sample(papers, 10)}


def test_features_mark_each_rankings_ranks_and_their_agreement():
    cands, X = features({"dense": ["A", "B"], "citations": ["B"]})
    assert cands == ["A", "B"] and X.shape == (2, PER_RANKING * len(NAMES) + 3)
    j, d = NAMES.index("citations") * PER_RANKING, NAMES.index("dense") * PER_RANKING
    # reciprocal rank, log rank, first, top 3, top 10, present
    assert list(X[1, j:j + PER_RANKING]) == [1.0, 1.0, 1.0, 1.0, 1.0, 1.0] and not X[0, j:j + PER_RANKING].any()
    assert X[1, d] == 0.5 and X[1, d + 2] == 0.0 and X[1, d + 3] == 1.0
    assert list(X[:, -3]) == [1 / len(NAMES), 2 / len(NAMES)]  # B: in two rankings' top 10
    assert variant({"dense": []}) == "content" and variant({"citations": []}) == "citations"


def test_training_learns_which_ranking_to_trust(tmp_path):
    rng = random.Random(0)
    golds = [f"P{rng.randrange(60)}" for _ in range(120)]
    ranker, card = train([(sample(rng, g), g) for g in golds], seed=0)
    assert card["requests"] == 120
    test = [(sample(rng, g), g) for g in (f"P{rng.randrange(60)}" for _ in range(30))]
    assert sum(ranker.rank(rk)[0] == g for rk, g in test) >= 27  # citing sentences decide (chance: 1 in 60)
    content_hits = sum(g in ranker.rank({k: v for k, v in rk.items() if k != "citations"})[:20] for rk, g in test)
    assert content_hits >= 20  # without them, the content model ranks by full text (chance: 10)
    back = load.__wrapped__(ranker.save(tmp_path / "r.json"))
    assert back.rank(test[0][0]) == ranker.rank(test[0][0])


def test_committed_weights_load():
    assert WEIGHTS.exists(), "scholarstack/learned/weights/paper_ranker.json is committed"
    ranker = load()
    assert set(ranker.models) == {"content", "citations"} and ranker.card["requests"] > 1000
