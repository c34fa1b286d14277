"""The evidence localiser: features per candidate sentence, training on real topics, ranking."""

import numpy as np

from scholarstack.learned.localiser import N_FEATURES, Candidate, PaperCandidates, load_topics, train
from tests.conftest import need_shared


def test_features_see_match_neighbours_and_facts():
    paper = PaperCandidates([Candidate(1, "We describe a tagger."), Candidate(2, "Suffix tries handle unknown words.", fact=True),
                             Candidate(3, "Results are in Table 2.", kind="caption")])
    X = paper.features("unknown words are handled with suffix tries [CITATION]")
    assert X.shape == (3, N_FEATURES)
    assert X[1, 0] == 1.0 and X[0, 0] == 0.0  # the best lexical match, normalised
    assert X[0, 4] == 1.0 and X[2, 4] == 1.0  # its neighbours see it
    assert X[1, 10] == 1.0 and X[2, 13] == 1.0 and X[1, 12] == 1.0  # the fact flag; the caption and prose kinds


def test_citation_markers_and_cited_authors_do_not_count_as_matches():
    # "Brants" and "2000" are words of the citing paper, not of the cited one: a sentence matching only
    # them must not outrank the sentence that states what is cited.
    paper = PaperCandidates([Candidate(1, "Brants reported this in 2000 ."), Candidate(2, "Suffix tries handle unknown words .")])
    X = paper.features("Brants (2000) handles unknown words with suffix tries")
    assert X[1, 0] == 1.0 and X[0, 0] == 0.0
    assert np.array_equal(X, paper.features("Brants et al., 2000 handles unknown words with suffix tries [4]"))


def test_trains_on_real_topics_and_ranks_gold_above_chance():
    root = need_shared("clscisumm2018")
    maps, examples = load_topics(root, limit=6)
    from scholarstack.learned.localiser import candidates_from_source_map

    papers = {t: PaperCandidates(candidates_from_source_map(sm)) for t, sm in maps.items()}
    model, card = train(papers, examples, folds=3, ks=(1, 3))
    assert card["topics"] == len(maps) and card["k"] in (1, 3) and len(model.weights["coef"]) == N_FEATURES
    hits = [bool(set(model.rank(papers[t], c, 5)) & gold) for t, c, gold in examples]
    n_cands = np.mean([len(papers[t].cands) for t, _, _ in examples])
    assert np.mean(hits) > 3 * 5 / n_cands  # far above picking 5 sentences at random
