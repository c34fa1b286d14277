"""Result facts: values bound to method, metric, dataset and task, standing alone."""

from scholarstack.l1.offline import extract_facts
from scholarstack.l1.results import specific
from scholarstack.models import SourceMap
from scholarstack.models.source import Sentence

TITLE = "CRF-Tagger: Conditional Random Fields for Part-of-Speech Tagging"


def paper(*texts: str) -> SourceMap:
    return SourceMap(paper_key="P", title=TITLE, sentences=[Sentence(sid=0, text=TITLE, section="title")] + [
        Sentence(sid=i, text=t, section="5 Experiments") for i, t in enumerate(texts, 1)])


def test_authors_voice_binds_the_papers_own_method_and_cites_where_its_name_comes_from():
    sm = paper("We present CRF-Tagger, a part-of-speech tagger based on conditional random fields.",
               "CRF-Tagger is trained on the Penn Treebank.",
               "Our tagger reaches 97.2% accuracy on the Penn Treebank test set.")
    results = [f for f in extract_facts(sm) if f.variant.startswith("r")]
    assert len(results) == 1
    fact = results[0]
    q = fact.quantities[0]
    assert (q.value, q.metric, q.text) == (97.2, "accuracy", "97.2%")
    assert q.method == fact.subject and "CRF-Tagger" in fact.subject
    assert "Penn Treebank" in q.dataset and fact.statement.startswith(fact.subject + " reaches 97.2% accuracy")
    assert fact.evidence[0] == "P:3" and len(fact.evidence) == 2  # the sentence, and one naming the method
    assert fact.verification.value in ("passed", "unresolved")


def test_an_improvement_is_a_delta_not_a_level():
    sm = paper("CRF-Tagger improves accuracy by 1.5% over the HMM baseline on the Penn Treebank.")
    [fact] = [f for f in extract_facts(sm) if f.variant.startswith("r")]
    assert fact.quantities[0].delta and "improves accuracy by 1.5%" in fact.statement


def test_a_number_without_a_metric_or_a_nameless_method_is_no_result():
    sm = paper("The corpus has 1.2 million words in 50000 sentences.",
               "The tagger reaches 97.2% accuracy.")  # which tagger? not the authors' (no "we"/"our")
    assert not [f for f in extract_facts(sm) if f.variant.startswith("r")]
    assert specific("Maximum Entropy tagger") and specific("TnT") and not specific("the parser")
