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


def test_a_value_in_a_parallel_clause_shares_the_metric_and_names_the_authors_method():
    # A00-1031:152 (TnT): the second value's metric is elided, and "our ... HMM approach" is TnT.
    title = "TnT - A Statistical Part-Of-Speech Tagger"
    sm = SourceMap(paper_key="A", title=title, sentences=[
        Sentence(sid=0, text=title, section="title"),
        Sentence(sid=1, section="5 Evaluation", text="For the Penn Treebank, (Ratnaparkhi, 1996) reports an accuracy of "
                 "96.6% using the Maximum Entropy approach, our much simpler and therefore faster HMM approach delivers 96.7%.")])
    facts = extract_facts(sm)
    results = {f.quantities[0].text: f for f in facts if f.variant.startswith("r")}
    assert set(results) == {"96.6%", "96.7%"} and len(facts) == 2  # both values stated: no verbatim copy needed
    assert results["96.6%"].subject == "Maximum Entropy approach"
    tnt = results["96.7%"]
    assert tnt.statement == "TnT reaches 96.7% accuracy on Penn Treebank" and tnt.evidence == ["A:1", "A:0"]
    assert tnt.verification.value == "passed"


def test_a_system_compared_against_or_a_difference_is_not_given_the_value():
    sm = paper("Our tagger even outperforms the hierarchical system of Hiero by 0.7 accuracy points.",
               "On the Penn Treebank, our tagger's accuracy is 1.8 points lower than the Maximum Entropy tagger.",
               "Earlier work finds that none outperform the Naive Bayes tagger, which attains accuracy of 74%.")
    stated = {f.quantities[0].text: f.subject for f in extract_facts(sm) if f.variant.startswith("r")}
    assert stated.get("0.7") != "Hiero" and "1.8" not in stated
    assert stated.get("74%") == "Naive Bayes tagger"


def test_a_sentence_keeps_its_verbatim_fact_when_a_value_is_left_over():
    sm = paper("CRF-Tagger reaches 97.2% accuracy on the Penn Treebank, 0.4 points lower than the Maximum Entropy tagger.")
    facts = extract_facts(sm)
    assert [f.quantities[0].text for f in facts if f.variant.startswith("r")] == ["97.2%"]
    assert any(f.statement.startswith("CRF-Tagger reaches 97.2% accuracy on the Penn Treebank, 0.4 points lower") for f in facts)


def test_a_range_a_change_or_a_supposition_is_no_level_reached():
    sm = paper("The accuracy of CRF-Tagger rose from 96.1% to 97.0% on the Penn Treebank when suffixes were added.",
               "If we assume an accuracy of 90% for CRF-Tagger on unseen words, 200 errors remain.")
    facts = extract_facts(sm)
    assert not [f for f in facts if f.variant.startswith("r")]
    assert {f.evidence[0] for f in facts} == {"P:1", "P:2"}  # each sentence kept whole, its condition with it
