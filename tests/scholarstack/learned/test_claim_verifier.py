"""The learned claim verifier: training on a slice, the development split, the committed weights."""

from __future__ import annotations

import pytest

from scholarstack.index.embed import TfidfSvdEmbedder
from scholarstack.learned.claim_verifier import LABELS, WEIGHTS, ClaimVerifier, default_verifier, is_dev_claim, load_examples, train
from tests.conftest import need_shared


def test_development_split_is_a_fixed_fifth_by_claim():
    dev = [i for i in range(2000) if is_dev_claim(i)]
    assert 300 < len(dev) < 500 and dev == [i for i in range(2000) if is_dev_claim(i)]


def test_training_on_a_slice_gives_a_usable_model(tmp_path):
    claims = need_shared("scifact", "claims_train.jsonl")
    examples = load_examples(claims, claims.parent / "corpus.jsonl.gz", limit=60)
    assert examples and {e.label for e in examples} <= set(LABELS)
    embedder = TfidfSvdEmbedder(dim=32)
    embedder.fit([e.claim for e in examples] + [s for e in examples for s in e.sentences])
    model, card = train(examples, embedder, seed=0, folds=3)
    assert card["train_pairs"] + card["dev_pairs"] == len(examples) and card["dev_pairs"] > 0
    assert 0.0 <= card["dev_macro_f1"] <= 1.0
    back = ClaimVerifier.load(model.save(tmp_path / "w.json"))
    ex = examples[0]
    a, b = model.predict(ex.claim, ex.sentences, embedder), back.predict(ex.claim, ex.sentences, embedder)
    assert a.label == b.label in LABELS and a.rationale == b.rationale
    assert all(0 <= i < len(ex.sentences) for i in a.rationale)
    assert model.predict(ex.claim, [], embedder).label == "NOT ENOUGH INFO"


def test_committed_weights_are_small_and_carry_their_card():
    model = default_verifier()
    if model is None:
        pytest.fail(f"{WEIGHTS} is missing: run `make models`")
    assert WEIGHTS.stat().st_size < 200_000
    card = model.card
    assert card["embedder"] == "minilm" and card["dev_pairs"] > 100 and card["dev_macro_f1"] >= 0.5


def test_number_and_comparative_cues_flag_what_vectors_miss():
    from scholarstack.learned.claim_verifier import N_CUES, cues

    same = cues("TnT reaches 96.7% accuracy.", "TnT reaches 96.7% accuracy on the WSJ.", 0.9)
    other = cues("TnT reaches 99.5% accuracy.", "TnT reaches 96.7% accuracy on the WSJ.", 0.9)
    assert len(same) == N_CUES
    assert same[9:12] == [1.0, 0.0, 0.0] and other[9:12] == [0.0, 1.0, 0.0]  # numbers: match, mismatch, missing
    assert cues("The parser is faster than CKY.", "The parser is slower than CKY.", 0.9)[12] == 1.0
    assert cues("The parser is faster than CKY.", "The parser is faster than CKY.", 0.9)[12] == 0.0


def test_stance_cues_read_reversed_directions_swapped_words_and_ratios():
    from scholarstack.learned.claim_verifier import N_STANCE, stance_cues

    claim = "Antiretroviral therapy increases rates of tuberculosis."
    agree = stance_cues(claim, "Antiretroviral therapy increased the incidence of tuberculosis.")
    against = stance_cues(claim, "Therapy is associated with a reduction in the incidence of tuberculosis.")
    assert len(agree) == N_STANCE and agree[0] == 1.0 and against[0] == -1.0
    # a negation flips a direction: "did not reduce" reads as up, against the claim's "reduces"
    assert stance_cues("Drug X reduces mortality.", "Drug X did not reduce mortality.")[0] == -1.0
    # a claim word whose opposite the sentence writes instead
    assert stance_cues("TG2-specific plasma cells are scarce in active disease.",
                       "TG2-specific plasma cells are markedly expanded in active disease.")[1] == 1.0
    assert stance_cues("Plasma cells are scarce.", "Plasma cells are scarce, not expanded.")[1] == 0.0
    assert stance_cues("Side effects do not raise mortality.", "Mortality rose.")[2] == 1.0
    # "increases the risk" against a hazard ratio below 1; "risk" alone gives no direction
    assert stance_cues("Statins increase the risk of stroke.", "Statin use: hazard ratio 0.75 (0.69 to 0.81).")[3] == -1.0
    assert stance_cues("Statins increase the risk of stroke.", "Statin use: HR 1.62 (1.53 to 1.71).")[3] == 1.0
    assert stance_cues("The risk of stroke was studied.", "HR 0.75.")[3] == 0.0


def test_rationale_and_contradiction_models_read_their_own_columns():
    import numpy as np

    from scholarstack.learned.claim_verifier import N_CUES, N_STANCE, contradiction_columns, pair_features, rationale_columns

    u = np.ones(4, dtype=np.float32) / 2
    feats = pair_features(u, u, "X increases Y.", "X reduces Y.")[None, :]
    assert feats.shape[1] == 2 * 4 + N_CUES + N_STANCE
    assert rationale_columns(feats).shape[1] == 2 * 4 + N_CUES  # the stance cues do not move relevance
    assert contradiction_columns(feats).shape[1] == N_CUES + N_STANCE  # stance from cues, not vectors
    assert contradiction_columns(feats)[0, N_CUES] == -1.0
