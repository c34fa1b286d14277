"""Offline L1 rules: typing, subject, conditions, quantities, and verification against evidence."""

from __future__ import annotations

from scholarstack.l1.offline import about_cited_work, classify, extract_facts, find_conditions, find_quantities, find_subject
from scholarstack.l1.results import paper_system_name
from scholarstack.models import Fact, FactType, Quantity, Sentence, SourceMap, Verification
from scholarstack.verify import verify_fact


def test_a_method_told_in_the_past_tense_is_a_method_and_a_slow_convergence_no_theory():
    assert classify("We trained a maximum entropy tagger with a Gaussian prior on the features.") == FactType.method_description
    assert classify("We have presented a comprehensive evaluation of several methods for unsupervised tagging using the "
                    "same corpus.") == FactType.method_description  # not a dataset description for "the same corpus"
    assert classify("We applied the tagger to the full Brown corpus of newswire text.") == FactType.method_description
    assert classify("We then described the results of the tagger in Section 5 in more detail.") is None  # it points ahead
    assert classify("Johnson compared two algorithms and found that the Gibbs sampler was extremely slow to converge and "
                    "produced a worse solution.") == FactType.finding


def test_a_roadmap_back_is_no_fact_and_a_method_used_in_the_passive_is_a_method():
    assert classify("In the previous section, we described how we populate the backbone of the literature graph.") is None
    assert classify("The rest of the paper describes how this method is used to resolve anaphora references.") is None
    assert classify("TER is used as loss function in the MBR computation of the system.") == FactType.method_description
    # what the authors did with a verb a finding cue also matches ("inducing"), unless they report an outcome
    assert classify("We learn this function by inducing a probabilistic CCG grammar from a training set.") == FactType.method_description
    assert classify("TNF induces apoptosis in these cells through caspase-8 activation.") == FactType.finding
    assert classify("We ran each setting for 1,000 iterations, as some estimators require many iterations to "
                    "converge.") != FactType.theoretical_result


def test_an_ordinal_or_the_former_that_stands_for_what_the_sentence_before_listed_is_folded_into_its_fact():
    sm = SourceMap(paper_key="P", title="A Tagger", sentences=[
        Sentence(sid=0, text="A Tagger", section="title"),
        Sentence(sid=1, text="Two types of training have been used with this model on the corpus.", section="2 Model"),
        Sentence(sid=2, text="The first makes use of a tagged training corpus.", section="2 Model"),
        Sentence(sid=3, text="The first tagger achieves 96.1% accuracy on the Brown corpus.", section="3 Results")])
    facts = extract_facts(sm)
    folded = next(f for f in facts if "P:2" in f.evidence)
    assert folded.evidence == ["P:1", "P:2"] and folded.statement.endswith("The first makes use of a tagged training corpus.")
    assert any(f.evidence == ["P:3"] for f in facts)  # "The first tagger" names its own subject
    # a sentence that points back with no type cue of its own still belongs to the fact before; a question does not
    sm = SourceMap(paper_key="Q", title="A Tagger", sentences=[
        Sentence(sid=0, text="A Tagger", section="title"),
        Sentence(sid=1, text="Trigram probabilities from a corpus usually cannot be used directly because of sparse data.",
                 section="2 Model"),
        Sentence(sid=2, text="This means that there are not enough instances for each trigram to estimate it.", section="2 Model"),
        Sentence(sid=3, text="Is this the case for every language in the sample?", section="2 Model")])
    (fact,) = extract_facts(sm)
    assert fact.evidence == ["Q:1", "Q:2"] and fact.statement.endswith("to estimate it.")


def test_a_table_row_run_into_a_sentence_splits_it_and_a_lead_clause_or_adverb_is_no_subject():
    from scholarstack.l1.offline import claims

    glued = ("The time breakdown for this was as follows: Tagging: average pseconds per token tokenizer lexicon Viterbi total "
             "604 388 233 1235 It can be seen from these figures that training on a new corpus may be accomplished in minutes.")
    assert claims(glued)[1] == "It can be seen from these figures that training on a new corpus may be accomplished in minutes."
    assert find_subject("As the resources required are simply a lexicon and a sample of ordinary text, taggers can be built "
                        "with minimal effort.", "TnT") == "taggers"
    assert find_subject("Unfortunately none of these results can be directly compared to the others.", "TnT") == "results"


def test_types_from_cues():
    assert classify("We prove that the algorithm converges in polynomial time under mild conditions.") == FactType.theoretical_result
    # a theoretical word used of a procedure or of a measured ceiling
    assert classify("We train the transition model until it reaches convergence on a heldout set.") == FactType.method_description
    assert classify("This procedure is iterated until convergence or a maximum of twenty iterations.") is None
    assert classify("The EM algorithm is guaranteed to converge to a local maximum of the likelihood.") == FactType.theoretical_result
    assert classify("By Lemma 3, the relaxation is tight for every instance of the problem.") == FactType.theoretical_result
    # a word's lemma, a theorem prover or a human ceiling states no theoretical result of the paper
    assert classify("Smoothing over the inflected forms of the same lemma enables the translation.") is None
    assert classify("The theorem prover provides us with two features for entailment.") is None
    assert classify("In subjective tasks it is common to consider human performance as an upper bound.") is None
    # a guarantee denied, a convergence or a bound measured, a figure of speech: no theoretical result either
    assert classify("Without a heuristic function, even a hundred seconds per sentence cannot guarantee an error-free search.") \
        == FactType.limitation
    assert classify("The algorithms in Figure 1 and 2 will converge at different rates depending on the value for Q.") == FactType.finding
    assert classify("The correlations were significantly lower than the upper bound for all three types of bigrams.") \
        == FactType.finding
    assert classify("One can observe an increasing convergence of methods for information extraction.") == FactType.finding
    assert classify("The first condition guarantees that no item will be added before the conditional items.") \
        == FactType.theoretical_result
    # MT's hypotheses are no hypotheses; a hypothesis stated or tested is one
    assert classify("The beam search decoder starts with an empty hypothesis and extends it.") is None
    assert classify("These results support the hypothesis that syntax helps rare words.") == FactType.hypothesis
    assert classify("We hypothesized that larger contexts help rare words.") == FactType.hypothesis
    assert classify("Unfortunately, the method fails to handle unknown words in German text.") == FactType.limitation
    # a limitation word that states none: space, one overcome or absent, a failure the method handles (ACL sentences)
    for text in ("We omit the details here due to space limitations.",
                 "We present a many-to-many alignment algorithm that overcomes the limitations of one-to-one aligners.",
                 "The classifiers do not have this limitation.",
                 "When the parser fails to return an analysis for a test sentence, we reparse the sentence and skip words."):
        assert classify(text) == FactType.method_description, text
    assert classify("But the completion of the new sentences is still problematic.") == FactType.limitation
    # what the work is about, described as problematic, is no limitation of it (C08-1109:1)
    assert classify("We focus on these problematic, and very common, parts of speech.") != FactType.limitation
    assert classify("TnT achieves 96.7% accuracy on the Penn Treebank test set.") == FactType.finding
    assert classify("We hypothesize that larger contexts help rare words.") == FactType.hypothesis
    assert classify("We use second order Markov models for tagging text.") == FactType.method_description
    # what the authors did is a method, whatever finding word it names, unless it states an outcome
    assert classify("We computed BLEU-N for N = 1..4, using BLEU-4 as our main score.") == FactType.method_description
    assert classify("We used WordNet to induce an approximation of a lexical knowledge base.") == FactType.method_description
    assert classify("We used WordNet and improved accuracy by 2% on the test set.") == FactType.finding
    # the authors' steps by more verbs (first 300 ACL papers, session 48); data they made is a data description
    for text in ("We instantiate a directed edge between two mentions if the pairwise model predicts a link.",
                 "In order to avoid a full Viterbi search, we perform a beam search with a width of three.",
                 "We evaluated the feasibility of using Mechanical Turk to perform HTER."):
        assert classify(text) == FactType.method_description, text
    assert classify("For the reasons just described, we created our own corpus of product reviews.") == FactType.dataset_description
    # a change a step computes is no outcome of it (session 47's demo reading)
    assert classify("For each error triple, we compute the reduction in error that would result from applying the rule.") \
        == FactType.method_description
    assert classify("We applied the rule and observed an improvement of 2 points on the test set.") == FactType.finding
    # work left for later is a limitation of this one; a step the method needs is not
    assert classify("We plan to test the pattern discovery algorithm on more relations and other languages.") == FactType.limitation
    assert classify("To score each pair, we need to compute the expected counts of the rules.") != FactType.limitation
    assert classify("The corpus contains newspaper text from two years.") == FactType.dataset_description
    # features "encode" (a method); a gene that "encodes" a protein is a finding
    assert classify("There are features which encode rule instantiations in the derivation.") == FactType.method_description
    assert classify("The NT5C2 gene encodes a 5'-nucleotidase in relapse specimens.") == FactType.finding
    # a measure or a life-science outcome verb is a finding's topic: a description's cue decides first, an outcome
    # makes it a finding (ACL sentences)
    for text in ("A simple edit distance metric was used to identify pairs of sentences within a cluster.",
                 "Our translation algorithm requires a distinction between complements and adjuncts.",
                 "We report yield in lieu of recall because the set of all correct answers is unknown.",
                 "The aim of this paper is to examine how the accuracy of the tagger varies with the initial conditions."):
        assert classify(text) == FactType.method_description, text
    assert classify("Our system is able to correctly identify about 85% of the noun phrases in coreference chains.") == FactType.finding
    assert classify("The standard ASCII code requires 8 bits per character.") == FactType.finding
    assert classify("The annotated development corpus consists of 80 conference articles (12,188 sentences).") == FactType.dataset_description
    # what was found to be so is a finding; running to convergence is a step, not a theorem
    assert classify("We measured the perplexity of the Brown corpus and found it to be 271.") == FactType.finding
    assert classify("Instead of running to convergence, we used early stopping as a cheap regularization method.") \
        == FactType.method_description
    # a comparison is a finding; a size said of a noun ("a much larger pool") is none
    assert classify("For LTAGs extracted automatically from the Penn Treebank, performance is much lower.") == FactType.finding
    assert classify("We present a co-training method using a small amount of parsed material and a much larger pool of raw "
                    "sentences.") == FactType.method_description
    assert classify("CCG supertagging is more difficult than POS tagging because the tag set is much larger.") == FactType.finding
    # a data word is what a sentence describes as its subject or with how the data were made; in passing, a method cue decides
    for text in ("The 250-example data set is a subset of the larger GEOQUERY corpus.",
                 "Each labeled dataset was split into a training set of 1600 instances and a test set of 400 instances.",
                 "We collected 500 reviews from a movie website."):
        assert classify(text) == FactType.dataset_description, text
    for text in ("We present a novel coarse-to-fine method for computing projections of a grammar without a treebank.",
                 "We also use a bigger trigram model trained on the Gigaword corpus.",
                 "We apply the boosting method to parsing the Wall Street Journal treebank."):
        assert classify(text) == FactType.method_description, text
    # with no method cue it stays a data description, and "We then describe …" points ahead: no method cue
    assert classify("Automatic tagging is an important first step in discovering the structure of large text corpora.") == FactType.dataset_description
    assert classify("We then describe a set of rules which allow the parser to cope with telegraphic input.") is None
    # no verb: a heading or a reference entry the PDF reader left as prose (ACL papers, session 47); a plural present
    # verb is known by the learned lexicon's base form, and a sentence the reader cut ("… et al.") goes on
    for text in ("Results on Section 23 of the WSJ Treebank.", "Automatic Acquisition of Hyponyms from Large Text Corpora."):
        assert classify(text) is None, text
    assert classify("Both salience and syntactic information contribute to the accuracy of the ranking model.") == FactType.finding
    assert classify("Using the predictor, Nakamura et al.") is not None
    # a list cut from its items; a belief in a relative clause and "suggests the …" (a proposal) are no hypothesis
    assert classify("The drawbacks of this approach are: 1.") is None
    assert classify("We used a fixed weight of 1.0 for the association feature, which we expect to be most important.") \
        == FactType.method_description
    assert classify("The classifier identifies the presence of the error, and suggests the appropriate correction.") \
        == FactType.finding
    assert classify("Thanks.") is None
    assert classify("93.9 94.3 94.0 94.7 95.9 95.9 Table 2 results 12 13") is None


def test_a_sentence_pointing_at_a_table_or_section_is_no_fact_unless_it_says_something_of_its_own():
    for pointer in ("Table 2 shows the training, development and test corpus statistics.",
                    "In Section 3, we present the semantic parsing model of WASP.",
                    "In this section we compare our Fast Tree Kernel approach with the Quadratic Tree Kernel algorithm.",
                    "This section describes the corpus we used for training the tagger.",
                    "This section first introduces the learning system and then the classifiers of both phases.",
                    "Figure 6 shows the learning curve of the tagger, i.e., the accuracy depending on the amount of training data.",
                    "Section 6 concludes with a summary and discussion of future work.",
                    "We present lattice MBR experiments in Section 7.",
                    "Next we present experimental results in §4, followed by related work in §5.",
                    "We describe how we populate entity nodes in §4.3."):  # how it is done is told there
        assert classify(pointer) is None, pointer
    for claim in ("Although simple, this strategy is able to improve the polarity detection, as we show in Section 4.",
                  "We define the gold standard used to train the system in terms of the manual annotations described in Section 2."):
        assert classify(claim) is not None, claim
    for claim in ("Table 4 shows a high success ratio for the detection of coordinate structures.",
                  "Table 5 shows that our tagger outperforms the baseline on unknown words.",
                  "In the next section we show that these variables are Lagrange multipliers with a better bound.",
                  "Figure 4 summarizes the experiment for French: distortion reduces tree violations substantially.",
                  "Table 5 shows the accuracy of the tagger, 96.7% on the Penn Treebank."):
        assert classify(claim) == FactType.finding, claim
    for pointer in ("The results of all systems are summarised in table 1.",
                    "Tagging accuracies for the Penn Treebank are shown in table 5.",
                    "Our final results on the test set (290 sentences) are summarized in Table 9.",
                    # a relative "that" says nothing more of a table ("… that we obtained … are given in Table 2")
                    "The final results that we obtained for the training corpus are given in Table 2.",
                    "Below is a graph showing the improvement in accuracy from applying patches."):  # A92-1021
        assert classify(pointer) is None, pointer
    for claim in ("This expansion is applied to the training data, and the performance is reported in Table 4.",
                  "An accuracy of 96.7 on the WSJ test set is shown in Table 2.",
                  "Below is a table showing that accuracy rises to 96% with patches."):
        assert classify(claim) is not None, claim


def test_an_abstract_sentence_with_any_verb_is_a_finding_but_a_structured_label_is_not():
    # SciFact doc 13910150's first sentence, a claim's whole rationale, had no fact: "plays" is no listed verb.
    blimp = "Blimp1 (Prdm1), the key determinant of primordial germ cells (PGCs), plays a combinatorial role with Prdm14."
    assert classify(blimp, in_abstract=True, any_verb=True) == FactType.finding
    assert classify("Calorie restriction extends life-span in a wide variety of organisms.", True, any_verb=True) == FactType.finding
    assert classify(blimp) is None  # outside the abstract a finding still needs its cue
    assert classify(blimp, in_abstract=True) is None  # and in 200 "abstract" sentences, the body the PDF reader left there
    for label in ("SETTING Seven outpatient clinics throughout Switzerland.", "MAIN OUTCOMES AND MEASURES Colorectal cancer in adults.",
                  "Objectives To compare the effects of oral semaglutide with placebo on glycemic controls.",
                  "FUNDING Medical Research Council, National Institute for Health Research, and Wellcome Trust."):
        assert classify(label, in_abstract=True, any_verb=True) is None, label
    sm = SourceMap(paper_key="P", title="The Germ Cell Determinant Blimp1 Is Not Required for Derivation of Pluripotent Stem Cells",
                   sentences=[Sentence(sid=0, text="The Germ Cell Determinant Blimp1 Is Not Required", section="title"),
                              Sentence(sid=1, text=blimp, section="abstract"),
                              Sentence(sid=2, text="SETTING Seven outpatient clinics throughout Switzerland.", section="abstract")])
    assert [f.evidence for f in extract_facts(sm)] == [["P:1"]]


def test_a_result_reported_with_its_statistics_in_full_is_a_finding_and_a_connective_leaves_no_fragment():
    # SciFact rationale sentences that gave no fact (dev claims): over 90 words, or under half letters, with their statistics
    aspirin = ("Aspirin and/or NSAID use was associated with a lower risk of colorectal cancer among individuals with rs2965667-TT "
               "genotype (prevalence, 28% vs 38%; OR, 0.66 [95% CI, 0.61-0.70]; P = 7.7 × 10(-33)) but with a higher risk among "
               "those with rare (4%) TA or AA genotypes (prevalence, 35% vs 29%; OR, 1.89 [95% CI, 1.27-2.81]; P = .002).")
    assert classify(aspirin, in_abstract=True) == FactType.finding
    risks = ("high systolic blood pressure", "smoking", "high fasting plasma glucose", "high BMI", "childhood undernutrition",
             "ambient particulate matter", "high total cholesterol", "household air pollution", "alcohol use", "diets high in sodium")
    dalys = "In 2015, the ten largest contributors to global DALYs were " + ", ".join(
        f"{r} ({i}1·8 million [19{i}·7 million to 23{i}·1 million])" for i, r in enumerate(risks)) + "."
    assert len(dalys.split()) > 90 and classify(dalys, in_abstract=True) == FactType.finding
    assert classify("Negative F-measure is 77.2 (2.3% higher).") == FactType.finding  # brackets that are most of it stay
    # a formula's or a placeholder's brackets are no statistics: still under half letters, no fact
    assert classify("Given the space of Figure 1, since g(1,1) > g(1, 3), we add ([−4, 3], +) and ([4, −3], −) to it.") is None
    sm = SourceMap(paper_key="P", title="Caspase-11", sentences=[
        Sentence(sid=0, text="Caspase-11", section="title"),
        Sentence(sid=1, text="However, caspase-11 was dispensable for the fusion of lysosomes with phagosomes.", section="abstract"),
        Sentence(sid=2, text="caspase-11 was dispensable for the fusion of lysosomes with phagosomes.", section="abstract")])
    assert [(f.evidence, f.statement) for f in extract_facts(sm)] == [
        (["P:1"], "caspase-11 was dispensable for the fusion of lysosomes with phagosomes.")]  # P:2 was cut by the reader


def test_subject_conditions_quantities():
    system = paper_system_name("TnT - A Statistical Part-Of-Speech Tagger")
    assert system == "TnT"
    assert find_subject("Furthermore, we present evaluations on two corpora.", system) == "TnT"
    assert find_subject("The Maximum Entropy tagger reaches 96.6% accuracy.", system) == "Maximum Entropy tagger"
    assert find_subject("The resulting literature graph consists of 280M nodes.", system) == "resulting literature graph"
    assert "on the Penn Treebank" in find_conditions("TnT achieves 96.7% accuracy on the Penn Treebank.")
    qs = find_quantities("TnT achieves 96.7% accuracy on the Penn Treebank in 1998.", "TnT")
    assert [(q.value, q.metric, q.dataset, q.subject) for q in qs] == [(96.7, "accuracy", "Penn Treebank", "TnT")]
    # the number of a part of the paper or of a tool is no quantity
    qs = find_quantities("We repeated the experiments of sections 4.2 and 4.3 (Theorem 5.1, version 2.0) at 96.5% accuracy.", "TnT")
    assert [q.text for q in qs] == ["96.5%"]


def test_extract_facts_grounds_each_fact():
    sm = SourceMap(paper_key="P", title="TnT - A Statistical Part-Of-Speech Tagger", sentences=[
        Sentence(sid=0, text="TnT - A Statistical Part-Of-Speech Tagger", section="title"),
        Sentence(sid=1, text="TnT achieves 96.7% accuracy on the Penn Treebank (Brants, 2000).", section="3 Evaluation"),
        Sentence(sid=2, text="We thank the reviewers for their comments on this paper.", section="Acknowledgements"),
        Sentence(sid=3, text="However, the tagger cannot handle unseen tags in German text.", section="4 Conclusion"),
    ])
    facts = extract_facts(sm)
    assert [(f.evidence, f.type) for f in facts] == [(["P:1"], FactType.finding), (["P:3"], FactType.limitation)]
    # A reported result is restated on its own, its value bound to method, metric and dataset.
    assert facts[0].statement == "TnT reaches 96.7% accuracy on Penn Treebank"
    q = facts[0].quantities[0]
    assert (q.value, q.method, q.metric, q.dataset, q.delta) == (96.7, "TnT", "accuracy", "Penn Treebank", False)
    assert facts[0].verification == Verification.passed
    assert facts[1].statement == "The tagger cannot handle unseen tags in German text."  # its connective left out


def test_verification_catches_unfaithful_statements():
    ev = "The tagger may reach 96.7% accuracy on the Penn Treebank."
    base = dict(subject="tagger", type="finding", evidence=["P:1"])
    ok = Fact(statement="The tagger may reach 96.7% accuracy on the Penn Treebank.", **base)
    assert verify_fact(ok, ev)[0] == Verification.passed
    dropped = Fact(statement="The tagger reaches 96.7% accuracy on the Penn Treebank.", **base)
    v, note = verify_fact(dropped, ev)
    assert v == Verification.failed and "may" in note
    wrong_number = Fact(statement="The tagger may reach 98.2% accuracy on the Penn Treebank.",
                        quantities=[Quantity(value=98.2, text="98.2%")], **base)
    assert verify_fact(wrong_number, ev)[0] == Verification.failed
    wrong_subject = Fact(statement="The parser may reach 96.7% accuracy.", subject="Charniak parser", type="finding", evidence=["P:1"])
    assert verify_fact(wrong_subject, ev)[0] == Verification.unresolved


def test_a_figure_given_with_a_bound_keeps_it():
    ev = "For a subset that is determined during processing by the tagger we achieve accuracy rates of over 99%."
    base = dict(subject="tagger", type="finding", evidence=["P:1"], quantities=[Quantity(value=99, text="99%", unit="%")])
    v, note = verify_fact(Fact(statement="The tagger reaches 99% accuracy rates.", **base), ev)
    assert v == Verification.failed and "bound dropped: over 99" in note
    assert verify_fact(Fact(statement="The tagger reaches accuracy rates of over 99%.", **base), ev)[0] == Verification.passed
    # a bounded figure the statement does not state is not the statement's to keep
    assert verify_fact(Fact(statement="The tagger reaches 96.7% accuracy.", **base | {"quantities": [Quantity(value=96.7, text="96.7%", unit="%")]}),
                       "The tagger reaches 96.7% accuracy, and over 99% on a subset.")[0] == Verification.passed
    # the same figure also given bare: the bare one may be stated
    assert verify_fact(Fact(statement="The tagger reaches 99% accuracy.", **base), ev + " On all words the tagger reaches 99% accuracy.")[0] == Verification.passed
    # a bound written as a symbol ("the observed > 0.8 precision") is a bound too
    symbol = dict(base, quantities=[Quantity(value=0.8, text="0.8")])
    v, note = verify_fact(Fact(statement="The tagger reaches 0.8 precision.", **symbol), "The tagger shows an observed > 0.8 precision.")
    assert v == Verification.failed and "bound dropped: > 0.8" in note


def test_a_subject_is_not_cut_out_of_an_aside_and_a_cited_work_is_its_authors():
    assert find_subject("(Pasca, 2007a) reports results of 100% precision for the first 25 instances.", "CRF-Tagger") == "Pasca"
    assert find_subject("Therefore the expected count of (x, y) is increased at each iteration.", "CRF-Tagger") == "expected count"
    assert find_subject("Several recent papers(Brill, 1994, Magerman, 1995) have reported 96.5% tagging accuracy.",
                        "CRF-Tagger") == "Several recent papers"
    assert find_subject("The tagger (TnT) is fast on unknown words.", "CRF-Tagger") == "TnT"  # a name in an aside still counts
    assert find_subject("The results of the parser are good on long sentences.", "CRF-Tagger") == "results of the parser"
    assert find_subject("Smoothing results in a large gain on unknown words.", "CRF-Tagger") == "Smoothing"


def test_cited_authors_are_the_subject_whatever_their_verb_and_whatever_the_tagger_saw_in_their_clause():
    from scholarstack.l1.offline import _subject

    spans = [("Merialdo", "Method"), ("negators semi-automatically", "Method"), ("L-LDA", "Method")]
    # A92-1018:28, D08-1083:147, the first 200 ACL ScisummNet papers: "Merialdo", "negators semi-automatically" before
    assert _subject("Derouault and Merialdo use a bootstrap method for training [Derouault and Merialdo, 1986].",
                    spans, "", "TnT") == "Derouault and Merialdo"
    assert _subject("Moilanen and Pulman (2007) collected a more extensive set of negators semi-automatically using WordNet 2.1, "
                    "but the empirical effect of such words was not explicitly investigated.", spans, "", "TnT") == "Moilanen and Pulman"
    assert find_subject("Zhang et al(2006) systematically explored seven different tree spans.", "TnT") == "Zhang et al"
    assert find_subject("Collins (1999) parser is used for all the experiments.", "TnT") != "TnT"  # a noun after the year: not its verb
    assert _subject("L-LDA and SVM have very similar performance on MacroF1.", spans, "", "TnT") == "L-LDA"  # systems, not authors
    assert _subject("Perhaps the biggest contribution of this work is in demonstrating that the stochastic method is viable.",
                    [], "", "TnT") == "biggest contribution of this work"


def test_a_leading_adverbial_or_clause_is_no_subject():
    # from the first 200 ACL ScisummNet papers: each gave its first word or its phrase as the subject
    assert find_subject("Contrary to claims found elsewhere in the literature, we argue that a tagger based on Markov "
                        "models performs as well as other current approaches.", "TnT") == "TnT"
    assert find_subject("Within each of the name-class states, we use a statistical bigram language model.", "Nymble") == "Nymble"
    assert find_subject("Below we describe this dataset in detail.", "HFWs") == "HFWs"
    assert find_subject("This way, we can gather likelihoods of an unknown word.", "Nymble") == "Nymble"
    assert find_subject("Although simple, this strategy is able to improve the polarity detection.", "X") == "strategy"
    assert find_subject("Although slow, these taggers are accurate.", "X") == "taggers"


def test_a_condition_is_no_piece_of_the_subject_nor_cut_at_a_bracket_or_a_lost_half():
    # from the first 200 ACL ScisummNet papers
    assert find_conditions("Much previous work on unsupervised grammar induction has used gold-standard part-of-speech tags.") == []
    assert find_conditions("The accuracy for known tokens is significantly higher than for unknown tokens.") == ["for unknown tokens"]
    assert find_conditions("Greene and Rubin used a rule-based approach in the TAGGIT program [Greene and Rubin, 1971].") == [
        "in the TAGGIT program"]
    assert find_conditions("The resulting system achieved significant improvements in both the ATIS and Geo880 domains.") == []
    # a verb inside a relative clause, "is-a", a "when" clause and "both" ending the phrase keep it
    assert find_conditions("We train with features that would make exact inference intractable.") == [
        "with features that would make exact inference intractable"]
    assert find_conditions("We trained on a corpus of 3GB with 50 is-a relationship seeds, when the data are clean.") == [
        "on a corpus of 3GB with 50 is-a relationship seeds", "when the data are clean"]
    assert find_conditions("The gains hold on both corpora.") == ["on both corpora"]
    # more main verbs ("involves", "tend"); discourse, bounds, relative clauses and pointers are no setting
    assert find_conditions("Another problem for the classifier involves differentiating between adjuncts and arguments.") == []
    assert find_conditions("And learning with compositional inference tend to perform better than heuristic rules.") == []
    assert find_conditions("For example, on average the gain is at least 22% for which the counts are given in Table 4.") == []
    assert find_conditions("As shown in Table 5, the tagger does well on the NEGRA corpus.") == ["on the NEGRA corpus"]
    assert find_conditions("Its precision is poor at all levels of recall, not at all.") == ["at all levels of recall"]
    assert find_conditions("We compare two methods for opinion source identification: CRFs and patterns.") == [
        "for opinion source identification"]  # a condition ends at a colon
    # a number's comma or point does not end it; a value with its measure is the result, not its setting
    assert find_conditions("We ran each estimator for at least 1,000 iterations, on a 20.5 GB corpus.") == [
        "for at least 1,000 iterations", "on a 20.5 GB corpus"]
    assert find_conditions("Doing so resulted in an attachment accuracy of 70.4%, and in an increase of 1.8 BLEU points.") == []
    assert find_conditions("The baseline performed at 79.8% precision, with a threshold of 0.3.") == ["with a threshold of 0.3"]


def test_a_quantity_takes_the_metric_named_nearest_it_in_its_own_clause():
    # from the first 200 ACL ScisummNet papers: every value was the first metric's before
    def metrics(text):
        return [(q.value, q.metric) for q in find_quantities(text, "")]

    assert metrics("The baseline system performed at 79.8% precision and 11.7% recall.") == [(79.8, "precision"), (11.7, "recall")]
    assert metrics("In sentences containing knowledge, precision was 0.99 and recall was 0.30.") == [
        (0.99, "precision"), (0.3, "recall")]
    assert metrics("They report results for omission (precision 75.7%, recall 45.67%).") == [(75.7, "precision"), (45.67, "recall")]
    assert metrics("It nevertheless achieved relatively high precision (around 90%) and recall.") == [(90.0, "precision")]


def test_one_claim_per_fact_and_no_fragments():
    from scholarstack.l1.offline import claims, clean_statement, extract_facts
    from scholarstack.models import SourceMap
    from scholarstack.models.source import Sentence

    assert claims("The need for large resources is a disadvantage of our earlier approach.In the next section we "
                  "show how the supertagger reduces it.") == [
        "The need for large resources is a disadvantage of our earlier approach.",
        "In the next section we show how the supertagger reduces it."]
    assert claims("We focus on the most common parts of speech (POS).This paper gives an overview of them.") == [
        "We focus on the most common parts of speech (POS).", "This paper gives an overview of them."]  # C08-1109:1
    # a footnote's number run in after the full stop (D09-1101, P05-1071): 1,271 of the 978 ACL papers' prose sentences
    assert claims("In comparison to the mention-pair baseline, F-score rises insignificantly according to all three "
                  "scorers.7 Similar trends can be observed for system mentions.") == [
        "In comparison to the mention-pair baseline, F-score rises insignificantly according to all three scorers.",
        "Similar trends can be observed for system mentions."]
    assert claims("Results are shown in Section 3.2 The model is described in Section 4.") == [
        "Results are shown in Section 3.2 The model is described in Section 4."]
    assert claims("The results of Smith (2003) are good.") == ["The results of Smith (2003) are good."]
    # a part that points back stays with the part it needs (C04-1041:95, C04-1041:4)
    pointing = ("The supertagger supplies plausible but incorrect categories for each word; these, together with the "
                "correct categories, determine the parse space.")
    assert claims(pointing) == [pointing]
    assert claims("Large increases in speed are obtained by integrating the supertagger.This is the first work to "
                  "integrate a supertagger with a full parser.We also further reduce the derivation space.") == [
        "Large increases in speed are obtained by integrating the supertagger. This is the first work to integrate a "
        "supertagger with a full parser.", "We also further reduce the derivation space."]
    assert claims("The tagger is fast on short sentences, whereas the parser is slow on long sentences.") == [
        "The tagger is fast on short sentences.", "The parser is slow on long sentences."]
    shared = "The tagger is slower than the stochastic taggers, but has significant advantages over these taggers in many respects."
    assert claims(shared) == [shared]  # the second clause has the first one's subject
    listing = "We describe three applications: phrase recognition; word sense disambiguation; and tagging."
    assert claims(listing) == [listing]
    # a semicolon inside brackets joins citations, not clauses; a citation's name may open with its particle
    cited = ("Recent comparisons of approaches that can be trained on corpora (van Halteren et al., 1998; Volk and "
             "Schneider, 1998) have shown that statistical approaches yield better results than rule-based taggers.")
    assert claims(cited) == [cited]
    assert clean_statement(cited).startswith("Recent comparisons of approaches that can be trained on corpora have shown")
    assert clean_statement("• The COMPO methods always perform better than any other heuristic-based methods.")[0] == "T"
    # a sentence in brackets whole is stated without them; a bracket that closes before the end stays
    assert clean_statement("(This approach cannot be used in an unsupervised setting since the tag distribution is "
                           "not available).") == "This approach cannot be used in an unsupervised setting since the tag " \
                                                 "distribution is not available."
    assert clean_statement("(a) the tagger is fast and (b) the parser is slow.").startswith("(a)")
    # a subsection's heading run in, whatever its words; not a sentence that opens with such a word itself
    assert clean_statement("Tagging Accuracy To our surprise, we found tag accuracies lower than reported.").startswith("To our")
    assert clean_statement("The Alignment Template System The statistical method is based on a word alignment.") == \
        "The statistical method is based on a word alignment."
    assert clean_statement("For A to inform S that P is true, A must believe that P is true.").startswith("For A to")
    sm = SourceMap(paper_key="P", title="A Tagger", sentences=[
        Sentence(sid=0, text="A Tagger", section="title"),
        Sentence(sid=1, text="sub corpus (0.10) to produce an overall Hit rate that improves accuracy.", section="4 Results"),
        Sentence(sid=2, text="The tagger achieves high accuracy on news text, whereas the parser is slow on long sentences.",
                 section="4 Results"),
        Sentence(sid=3, text="(2008) proposed an incremental alignment method that improves accuracy on news text.", section="4 Results"),
        Sentence(sid=4, text="), shallow lexical features such as collocations prove to be stronger contributors.", section="4 Results"),
        Sentence(sid=5, text="= 0.1), and the tagger improves accuracy if the parser cannot find a spanning analysis.",
                 section="4 Results"),
        Sentence(sid=6, text="sub-corpus, then the tagger improves accuracy on news text by 2%.", section="4 Results"),
        Sentence(sid=7, text="k-means clustering improves accuracy on news text by 2%.", section="4 Results"),
        Sentence(sid=8, text="We show that well-formed parses improve accuracy on news text by 2%.", section="4 Results"),
        Sentence(sid=9, text="1200), however, the tagger improves accuracy on news text by 2%.", section="4 Results"),
        Sentence(sid=10, text="2) The tagger improves accuracy on news text by 2%.", section="4 Results"),
        Sentence(sid=11, text="1 shows that the tagger improves accuracy on news text by 2%.", section="4 Results"),
        Sentence(sid=12, text="0 if the ambiguity class of symbol j includes the tag of state i.", section="4 Results"),
        Sentence(sid=13, text="400 sentences suffice for the tagger to improve accuracy on news text by 2%.", section="4 Results"),
        Sentence(sid=14, text="Has a significant impact on parser speed, reducing the parse times by a further 33%.",
                 section="4 Results"),
        Sentence(sid=15, text="The scope for errors is greatly reduced when performing solely deletions.Finally, both the "
                              "abstractive and extractive outputs are perceived as significantly worse than the gold standard.",
                 section="4 Results")])
    facts = extract_facts(sm)
    assert not [f for f in facts if f.evidence[0] in ("P:1", "P:3", "P:4", "P:5", "P:6", "P:9", "P:11", "P:12", "P:14")]
    assert [f for f in facts if f.evidence[0] == "P:13"]  # a number that a noun follows starts a sentence
    assert [f.statement for f in facts if f.evidence[0] == "P:7"][0].startswith("K-means clustering improves accuracy")
    assert [f.statement for f in facts if f.evidence[0] == "P:8"][0].startswith("Well-formed parses improve accuracy")
    assert [f.statement for f in facts if f.evidence[0] == "P:10"][0].startswith("The tagger improves accuracy")  # an item's number
    statements = sorted(f.statement for f in facts if f.evidence[0] == "P:2")
    assert statements == ["The parser is slow on long sentences.", "The tagger achieves high accuracy on news text."]
    # each claim of a run-together sentence is a statement of its own, without its connective
    assert [f.statement for f in facts if f.evidence[0] == "P:15"][1].startswith("Both the abstractive and extractive")


def test_a_reporting_frame_is_left_out_of_the_statement_but_a_hedge_is_kept():
    sm = SourceMap(paper_key="P", title="Pol II elongation", sentences=[
        Sentence(sid=0, text="Pol II elongation", section="title"),
        Sentence(sid=1, text="Here, we show that a mutation in the Rpb2 subunit of Pol II reduces the elongation rate in vivo.",
                 section="abstract"),
        Sentence(sid=2, text="Our results suggest that a reduced elongation rate leads to premature dissociation.", section="abstract"),
        Sentence(sid=3, text="We found that iPSCs differentiate into hepatocytes under these conditions.", section="abstract"),
        Sentence(sid=4, text="We show that the response saturates with dose, and that infected mice recover.", section="abstract"),
        Sentence(sid=5, text="Table 3 shows that global constraints are important for the elongation rate.", section="Results"),
        Sentence(sid=6, text="Experimental results show that the CRF model performs well on the elongation data.", section="Results")])
    by_sid = {f.evidence[0]: f for f in extract_facts(sm)}
    assert by_sid["P:1"].statement == "A mutation in the Rpb2 subunit of Pol II reduces the elongation rate in vivo."
    assert by_sid["P:1"].verification == Verification.passed  # still what its sentence says
    assert by_sid["P:2"].statement.startswith("Our results suggest that") and by_sid["P:2"].type == FactType.hypothesis
    assert by_sid["P:3"].statement.startswith("iPSCs differentiate")  # the name keeps its case
    assert by_sid["P:4"].statement == "The response saturates with dose and infected mice recover."
    # a table or figure that shows it is a frame too: the fact names its own subject, and cites the sentence
    assert by_sid["P:5"].statement == "Global constraints are important for the elongation rate."
    assert by_sid["P:5"].subject == "Global constraints" and by_sid["P:5"].verification == Verification.passed
    assert by_sid["P:6"].statement == "The CRF model performs well on the elongation data."  # so is "the results show"


def test_a_leading_connective_and_the_authors_evidence_frame_are_left_out_but_a_word_of_the_subject_stays():
    sm = SourceMap(paper_key="P", title="MICAL proteins", sentences=[
        Sentence(sid=0, text="MICAL proteins", section="title"),
        Sentence(sid=1, text="Moreover, we provide evidence that reactive oxygen species are crucial for actin regulation.",
                 section="abstract"),
        Sentence(sid=2, text="However, MICAL2 remains constitutively active and affects stress fibers.", section="abstract"),
        Sentence(sid=3, text="We conclude that MICAL1 is auto-inhibited by its coiled-coil region.", section="abstract"),
        Sentence(sid=4, text="Overall accuracy is 96.7% on the held-out test set of the corpus.", section="Results"),
        Sentence(sid=5, text="Notably, we have demonstrated that MICAL3 regulates stress fibers in HeLa cells.", section="Results"),
        Sentence(sid=6, text="Not surprisingly, corpus size and quality have a significant impact on expansion performance.",
                 section="Results")])
    by_sid = {f.evidence[0]: f for f in extract_facts(sm)}
    assert by_sid["P:1"].statement == "Reactive oxygen species are crucial for actin regulation."
    assert by_sid["P:2"].statement == "MICAL2 remains constitutively active and affects stress fibers."
    assert by_sid["P:3"].statement == "MICAL1 is auto-inhibited by its coiled-coil region."
    assert by_sid["P:4"].statement.startswith("Overall accuracy is 96.7%")  # no comma: the word belongs to the subject
    assert by_sid["P:5"].statement == "MICAL3 regulates stress fibers in HeLa cells."
    assert by_sid["P:6"].statement.startswith("Not surprisingly, corpus size")  # without "not" the gate would fail it
    assert all(f.verification == Verification.passed for f in by_sid.values())


def test_a_footnote_mark_a_running_head_or_a_numbered_heading_the_pdf_reader_ran_in_is_left_out():
    sm = SourceMap(paper_key="P", title="A Tagger", sentences=[
        Sentence(sid=0, text="A Tagger", section="title"),
        Sentence(sid=1, text="5 Note that even with approximation techniques, this algorithm is relatively efficient.", section="3 Model"),
        Sentence(sid=2, text="2 Corpus and features In our work we use the Penn Discourse Treebank, which contains many connectives.",
                 section="3 Model"),
        Sentence(sid=3, text="265 Computational Linguistics Volume 34, Number 2 The softmax function is used to convert activations.",
                 section="3 Model"),
        Sentence(sid=4, text="3.2 Secondary Predications There are two other functional tags that can be associated with a node.",
                 section="3 Model"),
        Sentence(sid=5, text="50 English sentences were annotated by two judges, who agreed on most of them.", section="3 Model"),
        Sentence(sid=6, text="2In a theory of discourse structure, we propose that centers are found in the attentional structure.",
                 section="3 Model"),
        # a section's heading run into its first sentence, up to a word that opens one
        Sentence(sid=7, text="5.3 Evaluation At Scale Section 5.1 shows that REVERB outperforms existing Open IE systems.",
                 section="3 Model"),
        Sentence(sid=8, text="Discussion Although DOP has not yet been tested thoroughly, we can already predict its results.",
                 section="3 Model"),
        Sentence(sid=9, text="Acknowledgements We thank the shared task organizers and treebank providers.", section="3 Model")])
    by_sid = {f.evidence[0]: f for f in extract_facts(sm)}
    # the footnote's mark goes, and with it the imperative frame ("Note that …")
    assert by_sid["P:1"].statement == "Even with approximation techniques, this algorithm is relatively efficient."
    assert by_sid["P:2"].statement.startswith("In our work we use the Penn Discourse Treebank")
    assert by_sid["P:3"].statement.startswith("The softmax function is used")
    assert by_sid["P:4"].statement.startswith("There are two other functional tags")
    assert by_sid["P:5"].statement.startswith("50 English sentences")  # a count that opens a sentence stays
    assert by_sid["P:6"].statement.startswith("In a theory of discourse structure")  # a footnote mark glued on
    assert by_sid["P:7"].statement.startswith("Section 5.1 shows that REVERB outperforms")
    assert by_sid["P:8"].statement.startswith("Although DOP has not yet been tested")
    assert "P:9" not in by_sid  # thanks are no statement about the work
    assert not any(f.subject[:1].isdigit() for f in by_sid.values() if f.evidence[0] != "P:5")
    assert by_sid["P:1"].verification == by_sid["P:3"].verification == Verification.passed  # still what its sentence says


def test_a_structured_abstracts_heading_is_left_out_of_the_statement_but_an_opening_acronym_stays():
    from scholarstack.l1.offline import clean_statement

    # SciFact 17077004: 250 of 1,410 SciFact facts opened with their abstract's heading
    assert clean_statement("CONCLUSIONS A stable partnership is associated with a slower rate of progression to AIDS.") == \
        "A stable partnership is associated with a slower rate of progression to AIDS."
    assert clean_statement("DESIGN, SETTING, AND PARTICIPANTS Patients in the linked database who were 67 years of age.") \
        .startswith("Patients in the linked database")
    assert clean_statement("RESULTS: we found that the rate fell by half.").startswith("The rate fell by half")
    for kept in ("PTEN loss drives tumour growth in mice.", "NSCLC patients were treated with the drug.",
                 "DATA are shown in the figure below."):
        assert clean_statement(kept) == kept
    sm = SourceMap(paper_key="P", title="Partnership and HIV", sentences=[
        Sentence(sid=0, text="Partnership and HIV", section="title"),
        Sentence(sid=1, text="CONCLUSIONS A stable partnership is associated with a slower rate of progression to AIDS.",
                 section="abstract"),
        Sentence(sid=2, text="SETTING Seven outpatient clinics throughout Switzerland.", section="abstract")])
    facts = extract_facts(sm)
    assert [f.evidence for f in facts] == [["P:1"]]  # a heading's own sentence is still no finding
    assert facts[0].statement.startswith("A stable partnership") and facts[0].verification == Verification.passed


def test_a_frame_that_points_at_a_statement_is_left_out_but_a_hedge_or_a_report_of_others_stays():
    from scholarstack.l1.offline import clean_statement

    for framed, statement in (
            ("We can see that the use of morphological information consistently improves the results on rare words.",
             "The use of morphological information consistently improves the results on rare words."),
            ("It should be noted that the WMT08 data set does not have multiple reference translations.",
             "The WMT08 data set does not have multiple reference translations."),
            ("It turns out that a partial alignment on the word level induces a more complete one.",
             "A partial alignment on the word level induces a more complete one."),
            ("We were also able to show that a Web-based approach achieves the same performance as the EM model.",
             "A Web-based approach achieves the same performance as the EM model.")):
        assert clean_statement(framed) == statement
    assert clean_statement("Secondly, the tagger is fast on long sentences.") == "The tagger is fast on long sentences."
    assert clean_statement("Ideally, the tagger is fast on long sentences.").startswith("Ideally")  # a hedge stays
    # where the paper shows it is the evidence's to say
    assert clean_statement("However, as can be seen from Table 2, the tagger is slower on long sentences.") == \
        "The tagger is slower on long sentences."
    assert clean_statement("As far as we know, the tagger is the first of its kind.").startswith("As far as we know")
    for kept in ("It seems that the tagger prefers frequent tags over rare ones.",
                 "It has been shown that lexicalized parsers outperform unlexicalized ones on the WSJ.",
                 "We note that this holds."):  # without the frame, too short to stand alone
        assert clean_statement(kept) == kept


def test_a_subject_is_the_main_clauses_not_a_lead_phrase_a_subordinate_or_a_relative_clause():
    system = "TnT"
    cases = {
        "If we find the correct translation among the top 100 candidates, we obtain a precision of around 58%.": system,
        "While there is a small effect when one uses an unlexicalized model, the lexicalized parser is slower.": "lexicalized parser",
        # The main clause's subject is a pronoun: the subordinate clause's own.
        "While several parsers described in the literature have used such techniques, there is little published work.":
            "several parsers described in the literature",
        "If the event description is found not to have the required aspectual type, it can be changed by inference.": "event description",
        "Instances which were not correctly recognized by the parser are discarded.": "Instances",
        "The procedure we are using is a variant of the EM algorithm.": "procedure",
        "Of the 1,226 phrases, the 6,000 triples were taken from the first test set.": "6,000 triples",
        "In general each of these subtrees will occur many times in the parses.": "subtrees",
        "But we can also transfer syntactic information from a parsed corpus.": system,
        "Beginning with a large set of clues marked with prior polarity, we identify the polarity of the phrases that hold them.": system,
        "In this section we give results for a system that labels roles.": system,
        "In order to reduce the time required to carry out training evaluation experiments, we have chosen two corpora.": system,
        "In such situations any selection between the alternatives will be appropriate.": "selection between the alternatives",
        "Zhao and Vogel (2002) go one step further and show that the extracted sentences improve alignments.": "Zhao and Vogel",
        "Recall that the claim implicit in Figure 1 was that the relative contribution matters.": "claim implicit in Figure 1",
        # a participle phrase leads; a gerund subject has its verb before the comma or after an aside
        "Starting from each finite verb, the parser finds chains of auxiliaries.": "parser",
        "Having noted these shortcomings, we have modified the algorithm.": system,
        "During the search process, a partial hypothesis is extended.": "partial hypothesis",
        "Relying on one rater for evaluation can be problematic, and we provide a second rating.": "Relying on one rater for evaluation",
    }
    assert {text: find_subject(text, system) for text in cases} == cases


def test_the_subject_ends_at_a_learned_verb_a_relative_clause_or_the_authors_frame():
    system = "our tagger"
    cases = {  # ACL sentences: before the lexicon the subject ran on past the verb
        "The algorithm proceeds in two stages.": "algorithm",
        "His system averages 3.48 subentries (maximum 10).": "His system",
        "The treebank comprises literary and newspaper texts.": "treebank",
        "The difference lies in the interpretation of the read position.": "difference",
        "Brent's work addresses the question of determining the correct morphological analysis.": "Brent's work",
        # a plural noun (after a determiner, a number, or before a verb), a coordinated verb, a clause's verb: not the main verb
        "Training costs are high for this model.": "Training costs",
        "Using all constraints increases the score by 1%, but slightly decreases the recall when only the first phase is used.":
            "Using all constraints",
        "As coordination with ellipsis occurs rather frequently in abstracts, this kind of phenomena has a higher effect.":
            "kind of phenomena",
        # the authors' frame after a lead: the subject of what they found, not their system
        "From our annotated set of preposition errors, we found that the most common prepositions that learners used "
        "incorrectly were in (21.4%).": "most common prepositions",
        "In our experiments, we showed that CBC outperforms several well known clustering algorithms.": "CBC",
        # a relative clause in a noun phrase: its noun, not a name inside the clause
        "The features which Collins used are simple.": "features",
        "The only condition under which choosing the first sense is more effective is rare.": "only condition",
        # a past form with its object after it is the verb (first 300 ACL papers, session 46); a participle is not
        "Accuracy averaged 92-93%, with a peak of 93.7%.": "Accuracy",
        "The resulting data set contained 5384 sentences.": "resulting data set",
        "The corpus of trees included approximately 2,850 rule occurrences.": "corpus of trees",
        "The test set consisted of 1,185 held-out bitexts at all lengths.": "test set",
        "Each annotator completed the four genres in a different permutation.": "annotator",
        "The first decile of the transcript, defined by length in words, contained 140 cue phrases.": "decile of the transcript",
        "The selected features were combined with the baseline.": "selected features",
        "The features we used are listed in Table 2.": "features",
        # an intransitive past form before its preposition (session 47)
        "The studies differed in the size of the corpora used.": "studies",
        "The size of the test set for each word ranged from 1,400 to 20,000.": "size of the test set for each word",
        # the authors after a lead phrase or a comma: theirs, not the lead's words
        "Under the first approach we proposed a novel directional measure for scoring entailment rules.": system,
        "From a training run of 15,000 sentences we observed 87,704 mnemonic productions.": system,
        "Near each Holder we then identified a region in which sentiments would be considered.": system,
        "To create a consistent dataset for experimenting with our model, we selected 20 tags of medium frequency.": system,
        "Something we learned the hard way is that the corpus is noisy.": "Something",
    }
    for sentence, subject in cases.items():
        assert find_subject(sentence, system) == subject, sentence


def test_he_or_she_is_the_person_the_statement_before_was_about():
    from scholarstack.l1.offline import _subject

    text = "He reports that precision varies from 97% to 64% on the test words."  # A97-1052, J01-2001 (ACL)
    assert _subject(text, [], "Manning", "our tagger") == "Manning"
    assert _subject(text, [], "Jacquemin's algorithm", "our tagger") == "Jacquemin"
    for thing in ("L-BFGS", "The Parser", "pattern-based approach"):  # no person: left as written
        assert _subject(text, [], thing, "our tagger") == "He"
    # a single author's "I" is the authors' voice, as "we" is (J01-2001, C86-1045)
    assert _subject("In this paper, I report two experiments on how much training data is needed.", [], "Manning",
                    "our tagger") == "our tagger"


def test_a_name_in_a_lead_phrase_is_the_setting_not_the_subject():
    from scholarstack.l1.offline import _subject

    system = "our tagger"
    cases = {  # ACL sentences (first 300 papers, session 47), with the tagger's mention in the lead
        "Even with the CCGbank rule constraints, the parser still builds many structures.": ("CCGbank", "parser"),
        "Using either the gold-standard data set or the output of automatic parsers, the classifiers achieve higher F1 "
        "scores.": ("automatic parsers", "classifiers"),
        "After running his parser over the 1988 AP corpus (44 million words), Hindle found 4,112,943 triples.": ("parser", "Hindle"),
        "Using this simple new approximate parsing algorithm, we train a new parser that can produce multiple parents.":
            ("approximate parsing algorithm", system),
        "Rather than building a corpus from scratch, we chose to add polarity labels to existing annotations.":
            ("corpus", system),
        "Of the 111 agents, 105 cases were correct (precision of 95%).": ("111", "105 cases"),
        "Inspired by Culotta et al. (2007), we train a supervised binary classifier on the pairs.":
            ("supervised binary classifier", system),
        # a plural present "differ" is the verb: "Gibbs samplers differ from …" (session 47's demo reading)
        "Blocked Gibbs samplers differ from the pointwise Gibbs samplers in how they resample.":
            ("pointwise Gibbs samplers", "Blocked Gibbs samplers"),
        # not a lead: a gerund subject ("Using …" with no comma after it), or one whose words go on the lead's list
        "Using 10 times as much data (20,000 tagged sentences) provides an improvement of only 1.5%.":
            ("improvement", "Using 10 times as much data"),
        "Using multiple decoding paths, and no explicit model merging at all, produced even better results.":
            ("decoding paths", "decoding paths"),
    }
    for sentence, (mention, subject) in cases.items():
        assert _subject(sentence, [(mention, "Method")], "previous", system) == subject, sentence


def test_the_subject_is_a_whole_noun_phrase_not_a_piece_of_the_clause():
    from scholarstack.l1.offline import _subject

    system = "our tagger"
    cases = {
        # a list of three is the subject, not its last item
        "Recall, precision, and alignment error rates on the test set are shown in Table 1.":
            "Recall, precision, and alignment error rates on the test set",
        # a verb the rules do not list, before its clause
        "Simple inspection of the data reveals that product features usually contain more than one word.":
            "Simple inspection of the data",
        "The resulting condition guarantees that no items will be added.": "resulting condition",
        # an adverb before the verb is no part of the subject
        "The graph also shows that co-training performance levels out after 80 rounds.": "graph",
        "Larger training sets generally give smaller error.": "Larger training sets",
        "This understanding not only is useful in its own right.": "understanding",
        # a prepositional phrase before the noun, an aside after it
        "For example, with precision loss the time complexity is cubic.": "time complexity",
        "Corpus 1, for example, contains 17 definite descriptions.": "Corpus 1",
        # the authors speak in the main clause after a lead-in
        "To evaluate the model, we conducted five experiments, each differing from the previous one in one aspect.": system,
        # … and in a main clause that runs to the comma ("In this paper we use X, which …"), not in a comment clause
        "In this paper we use the normal-form model, which defines probabilities, where y is a derivation.": system,
        "As we can see, the ranker achieves F-scores of 57.8.": "ranker",
        # a long noun phrase keeps its head ("combination of …", not "of the two types of …")
        "The combination of the two types of normal form constraints reduces the memory requirements by 48%.":
            "combination of the two types of normal form constraints",
        # two clauses joined by "and" are no list
        "The tagger is fast, and it uses little memory.": "tagger",
        # a subject cut after a preposition or a conjunction ends before it; a lone function word is no subject
        "Localized reordering models such as have no means of identifying a swap.": "Localized reordering models",
        "Notice that the difference in Pk values between (15, 35) and (10, 40) is slightly larger.": "difference in Pk values",
        "And with improved inference for unsupervised models, Labeled LDA lends itself naturally to modeling.": "TnT",
        "The Model A clearly outperforms all baselines on the test set.": "Model A",  # a name's capital A stays
        # an "it" that stands for the clause after it, not for the previous subject (ACL sentences, shortened)
        "It has been shown that cue phrases can assist in the resolution of anaphora.": "cue phrases",
        "It was found that the parser achieved 51% precision and 69% recall.": "parser",
        "It is important to note that the test set does not include pleonastic pronouns.": "test set",
        # "there is": what there is, not the authors' system
        "There are several reasons for this behaviour.": "several reasons",
        "Traditionally, there have been two primary types of evaluation for measures of relatedness: one is correlation.":
            "two primary types of evaluation",
        # a cleft or a copula with a noun of its own: "it" points back
        "It is also the first joint system that achieves state-of-the-art accuracy.": "TnT",
    }
    assert {text: _subject(text, [], "TnT", system) for text in cases} == cases


def test_a_demonstrative_names_its_own_noun_or_points_back():
    from scholarstack.l1.offline import _subject

    previous, system = "TnT", "our tagger"
    cases = {
        "This information is not used by the K-vec algorithm.": "information",
        "This process is repeated until convergence.": "process",
        "This assignment, however, is not definite.": "assignment",
        "However, these methods, although polynomial time, are substantially less efficient.": "methods",
        "Phrase pairs that cannot stand on their own are deleted.": "Phrase pairs",
        # an aside is no subject, after a lead phrase either
        "For longer sentences, however, the difference is a substantially larger 15.7%.": "difference",
        # a discourse word with its comma is no subject; without one it may start the subject's phrase
        "Unfortunately, this result was not conclusive.": previous,
        "Besides, the parser is slow on long sentences.": "parser",
        "Instead of rules, the tagger uses statistics.": "tagger",
        "The danger of false alarms, then, appears not to be as significant.": "danger of false alarms",
        # a gerund subject before an aside is no participle phrase leading
        "Defining an upper bound K, however, does have a disadvantage.": "Defining an upper bound K",
        "Tagging accuracy, however, is high on news text.": "Tagging accuracy",
        # pointing back: a pronoun, a demonstrative alone or before a verb, a generic noun, a noun that runs on
        "This means that we can treat the corpus as one string.": previous,
        "This is so because an automatic process cannot do better.": previous,
        "These still require considerable discretion.": previous,
        "This approach achieves state-of-the-art performance.": previous,
        "These results are competitive with those of other models.": previous,
        "These strata reflect the degree of centrality of a given word.": previous,
        "It uses a lexicon of 40,000 words.": previous,
        # the authors
        "This paper presents our tagger, a statistical part-of-speech tagger.": system,
        "That is, our tagger even outperforms the baseline.": system,
    }
    assert {text: _subject(text, [], previous, system) for text in cases} == cases


def test_a_sentence_that_says_something_of_the_one_before_is_folded_into_its_fact():
    sm = SourceMap(paper_key="P", title="A Tagger", sentences=[
        Sentence(sid=0, text="A Tagger", section="title"),
        Sentence(sid=1, text="Web counts correlate with BNC counts at 0.85 for adjective-noun bigrams.", section="4 Results"),
        Sentence(sid=2, text="This indicates that Web counts approximate BNC counts.", section="4 Results"),
        Sentence(sid=3, text="This shows that Web counts improve accuracy on news text by 2%.", section="5 Discussion"),
        Sentence(sid=4, text="This approach improves accuracy on news text by 3%.", section="5 Discussion"),
        # a sentence the reader cut at an abbreviation's point or at a quote lost to "?": its rest is folded in
        Sentence(sid=5, text="The tagger improves accuracy over the baseline of Rooth et al.", section="5 Discussion"),
        Sentence(sid=6, text="(1999) by 2% on news text.", section="5 Discussion"),
        Sentence(sid=7, text="The parser reaches 91% F1 with a “clustering solution”", section="5 Discussion"),
        Sentence(sid=8, text="instead of support vectors.", section="5 Discussion"),
        # a question the paper asks is no fact, and a fragment after a whole sentence is none either
        Sentence(sid=9, text="How much does accuracy improve on news text as the lexicon grows?", section="5 Discussion"),
        Sentence(sid=10, text="The lexicon improves accuracy on news text by 4%.", section="5 Discussion"),
        Sentence(sid=11, text="occur less often than a threshold are mapped to an unknown word.", section="5 Discussion"),
        # "They" and "These results" need the sentence before; an expletive "It is possible …" does not
        Sentence(sid=12, text="Smith and Jones improve a tagger on news text with a large lexicon.", section="6 Related work"),
        Sentence(sid=13, text="They report 96.7% accuracy on the Penn Treebank.", section="6 Related work"),
        Sentence(sid=14, text="It is possible that the lexicon improves accuracy on news text by 5%.", section="6 Related work"),
        # after a sentence that states no finding of its own, the finding is of both, anchored there
        Sentence(sid=15, text="Brown and Lee tag learner text with a large lexicon.", section="7 Learner text"),
        Sentence(sid=16, text="They report 80% precision on news text.", section="7 Learner text")])
    facts = {tuple(f.evidence): f for f in extract_facts(sm)}
    folded = facts[("P:1", "P:2")]  # one fact that stands alone, citing both sentences
    assert folded.statement == ("Web counts correlate with BNC counts at 0.85 for adjective-noun bigrams. "
                                "This indicates that Web counts approximate BNC counts.")
    assert folded.verification.value == "passed" and [q.value for q in folded.quantities] == [0.85]
    # across a section boundary there is no sentence of its own before it; a demonstrative noun phrase speaks of
    # the sentence before ("This approach" is the one it told of)
    assert facts[("P:3", "P:4")].statement.endswith("by 2%. This approach improves accuracy on news text by 3%.")
    assert facts[("P:5", "P:6")].statement == ("The tagger improves accuracy over the baseline of Rooth et al. "
                                               "(1999) by 2% on news text.")
    assert [q.value for q in facts[("P:5", "P:6")].quantities] == [2.0]
    assert facts[("P:7", "P:8")].statement.endswith("with a “clustering solution” instead of support vectors.")
    assert ("P:10",) in facts
    assert facts[("P:12", "P:13")].statement.endswith("lexicon. They report 96.7% accuracy on the Penn Treebank.")
    assert ("P:14",) in facts
    both = facts[("P:15", "P:16")]
    assert both.statement == "Brown and Lee tag learner text with a large lexicon. They report 80% precision on news text."
    assert both.verification.value == "passed" and [q.value for q in both.quantities] == [80.0] and len(facts) == 8


def test_a_demonstrative_noun_phrase_or_a_part_of_what_was_listed_is_folded_and_a_measured_result_makes_a_finding():
    sm = SourceMap(paper_key="P", title="A Tagger", sentences=[
        Sentence(sid=0, text="A Tagger", section="title"),
        Sentence(sid=1, text="We convert the parse trees of the Penn Treebank into dependency graphs.", section="3 Method"),
        Sentence(sid=2, text="This step identifies the constructions that require special treatment.", section="3 Method"),
        Sentence(sid=3, text="We trained two taggers on the Brown corpus and on the Penn Treebank.", section="4 Results"),
        Sentence(sid=4, text="Both of these taggers reach 96.5% accuracy on news text.", section="4 Results"),
        Sentence(sid=5, text="We use a lexicon of 40,000 words from the Penn Treebank.", section="5 Discussion"),
        Sentence(sid=6, text="This paper describes a tagger that improves accuracy on news text by 2%.", section="5 Discussion")])
    facts = {tuple(f.evidence): f for f in extract_facts(sm)}
    step = facts[("P:1", "P:2")]  # "This step" needs the sentence that says which step
    assert step.statement.endswith("dependency graphs. This step identifies the constructions that require special treatment.")
    assert step.type in (FactType.method_description, FactType.dataset_description)  # no result in it: still a description
    both = facts[("P:3", "P:4")]  # the method told, then its measured result: a finding
    assert both.type == FactType.finding and [q.value for q in both.quantities] == [96.5]
    assert ("P:6",) in facts  # "This paper" is the paper itself, not the sentence before


def test_a_quantifier_standing_alone_before_its_verb_points_back_and_one_before_a_noun_does_not():
    sm = SourceMap(paper_key="P", title="A Tagger", sentences=[
        Sentence(sid=0, text="A Tagger", section="title"),
        Sentence(sid=1, text="We use two heuristics to determine the polarity of an expression.", section="3 Method"),
        Sentence(sid=2, text="Each assesses the polarity of the words using a polarity lexicon.", section="3 Method"),
        Sentence(sid=3, text="We trained a tagger and a parser on the Penn Treebank.", section="4 Results"),
        Sentence(sid=4, text="Both are trained with the averaged perceptron.", section="4 Results"),
        Sentence(sid=5, text="Each sentence is tagged with the Viterbi algorithm.", section="4 Results")])
    facts = {tuple(f.evidence): f for f in extract_facts(sm)}
    assert ("P:1", "P:2") in facts and ("P:3", "P:4") in facts  # "Each" and "Both" stand for what the sentence before named
    assert ("P:5",) in facts  # "Each sentence" names its own noun


def test_a_question_after_a_conjunction_or_a_lead_phrase_is_still_a_question():
    from scholarstack.l1.offline import QUESTION

    for question in ("So which version of BLEU should we use?",
                     "And, at the other extreme, what about a corpus which contains the words look and book?",
                     "In this case, how should the model weigh them?"):
        assert QUESTION.match(question), question
    for statement in ("We performed experiments on the Prague Dependency Treebank (Hajic?, 1998).",
                      "The tagger is fast on unknown words."):
        assert not QUESTION.match(statement), statement


def test_a_finding_about_cited_work_is_told_from_the_papers_own():
    cited = [("Izumi et al (2004) train a maximum entropy model.", "maximum entropy model"),
             ("Kameyama (1985: Ch.1) hypothesized that centering is local.", "centering"),
             ("[Garside et al. 87] reports 96% accuracy.", "accuracy"), ("Dagan et al, 1993; Fung and Church, 1994) focus on alignment.", "alignment"),
             ("(Calzolari & Bindi 1990) use association ratios.", "association ratios"),
             ("Carpuat and Wu (2005) integrated the translation predictions.", "translation predictions"),
             ("Derouault and Merialdo use a bootstrap method.", "Derouault and Merialdo")]
    own = [("When evaluated on the ACE 2005 data sets, cluster rankers outperform three models.", "ACE 2005"),
           ("S2 and S3 have very different meanings.", "S2 and S3"),
           ("We see that these features have a large impact, similarly to Carreras (2007).", "features"),
           ("CoNLL 2008 data are used for training.", "CoNLL 2008 data")]
    assert all(about_cited_work(s, subj) for s, subj in cited)
    assert not any(about_cited_work(s, subj) for s, subj in own)


def test_a_value_stated_as_a_change_is_a_delta_not_a_level():
    from scholarstack.l1.offline import find_quantities

    def deltas(text):
        return [(q.value, q.metric, q.delta) for q in find_quantities(text, "X")]

    assert deltas("Our tagger improves accuracy by 2.5% on the WSJ.") == [(2.5, "accuracy", True)]
    assert deltas("The library gives good results, with precision within 3 points of the statistical models.") == \
        [(3.0, "precision", True)]
    assert deltas("The model is 1.8 BLEU points better than the baseline.") == [(1.8, "bleu", True)]
    assert deltas("TnT achieves 96.7% accuracy on the Penn Treebank.") == [(96.7, "accuracy", False)]



def test_any_different_is_the_weakest_finding_cue_and_a_step_told_as_such_is_a_method():
    # "different X" types a sentence only when no other cue does
    assert classify("Four different degrees of degradation were used: none, the lexicon and the transitions.") == FactType.method_description
    assert classify("We compared different models with varying numbers of clusters.") == FactType.method_description
    assert classify("Different semantic roles tend to be realized by different syntactic categories.") == FactType.finding
    assert classify("Different taggers may prefer different tag sets.") == FactType.hypothesis
    assert classify("The results are quite different from those of the baseline.") == FactType.finding  # what is compared
    # a step told as such, whatever its verb; a hedge inside it qualifies the step
    assert classify("We first identify a set of candidate entities that a given mention may refer to.") == FactType.method_description
    assert classify("We then identify the head of each noun phrase with a set of rules.") == FactType.method_description
    assert classify("We have experimented with two state models for the tagger.") == FactType.method_description
    assert classify("Here we identify TRIM5 as a restriction factor that inhibits infection.") == FactType.finding
    assert classify("We then found that the tagger performs poorly on unknown words.") == FactType.finding
    assert classify("We then retrained our classifier and achieved roughly comparable results.") == FactType.finding
