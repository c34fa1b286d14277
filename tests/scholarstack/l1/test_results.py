"""Result facts: values bound to method, metric, dataset and task, standing alone."""

import re
from collections import Counter

from scholarstack.l1.offline import extract_facts
from scholarstack.l1.results import specific, title_system_name
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
    assert specific("Maximum Entropy tagger") and specific("TnT") and not specific("the parser") and not specific("M")


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


def results_of(sm: SourceMap) -> dict[str, tuple[str, str]]:
    """value text → (subject, metric) of every result fact."""
    return {f.quantities[0].text: (f.subject, f.quantities[0].metric) for f in extract_facts(sm) if f.variant.startswith("r")}


def test_a_list_of_values_is_paired_only_by_respectively():
    # P06-1084:18: three accuracies under settings the sentence does not pair; before, the last went to the HMM.
    listed = paper("Elworthy (1994) reports an accuracy of 75.49%, 80.87% and 79.12% for the unsupervised word-based HMM "
                   "trained on parts of the LOB corpus.")
    assert results_of(listed) == {} and len(extract_facts(listed)) == 1
    paired = paper("The HMM tagger and the CRF tagger reach 95.1% and 96.2% accuracy on the WSJ corpus, respectively.",
                   "On the WSJ corpus, the Brill tagger has labelled precision, recall and F-score of 97.2%, 76.7% and 85.7% respectively.")
    assert results_of(paired) == {"95.1%": ("HMM tagger", "accuracy"), "96.2%": ("CRF tagger", "accuracy"),
                                  "97.2%": ("Brill tagger", "precision"), "76.7%": ("Brill tagger", "recall"),
                                  "85.7%": ("Brill tagger", "F-score")}
    unmatched = paper("Our algorithm has a performance of 49.0% and 45.6% F-score, when using 18 labels and 110 labels, respectively.",
                      # D11-1006: "respectively" pairs the first list with languages; the systems named later are not its pairs
                      "On the CoNLL test sets, a DMV model obtains UAS of 28.7/41.8/34.6% for ar/zh/ja respectively, whereas an "
                      "English direct transfer parser obtains 32.1/53.8/32.2% and a multi-source transfer parser obtains 39.9/41.7/43.3%.",
                      "WordNet features improve by 14.3% and 7.7% the accuracy on the BNEWS and NWIRE datasets (+34 and +37 "
                      "nouns out of 238 and 484 respectively), whereas the Wikipedia features give smaller improvements.",
                      # N07-1030: the metrics are spread over the sentence, not listed for the values to pair with
                      "Despite lower precision than the baseline, the COREF-ILP system gains in recall to end up with f-score "
                      "gains of 4.3%, 4.2%, and 3.0% across BNEWS, NPAPER, and NWIRE, respectively.")
    assert results_of(unmatched) == {}  # each list pairs with label sets, languages or counts, not with systems or metrics


def test_a_value_takes_the_metric_written_after_it():
    sm = paper("The Brill tagger reaches 98% precision and 61% recall on the WSJ corpus.",
               "The CRF tagger gives scores of 7.80 NIST and 0.1952 BLEU on the NIST test set.")
    stated = results_of(sm)
    assert stated["98%"][1] == "precision" and stated["61%"][1] == "recall"  # 61% was as near to "precision"
    assert stated["7.80"] == ("CRF tagger", "NIST") and stated["0.1952"] == ("CRF tagger", "BLEU")  # NIST is no system
    letters = results_of(paper("The Brill tagger was poor on the WSJ corpus (P 78.77 / R 63.94 / F1 70.58)."))
    assert "78.77" not in letters and letters["70.58"] == ("Brill tagger", "F1")  # "P" is a measure the tagger cannot see


def test_a_share_a_range_a_system_compared_against_or_a_baseline_of_ours_is_no_result():
    sm = paper("The feature mapping of CRF-Tagger takes 91% of the total parsing time on the Penn Treebank.",
               "These results represent an error reduction of 18.8% over a state-of-the-art discourse parser on the RST corpus.",
               "UML-DOP is compared to U-DOP, whose f-score of 78.5% on the WSJ is the best so far.",
               "Of the 63 cases in our corpus, recall that 59 (93.7%) were first in their phrase.",
               "On the LO scores of CRF-Tagger we obtained a z score of 2.00.",
               "5.3 Precision for the Words of CRF-Tagger We next evaluate CRF-Tagger in terms of precision on the WSJ corpus.",
               "Training CRF-Tagger has a run time of 4.7 days on the WSJ corpus.",
               "For the Brown test set, the winning system had an F-measure of 67.75.",
               "CRF-Tagger reaches an accuracy of 96.1 - 97.0% on the Penn Treebank across folds.",
               "Our baseline system gives 95.0% accuracy on the Penn Treebank.",
               "Our analysis of a small error-tagged corpus shows this (determiners 17% of errors, prepositions 12%).")
    assert results_of(sm) == {}


def test_a_change_written_after_the_value_is_a_delta():
    for text, stated in (("CRF-Tagger provides a 2.1 percent F-measure improvement on the WSJ corpus.", "improves F-measure by 2.1"),
                         ("CRF-Tagger scores 1.66 BLEU points over the baseline on the NIST test set.", "improves BLEU points by 1.66"),
                         ("CRF-Tagger shows an 8% drop in recall on the WSJ corpus.", "lowers recall by 8%"),
                         # D11-1006: the change is the result; its two ends ("57.0% to 60.4%") are no levels reached
                         ("CRF-Tagger improves, reducing relative error by 8% on average (57.0% to 60.4%) on the WSJ corpus.",
                          "lowers relative error by 8%")):
        [fact] = [f for f in extract_facts(paper(text)) if f.variant.startswith("r")]
        assert fact.quantities[0].delta and stated in fact.statement


def test_a_flattened_table_row_gives_no_result_but_stays_citable():
    # C04-1072:58: the columns that say what each number measures are gone.
    row = ("Method Pearson 95%L 95%U Pearson 95%L 95%U BLEU1 0.86 0.83 0.89 0.81 0.75 0.86 BLEU4 0.77 0.72 0.81 0.86 0.81 0.90 "
           "NIST 0.89 0.86 0.92 0.81 0.75 0.87 WER 0.47 0.41 0.53 0.69 0.62 0.75 Table 1.")
    sm = SourceMap(paper_key="P", title=TITLE, sentences=[Sentence(sid=0, text=TITLE, section="title"),
                                                          Sentence(sid=1, text=row, section="5 Experiments", kind="table_row")])
    assert extract_facts(sm) == [] and sm.sentences[1].kind == "table_row"


def test_a_system_named_right_after_a_value_owns_it_and_a_parameter_setting_is_no_result():
    # D08-1083:137 (in the demo): each value is credited with "with NAME" after it, not to the name before it.
    sm = paper("We achieve 88.6% accuracy with COMPOPR, 90.1% with SCNEGEX, and 87.6% with CCICOMPOMC on this data set.")
    got = {(f.subject, f.quantities[0].value) for f in extract_facts(sm) if f.variant.startswith("r")}
    assert got == {("COMPOPR", 88.6), ("SCNEGEX", 90.1), ("CCICOMPOMC", 87.6)}
    # D07-1031:136 (in the demo): "the Dirichlet prior x = 0.1" sets a parameter; "F1 = 85.2" is still a measure.
    sm = paper("We obtained our best performance on 1-to-1 accuracy when the Dirichlet prior x = 0.1, a relatively large number.",
               "The CRF tagger reaches an F1 = 85.2 on the CoNLL data.")
    got = [(f.subject, f.quantities[0].value) for f in extract_facts(sm) if f.variant.startswith("r")]
    assert got == [("CRF tagger", 85.2)]


def test_the_title_names_the_system_by_its_head_its_approach_or_a_leading_name_not_by_a_topic_acronym():
    assert title_system_name("Meteor 1.3: Automatic Metric for Reliable Optimization") == "Meteor 1.3"
    assert title_system_name("A Memory-Based Approach to Learning Shallow Natural Language Patterns") == "the memory-based approach"
    assert title_system_name("A TAG-Based Noisy-Channel Model Of Speech Repairs") == "the TAG-based noisy-channel model"
    assert title_system_name("TnT A Statistical Part-of-Speech Tagger") == "TnT"
    assert title_system_name("The Second Release Of The RASP System") == "RASP System"
    # a motto before the colon names nothing; a system named after it does (SciREX dev titles)
    assert title_system_name("Striving for Simplicity: The All Convolutional Net") == "All Convolutional Net"
    assert title_system_name("A Joint Many-Task Model: Growing a Neural Network for Multiple NLP Tasks") == "A Joint Many-Task Model"
    for title in ("Faithful to the Original: Fact Aware Neural Abstractive Summarization",
                  "Divide and Conquer: Crowdsourcing the Creation of Cross-Lingual Textual Entailment Corpora"):
        assert title_system_name(title) is None, title
    # an acronym further in is the topic or a tool; an approach said only by its kind names nothing
    for title in ("A Decoder For Syntax-Based Statistical MT", "Improving IBM Word Alignment Model 1",
                  "A Statistical Approach To Machine Translation", "A SEMANTIC CONCORDANCE George A. Miller"):
        assert title_system_name(title) is None, title


def test_a_name_the_tagger_ran_on_into_a_conjunction_or_a_dash_is_cut_back_and_a_learning_rate_is_no_result():
    sm = paper("CRF-Tagger improves UAS by 0.24 on the Penn Treebank for joint tagging and parsing.",
               "We set CRF-Tagger's learning rate of 0.01 on the Penn Treebank.")
    [fact] = [f for f in extract_facts(sm) if f.variant.startswith("r")]
    q = fact.quantities[0]
    assert q.metric == "UAS" and q.value == 0.24 and not q.task.endswith(" and") and not fact.statement.endswith(" and")


def test_the_papers_own_method_is_the_one_its_authors_introduce_by_name():
    from itertools import islice

    from scholarstack.ingest.corpora import read_acl
    from scholarstack.ingest.records import to_source_map
    from scholarstack.l1.offline import SKIP_SECTIONS
    from scholarstack.l1.results import analyse
    from tests.conftest import need_shared

    # "In this paper, we present FERGUS (…)", "… an automatic discovery procedure, ExDIsCO, which …", "We have developed a
    # statistical system, ALEK (…)", "a clustering algorithm called CBC (…)", "a new … method … (Net-Tagger) is presented"
    named = {"C00-1007": "FERGUS", "E06-1042": "TroFi", "C00-2136": "ExDIsco", "A00-2019": "ALEK", "C02-1144": "CBC",
             "C94-1027": "Net-Tagger"}
    # Where the authors name no system, the most salient Method may be cited work, "DMV (Klein and Manning, 2004)", "the
    # PATR system (Shieber et al, 1983; …)", "GIZA++ (Och and Ney, 2003)": the title's approach is said instead
    cited = {"D10-1120": "DMV", "C86-1045": "PATR", "H05-1012": "GIZA"}
    path = need_shared("acl_scisummnet", "papers.jsonl.gz")
    found, introduced = {}, {}
    for rec in islice(read_acl(path), 250):
        if not isinstance(rec, tuple) and rec.paper_id in {*named, *cited, "C92-2082"}:
            sm = to_source_map(rec)
            pa = analyse(sm, SKIP_SECTIONS.search)
            found[rec.paper_id] = pa.own(sm.title)[0]
            introduced[rec.paper_id] = pa.clusters[ci].name if (ci := pa.introduced()) is not None else None
    assert {k: found[k] for k in named} == named
    assert {k: introduced[k] for k in ("A00-2019", "C02-1144", "C94-1027")} == {"A00-2019": "ALEK", "C02-1144": "CBC",
                                                                                "C94-1027": "Net-Tagger"}
    assert all(found[k].startswith("the approach of '") and name not in found[k] for k, name in cited.items()), found
    # Hearst's paper names "a system called FUNES" of Coates-Stephens': called, but not by its authors as theirs
    assert found["C92-2082"] != "FUNES"
    # in an abstract, "this network" is the paper's own: "This network, called CRF-RNN, is then plugged in ..."
    from scholarstack.ingest.corpora import read_scirex

    # and a model family in the title ("Sentence-State LSTM for ...") is what the method is built of, not its name
    expected = {"Conditional Random Fields as Recurrent Neural Networks": "CRF-RNN", "Sentence-State LSTM for Text Representation": "S-LSTM"}
    got = {}
    for rec in read_scirex(need_shared("scirex", "docs.jsonl.gz")):
        if not isinstance(rec, tuple) and (title := next((t for t in expected if rec.title.startswith(t)), None)):
            sm = to_source_map(rec)
            got[title] = analyse(sm, SKIP_SECTIONS.search).own(sm.title)[0]
    assert got == expected


def test_a_value_in_the_authors_clause_is_theirs_and_limits_or_agreement_are_no_results():
    title = "A Joint Model for Semantic Role Labeling"
    sm = SourceMap(paper_key="J", title=title, sentences=[Sentence(sid=0, text=title, section="title")] + [
        Sentence(sid=i, text=t, section="5 Experiments") for i, t in enumerate([
            # J08-2002:505, P01-1008:197, W06-1651:218: the other system's value and ours, in parallel clauses
            "The winning system (Punyakanok, Roth, and Yih 2005) had an F-Measure of 79.44 and our current system has an "
            "F-Measure of 80.32.",
            "Precision for our system was 71.6% and for Melamed's was 52.7%.",
            "The performance of our final system is 72.6% in recall, 72.4% in precision, and 72.5 in F-measure.",
            # D09-1086:103, W06-1651:215, P99-1042:149, N09-1003:91: a limit, a range, the annotators' agreement
            "In the gold conditions, where the target parser starts with perfect source trees, accuracy approaches 100%.",
            "Implicit links amount to 7% of the link relations, so the upper bound for recall for our ILP system is 93%.",
            "Simple linguistic techniques enhance the baseline system score from the low 30% range to almost 40%.",
            "Two humans translated both datasets, with an inter-tagger agreement of 72% for RG and 84% for WordSim353.",
        ], 1)])
    results = {(f.quantities[0].text, f.quantities[0].metric): f.subject for f in extract_facts(sm) if f.variant.startswith("r")}
    ours = results[("80.32", "F-Measure")]
    assert results[("79.44", "F-Measure")] == "winning system" and ours != "winning system" and "Joint Model" in ours
    assert results[("71.6%", "Precision")] == ours and results[("52.7%", "Precision")] == "Melamed"
    assert {k for k in results if k[0] in ("72.6%", "72.4%", "72.5")} == {("72.6%", "recall"), ("72.4%", "precision"), ("72.5", "F-measure")}
    assert not [k for k in results if k[0] in ("100%", "93%", "30%", "40%", "72%", "84%")]


def test_a_rate_of_things_a_share_of_training_or_a_cited_system_compared_against_is_not_given_the_value():
    sm = paper(
        # J95-4004:254, N06-2013:106, N03-1030:164 (shortened)
        "The transformation-based tagger obtained the same accuracy with 1.43 tags per word.",
        "For example, a 19% improvement in BLEU score (for MT04 under MADA with 100% training) was found from an oracle combination.",
        "These results represent an error reduction of 18.8% over a state-of-the-art discourse parser (Marcu, 2000) when using "
        "18 labels, and an error reduction of 15.7% when using 110 labels.",
        # D12-1133:123, N04-4038:100: what a value is on a par with, or comparable to, is not its owner
        "We also obtain a POS accuracy of 97.42, which is on a par with the best results obtained using semi-supervised taggers.",
        "The English experiment resulted in an accuracy of 94.97%, which is comparable to the Arabic SVM-POS results.")
    results = [(f.quantities[0].text, f.subject) for f in extract_facts(sm) if f.variant.startswith("r")]
    assert not [r for r in results if r[0] in ("1.43", "100%") or r[1] in ("Marcu", "semi-supervised taggers", "Arabic SVM-POS")], results


def test_a_value_set_against_is_no_result_and_a_dataset_closing_the_values_clause_is_theirs():
    # H05-1010:135, D08-1068:214 (ACL ScisummNet)
    sm = paper("With these features, we got an AER of 15.5 (compare to 19.5 for Model 2 in (Och and Ney, 2003)).",
               "The B3 scores of MLN-HAN on the ACE2004 dataset are 71.6 (precision), 68.4 (recall) and 70.0 (F1) for BNEWS, "
               "and 75.7 (precision), 69.2 (recall) and 72.3 (F1) for NWIRE.",
               "Our system obtained an accuracy of 91.4%, versus a 51.7% baseline (significant at p = 0.01).")
    results = {q.value: q for f in extract_facts(sm) if f.variant.startswith("r") for q in f.quantities}
    assert 15.5 in results and 19.5 not in results and 91.4 in results and 51.7 not in results
    assert {v: results[v].dataset for v in (75.7, 69.2, 72.3)} == dict.fromkeys((75.7, 69.2, 72.3), "NWIRE")
    assert results[70.0].dataset == "BNEWS"


def test_a_spread_the_machine_a_value_owned_by_a_later_one_or_a_system_improved_on_gives_no_result():
    # D11-1125:144, C10-1011:87, C04-1200:150, D08-1011:150, D11-1006:30 (ACL ScisummNet)
    sm = paper("The standard deviation of the final test BLEU of MERT was 0.13 across the five experiment instances.",
               "With turbo mode on, the clock speed was 3.46 GHz.",
               "The system's best model performed at 81% accuracy with the manually provided holder and at 67% accuracy "
               "with automatic holder detection.",
               "It outperformed the best single system by 4.7 BLEU points and the TER-based system combination by 1.0 BLEU points.",
               "The resulting parser consistently improves on the directly transferred delexicalized parser, reducing relative "
               "errors by 8% on average.")
    results = {q.value: q.method for f in extract_facts(sm) if f.variant.startswith("r") for q in f.quantities}
    assert not {0.13, 3.46, 81.0, 4.7, 8.0} & set(results), results
    assert results.get(67.0) in (None, "automatic holder detection")


def test_a_dataset_named_right_after_the_value_is_its_own_and_a_section_number_is_no_result():
    # D09-1086:123, D09-1086:189, D08-1092:94 (ACL ScisummNet)
    sm = paper("With Collins-model English parses and GIZA++ word alignments, F-score was 33.9% for Spanish and 26.3% for Chinese.",
               "Using the target side of the bitext as training data, we initialized our model parameters as described in "
               "§5.2 and ran EM.",
               "We set E by empirically determining a good speed/performance tradeoff (see §6.2).")
    facts = extract_facts(sm)
    results = {q.value: q.dataset for f in facts if f.variant.startswith("r") for q in f.quantities}
    assert results.get(26.3) in (None, "Chinese") and results.get(33.9) in (None, "Spanish"), results
    assert not {5.2, 6.2} & {q.value for f in facts for q in f.quantities}


def test_a_cluster_named_only_in_table_rows_is_not_the_papers_main_dataset():
    from scholarstack.l1.results import PaperAnalysis
    from scholarstack.learned.doc_entities import Cluster

    sentences = [Sentence(sid=1, text="We parse the WSJ text.", kind="prose"),
                 Sentence(sid=2, text="SUPERTAGGING/PARSING TIME SENTS WORDS CONSTRAINTS SEC /SEC /SEC ? = 0.01?", kind="table_row")]
    header = Cluster(key="parsing time sents words", type="Material", mentions=[(1, 1, 4)], salience=0.9)
    wsj = Cluster(key="wsj", type="Material", mentions=[(0, 3, 4)], salience=0.6)
    pa = PaperAnalysis(sentences=sentences, tokens=[], doc=None, clusters=[header, wsj], salient=[0, 1], pairs=[])
    assert pa.main("Material") == 1
    alone = PaperAnalysis(sentences=sentences, tokens=[], doc=None, clusters=[header], salient=[0], pairs=[])
    assert alone.main("Material") is None and alone.main("Material", salient_only=True) is None


def test_a_value_of_cited_work_is_a_result_only_with_the_method_and_dataset_its_sentence_names():
    sm = paper("We present CRF-Tagger, a part-of-speech tagger based on conditional random fields.",
               "CRF-Tagger is trained on the Penn Treebank.",
               # C04-1080:34, C92-2070:133, A00-2019:174 (shortened): cited work, its dataset not named or not known
               "Using 1 million words from the Associated Press, Merialdo’s trigram tagger reached an accuracy of 86.6%.",
               "Black (1988) observed 75% mean accuracy using his optimal method.",
               "We calculate that their precision was 78% with 54% recall.",
               # C04-1080:31: cited, and its sentence names the dataset
               "Kupiec’s HMM class-based tagger, when trained on the Brown corpus, obtained a test set accuracy of 95.7%.",
               "CRF-Tagger gives another 1.5 points jump in F-Measure on the Penn Treebank.",
               # D11-1141:105, H05-1043:87 (shortened): the paper's own, a cited system only compared with or improved on
               "Compared with the Stanford tagger (Finkel et al., 2005), CRF-Tagger obtains a 52% increase in F1 score.",
               "CRF-Tagger improves Hu’s precision by 6%.")
    results = {f.quantities[0].text: f for f in extract_facts(sm) if f.variant.startswith("r")}
    assert not {"86.6%", "75%", "78%", "54%"} & set(results), list(results)  # never the paper's own dataset, task or method
    kupiec = results["95.7%"]
    assert "Brown corpus" in kupiec.quantities[0].dataset and not kupiec.quantities[0].task and kupiec.evidence == ["P:6"]
    assert results["1.5"].quantities[0].delta  # "points jump": a change, not a level
    assert {"52%", "6%"} <= set(results) and "Penn Treebank" in results["52%"].quantities[0].dataset


def test_a_dataset_from_another_sentence_is_one_the_paper_evaluates_on_cited_where_it_says_so():
    from scholarstack.l1.results import PaperAnalysis
    from scholarstack.learned.doc_entities import Cluster

    def analysis(*texts: str, name: str = "WordNet") -> PaperAnalysis:
        sentences = [Sentence(sid=i, text=t, kind="prose") for i, t in enumerate(texts, 1)]
        tokens = [[(w.group(0), w.start(), w.end()) for w in re.finditer(r"\S+", t)] for t in texts]
        mentions = [(si, i, i + 1) for si, row in enumerate(tokens) for i, (w, _, _) in enumerate(row) if w.strip(".,") == name]
        cluster = Cluster(key=name.lower(), type="Material", mentions=mentions, salience=0.9)
        return PaperAnalysis(sentences=sentences, tokens=tokens, doc=None, clusters=[cluster], salient=[0], pairs=[])

    # A00-2034:3, a grant: what the method uses, or who paid, is no result's setting
    assert analysis("The method uses selectional preferences acquired as probability distributions over WordNet .",
                    "This work was supported by a grant for WordNet research .").evaluated_sid(0) is None
    # C02-1114:4 (shortened), C96-1005: the cue next to the name; the first such sentence is cited
    pa = analysis("We use WordNet .", "The algorithm achieves 82% accuracy , evaluated against WordNet classes .",
                  "The results of the experiments have been evaluated against WordNet .")
    assert pa.evaluated_sid(0) == 2
    assert analysis("Results are given on the OP1 test set .", name="OP1").evaluated_sid(0) == 1
    # a sentence that qualifies ("only") is not cited for the name
    assert analysis("We tested only on a small part of OP1 .", name="OP1").evaluated_sid(0) is None


def test_a_result_takes_the_papers_dataset_only_where_the_paper_says_it_evaluates_on_it():
    sm = paper("We present CRF-Tagger, a part-of-speech tagger based on conditional random fields.",
               "CRF-Tagger uses word clusters induced from the Brown corpus.",
               "We obtained 63% accuracy on the causative verbs.")
    [fact] = [f for f in extract_facts(sm) if f.variant.startswith("r")]
    assert fact.quantities[0].text == "63%" and not fact.quantities[0].dataset and " on " not in fact.statement
    tested = paper("We present CRF-Tagger, a part-of-speech tagger based on conditional random fields.",
                   "CRF-Tagger uses word clusters induced from the Brown corpus.",
                   "CRF-Tagger was trained on sections 2-21 and tested on section 23 of the Penn Treebank.",
                   "We obtained 63% accuracy on the causative verbs.")
    [fact] = [f for f in extract_facts(tested) if f.variant.startswith("r")]
    assert "Penn Treebank" in fact.quantities[0].dataset and "P:3" in fact.evidence and "P:2" not in fact.evidence


def test_a_gain_a_rise_in_error_a_citation_after_the_value_and_a_formulas_factor():
    sm = paper("We present CRF-Tagger, a part-of-speech tagger based on conditional random fields.",
               # E06-1042, J04-4004, J93-2006, J01-3001 (shortened)
               "We gained 4.9%, bringing us to an average f-score of 53.8%.",
               "The clean-room model has a 10.6% increase in F-measure error on the Penn Treebank.",
               # D11-1006:172 (shortened)
               "On average, our tagger reduces errors by 12% relative over the HMM tagger.",
               "The best previously reported error rate based on probabilistic models was 75% (Kuhn and DeMori 1990).",
               "Exact match = correct senses / assigned senses x 100% on the Penn Treebank.")
    results = {f.quantities[0].text: f for f in extract_facts(sm) if f.variant.startswith("r")}
    assert results["4.9%"].quantities[0].delta and "improves f-score by 4.9%" in results["4.9%"].statement
    assert "reaches 53.8% f-score" in results["53.8%"].statement
    assert "raises F-measure error by 10.6%" in results["10.6%"].statement
    assert "lowers errors by 12%" in results["12%"].statement
    assert "75%" not in results and "100%" not in results, list(results)


def test_a_change_names_its_own_measure():
    # J04-3002:445: the error is reduced, not the accuracy named before the value
    sm = paper("Our classification accuracy represents a 28% reduction in error and is significantly better than baseline.")
    fact = next(f for f in extract_facts(sm) if f.variant.startswith("r"))
    assert fact.quantities[0].metric == "error" and "lowers error by 28%" in fact.statement


def test_a_value_cited_authors_report_is_not_the_papers():
    # C08-1022, A97-1052: cited authors open the sentence, or "he" reports it; no dataset is named, so no result fact
    cited = paper("Han et al (2006) use a maximum entropy classifier to detect determiner errors, achieving 83% accuracy.",
                  "He reports that for a test sample of 200 tokens the dictionary listed the right entry for 163 cases, giving a "
                  "token recall of 82% (as compared with 80.9% in our experiment).")
    assert results_of(cited) == {}
    # C04-1111:156: a kappa statistic measures the annotators' agreement, not a method
    assert results_of(paper("The Kappa statistics for our experiments were 0.78 on the test set.")) == {}


def test_the_most_salient_method_stands_in_for_the_papers_system_unless_a_tag_a_dataset_or_a_kind_of_method():
    # (the next most salient is no better a guess there: the title says what the system does)
    from scholarstack.l1.results import PaperAnalysis
    from scholarstack.learned.doc_entities import Cluster, TaggedDoc

    def own(*names: str, title: str = "Assigning Function Tags To Parsed Text") -> str:
        text = "We assign function tags to parsed text ."
        clusters = [Cluster(key=n.lower(), type="Method", surfaces=Counter({n: 3}), mentions=[(0, 0, 1)], salience=0.9 - i / 10)
                    for i, n in enumerate(names)]
        pa = PaperAnalysis(sentences=[Sentence(sid=1, text=text, kind="prose")],
                           tokens=[[(w.group(0), w.start(), w.end()) for w in re.finditer(r"\S+", text)]],
                           doc=TaggedDoc([text.split()], [1], [[]]), clusters=clusters, salient=list(range(len(names))), pairs=[])
        return pa.own(title)[0]

    # A00-2031, J93-2004, H01-1035 (first 300 ACL papers): the tagger's most salient "Method" was "SBAR", "POS", "NNS"
    assert own("SBAR", "maximum entropy tagger") == "the approach of 'Assigning Function Tags To Parsed Text'"
    assert own("POS", "Penn Treebank") == "the approach of 'Assigning Function Tags To Parsed Text'"
    # a tag named in the title is no more the system (D07-1031)
    assert own("POS", title="Why Doesn't EM Find Good HMM POS-Taggers?") == "the approach of 'Why Doesn't EM Find Good HMM POS-Taggers?'"
    # a model family, a short acronym, a measure or a plural names a kind of method, a task or what is measured, not the
    # authors' system (D08-1035, D10-1115, E03-1009, D09-1120, D08-1027, J03-1005) ...
    for kind in ("CRF", "language models", "ANs", "HMM", "NER", "AMT", "mWER", "BLEU"):
        assert own(kind, "ALEK") == "the approach of 'Assigning Function Tags To Parsed Text'"
    # ... unless the title spells the acronym out ("TTP" for "Assigning Function Tags To Parsed Text" here; "USP" for
    # "Unsupervised Semantic Parsing", D09-1001)
    assert own("TTP") == "TTP" and own("PTA") != "PTA"
    assert own("ALEK", "SBAR") == "ALEK" and own("Nominator Tags") == "the approach of 'Assigning Function Tags To Parsed Text'"
    assert own("Net-Tagger") == "Net-Tagger" and own("Markov process") == "Markov process"  # "process": no plural
