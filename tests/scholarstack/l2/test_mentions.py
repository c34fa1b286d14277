"""Mentions: known names from the rule lists merged into the learned tagger's spans."""

from scholarstack.l2.mentions import LOWER_IS_BETTER, with_known_names


def test_a_known_dataset_wins_over_a_learned_span_no_longer_than_it_but_not_over_a_longer_one():
    text = "BNC reaches 92.15% accuracy on the Penn Treebank with the Penn Treebank tagger suite."
    found = [(0, 3, "Method", "BNC"), (35, 39, "Material", "Penn"), (58, 85, "Method", text[58:85])]
    merged = with_known_names(text, found)
    assert (0, 3, "Material", "BNC") in merged  # same length: the list knows BNC is a corpus
    assert (35, 48, "Material", "Penn Treebank") in merged  # longer than the tagger's "Penn"
    assert (58, 85, "Method", text[58:85]) in merged and not any(a == 58 and t == "Material" for a, _, t, _ in merged)
    assert any(t == "Metric" and s == "accuracy" for _, _, t, s in merged)


def test_which_measures_are_better_lower():
    # one list for L1's wording, ideas' best result and the design task's table of best results
    for metric in ("word error rate", "AER", "perplexity", "runtime", "training time", "RMSE", "mean rank"):
        assert LOWER_IS_BETTER.search(metric), metric
    for metric in ("accuracy", "BLEU", "F1", "mean reciprocal rank", "precision"):
        assert not LOWER_IS_BETTER.search(metric), metric
