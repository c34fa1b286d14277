"""L1's verb lexicon: counted from a SciREX slice, and the committed list."""

from scholarstack.learned import verb_forms
from tests.conftest import need_shared


def test_counting_keeps_verbs_and_leaves_plural_nouns_and_words_with_no_base_form():
    docs = [("It captures long dependencies . The model captures context . Which captures more ? We capture it . "
             "The results improve . It results in gains . Which results in more . The results are good . Several results hold . "
             "It always works . They always agree .").split()]
    found = verb_forms.count(docs)
    assert "captures" in found["forms"]  # after a subject word three times, "to/we capture" seen
    assert "results" not in found["forms"] and "results" in found["rejected_as_nouns"]  # after "the"/"several" more often
    assert "always" not in found["forms"]  # no "we alway": not a verb


def test_training_on_a_slice_writes_the_lexicon_with_its_card(tmp_path):
    data = need_shared("scirex", "train_docs.jsonl.gz").parents[1]
    out = tmp_path / "verb_forms.json"
    card = verb_forms.train_from_shared(data, out=out, limit=5)
    assert card["papers"] == 5 and card["words"] > 10_000 and 0 < card["forms"] < card["candidates"]
    forms = verb_forms.load(out)
    assert "achieves" in forms and len(forms) == card["forms"]
    verb_forms.load.cache_clear()


def test_the_committed_lexicon_has_the_verbs_the_rules_miss_and_no_common_plural():
    forms = verb_forms.load()
    assert {"proceeds", "captures", "relies", "differs", "comprises"} <= forms
    assert not {"results", "models", "parameters", "weights", "scores"} & forms
