"""Study types: a result carries the kind of study it comes from and the fields that kind needs."""

from scholarstack.l1.backends import OfflineExtractor
from scholarstack.models import FactType, SourceMap, StudyType
from scholarstack.models.source import Sentence

TITLE = "CRF-Tagger: Conditional Random Fields for Part-of-Speech Tagging"


def paper(*texts: str, section: str = "5 Experiments") -> SourceMap:
    return SourceMap(paper_key="P", title=TITLE, sentences=[Sentence(sid=0, text=TITLE, section="title")] + [
        Sentence(sid=i, text=t, section=section) for i, t in enumerate(texts, 1)])


def test_a_measured_result_is_quantitative_with_its_effect_and_the_test_set_it_cites():
    sm = paper("We present CRF-Tagger, a part-of-speech tagger based on conditional random fields.",
               "The test set consists of 2,416 sentences from section 23 of the Penn Treebank.",
               "Our tagger reaches 97.2% accuracy on the Penn Treebank test set.")
    facts = OfflineExtractor().extract(sm).facts
    [result] = [f for f in facts if f.variant.startswith("r")]
    assert result.study.type == StudyType.quantitative
    assert "97.2%" in result.study.effect and "accuracy" in result.study.effect
    assert "2,416 sentences" in result.study.sample and "P:2" in result.evidence  # the sample's sentence is cited
    methods = [f for f in facts if f.type == FactType.method_description]
    assert methods and all(f.study is None for f in methods)  # a method description reports no study


def test_a_finding_without_values_is_qualitative_and_a_proof_paper_is_theoretical():
    sm = paper("Errors in the output show that unknown words are the main source of confusion for the tagger.")
    [finding] = [f for f in OfflineExtractor().extract(sm).facts if f.type == FactType.finding]
    assert finding.study.type == StudyType.qualitative and not finding.study.sample
    proofs = paper("Theorem 1 states that the decoding problem is NP-hard for this grammar.",
                   "The proof of Lemma 2 follows from the construction.",
                   "We prove that, assuming a finite alphabet, the algorithm converges in polynomial time.",
                   section="3 Theory")
    studied = [f for f in OfflineExtractor().extract(proofs).facts if f.study]
    assert studied and all(f.study.type == StudyType.theoretical for f in studied)
    assert any(f.study.assumptions and f.study.result == f.statement for f in studied)


def test_a_fact_without_study_keeps_its_content_hash():
    sm = paper("Errors in the output show that unknown words are the main source of confusion for the tagger.")
    [finding] = [f for f in OfflineExtractor().extract(sm).facts if f.type == FactType.finding]
    assert finding.model_copy(update={"study": None}).content_hash() != finding.content_hash()
    assert "study" not in finding.model_copy(update={"study": None}).hashed_content()
