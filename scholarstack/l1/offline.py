"""Offline L1 extraction: learned entity models plus rules, no LLM.

Reported results become facts of their own (l1/results.py: values bound to method, metric,
dataset and task with the learned mention tagger). For every other prose sentence: decide whether
it states something reusable and of which type (cue patterns in a fixed priority), then fill the
fact's parts: subject (a tagged mention before the main verb; for "It" or "This approach" the
previous statement's subject; the paper's own system when the authors speak as "we"), conditions
and assumptions (prepositional and conditional phrases), and quantities bound to a metric and
dataset found around them.
"""

from __future__ import annotations

import re

from ..models import Context, Fact, FactType, Provenance, Quantity, SourceMap, split_locator
from ..verify import verify_fact
from ..l2.mentions import points
from ..learned import verb_forms
from .results import CHANGE_AFTER, DANGLING, DELTA, RELATIVE, analyse, result_facts
from .statistics import STATISTICS, estimates, qualifiers

# "[3, 4]", "(Brill, 1995; van Halteren et al., 1998)": a name may open with its particle ("van", "de")
_NAME = r"(?:(?:van|von|de|der|den|di|da|du|le|la) )*[A-Z][A-Za-z\-]+"
CITATION_RE = re.compile(rf"\s*(\[[\d,\s\-–]+\]|\((?:{_NAME}(?: et al\.)?(?: and {_NAME})?,? \d{{4}}[a-z]?;?\s*)+\))")
SKIP_SECTIONS = re.compile(r"acknowledg|reference|bibliograph|appendix|title", re.I)

# What names data, and the authors making it: the dataset cue's words, which _about_data reads too
_DATA_WORDS = r"corpus|corpora|dataset|data set|treebank|training data|test data|test set|training set"
_DATA_BY_AUTHORS = (r"we (?:collected|annotated|compiled|crawled)|annotated (?:with|by|for)|"  # "we created our own corpus"
                    r"we (?:have )?(?:created|constructed|built|assembled)\s+(?:[\w\-]+\s+){0,3}?(?:corpus|corpora|dataset|data set|treebank)")
TYPE_CUES: list[tuple[FactType, re.Pattern]] = [
    (FactType.theoretical_result, re.compile(
        r"\b(theorem|lemma|corollary|we prove|is proven|converges?|convergence|upper bound|lower bound|"
        r"guarantee[sd]?|np-hard|np-complete|polynomial[- ]time|decidable|asymptotic(?:ally)?)\b", re.I)),
    (FactType.limitation, re.compile(
        r"\b(limitations?|drawbacks?|shortcomings?|fails? to|failed to|cannot|can ?not|unable to|"
        r"unfortunately|is restricted to|are restricted to|future work|remains? (?:an )?open|does not (?:scale|generalize|work)|"
        # what is left to do ("We plan to extend …"; not "we need to …", as often a step of the method as work left)
        r"we (?:also |further )?(?:plan|intend|hope) to|left (?:for|to) future|"
        r"is (?:too )?(?:expensive|costly|slow)|suffers? from|"
        # "… is still problematic", "has problematic properties"; not "these problematic parts of speech" (what the work is about)
        r"(?:is|are|was|were|be|been|remains?|remained|proves?|proved|becomes?|became|seems?|seemed|appears?)\s+(?:\w+\s+){0,2}?"
        r"problematic|problematic\s+(?:properties|aspects?|for))\b", re.I)),
    (FactType.hypothesis, re.compile(
        # a hypothesis stated, not MT's or entailment's ("a translation hypothesis", "text and hypothesis")
        r"\b(we hypothesi[sz]ed?|hypothesis (?:is|was) that|(?:confirm|support|test|reject|verif|explor)\w*\s+"
        r"(?:the|our|this|a|an) hypothesis|(?:our|this|these|working|main) hypothes[ie]s|hypothesis\s+\d|"
        # not in a relative clause ("all the elements which we believe to have an effect …": a description)
        r"(?<!which )(?<!that )(?:we conjecture|we expect|we suspect|we believe|we speculate)|"
        r"it is (?:possible|likely) that|presumably|we predict)\b", re.I)),
    # what a result states: an outcome, a comparison, a test's verdict
    (FactType.finding, re.compile(
        r"\b(achiev\w*|outperform\w*|improv\w*|results? (?:show|indicate|suggest)\w*|"
        r"significant(?:ly)?|better than|worse than|higher than|lower than|(?:more|less|fewer) [a-z]+ than|"
        # a result's comparison, not a size ("a much larger pool of raw sentences", "the slightly smaller corpus")
        r"(?<!\ba )(?<!\ban )(?<!\bthe )(?:much|far|considerably|substantially|markedly|slightly) "
        r"(?:lower|higher|better|worse|faster|slower|smaller|larger)|"
        r"increas\w*|decreas\w*|reduc\w*|gains?|show(?:s|ed|n)? that|found that|find that|found (?:\w+ )?to be|"
        r"demonstrat\w*|observe[ds]?|effective|correlat\w*|reveal\w*|indicat(?:e|es|ed|ing) that|"
        r"encodes|encoded by|"  # a gene's product (the method cue's "encod" is for what features and vectors encode)
        # "different" as what is compared ("are quite different", "different from"); any "different X" is ANY_DIFFERENT
        r"differ(?!ent\b)\w*|(?:is|are|was|were|be|been|quite|very|significantly|substantially|markedly|considerably|"
        r"strikingly|notably|fundamentally|completely|entirely|rather|so)\s+different|different\s+(?:from|than)|"
        r"did not|was not|were not)\b", re.I)),
    (FactType.dataset_description, re.compile(rf"\b({_DATA_WORDS}|{_DATA_BY_AUTHORS})\b", re.I)),
    # "We also use …" says what was done; "We then describe …", "We now describe …" point ahead
    (FactType.method_description, re.compile(
        r"\b(we (?:also |further |additionally |"
        r"(?:then |first |next |now |finally |subsequently )(?!describe|present|introduce|discuss))?(?:have |had )?"
        r"(?:propose|present|introduce|describe|report|use|employ|apply|applied|adopt|train|develop|implement|define|extend|combine|"
        r"build|model|formulate|compute|estimate|represent|experiment|instantiate|construct|create|extract|evaluate|conduct|"
        r"perform|select|generate|adapt)(?:d|ed|led)?|we (?:also |then |first )?(?:chose|choose)|we (?:also |then |first )?(?:have |had )?built|"
        r"our (?:approach|method|model|system|"
        r"algorithm|framework|parser|tagger)|(?:is|are) based on|consists? of|is trained|is computed|"
        r"is defined|is estimated|(?:is|are|was|were|can be|could be|will be|may be) (?:also )?"
        r"(?:applied|used|employed|adopted|implemented)|algorithm|encod\w*|"
        # what the work sets out to do: the closest type to an aim ("The aim of this paper is to examine …")
        r"we aim|(?:aim|goal|purpose|objective)s? of (?:this|the present|our) (?:paper|work|study|article|research))\b",
        re.I)),  # a gene "encodes" (a finding); features "encode"
]
# What a finding is often about, but a description names too: a measure ("We report yield in lieu of recall"), an
# outcome verb of the life sciences (SciFact's rationales: what regulates, requires, induces what), which a method
# uses in its own sense ("A simple edit distance metric was used to identify pairs", "Computing it requires O(n2)
# steps"). With an outcome ("identify about 85% of the noun phrases") it is a finding; otherwise a description's
# cue decides first.
TOPIC_FINDING = re.compile(
    r"\b(accuracy|precision|recall|f-?scores?|f-?measure|f1|bleu|error rates?|"
    r"regulat\w*|requir\w*|induc\w*|inhibit\w*|activat\w*|promot\w*|suppress\w*|mediat\w*|implicat\w*|"
    r"indicat\w*|identif\w*|confer\w*|predict\w*|dispensable|essential for|necessary for|"
    r"sufficient (?:for|to)|(?:no|little|an?) effect|risks?|ratios?|associated with)\b", re.I)
# Any "different X" is the weakest finding cue: it types a sentence only when no other cue does (with a method
# cue, "We compared different models …" is a method description).
ANY_DIFFERENT = re.compile(r"\bdifferent(?:ly)?\b", re.I)
HEDGE_RE = re.compile(r"\b(may|might|could|possibly|perhaps|suggests?(?!\s+(?:the|an?)\s))\b", re.I)  # not "suggests the correction"
NUMBER_RE = re.compile(r"(?<![\w.,(§])(\d+(?:\.\d+)?)(?![,\d]|\.\d)\s*(%|percent|points?|pp|ms|s\b|seconds|hours|words|sentences|tokens|documents|k\b|M\b|x\b|times)?")
METRICS = [
    "accuracy", "precision", "recall", "f-score", "f-measure", "f1", "f score", "bleu", "nist", "meteor", "rouge",
    "error rate", "word error rate", "wer", "aer", "perplexity", "mrr", "map", "uas", "las", "kappa", "correlation",
    "coverage", "speed", "auc", "ndcg", "exact match",
]
_METRIC_NAMES = "|".join(re.escape(m) for m in sorted(METRICS, key=len, reverse=True))
METRIC_RE = re.compile(rf"\b({_METRIC_NAMES})\b", re.I)
# The main verb a subject stands before; "results" only as one ("results in"): "The results are …" is the noun.
VERB_RE = re.compile(  # not after a determiner: "the claim", "our results", "its uses" are nouns
    r"(?<!\bthe )(?<!\ba )(?<!\ban )(?<!\bour )(?<!\bits )(?<!\btheir )"
    r"\b(is|are|was|were|has|have|had|can|cannot|could|may|might|must|will|would|should|achieves?|achieved|outperforms?|"
    r"outperformed|yields?|yielded|differ(?:s|ed)?|ranged|varied|shows?|showed|uses?|used|improves?|improved|performs?|"
    r"performed|reduces?|consisted|relied|"
    r"reduced|increases?|increased|leads?|led|gives?|gave|obtains?|obtained|reaches|reached|requires?|"
    r"provides?|produces?|consists?|contains?|depends?|allows?|makes?|results?(?=\s+(?:in|from)\b)|relies|converges?|fails?|"
    r"suffers?|remains?|seems?|appears?|tends?|does|do|did|reports?|reported|finds?|found|argues?|claims?|"
    r"returns|computes|assigns|generates|selects|learns|predicts|combines|takes)\b", re.I)
# A verb VERB_RE does not list, from the learned lexicon of -s forms ("The algorithm proceeds in two stages",
# "His system averages 3.48 subentries"), unless the word before makes it a plural noun ("the costs", "different
# runs", "two sets") or a coordinated verb ("…, but slightly decreases"), a clause opened before it makes it that
# clause's verb ("As coordination occurs …", "… cases when the system classifies …"), or a verb follows it.
# A past form is the verb only with its object after it: a number or a determiner ("contained 140", "averaged 92%").
WORD_S_OR_ED = re.compile(r"(?<= )(?:[a-z]{3,}s\b(?!-)|[a-z]{3,}(?<!e)ed\b)")
ED_OBJECT = re.compile(r"(?:(?:\w+ly|about|over|only|nearly|almost|some)\s+)?(?:\d|(?:the|a|an|its|their|his|her)\s)")
AUXILIARIES = frozenset("is are was were be been being has have had get gets got having".split())
NOT_BEFORE_VERB = verb_forms.NOUN_WORDS | {"it", "they", "this", "these", "there", "and", "or", "but", "nor"}
OPENS_CLAUSE = frozenset("that which who whom whose when where if whether as because since while although though than "
                         "how what why".split())


# Whether a sentence has a verb at all: a citation, a heading or a cut the PDF reader left ("The Task and the Corpus.",
# "In Proceedings of the 10th International Conference …", "The use of an complete flexibility in the choice of
# training corpora.") states nothing. Plural present verbs are known by the learned lexicon's base forms ("Examples
# include …", "Patterns encode …"); the authors' and others' voice and irregular past forms by name.
SOME_VERB = re.compile(r"\b(?:we|they|i|you|he|she|it)\s+[a-z]{2,}|\b(?:took|made|gave|found|became|began|came|got|held|kept|"
                       r"left|led|met|ran|saw|said|sent|set|showed|stood|told|thought|won|wrote|brought|built|chose|drew|"
                       r"fell|felt|grew|knew|lost|meant|paid|put|rose|sought|spent|taught|understood|arose|let|cut|"
                       r"shown|known|seen|done|given|taken|be|being)\b", re.I)
LIST_CUT = re.compile(r":\s*\(?(?:\d{1,2}|[a-h]|i{1,3}|iv)[.)]?\s*$")  # "… are: 1." (its items were split off)
RELATIVE_PRONOUN = re.compile(r"\b(?:which|that|who|whose|where)\b")


def has_verb(text: str) -> bool:
    if VERB_RE.search(text) or PAST.search(text) or S_VERB.search(text) or SOME_VERB.search(text):
        return True
    bases = verb_forms.base_forms()
    return any(w in bases for w in re.findall(r"\b[a-z]{3,}\b", text))


def main_verb(text: str) -> re.Match | None:
    """The main verb a subject stands before: VERB_RE's first, or an earlier one of the lexicon's, or an earlier
    past form with its object ("The first decile … contained 140 cue phrases", "Accuracy averaged 92-93%")."""
    m = VERB_RE.search(text)
    forms = verb_forms.load()
    for w in WORD_S_OR_ED.finditer(text, 0, m.start() if m else len(text)):
        past = w.group(0).endswith("ed")
        if not past and w.group(0) not in forms:
            continue
        before = [b.lower() for b in text[: w.start()].split()]
        near = next((b for b in reversed(before) if not b.endswith("ly")), "")  # past its adverbs
        if not near or near in NOT_BEFORE_VERB or near[0].isdigit() or OPENS_CLAUSE.intersection(before):
            continue
        rest = text[w.end():].lstrip()
        if past and (near in AUXILIARIES or not ED_OBJECT.match(rest)):
            continue  # "was followed by", "the model trained on WSJ is …": a participle
        if not VERB_RE.match(rest) and rest.split(" ", 1)[0] not in forms:
            return w
    return m


ABSTRACT_MAX = 30  # sentences; a longer "abstract" is a body the PDF reader did not split
S_VERB = re.compile(r"\b[a-z][a-z\-]{2,}(?<!ss)(?<!us)(?<!is)s\b")  # plural nouns match too: hence ABSTRACT_LABEL
# Structured abstracts' labels that open a description, not a finding ("SETTING Seven outpatient clinics").
ABSTRACT_LABEL = re.compile(
    r"^(?:(?:OBJECTIVES?|AIMS?|PURPOSE|DESIGN|SETTINGS?|PARTICIPANTS|PATIENTS|SUBJECTS|(?:MAIN )?OUTCOMES?(?: AND)? MEASURES?|"
    r"EXPOSURES?|INTERVENTIONS?|FUNDING|DATA SOURCES|STUDY SELECTION|(?:SYSTEMATIC REVIEW |TRIAL )?REGISTRATION)\b|"
    r"(?:Objectives?|Aims?|Purpose|Design|Settings?|Participants|Exposures?|Interventions?|Funding|Main [Oo]utcome [Mm]easures?)"
    r"\s+(?:[A-Z(]|To\b))")
AUTHOR_START = re.compile(r"^(we|our|i|my|in this (?:paper|work|article|study)|this (?:paper|work|article|study|section|chapter)|here,? we)\b", re.I)
CONDITION_RE = re.compile(  # a number's comma or point is no boundary ("for at least 1,000 iterations", "with 2.5 GB")
    r"\b(on|for|under|when|using|with|in|across|over|without|given|at)\s+((?:the\s+)?(?:[^,;:.()\[\]]|(?<=\d)[,.](?=\d)){3,80}?)"
    r"(?=(?!(?<=\d)[,.]\d)[,;:.()\[\]]|\s+(?:and|but|which|while|whereas|than)\b|$)",
    re.I)
ASSUMPTION_RE = re.compile(r"\b(assuming|if|provided that|under the assumption that|given that|whenever)\s+([^,;.]{3,100})", re.I)
DATASETISH = re.compile(r"\b([A-Z][\w\-]*(?:\s+[A-Z0-9][\w\-]*){0,3}\s+(?:Treebank|Corpus|corpus|dataset|data|task|test set|collection))\b|\b(WSJ|Penn Treebank|Brown|Switchboard|Europarl|Hansards?|MUC-?\d+|CoNLL[\w\-]*|TREC[\w\-]*|SemEval[\w\-]*|Senseval[\w\-]*|ACE|GENIA|Verbmobil)\b")
DETERMINERS = re.compile(r"^((?:each|all|some|most|many|one|none|both|either|neither) of(?: the| these| those| our| its| their)?|"
                         r"the|a|an|any|every|this|these|that|those|such|our|their|its|both|each|all|in addition,?|however,?|moreover,?|furthermore,?|finally,?|thus,?|therefore,?|also|first,?|second,?|then,?)\s+", re.I)


# "Here, we show that X", "Our results demonstrate that X": the authors' frame around a finding they
# assert; the fact is X, and it names its own subject. Hedging frames ("suggest that", "indicate
# that") qualify X and stay.
REPORTING_FRAME = re.compile(
    r"^(?:(?:here|together|taken together|collectively|in this (?:paper|study|work|article)|finally|overall),?\s+)?"
    r"(?:we|our (?:results|data|findings|analys[ie]s|study|experiments|observations)|these (?:results|data|findings|observations)|"
    r"(?:the\s+)?(?:(?:experimental|empirical|evaluation|experiment|test)\s+results|results|experiments|evaluations?)|"
    r"this (?:study|paper|work|article)|(?:table|figure|fig\.)\s*\d+[a-z]?)\s+"
    r"(?:(?:here|have|has|further|also|now|first|additionally|clearly)\s+){0,2}"
    r"(?:show(?:s|ed|n)?|demonstrate[sd]?|f(?:ou|i)nds?|found|report(?:s|ed)?|reveal(?:s|ed)?|establish(?:es|ed)?|"
    r"confirm(?:s|ed)?|observe[sd]?|identif(?:y|ies|ied)|conclude[sd]?|"
    r"provided?s?\s+(?:(?:direct|strong|new|further|additional|compelling|the first)\s+)?evidence)\s+that\s+", re.I)
# Frames that point at X rather than assert more ("We note that X", "It can be seen that X", "It turns out
# that X", "We were able to show that X"): the fact is X. Not a hedge ("it seems", "it is likely") nor a
# report of others' work ("it has been shown that").
NOTING_FRAME = re.compile(
    r"^(?:(?:here|thus|hence|so|again|finally|clearly|now),?\s+)?"
    r"(?:(?:we|one)\s+(?:(?:can|could|also|now|then|have|already|further|first|immediately)\s+){0,2}"
    r"(?:note|notice[sd]?|noted|see|saw|seen)|"
    r"we\s+(?:were|are|have\s+been)\s+(?:also\s+)?able\s+to\s+(?:show|demonstrate|confirm|prove)|"
    r"it\s+(?:should|must|can|could|may)\s+(?:also\s+)?be\s+(?:noted|seen|observed|shown)|"
    r"it\s+is\s+(?:also\s+)?(?:clear|evident|obvious|apparent|easy\s+to\s+(?:see|show)|"
    r"(?:important|worth|interesting|instructive)\s+(?:to\s+)?not(?:e|ing))|"
    r"it\s+(?:turns|turned)\s+out|it\s+follows|it\s+was\s+(?:found|observed)|"
    # the imperative: "Note that X", "Recall from Section 3 that X", "Observe also that X"
    r"(?:note|notice|observe|recall|remember)(?:\s+(?:also|again|here|first|further|now))?(?:\s+from\s+[^,;]{1,40}?)?)\s+that\s+",
    re.I)


# What the PDF reader put before a sentence: a footnote mark or page number ("5 Note that …", "2In a
# theory …"), a journal's running head ("265 Computational Linguistics Volume 34, Number 2 The …"), or a
# numbered heading ("2 Corpus and features In our work we use …"), up to a word that opens a sentence.
OPENER = (r"(?:The|In|We|This|These|Our|For|As|There|Note|It|To|Although|If|An?|However|While|When|Given|Most|Since|"
          r"Because|Here|Thus|Each|One|Such|Unlike|Many|Some|Finally|First|Both|Previous|Recent|Several|Another|Using|"
          r"Consider|After|Once|Following|Despite|Instead)")
RUN_IN = re.compile(r"^\(?\d{1,2}\)\s+(?=[A-Z][a-z])|"  # an item's number: "2) We use …", "(3) The tagger …"
                    r"^\d{1,2}(?=" + OPENER + r"[\s,])|"
                    r"^\d{1,4}(?:\.\d{1,2})*\s+(?:(?:[A-Z][\w\-]*\s+){1,4}Volume\s+\d+,?\s+Number\s+\d+\s+)?"
                    r"(?:\d{1,2}(?:\.\d{1,2})+\s+)?(?:[A-Z][\w\-]*(?:\s+[A-Za-z\d][\w\-.]*){0,7}?\s+)??(?=" + OPENER + r"[\s,])")


# A structured abstract's heading run into its first sentence ("RESULTS Colonoscopy use increased …",
# "DESIGN, SETTING, AND PARTICIPANTS Patients in …"): every word a heading word, so an acronym that
# opens a sentence ("PTEN loss …", "NSCLC patients …") stays.
_HEADING_WORD = (r"(?:BACKGROUND|CONTEXT|OBJECTIVES?|AIMS?|PURPOSE|METHODS?|METHODOLOGY|DESIGN|SETTINGS?|PARTICIPANTS|"
                 r"PATIENTS|SUBJECTS|POPULATION|INTERVENTIONS?|MAIN|PRIMARY|SECONDARY|OUTCOMES?|MEASURES?|MEASUREMENTS|"
                 r"RESULTS|FINDINGS|CONCLUSIONS?|INTERPRETATION|IMPORTANCE|RELEVANCE|EXPOSURES?|DATA|SOURCES?|SYNTHESIS|"
                 r"EXTRACTION|STUDY|SELECTION|REVIEW|APPRAISAL|ELIGIBILITY|CRITERIA|SIGNIFICANCE|RATIONALE|INTRODUCTION|"
                 r"SUMMARY|EVIDENCE|ACQUISITION|LIMITATIONS|TRIAL|REGISTRATION|ANIMALS|MATERIALS?|PRINCIPAL|IMPLICATIONS)")
ABSTRACT_HEADING = re.compile(rf"^{_HEADING_WORD}(?:(?:\s*,\s*|\s+|\s*/\s*|\s+&\s+)(?:(?:AND|OF)\s+)?{_HEADING_WORD})*"
                              r"(?:\s*:\s*|\s+(?=[A-Z0-9(]))")


# A paper's section heading run into its first sentence ("1 Background Part-of-speech tagging is …", "Evaluation
# Metrics In the tasks of …"), up to a capitalised word that is no second heading word ("Discussion Although DOP …").
SECTION_HEADING = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2})*\.?\s+)?(?:Introduction|Background|Related Work|Previous Work|Conclusions?|"
                             r"Discussion|Evaluation|Results|Experiments?|Future Work|Data|Motivation|Overview|Summary|"
                             r"Acknowledge?ments)(?:\s+(?!" + OPENER + r"\b)[A-Z][a-z]+){0,2}\s+(?=[A-Z])")
# Any other heading run in: Title Case words before a word that opens a sentence ("Tagging Accuracy To our
# surprise, …", "Corpora We evaluate …", "The Alignment Template System The statistical …"); not a sentence that
# opens with such a word itself ("For A to inform S …", "If A and S both know …").
RUN_IN_TITLE = re.compile(r"^(?:[A-Z][\w\-]*\s+){1,5}?(?=" + OPENER + r"\s)")
BULLET = re.compile(r"^\s*[•·▪◦●○■□►▸‣⁃]\s*")  # a list item's mark ("• The COMPO methods always …")
ACKNOWLEDGEMENT = re.compile(r"^(?:\d{1,2}\.?\s+)?Acknowledge?ments\b")  # thanks, not a statement about the work


def clean_statement(text: str) -> str:
    """The sentence as a statement: without what the PDF reader put before it (RUN_IN, a list item's
    bullet, a heading run in), brackets round the whole, a structured abstract's heading, citation markers,
    a connective or a lead that points at the paper, or a frame that reports or points at it."""
    text = " ".join(CITATION_RE.sub("", RUN_IN.sub("", BULLET.sub("", _unbracketed(text)))).split())
    m = SECTION_HEADING.match(text) or RUN_IN_TITLE.match(text)
    if m and len(text[m.end():].split()) >= 4 and not re.match(OPENER + r"\s", m.group(0).replace("The ", "", 1)):
        text = text[m.end():]
    m = ABSTRACT_HEADING.match(text)
    if m and len(text[m.end():].split()) >= 4:
        text = _capitalised(text[m.end():])
    text = _without_connective(text)
    m = REPORTING_FRAME.match(text) or NOTING_FRAME.match(text)
    rest = text[m.end():] if m else ""
    if len(rest.split()) < 5 or (re.match(r"(?:table|fig)", text, re.I) and re.match(r"(?:this|that|it|these|they)\b", rest, re.I)):
        return text  # "Table 6 shows that this is …": without its frame the pronoun would point at nothing
    return _capitalised(re.sub(r",? and that ", " and ", rest))  # "we show that X and that Y": X and Y


# "As shown in Table 3, X", "As can be seen, X", "As mentioned above, X": where the paper shows or said it (the
# fact's evidence says where); not "As expected," or "As far as we know," which qualify X.
POINTING_LEAD = re.compile(
    r"^as\s+(?:(?:can|could)\s+be\s+seen|(?:we|one)\s+(?:can|could|will|shall)\s+see|(?:previously|already)\s+\w+|"
    r"(?:shown|seen|illustrated|noted|mentioned|discussed|described|explained|reported|stated|pointed out|depicted)|"
    r"(?:table|figure|fig\.)\s*\d+\w*\s+(?:shows|illustrates|indicates)|the\s+results\s+(?:show|indicate)|"
    r"a\s+matter\s+of\s+fact|such)\b[^,;]{0,60},\s+", re.I)


def _unbracketed(text: str) -> str:
    """A sentence the paper put in brackets whole ("(Recall that not all words … need be in the lexicon.)"): its
    words. Not a bracket that closes before the end ("(2008) proposed …", "(a) the tagger …")."""
    body = text.strip()
    if not body.startswith("(") or not body.rstrip(".").endswith(")"):
        return text
    depth = 0
    for i, ch in enumerate(body):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            if i < len(body.rstrip(".")) - 1:
                return text  # it closes before the end
            inner = body[1:i].strip()
            return inner if inner.endswith((".", "?", "!")) else inner + "."
    return text


def _without_connective(text: str) -> str:
    """"Moreover, X", "However, X", "As shown in Table 3, X": the fact is X ("Not surprisingly, X" keeps its
    words: a dropped "not" reads as a reversed polarity to the gate's verifier; a hedge or a setting, "Ideally,",
    "Typically,", "On average,", is no connective)."""
    for _ in range(2):  # "However, as shown in Table 3, X"
        m = CONNECTIVE.match(text) or POINTING_LEAD.match(text)
        if not m or len(text[m.end():].split()) < 4 or re.search(r"\bnot\b", m.group(0), re.I):
            break
        text = _capitalised(text[m.end():])
    return text


def _capitalised(text: str) -> str:
    first = text.split()[0]
    # "well-formed" is capitalised; "iPSCs" keeps its case
    return text[:1].upper() + text[1:] if first.replace("-", "").isalpha() and first.islower() else text


# "Table 2 shows the training and test corpus statistics", "In Section 3, we present the model", "In this
# section we describe our approach": a sentence that points at a part of the paper states nothing of its
# own (it stays citable). Not when it goes on to say something: a value, "that", "how", a colon, or a
# judgement ("a high success ratio").
POINTER = re.compile(
    r"^(?:(?:(?:in|as (?:shown|seen) in)\s+)?(?:the\s+)?(?:sections?|sect\.|tables?|figures?|fig\.|appendix)\s*[\dA-Z](?:[\d.]*\d)?|"
    # a roadmap: "In this section we describe …", "This section compares …", "In the next section, we present …"
    r"(?:in\s+)?(?:this|the\s+(?:next|following|previous|last|remaining))\s+(?:sub)?(?:sections?|chapters?|parts?)|"
    r"(?:in\s+)?the\s+rest\s+of\s+(?:the|this)\s+(?:paper|article|section|chapter))\s*,?\s+"
    # ahead or back ("In the previous section, we described how we populate …")
    r"(?:we\s+)?(?:(?:will|first|now|then|briefly|also)\s+)?(?:describe[sd]?|present(?:s|ed)?|discuss(?:es|ed)?|gives?|gave|"
    r"show(?:s|ed)?|list(?:s|ed)?|summari[sz]e[sd]?|contains?|report(?:s|ed)?|introduce[sd]?|outline[sd]?|provides?|displays?|"
    r"illustrate[sd]?|detail(?:s|ed)?|compare[sd]?|explain(?:s|ed)?|consider(?:ed)?|explore[sd]?|examine[sd]?|investigate[sd]?|"
    r"analy[sz]e[sd]?|evaluate[sd]?|review(?:s|ed)?|develops?|define[sd]?|proposes?|focus(?:es)? on|turns? to|"
    r"address(?:es|ed)?|conclude[sd]?)\b", re.I)
# The roadmap the other way round: "We present lattice MBR experiments in Section 7.", "Next we introduce a
# variety of features in the next sections."; "…, as I will show in Section 6." and "We define X in terms of the
# annotations described in Section 2." say something, and stay.
POINTS_AHEAD = re.compile(
    r"^(?:(?:next|then|first|finally|below|here|now|later),?\s+)?(?:we|I)\s+(?:(?:will|shall|then|also|briefly|first|further|now)\s+)*"
    r"(?:describe|present|discuss|introduce|explain|give|show|outline|detail|address|return to|examine|consider|review|report|"
    r"summari[sz]e|list|define|provide|propose)\b[^.;:]{0,100}?\b(?<!ed\s)(?:in|see)\s+(?:the\s+)?(?:(?:next|following|last|final|remaining)\s+)?"
    r"(?:sub)?(?:sections?|sect\.|chapters?|appendix|§)\s*[\dA-Z]?[\d.]*(?:,?\s+(?:followed by|and)\s+[^.;]{0,60})?\s*\.?$", re.I)
# ("We describe how we populate entity nodes in §4.3" still only points: how it is done is told there)
SAYS_MORE = re.compile(r"\d(?:\.\d+)?\s*%|\b\d+\.\d+\b|\b(?:that|why|whether)\b|"
                       r"(?<!describe )(?<!explain )(?<!detail )(?<!describes )(?<!explains )(?<!described )(?<!explained )(?<!detailed )"
                       r"\bhow\b|[:;]|\b(?:high|higher|highest|low|lower|lowest|"
                       r"better|best|worse|worst|significant(?:ly)?|substantial(?:ly)?|large|small|strong|consistent(?:ly)?|"
                       r"improve\w*|outperform\w*|superior|inferior)\b", re.I)

# A graph or table the text shows next: "Below is a graph showing the improvement in accuracy from applying patches"
# names what it plots, and states nothing of it (not "Below is a list of patterns that indicate …").
SHOWN_HERE = re.compile(r"^(?:below|above|here)\s+(?:is|are)\s+(?:(?:a|an|the|some|two|three)\s+)?(?:[\w\-]+\s+)?"
                        r"(?:graphs?|tables?|figures?|plots?|charts?|diagrams?)\b", re.I)
# The same in the passive, the whole sentence one clause: "The results are summarised in Table 1."
# (not "…, and the performance is reported in Table 4", nor a value: "96.7% accuracy is shown in …").
POINTED_AT = re.compile(r"^[^,;:%]+?\s+(?:is|are|was|were)\s+(?:summari[sz]ed|shown|given|listed|presented|reported|displayed|"
                        r"illustrated|detailed|described|provided|depicted|plotted|tabulated)\s+in\s+(?:the\s+)?"
                        r"(?:sections?|sect\.|tables?|figures?|fig\.|appendix)\s*[\dA-Z](?:[\d.]*\d)?\s*(?:below|above)?\s*\.?$", re.I)


# A theoretical word used of a procedure, a measured ceiling or a tool: "trained until convergence", "a
# convergence threshold", "an upper bound on the performance of any system", "the word's lemma" state no
# theoretical result.
NOT_THEORY = re.compile(r"\buntil\s+(?:\w+\s+){0,3}?(?:convergence|converges?|converged)\b|"
                        r"\bconvergence\s+(?:criterion|criteria|threshold)\b|"
                        # how fast it converged, measured: "a much more rapid convergence", "converge faster than …"
                        r"\b(?:rapid|fast|faster|quick|quicker|slow|slower)\s+convergence\b|\brate of convergence\b|\breach convergence\b|"
                        r"\bconverge[sd]?\s+(?:much\s+)?(?:faster|slower|quickly|more quickly|rapidly)\b|\b(?:slow|fast|quick)\w*\s+to\s+converge\b|"
                        r"\biterations?\s+(?:\w+\s+)?to\s+converge\b|\b(?:run|running|ran|trained|training|iterated?)\s+(?:\w+\s+)?to\s+convergence\b|"
                        r"\bcentral limit theorem\b|"
                        r"\b(?:upper|lower) bound (?:on|for|of) (?:the )?(?:\w+ )?(?:performance|accuracy|score|agreement)\b|"
                        # a ceiling people measured: "human performance as an upper bound", "the upper bound (UB) is 71%"
                        r"\b(?:human|oracle|expert|inter-annotator)\b[^.;]{0,60}?\bupper bound\b|"
                        r"\bupper bound\b[^.;]{0,40}?(?:\b(?:human|oracle|expert|inter-annotator|agreement)\b|\d%)|"
                        # a word's lemma, a theorem prover, Bayes' theorem used: no result of the paper's
                        r"\blemmas?\b(?![\s~]*\d)|\btheorem[\s-]+prov\w*|\bBayes\W{0,2}\s*(?:theorem|rule)\b|"
                        # a guarantee denied: "cannot guarantee", "lack the EM algorithm's convergence guarantee"
                        r"\b(?:no|(?:do|does|did|can|could)(?:n't| not)(?: necessarily)?|cannot|lacks?|lacking|without)\s+(?:\S+\s+){0,4}?guarantee|"
                        # measured, not proven: "converge at different rates", "many more iterations to approach
                        # convergence", "significantly lower than the upper bound", "the upper bound on training set size"
                        r"\bconverge\w*\s+at\s+(?:different|a\s+\w+|the\s+same)\s+rates?\b|\b(?:approach|approaching|towards?)\s+convergence\b|"
                        r"\b(?:than|below|above|near|close to|approach(?:es|ing)?)\s+the\s+(?:upper|lower)\s+bound\b|"
                        r"\b(?:upper|lower) bound on (?:the )?(?:training|test|development|corpus|data)\s+(?:set\s+)?size\b|"
                        # a figure of speech: "an increasing convergence of methods", "a convergence of views"
                        r"\b(?:an?|increasing|growing)\s+convergence\s+of\b", re.I)


# What the authors did ("we used WordNet as …", "we train and test only on …"), which a finding's cue
# word ("BLEU", "accuracy", "requires") does not make a finding unless an outcome is stated with it; so is
# a step told as such ("We then identify the head of …"), whatever its verb.
PROCEDURE = re.compile(r"\bwe\s+(?:then|first|next|finally|subsequently)\s+(?!(?:found|find|show|showed|observe|observed|see|saw|"
                       r"note|noted|notice|noticed|report|reported|demonstrate|demonstrated|conclude|concluded)\b)[a-z]+|"
                       r"\bwe\s+(?:also\s+|then\s+|first\s+|simply\s+|have\s+|had\s+)?(?:use|used|ran|run|apply|applied|train|"
                       r"trained|take|took|taken|test|tested|compute|computed|collect|collected|examine|examined|evaluate|"
                       r"evaluated|perform|performed|employ|employed|adopt|adopted|built|build|implement|implemented|extract|"
                       r"extracted|select|selected|set|define|defined|consider|considered|follow|followed|treat|treated|"
                       r"compare|compared|conduct|conducted|create|created|choose|chose|randomly|learn|learned|learnt|induce|"
                       r"induced|model|modeled|modelled|represent|represented|encode|encoded|generate|generated|combine|combined|"
                       r"annotate|annotated|design|designed|develop|developed)\b(?!\s+that\b)", re.I)  # "we identified …" stays a finding
OUTCOME = re.compile(r"\d(?:\.\d+)?\s*%|\b\d+\.\d+\b|\b(?:better|worse|higher|lower|outperform\w*|improv\w*|significant\w*|best|"
                     r"increase[sd]?|decrease[sd]?|reduc\w+|found|find|show\w*|observe[ds]?|good|poor|effective|accurate|achiev\w*|"
                     r"comparable)\b", re.I)

# A change named as what a step computes, no outcome itself: "For each error triple, we compute the reduction in error …"
CHANGE_NAMED = re.compile(r"\b(?:the|a|an|this|that|each)\s+(?:reduction|improvement|increase|decrease)s?\b(?!\s+(?:of|by)\s+\d)", re.I)


# A data word names what a sentence describes when it is the subject ("The 250-example data set is a subset of …")
# or the sentence says how the data were made, split or what they hold; in passing ("We present a … method for
# computing projections of a grammar without a treebank", "… maximizing the probability of the parses in the
# training corpus") it does not, and a method cue decides.
DATA_NOUN = re.compile(rf"\b(?:{_DATA_WORDS}|development set|data)\b", re.I)
DATA_MADE = re.compile(
    rf"\b(?:{_DATA_BY_AUTHORS}|consist(?:s|ed|ing)? of|compris(?:es|ed|ing)|"
    r"contain(?:s|ed|ing)?|split (?:into|in)|divided into|(?:taken|drawn|extracted|sampled|derived|obtained|collected) from|"
    r"(?:is|are|was|were) (?:split|divided|partitioned|collected|annotated|tagged|labell?ed|sampled|selected|compiled|"
    r"composed|made up|released|available)|(?:sentences|documents|articles|tokens|instances|examples|pairs|utterances) "
    r"(?:of|from|in|for)\b)", re.I)


def _about_data(text: str) -> bool:
    if DATA_MADE.search(text):
        return True
    main = _strip_lead(text)
    verb = VERB_RE.search(main)
    return verb is not None and DATA_NOUN.search(main[:verb.start()]) is not None


# Limitation words that state no limitation of the work: "because of space limitations", "we can avoid these
# limitations", "the classifiers do not have this limitation", a condition the method handles ("When the parser
# fails to return an analysis, we reparse …").
NOT_LIMITATION = re.compile(
    r"\b(?:space|page)\s+limitations?\b|"
    r"\b(?:avoid|avoids|avoided|overcome|overcomes|overcame|address|addresses|addressed|remove|removes|removed|without)\s+"
    r"(?:[\w\-]+\s+){0,3}?(?:limitations?|drawbacks?|shortcomings?)\b|"
    r"\b(?:not|no|never)\s+(?:[\w\-]+\s+){0,2}?(?:have|has|had|suffer|suffers)\s+(?:[\w\-]+\s+){0,2}?(?:limitations?|drawbacks?|shortcomings?)\b|"
    r"^(?:when|whenever|if|in case)\b[^,;]*?\b(?:fails?|failed)\s+to\b", re.I)


def _unpointed(text: str) -> str:
    """Without the numbers that name a part of the paper: "§4.3" is no value."""
    return re.sub(r"\d[\d.]*\d", lambda m: " " if points(text, m.start()) else m.group(0), text)


def _finding_or_not(text: str) -> FactType:
    """What a sentence with a finding's cue states: what was done with no result ("We computed BLEU-N for
    N = 1..4"; a hedge in it, "We first identify the entities a mention may refer to", qualifies a step),
    a hedged claim, or a finding."""
    if PROCEDURE.search(text) and not OUTCOME.search(CHANGE_NAMED.sub(" ", text)):
        return FactType.method_description
    if HEDGE_RE.search(text) and not NUMBER_RE.search(text):
        return FactType.hypothesis
    return FactType.finding


def classify(text: str, in_abstract: bool = False, any_verb: bool = False) -> FactType | None:
    """The fact type a sentence states, by cues; None when it states nothing reusable. An abstract
    is the paper's own summary of its claims: there a sentence without a cue is a finding. With
    `any_verb` (an abstract of abstract length, not a body the PDF reader left under its heading),
    a verb outside the list counts too."""
    # Measured without the statistics in brackets ("(OR, 0.66 [95% CI, 0.61-0.70]; P = .002)"): a result that
    # reports them in full is still a statement of 6 to 90 words, mostly letters
    core = STATISTICS.sub(" ", STATISTICS.sub(" ", text))
    if len(core.split()) < 6:
        core = text  # the statistics are most of it ("Negative F-measure is 77.2 (2.3% higher).")
    words = core.split()
    if not 6 <= len(text.split()) or len(words) > 90:
        return None
    alpha = sum(c.isalpha() for c in core) / max(1, len(core))
    numeric = sum(1 for w in words if any(ch.isdigit() for ch in w)) / len(words)
    if alpha < 0.55 or numeric > 0.35:  # formulas and flattened tables, not statements (results with statistics pass)
        return None
    if (((POINTER.match(text) or POINTS_AHEAD.match(text)) and not SAYS_MORE.search(_unpointed(text)))
            or (POINTED_AT.match(text) and not re.search(r"\b\d+\.\d+\b", text))
            or (SHOWN_HERE.match(text) and not re.search(r"\b\d+\.\d+\b|\d\s*%|\bthat\b", text))):
        return None
    if not has_verb(text) and not CUT_OFF.search(text):  # a sentence the PDF reader cut ("… Nakamura et al.") goes on
        return None
    if LIST_CUT.search(text):
        return None  # "The drawbacks of this approach are: 1."
    described = False  # a limitation word that states no limitation: the sentence is kept as a description
    incidental_data = False  # a data word in passing: a method cue after it decides, else it stays a data description
    for ftype, pattern in TYPE_CUES:
        if ftype == FactType.dataset_description:  # the cue searched once: what the data word names decides
            if pattern.search(text):
                if _about_data(text):
                    return ftype
                incidental_data = True
            continue
        if ftype == FactType.theoretical_result and not pattern.search(NOT_THEORY.sub(" ", text)):
            continue
        if ftype == FactType.limitation and not pattern.search(NOT_LIMITATION.sub(" ", text)):
            described |= pattern.search(text) is not None
            continue
        if ftype == FactType.finding:  # its cue, or a topic with an outcome ("identify about 85% of …")
            if pattern.search(text) or (TOPIC_FINDING.search(text) and OUTCOME.search(text)):
                return _finding_or_not(text)
            continue
        if pattern.search(text):
            return ftype
    if TOPIC_FINDING.search(text):
        return _finding_or_not(text)
    if incidental_data:
        return FactType.dataset_description
    if described:
        return FactType.method_description
    if ANY_DIFFERENT.search(text):  # "Different semantic roles tend to be realized by different categories."
        return _finding_or_not(text)
    if not in_abstract:
        return None
    if VERB_RE.search(text) or PAST.search(text):
        return FactType.finding
    # A verb outside the list ("DNA methylation plays a role", "Calorie restriction extends life-span"):
    # a word that can be a third-person verb, in a sentence that is not a structured abstract's label.
    return FactType.finding if any_verb and S_VERB.search(text) and not ABSTRACT_LABEL.match(text) else None


_CONNECTIVES = (r"in addition|additionally|furthermore|moreover|however|nevertheless|finally|thus|therefore|"
                r"also|first|second|third|then|overall|in summary|in particular|in contrast|as a result|"
                r"consequently|similarly|indeed|to this end|for example|for instance|note that|recall that|but|"
                r"in general|in fact|in practice|in short|of course|in turn|that is|next|here|now|perhaps|arguably")
# these only with their comma: "Instead of …", "Yet another …" start a subject
_COMMA_CONNECTIVES = (r"besides|hence|accordingly|likewise|nonetheless|notably|importantly|interestingly|surprisingly|"
                      r"unfortunately|fortunately|clearly|again|instead|meanwhile|on the other hand|in other words|"
                      r"for this reason|as expected|not surprisingly|yet|still|so|first of all|more precisely|"
                      r"more \w+ly|specifically|put another way|as a consequence|below|above|taken together|collectively|"
                      r"further|firstly|secondly|thirdly|by contrast|in comparison|conversely|crucially|obviously|"
                      r"most importantly|formally|in sum|to summari[sz]e|in conclusion|in essence|once again|as before|"
                      r"ultimately|alternatively|rather|thereby")
DISCOURSE = re.compile(rf"^(?:(?:{_CONNECTIVES}),?\s+|(?:{_COMMA_CONNECTIVES}),\s+)+", re.I)
# A statement drops them only with their comma: "Overall accuracy is …", "Second language learners …" keep their word
CONNECTIVE = re.compile(rf"^(?:(?:{_CONNECTIVES}|{_COMMA_CONNECTIVES}),\s+)+", re.I)
NAME_RE = re.compile(r"\b([A-Z][a-z]*[A-Z][A-Za-z0-9\-']*|[A-Z]{2,}[a-z]?s?)\b")
NOUNLESS = re.compile(r"^(?:\w+ly|it|they|this|we|there|which|that|these|those|such|both|one|some|all|not|only|also)$", re.I)


# A leading adverbial: up to its comma ("As expected, we find …", "Contrary to claims …, we argue …"), or,
# unpunctuated, up to "we" ("In this section we give …", "Below we describe …"); a purpose clause may run longer
# ("In order to reduce the time …, we have chosen …"). A subordinate clause ("When the tagger …, it …") is
# find_subject's: its subject may be the one.
# A "we" before the comma is the main clause's ("In this paper we use the normal-form model, which …"), except after
# "as" or "like", which make it a comment or a relative clause ("As we can see, the ranker …", "Like the algorithm we present …").
LEAD_PHRASE = re.compile(r"^[(\[]?(?:(?:as|unlike|like|compared to|according to|contrary to)\b[^,;]{0,60},\s+|"
                         r"(?:as|in|for|on|at|with|by|from|unlike|like|compared to|according to|contrary to|"
                         r"based on|besides|within|despite|beyond|apart from|instead of|thanks to|due to|through|"
                         r"throughout|among|during|via|(?:this|that|each|every) (?:way|time)|to)\b(?:(?:(?!\bwe\b)[^,;]){0,60},\s+|"
                         r"[^,;]{0,60}?\s+(?=we\s))|(?:below|above|next|suppose|assume|notice|note)(?:\s+that)?\s+(?=we\s)|"
                         r"in order to\b[^;]{0,150}?,\s+|"
                         r"(?:in|under|for)\s+(?:such|these|those|this|that|all|both|many|most|some)\s+\w+(?:\s+\w+)?\s+"
                         r"(?=(?:any|the|a|an|all|each|every|no|our|this|these|such|most|many|some)\s))", re.I)
# A sentence adverb before a determiner ("Unfortunately none of these results …", "Typically this gold function …")
ADVERB_LEAD = re.compile(r"^[A-Za-z]+ly\s+(?=(?:the|a|an|this|these|that|those|none|all|most|many|some|each|every|our|their|its)\b)", re.I)
# A subordinate clause before the main one ("If the algorithm misses a boundary, it receives k penalties").
SUBORDINATE = re.compile(r"^(?:if|when|whenever|while|whereas|although|though|because|since|unless|once|after|before|as)\s+", re.I)
# "Instances which were …", "The procedure (that) we use is …": the verb is the relative clause's.
RELATIVE_END = re.compile(r"\s+(?:(?:that|which|who|whose|whom)|(?:that\s+|which\s+)?(?:we|they))\s*$", re.I)
# … or a relative clause inside the subject, after its noun ("The prepositions that learners used incorrectly were …", "The
# only condition under which …"): only in a noun phrase that opens with a determiner ("Determine which …" is none)
RELATIVE_IN = re.compile(r"^((?:the|a|an|this|these|those|another|each|every|any|some|many|most|our|their|its|his|her|such|no)\s"
                         r"[^,;()]*?\w)(?:\s+(?:in|on|at|to|under|for|from|with|by|of|through))?\s+(?:that|which|who|whom|whose)\s+(?=\S)",
                         re.I)


# A participle phrase before the main clause ("Starting from each finite verb, the algorithm …", "Having
# noted these shortcomings, we …"): an -ing word followed by what a verb takes (a preposition, a
# determiner, a name), not a noun, so "Tagging accuracy, however, is …" keeps its subject. A gerund
# subject is told apart by its verb ("Relying on one rater can be problematic, and …", "Defining an
# upper bound, however, does have …"): see _strip_lead.
PARTICIPLE_LEAD = re.compile(r"^(?!(?:[A-Za-z]*thing|String|Spring)\b)(?:During\s+|[A-Z][a-z]{2,}ing\s+(?:(?:from|on|at|with|to|"
                             r"in|into|over|through|by|for|the|a|an|this|these|that|those|each|every|all|its|their|our|"
                             r"his|her|only|such|both|as|up|out|back|noted|seen|shown|been)\b|[A-Z]))[^,;]{0,60},\s+")


def _strip_lead(text: str) -> str:
    """Without discourse markers and a leading adverbial ("As expected, we find …" → "we find …")."""
    text = LEAD_PHRASE.sub("", DISCOURSE.sub("", text.strip().lstrip("([")))
    if ((m := PARTICIPLE_LEAD.match(text)) and not VERB_RE.search(lead := m.group(0)) and lead.count("(") == lead.count(")")
            and not VERB_RE.match(text, m.end())):
        return text[m.end():]
    return text


def _main_clause(text: str) -> tuple[str, str] | None:
    """(subordinate clause without its conjunction, main clause) when `text` opens with a subordinate
    clause that ends at a comma outside brackets within 200 characters; None otherwise."""
    m = SUBORDINATE.match(text)
    if not m:
        return None
    depth = 0
    for i, ch in enumerate(text[:200]):
        depth += ch in "(["
        depth -= ch in ")]"
        if ch == "," and depth <= 0:
            return text[m.end():i], text[i + 1:].strip()
    return None


PARENTHETICAL = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
# A verb VERB_RE lacks, before its clause ("Simple inspection of the data reveals that …"): the subject
# ends before it (not a purpose clause's: "To guarantee that …, the paper proposes …").
CLAUSE_AFTER = re.compile(r"(?<!\b[Tt]o)\s+(?:reveal|suggest|indicate|demonstrate|impl(?:y|ie)|mean|ensure|guarantee|confirm|state|assume|"
                          r"prove|establishe|explain|reflect|illustrate|highlight|verifie|entail|specifie|tell|note|"
                          r"believe|say|hold|capture|determine|decide|check|test)(?:s|d|ed)?\s+(?:that|whether|how)\b")
# "Recall, precision, and alignment error rates …": the list's last item; the subject is the list.
LIST_END = re.compile(r"^(?:and|or)\s+", re.I)
# A prepositional phrase before the noun ("with precision loss the time complexity"): from the noun on.
_LEAD_PREPOSITIONS = "with|without|for|from|in|on|at|by|under|after|before|during|through|rather than|instead of|unlike|despite"
PREPOSITION_LEAD = re.compile(rf"^(?:{_LEAD_PREPOSITIONS}|to|of|into|over)"
                              r"\s+[^,]*?\s+(?=(?:the|a|an|this|these|its|their|our)\s)", re.I)
# A lead phrase, then the authors before their verb; not a relative clause ("The features we used are …")
_WE = r"we(?:\s+(?:\w+ly|then|also|first|further|now|next))?\s*$"
_LEAD_PARTICIPLES = r"(?:inspired|motivated|guided)\s+by"  # "Inspired by Culotta et al. (2007), we train …"
LEAD_THEN_WE = re.compile(rf"^(?:{_LEAD_PREPOSITIONS}|near|given|following|{_LEAD_PARTICIPLES}|(?!\w*thing\b)\w+ing)\b"
                          rf"(?:[^,]|,(?=\d{{3}}))*?\s+{_WE}", re.I)
AFTER_COMMA_WE = re.compile(rf",\s*{_WE}", re.I)
# Lead phrases before the subject ("Even with the CCGbank rule constraints, the parser …", "Using the BNC, …"): a name
# in them is the setting, not what the statement is about
LEAD_CHUNKS = re.compile(rf"^(?:(?:even|only|also|just)\s+)?(?:{_LEAD_PREPOSITIONS}|to|given|following|like|using|"
                         rf"compared\s+(?:to|with)|{_LEAD_PARTICIPLES}|of)\b(?:[^,;]|,(?=\d{{3}}))*,(?!\d{{3}})\s*", re.I)
# An adverb between the subject and its verb ("The graph also shows", "researchers routinely use").
TRAILING_ADVERB = re.compile(r"(?:\s+(?:also|then|not|only|still|often|now|thus|therefore|further|always|never|already|even|"
                             r"(?!(?:family|assembly|anomaly|supply|reply|monopoly|butterfly|ally|rally|poly|apply)\b)[a-z]{3,}ly))+$")
YEAR = r"(?:19|20)\d\d[a-z]?"  # a citation's year ("2007a")
CITED_AUTHORS = re.compile(r"^([A-Z][\w\-']+(?:\s+(?:and|&)\s+[A-Z][\w\-']+|\s+et\s+al\.?)?)\s*\(" + YEAR + r"\)")
# Two authors or "X et al." alone before the verb ("Derouault and Merialdo use …"): the subject, not a name the tagger saw in it.
AUTHORS_HEAD = re.compile(r"^[A-Z][a-z][\w\-']*(?:\s+(?:and|&)\s+[A-Z][a-z][\w\-']*|\s+et\s+al\.?)\s*$")
AFTER_CITED = re.compile(r"\s+(?:[a-z]+ly\s+|also\s+)*[a-z]+\s+")  # the word after a citation's year, past its adverbs
CITED_HEAD = re.compile(r"^\s*\(([A-Z][^()\d]{1,60}?),?\s*" + YEAR + r"\)\s*$")
# A statement that opens with a citation, its year in brackets or not, a page or chapter after it ("Izumi et al
# (2004) train …", "Kameyama (1985: Ch.1) hypothesized …", "[Garside et al. 87] reports …", "(Brill, 1995) uses …")
# (a bracket before the name or the year: "CoNLL 2008 data are …" is a data set)
_CITED_NAMES = r"[A-Z][\w\-']+(?:\s+(?:and|&)\s+[A-Z][\w\-']+|\s+et\.?\s+al\.?)?,?\s*"
CITATION_START = re.compile(rf"^(?:[(\[]{_CITED_NAMES}(?:{YEAR}|\d\d\])|{_CITED_NAMES}[(\[]{YEAR}|[A-Z][\w\-']+\s+et\.?\s+al\.?,?\s*{YEAR})")


def about_cited_work(statement: str, subject: str) -> bool:
    """A finding about work the paper cites, not its own: it opens with a citation, or its subject is
    cited authors ("Derouault and Merialdo", "Collins et al.")."""
    return bool(CITATION_START.match(statement) or AUTHORS_HEAD.match(subject) or re.search(r"\bet\.? al\b", subject))


FUNCTION_WORD = re.compile(r"(?:of|for|in|on|to|with|by|from|at|and|or|the|a|an)$", re.I)


def find_subject(text: str, system: str) -> str:
    """The phrase before the main verb; a named system inside it wins; authors' voice → their system. After
    a subordinate clause, the main clause's subject, or the clause's own where the main one's is a pronoun."""
    text = _strip_lead(text)
    if parts := _main_clause(text):
        clause, main = parts
        # The main clause's, unless it opens with a pronoun, or has no verb this knows ("… emerges") where the clause has one.
        words = main.split() or ["it"]
        # "this strategy is …" opens with a noun phrase; "this is …", "it …" with a pronoun
        pronoun = NOUNLESS.match(words[0]) and not (DEMONSTRATIVE.match(main) and len(words) > 1 and words[1].isalpha()
                                                   and words[1].islower() and not VERB_RE.match(main, len(words[0]) + 1))
        use_clause = pronoun or (not VERB_RE.search(main) and VERB_RE.search(clause))
        return find_subject(main if AUTHOR_START.match(main) or not use_clause else clause, system)
    text = SUBORDINATE.sub("", text)
    # "In separate experiments we found that X …": X's subject, as if the frame had opened the statement (clean_statement)
    if (frame := REPORTING_FRAME.match(text) or NOTING_FRAME.match(text)) and text[frame.end():].strip():
        return find_subject(text[frame.end():], system)
    if AUTHOR_START.match(text):
        return system
    # "Moilanen and Pulman (2007) collected …", "Zhang et al (2006) systematically explored …": the cited authors, whatever
    # their verb; not "Collins (1999) parser is …", whose next word is a noun before the verb.
    if (cited := CITED_AUTHORS.match(text)) and (nxt := AFTER_CITED.match(text, cited.end())) and not VERB_RE.match(text, nxt.end()):
        return cited.group(1)
    m = main_verb(text)
    before = text[: m.start()] if m else text
    if m and (LEAD_THEN_WE.match(before) or AFTER_COMMA_WE.search(before)):
        return system  # "Under the first approach we proposed …", "To create …, we selected 20 tags …"
    if m and (rest := _without_lead(before)) != before:
        return find_subject(text[m.start() - len(rest):], system)  # "Given the difficulties …, Mihalcea (2005) proposed …"
    head = RELATIVE_END.sub("", before)
    if clause := CLAUSE_AFTER.search(head):
        head = head[: clause.start()]
    if rel := RELATIVE_IN.match(head):  # the noun a relative clause describes, not a name inside the clause
        head = rel.group(1)
    names = [n for n in NAME_RE.findall(head) if n not in {"We", "In", "It", "The", "A"}]
    if names:
        return names[0]
    if cited := CITED_HEAD.match(head) or CITED_AUTHORS.match(head):
        return cited.group(1)  # "(Pasca, 2007a) reports ...", "Zhao and Vogel (2002) go ...": the cited authors
    # Without its asides ("(x, y)", "(Brill, 1994, Magerman, 1995)"), whose commas would cut it up.
    chunks = [c.strip() for c in re.split(r",(?!\d{3})", PARENTHETICAL.sub(" ", head)) if c.strip()]  # not "60,000"
    if any(re.match(r"we\s", c, re.I) for c in chunks[1:]):
        return system  # "To evaluate X, we conducted five experiments, each …": the authors'
    for k in range(len(chunks) - 1, -1, -1):
        chunk, listed = chunks[k], False
        if k and re.match(r"[a-z]+ed\s+by\b", chunk):
            continue  # an aside: "The first decile of the transcript, defined by length in words, contained …"
        if AUTHOR_START.match(chunk):
            return system  # "Beginning with a large stable of clues, we identify ...": the authors'
        if LIST_END.match(chunk):
            # three items or more ("A, B, and C"); "Arguments raged, and it …" joins two clauses
            whole, last = ", ".join(chunks[: k + 1]), LIST_END.sub("", chunk)
            listed = k >= 2 and len(whole.split()) <= 10 and not NOUNLESS.match(last.split()[0])
            chunk = whole if listed else last
        phrase = DETERMINERS.sub("", DETERMINERS.sub("", PREPOSITION_LEAD.sub("", ADVERB_LEAD.sub("", chunk))))
        words = TRAILING_ADVERB.sub("", phrase).split()  # the adverb follows a word: a lone word stays
        if words and not all(NOUNLESS.match(w) for w in words) and len(words) <= 10 and not re.search(r"[()]", chunk):
            # "the expected count of (x, y)"; with no verb found, the head ran to the sentence's end: not its full stop
            # the last 8 words, unless they start inside the phrase ("[combination] of the two types of …")
            tail = words if listed or len(words) <= 8 or FUNCTION_WORD.match(words[-8]) else words[-8:]
            return DANGLING.sub("", " ".join(tail)).strip(" ;:" if m else " ;:.") or system
    return system


def _without_lead(head: str) -> str:
    """The phrase before the main verb without its lead phrases, unless they are all of it ("In such cases, using
    X, with or without Y, may lead …": the last is the subject) or it goes on their list ("Using X, and no Y, …")."""
    rest = head
    while lead := LEAD_CHUNKS.match(rest):
        phrase = RELATIVE_PRONOUN.split(lead.group(0))[0]  # a relative clause's verb is its own ("… which have been …")
        if len(lead.group(0).split()) > 12 or VERB_RE.search(phrase) or PAST.search(phrase):
            break  # a verb the rules missed ran the phrase on: "At least three kinds … play a role …, …"
        rest = rest[lead.end():]
    return rest if re.search(r"\w", rest) and not re.match(r"(?:and|or|but|nor)\b", rest, re.I) else head


# A finite verb before any relative or subordinate clause ("with features that would make …", "for the case where the
# rules are binary" keep their phrase; "is-a" is a name). Not VERB_RE: its participles modify a phrase ("over the commonly
# used B-Cubed F-Score").
RUNS_INTO_VERB = re.compile(r"^(?:(?!\b(?:that|which|who|whose|whom|where|when|if|whether)\b).)*?\b(?:is|are|was|were|has|have|had|can|"
                            r"cannot|could|will|would|should|must|may|might|does|did|reduces|improves|gives|yields|shows|performs|outperforms?|"
                            r"requires|consists|takes|becomes|makes|achieves|involves|provides|remains|seems|depends|needs|produces|"
                            r"leads|contains|tend)\b(?!-)")
# Discourse and bounds, not the setting a statement holds in ("for example", "on average", "at least 33%"); a relative
# clause ("for which the frequency is greater"); what a figure shows ("given in figure 4").
NO_CONDITION = re.compile(r"(?:for (?:example|instance|ex ample|brevity|this purpose|our purposes|the first time)|on average|"
                          r"at (?:least|most|the same time)|at (?:all|first)$|in (?:particular|general|detail|fact|addition|contrast|turn|"
                          r"other words|passing|practice|summary|short|order to)|with each other|on the other hand)\b|"
                          r"\w+ (?:which|whom|whose)\b|given (?:in|by|below|above|as)\b", re.I)


# A phrase that states the result, not its setting: a value with its measure ("in an accuracy of 65.4%", "at 79.8%
# precision", "in error rate of 9.7%", "in an increase of 1.8 BLEU points"); not a setting's size ("on 10,000 sentences",
# "with a threshold of 0.3")
_VALUE = r"\d+(?:\.\d+)?\s*(?:%|percent|points?)|\d*\.\d+"
STATES_RESULT = re.compile(rf"\b(?:{_METRIC_NAMES}|increase|decrease|reduction|improvement|drop|gain|error|score)s?\b[^,;]{{0,25}}?"
                           rf"\b(?:of|to|as high as|as low as)\s+(?:{_VALUE})|^(?:{_VALUE})\s+(?:{_METRIC_NAMES})\b", re.I)


def find_conditions(text: str) -> list[str]:
    out: list[str] = []
    for m in CONDITION_RE.finditer(text):
        prep, phrase = m.group(1), m.group(2).strip()
        if len(phrase.split()) > 10 or prep.lower() == "in" and not re.search(r"[A-Z0-9]|setting|domain|condition|case|language", phrase):
            continue
        lead = re.match(r"(?:the\s+)?\S+\s*(?=\d)", phrase)  # "in Table 4", "in section 4.1": where, in the paper
        if NO_CONDITION.match(f"{prep} {phrase}") or lead and points(phrase, lead.end()) or STATES_RESULT.search(phrase):
            continue
        # A phrase that runs into the main verb modified the subject ("work on grammar induction has used …",
        # "Composition with the lexicons reduces …"); one with "both" cut at "and" lost its half ("in both the ATIS").
        if (prep.lower() not in ("when", "given") and RUNS_INTO_VERB.search(phrase)
                or re.search(r"\bboth\b", phrase) and text.startswith(" and", m.end())):
            continue
        out.append(f"{prep.lower()} {phrase}")
    return list(dict.fromkeys(out))[:4]


def find_assumptions(text: str) -> list[str]:
    return list(dict.fromkeys(f"{k.lower()} {v.strip()}" for k, v in ASSUMPTION_RE.findall(text)))[:3]


APART = re.compile(r"\band\b|[,;]")  # between a metric and a number: they belong to different clauses or items


def find_quantities(text: str, subject: str) -> list[Quantity]:
    """The values a statement reports: effect estimates with their interval and P value (statistics.py),
    then other numbers with a unit or a decimal, each with the metric named nearest it."""
    datasets = [m.group(0) for m in DATASETISH.finditer(text)]
    found = estimates(text)
    out = [Quantity(value=e.value, text=e.text, metric=e.measure, interval=e.interval, p_value=e.p,
                    dataset=datasets[0] if datasets else "", subject=subject) for e in found]
    # an interval's level and bounds, a P value, a sample size: they qualify a result and are none
    taken = qualifiers(text) + [e.span for e in found]
    metrics = list(METRIC_RE.finditer(text))  # once a text, not once a number
    for m in NUMBER_RE.finditer(text):
        raw, unit = m.group(1), m.group(2) or ""
        if any(a <= m.start(1) < b for a, b in taken):
            continue
        if not unit and "." not in raw:
            continue  # bare integers are mostly years, section numbers and counts without units
        if re.fullmatch(r"(19|20)\d\d", raw) or points(text, m.start()):  # a year, "Section 4.2"
            continue
        try:
            value = float(raw)
        except ValueError:
            continue
        # The metric named nearest the number, within 60 characters before it or 40 after ("precision 75.7%, recall
        # 45.67%": 45.67 is recall's), first one with no "and", comma or semicolon between ("precision was 0.99 and recall");
        # a tie goes to the name first in the alphabet, so the choice does not depend on the order of the text.
        near = [(bool(APART.search(text, min(k.end(), m.end()), max(k.start(), m.start()))),
                 min(abs(k.end() - m.start()), abs(k.start() - m.end())), k.group(1))
                for k in metrics if k.end() > m.start() - 60 and k.start() < m.end() + 40]
        # a change, not a level: "improves accuracy by 2%", "a 2.1 percent F-measure improvement", "2 points higher",
        # "within 3 points of the statistical models" (the rules result facts use, and "within")
        before, after = " ".join(text[:m.start()].split()[-3:]), " ".join(text[m.end(1):].split()[:7])
        delta = bool(DELTA.search(before) or re.search(r"\bwithin\s*$", before, re.I) or CHANGE_AFTER.match(after)
                     or RELATIVE.match(after))
        out.append(Quantity(value=value, text=(raw + ("%" if unit in ("%",) else (" " + unit if unit else ""))).strip(),
                            unit=unit, metric=min(near)[2].lower() if near else "", dataset=datasets[0] if datasets else "",
                            subject=subject, delta=delta))
    return out[:6]


# What the previous statement was about: "It", "They", a demonstrative alone ("This means …", "This
# is …") or before a word that names it generically ("This approach", "These results"). A
# demonstrative before a noun of its own names its subject ("This information is not used …":
# information), and "this paper" is the authors' (find_subject).
ANAPHOR = re.compile(r"^(?:(?:it|they|such an?)\b|(?:this|these|that|those)(?:\s+(?:approach|method|model|system|algorithm|"
                     r"technique|framework|tagger|parser|classifier|network|architecture|results?|findings?|numbers|"
                     r"figures|scores|improvements?|differences?|is|are|was|were|has|have|had|can|could|may|might|will|"
                     r"would|should|must|does|did|also|not|still|often|only|all|both|then|alone|[a-z]+ly)\b|\s*[,.;]|$)|(?:this|that)\s+[a-z]+s(?<!ss)(?<!us)(?<!is)\b)",
                     re.I)


def tagged_subject(text: str, spans: list[tuple[str, str]]) -> str | None:
    """The first Method/Material/Task mention before the main verb (the tagger's spans as (surface, type))."""
    text = _strip_lead(text)
    if AUTHOR_START.match(text):
        return None
    head = text[: m.start()] if (m := main_verb(text)) else text
    if CITED_AUTHORS.match(text) or AUTHORS_HEAD.match(head):
        return None  # cited authors are the subject (find_subject)
    head = _without_lead(head)
    if re.match(r"we\b", head, re.I):
        return None  # "Using X, we …": the authors' (find_subject); "our results indicate that X …" goes on
    for surface, etype in spans:
        if etype in ("Method", "Material", "Task") and surface in head and not AUTHOR_START.match(surface):
            return TRAILING_ADVERB.sub("", surface)  # "CorMet dynamically obtains …": "CorMet"
    return None


PAST = re.compile(r"\b[a-z]{3,}ed\b")
# Starts mid-sentence: "tomatically ~xtracted", "sub-corpus because" (not "cDNA", "iHepSCs", "k-means");
# at a comma, a closing bracket or an equation's "= 0.1), and ..."; at a citation's year, its authors
# cut off ("(2008) proposed ..."); after a bracket's number ("1200), however, accuracy …"); or at a number that no
# noun follows, the end of what named it or a page number ("1 shows the BLEU and NIST scores", "0 if the class …");
FRAGMENT = re.compile(r"^(?:[a-z]{2,}-|[a-z]+\b(?![\-\d])|[,;:=\])]|\.(?!\d)|\(" + YEAR + r"\)|\d[\d.,]*\)\s*(?:[,;:.]|[a-z])|"
                      r"\d[\d.,]*\s+(?:is|are|was|were|be|can|could|shows?|reports?|gives|the|if|however|and|or|but|that|which|to)\b|"
                      # or at its verb, the subject lost to a footnote run in before it ("Has a significant impact on …"), not a question
                      r"(?:Has|Have|Had|Is|Are|Was|Were|Does|Do|Did)\b(?!.*\?\s*$))")
SHARED_SUBJECT = re.compile(r"(?:has|have|had|is|are|was|were|does|do|did|can|could|will|would|may|might|must|should)\b", re.I)
LOWER_NAME = re.compile(r"[a-z]+-?\d")  # a gene's or a protein's name: "caspase-11", "p53", "n-3"
# "our approach.In the next section", "parts of speech (POS).This paper": a missed sentence break; so is a footnote's
# number run in after the full stop ("… all three scorers.7 Similar trends can be observed …"), which is left out
GLUED = re.compile(r"(?:(?<=[a-z0-9)]{2})|(?<=\w\)))\.(?=[A-Z][a-z])|(?<=[a-z]{2})\.\d{1,2}\s+(?=[A-Z][a-z])")
CLAUSE_BREAK = re.compile(r";\s+(?:however,?\s+|but\s+|whereas\s+)?|,\s+(?:but|whereas)\s+")


# Four bare numbers in a row: a table's row the PDF reader ran into the text ("… Viterbi total 604 388 233 1235 It can be
# seen from these figures that …"); the words after it are a sentence of their own
TABLE_RUN = re.compile(r"(?:\s+\d[\d.,]*%?){4,}\s+(?=[A-Z])")


def _split_outside_brackets(pattern: re.Pattern, text: str) -> list[str]:
    """`pattern.split(text)`, but not at a match inside brackets: "(van Halteren et al., 1998; Volk and
    Schneider, 1998)" is one citation, not two clauses."""
    pieces, start = [], 0
    for m in pattern.finditer(text):
        before = text[:m.start()]
        if before.count("(") + before.count("[") <= before.count(")") + before.count("]"):
            pieces.append(text[start:m.start()])
            start = m.end()
    return pieces + [text[start:]]


def claims(statement: str) -> list[str]:
    """One claim per fact: a statement's parts where it joins several (sentences run together by the
    PDF reader; clauses joined by "; but", ", whereas"), each a sentence of its own. Lists (a colon
    before the break), parts too short to stand alone and a part that points back (POINTS_BACK) stay joined."""
    out: list[str] = []
    parts = [q for p in _split_outside_brackets(GLUED, statement) for q in TABLE_RUN.split(p)]
    for part in (p.strip() for p in parts):
        pieces = [x.strip() for x in _split_outside_brackets(CLAUSE_BREAK, part)] if ":" not in part else [part]
        # a clause that shares the first one's subject ("…, but has significant advantages over these taggers") stays with it
        if (len(pieces) == 1 or not all(len(x.split()) >= 5 and VERB_RE.search(x) for x in pieces)
                or any(SHARED_SUBJECT.match(x) for x in pieces[1:])):
            pieces = [part]
        for x in filter(None, pieces):
            if out and POINTS_BACK.match(x):  # "…; these, together with …, determine …": one claim with what it needs
                out[-1] = out[-1][:-1] + ("; " if x[:1].islower() else ". ") + x.rstrip(" .;,") + "."
            else:
                out.append(x[:1].upper() + x[1:].rstrip(" .;,") + ".")
    return out if len(out) > 1 else [statement]


def _fact(sm: SourceMap, s, statement: str, ftype: FactType, subject: str, system: str, prov: Provenance) -> Fact:
    fact = Fact(statement=statement[:2000], subject=subject[:300] or system, type=ftype,
                context=Context(conditions=find_conditions(statement), assumptions=find_assumptions(statement)),
                quantities=find_quantities(statement, subject), evidence=[sm.locator(s.sid)], provenance=prov)
    verification, note = verify_fact(fact, s.text)
    return fact.model_copy(update={"verification": verification, "verification_note": note})


def _folded(sm: SourceMap, fact: Fact, s, statement: str | None) -> Fact:
    """`fact` (the one fact of the sentence before `s`) with `s` folded in: its `statement` appended when
    it says something of that sentence ("This means …"), or, with `statement` None, `s` itself: the
    rest of a sentence the reader cut. A fact that stands alone, citing every sentence it joins."""
    texts = [sm.text_of(split_locator(loc)[1]) for loc in fact.evidence]
    head = fact.statement.rstrip()
    if statement is None:
        if head.endswith(".") and not texts[-1].rstrip().endswith("."):
            head = head[:-1]  # the full stop `claims` gave the cut sentence's last part
        joined = f"{head} {' '.join(s.text.split())}"
    else:
        joined = head + ("" if head.endswith((".", "!", "?")) else ".") + " " + statement
    folded = fact.model_copy(update={
        "statement": joined[:2000], "evidence": [*fact.evidence, sm.locator(s.sid)],
        "context": Context(conditions=find_conditions(joined), assumptions=find_assumptions(joined)),
        "quantities": find_quantities(joined, fact.subject)})
    verification, note = verify_fact(folded, " ".join([*texts, s.text]))
    return folded.model_copy(update={"verification": verification, "verification_note": note})


# What speaks of the sentence before and needs it to stand alone: a demonstrative alone before its verb
# ("This means …", "That also holds …"), "They" ("They report 96.7% …"), "These results …", and "It"
# before a verb of its own ("It rearranges the edges …"; not "It is possible …", "It seems …").
POINTS_BACK = re.compile(r"^(?:the\s+(?:former|latter)\b|"
                         # an ordinal standing for what the sentence before listed ("The second is that …", "The first two were …")
                         r"the\s+(?:first|second|third|last|other)(?:\s+(?:one|two|three))?\s+(?:is|are|was|were|has|have|had|can|"
                         r"could|may|might|will|would|does|did|uses|makes|requires|consists|involves|relies|takes|contains)\b|"
                         r"(?:this|that)\s+(?:is|was|has|had|can|could|may|might|will|would|should|must|does|did|also|"
                         r"not|still|often|only|then|[a-z]+ly|[a-z]+s(?<!ss)(?<!us)(?<!is))\b|they\s|"
                         r"these\s+(?:[a-z]+\s+)?(?:results|findings|numbers|figures|experiments|observations|scores|"
                         r"improvements|differences|errors|gains|values|trends|statistics|problems|effects)\b|"
                         r"it\s+(?!(?:is|was|seems|appears|remains|follows|turns|has been|would|may|might|can|could|should|"
                         r"must|will|becomes|makes sense|takes|took)\b)(?:also\s+|\w+ly\s+)?[a-z]+(?:s|ed)\b|"
                         # a demonstrative noun phrase ("This choice yields …", "These models are suitable …", "Such
                         # techniques can …"): not the paper itself ("This paper describes …") nor a time ("This time …")
                         r"(?:this|these|those|such)\s+(?!(?:paper|article|work|study|section|chapter|thesis|report|book|"
                         r"volume|time|way|year|days?|point|stage)\b)(?:an?\s+)?[a-z][a-z\-]*\b|"
                         # a part of what the sentence before listed ("Both of these corpora …", "None of them …")
                         r"(?:one|some|each|both|all|many|most|none|neither|either|several|two|three|four|few|half)\s+of\s+"
                         r"(?:these|those|them)\b|"
                         # a demonstrative before an aside ("These, together with the correct categories, determine …")
                         r"(?:this|these|those),\s|"
                         # such a quantifier standing alone before its verb ("Each assesses the polarity …", "Both use …")
                         r"(?:each|either|neither)\s+(?:also\s+|\w+ly\s+)?(?:is|was|has|had|can|could|may|might|will|would|does|did|"
                         r"[a-z]+s(?<!ss)(?<!us)(?<!is))\b|"
                         r"both\s+(?:also\s+|\w+ly\s+)?(?:are|were|have|had|can|could|may|might|will|would|do|did|use[ds]?|"
                         r"show(?:ed)?|achieve[ds]?|perform(?:ed)?|rel(?:y|ied)|require[ds]?|yield(?:ed)?|give|gave|produce[ds]?|"
                         r"suffer(?:ed)?|assume[ds]?|make|made|employ(?:ed)?|outperform(?:ed)?|reach(?:ed)?|obtain(?:ed)?)\b)", re.I)
# A sentence the reader cut before its end: at an abbreviation's point ("Rooth et al." | "(1999) and …"),
# a quote lost to "?" ("a ?clustering solution?" | "instead of …"), or with no full stop at all.
CUT_OFF = re.compile(r"(?:\b(?:et al|e\.g|i\.e|cf|vs|Fig|Eq|Sec|resp)\.|[^.!?\"”'\s]|[^.!?\s][\"”']|\?)\s*$")
# A question, also after a conjunction or a lead phrase ("So which …?", "And, at the other extreme, what …?")
QUESTION = re.compile(r"^(?:(?:so|and|but|then|now|yet|thus|hence),?\s+)?(?:[^,?]{1,60},\s+)?"
                      r"(?:what|how|why|which|who|when|where|whether|does|do|did|is|are|was|were|can|could|should|would|will|"
                      r"has|have)\b[^?]*\?$", re.I)
FOLD_MAX = 3  # sentences one fact may fold together
DESCRIPTIONS = (FactType.method_description, FactType.dataset_description)
DEMONSTRATIVE = re.compile(r"^(?:this|these|that|those)\s", re.I)
# An aside between the noun and its verb: "This assignment, however, is …", "these methods, although polynomial, are …"
ASIDE = re.compile(r",\s*(?:however|therefore|thus|though|in turn|of course|too|then|for example|for instance|e\.g\.|"
                   r"on the other hand|in particular|in contrast|in fact|in practice|in general|moreover|furthermore|"
                   r"(?:although|though|while)\s[^,;]{1,60}),\s*", re.I)


# What a subject cut in the wrong place ends with ("Incremental Algorithm of", "reordering models such as"), in
# lower case as results.DANGLING: "Model A" keeps its A; or is when the rules found no noun at all ("To", "as", "and")
LOOSE_END = re.compile(r"(?:,?\s+(?:between|of|in|on|for|with|to|from|by|at|the|a|an|and|or|than|as|such as|that|which))+$")
LONE_WORD = re.compile(r"^(?:to|as|and|or|an?|the|in|on|of|at|by|for|with|if|when|while|that|which|than|between|from)$", re.I)


# "It is likely that …", "It seems clear that …", "It is important to note that …": an "it" that stands for
# the clause after "that", not for what the previous statement was about ("It is the first system that …" is).
EXPLETIVE = re.compile(r"^it\s+(?:is|was|seems|seemed|appears|appeared|remains|has been|should be|can be|must be|would be|"
                       r"becomes|became)\s+(?:(?!(?:the|a|an|this|these|those|its|their|our)\s)[\w\-]+\s+){0,5}?(?:that|whether)\s+(?=\S)", re.I)


# "There are several reasons for …", "Traditionally, there have been two types of evaluation: …": what there is.
EXISTENTIAL = re.compile(r"^(?:\w+ly,?\s+)?there\s+(?:is|are|was|were|has been|have been|had been|exists?|existed|remains?|remained)\s+"
                         r"((?:(?!(?:in|for|on|to|with|from|between|among|when|that|which|who|where|than|as|by|at)\b)[^\s,;:.()]+\s*){1,6})", re.I)
LEADING_ADVERB = re.compile(r"^(?:(?:\w+ly|now|also|still)\s+)+")  # "There are apparently many differences": "many differences"


# A cited author referred back to ("He reports that …") is the person the statement before was about, when it was one:
# a name, or a name's possessive ("Jacquemin's algorithm … He finds that …"); not "L-BFGS" nor "the system".
HE_OR_SHE = re.compile(r"(?:he|she)\b", re.I)
PERSON = re.compile(r"(?!(?:The|This|These|That|Our|His|Her|Its|Their|An?)\b)((?:[A-Z][a-z]+\s+)?[A-Z][a-z]+)(?:['’]s\b.*)?$")


def _subject(statement: str, spans: list[tuple[str, str]], previous: str, system: str) -> str:
    bare = DISCOURSE.sub("", statement)
    if m := EXPLETIVE.match(bare):
        return _subject(bare[m.end():], spans, previous, system)  # the clause's subject
    if (m := EXISTENTIAL.match(bare)) and not LONE_WORD.match(found := LEADING_ADVERB.sub("", LOOSE_END.sub("", m.group(1).strip()))):
        return found
    if ANAPHOR.match(bare):
        return previous  # "It", "This approach": what the previous statement was about
    if HE_OR_SHE.match(bare) and (person := PERSON.match(previous)):
        return person.group(1)  # "Manning (1993) conducts a larger experiment … He reports that …": Manning
    if DEMONSTRATIVE.match(bare):  # "This information is …": the noun the demonstrative names, not a mention further on
        found = find_subject(ASIDE.sub(" ", bare), system)
        # "These strata reflect …": a verb the rules do not know lets the noun run on; the previous subject it was
        return found if len(found.split()) <= 4 else previous
    found = tagged_subject(statement, spans) or find_subject(ASIDE.sub(", ", statement), system)
    found = found if found.endswith(" so on") else LOOSE_END.sub("", found)  # "numerals and so on" ends where it should
    found = re.sub(r"^(?:that|which)\s+", "", found, flags=re.I)
    # no noun found ("To make the process efficient, we introduce …"): what the statements before were about
    return previous if not found or (LONE_WORD.match(found) and not found.isupper()) else found


def extract_facts(sm: SourceMap, run_id: str | None = None) -> list[Fact]:
    prov = Provenance(producer="extract.offline", backend="offline", run_id=run_id)
    pa = analyse(sm, SKIP_SECTIONS.search)
    facts, used = result_facts(sm, pa, prov)
    system = pa.own(sm.title)[0]
    spans_of = {s.sid: [(s.text[toks[a][1]:toks[b - 1][2]], t) for a, b, t in row]
                for s, toks, row in zip(pa.sentences, pa.tokens, pa.doc.spans)}
    previous_subject = system
    abstract = {s.sid for s in sm.sentences if "abstract" in (s.section or "").lower()}
    short_abstract = len(abstract) <= ABSTRACT_MAX
    only_fact: dict[int, int] = {}  # sid → the index in `facts` of the one fact its sentence gave here
    no_finding: set[int] = set()  # sids of whole prose sentences that gave no fact: a sentence after may need them
    for i, s in enumerate(sm.sentences):
        if SKIP_SECTIONS.search(s.section or "") or s.kind != "prose" or s.sid in used or ACKNOWLEDGEMENT.match(s.text):
            continue
        before = sm.sentences[i - 1] if i else None
        adjacent = before is not None and before.section == s.section  # the sentence before, in the same section
        j = only_fact.get(before.sid) if adjacent else None
        j = j if j is not None and len(facts[j].evidence) < FOLD_MAX else None
        statement = clean_statement(s.text)
        # a lower-case name the cleaning left at the start ("However, caspase-11 was …", "We show that p53 …") is no cut
        if FRAGMENT.match(statement) and not (LOWER_NAME.match(statement) and s.text.lstrip()[:1].isupper()):
            if j is not None and CUT_OFF.search(before.text) and not QUESTION.match(before.text):
                facts[j] = _folded(sm, facts[j], s, None)  # the rest of the sentence before
                only_fact[s.sid] = j
            continue  # otherwise a fragment (a sentence cut by the PDF reader), not a statement that stands alone
        in_abstract = s.sid in abstract
        ftype = classify(s.text, in_abstract, any_verb=short_abstract)
        if (ftype is None and j is not None and POINTS_BACK.match(statement) and not QUESTION.match(statement)
                and classify(s.text, True, any_verb=True) is not None):
            facts[j] = _folded(sm, facts[j], s, statement)  # "The latter relies on …": more of the fact before, no cue of its own
            only_fact[s.sid] = j
            continue
        if ftype is None or QUESTION.match(statement):
            if ftype is None:
                no_finding.add(s.sid)
            continue  # no finding, or a question the paper asks
        points_back = POINTS_BACK.match(statement)
        if points_back and adjacent and before.sid in no_finding:
            # "They report 80% precision …" after a sentence that states no finding of its own ("Smith et al.
            # tag learner text with …"): the finding is of both, anchored at the sentence it needs
            head = clean_statement(before.text)
            whole = _subject(head, spans_of.get(before.sid, []), previous_subject, system)
            j, only_fact[before.sid] = len(facts), len(facts)
            facts.append(_fact(sm, before, head, ftype, whole, system, prov))
        if j is not None and points_back:
            facts[j] = _folded(sm, facts[j], s, statement)  # it speaks of the sentence before: one fact of both
            if ftype == FactType.finding and facts[j].type in DESCRIPTIONS and OUTCOME.search(statement):
                # "We use X. This model reaches 96% …": a described method with its outcome is a finding
                facts[j] = facts[j].model_copy(update={"type": FactType.finding})
            only_fact[s.sid] = j
            continue
        whole = _subject(statement, spans_of.get(s.sid, []), previous_subject, system)
        parts = []
        subject = previous_subject
        for part in claims(statement):
            ptype = ftype if part == statement else classify(part, in_abstract, any_verb=short_abstract)
            if ptype is None:
                continue
            part = clean_statement(part)  # typed with its lead ("Unfortunately, …"), stated without ("…; for example, X": X)
            subject = _subject(part, spans_of.get(s.sid, []), subject, system)
            parts.append(_fact(sm, s, part, ptype, subject, system, prov))
        if parts and parts[0].statement != statement and any(f.verification.value == "failed" for f in parts):
            parts = []  # a part lost a qualification the whole keeps: the sentence stays one fact
        made = parts or [_fact(sm, s, statement, ftype, whole, system, prov)]
        if len(made) == 1:
            only_fact[s.sid] = len(facts)
        facts += made
        previous_subject = parts[-1].subject if parts else whole
    return facts
