"""Result facts: reported values bound to method, metric, dataset and task, as statements that stand alone.

The learned mention tagger marks Method, Task, Metric and Material spans in every citable sentence
(prose, captions, table rows); the document entity model says which clusters the paper is about
and which method it evaluates on which dataset. A number (a decimal or a percentage) next to a
Metric mention in a prose sentence becomes a result (a flattened table row has lost the columns
that say what each number measures, so it stays evidence only; a value set to a parameter, "α =
0.1", is none); the metric is the one written right after the value, else the nearest; a list of
values is paired only by "respectively"; its method is the one named right after it ("90.1% with
SCNEGEX"), else the nearest Method mention before it in the sentence, or
the paper's own method when the authors speak ("we", "our"); its dataset is the nearest Material
mention, else the dataset the model pairs with that method or the paper's main one, only where the
paper says it evaluates on it (`PaperAnalysis.evaluated_sid`), else none. Names taken from another
sentence bring that sentence in as evidence, so every word of the statement is grounded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from ..learned import doc_entities, mention_tagger
from ..models import Context, Fact, FactType, Provenance, Quantity, SourceMap, Verification
from ..models.common import stable_hash
from ..l2.mentions import DATASET_RE, LOWER_IS_BETTER, METRIC_RE, METRIC_WORDS, NATURAL_LANGUAGE, points, with_known_names
from ..verify import qualifies, verify_fact

CITABLE = ("prose", "caption", "table_row")
VALUE = re.compile(r"^\d+\.\d+$|^\d+$")
YEAR = re.compile(r"^(19|20)\d\d$")
AUTHOR = re.compile(r"\b(we|our|ours|proposed)\b", re.I)
# A value of cited work. Either "their"/"his"/"he" is the last owner named before it ("We calculate that their precision
# was 78% with 54% recall", "He reports … a token recall of 82%"; not "… and our system has 80.32"), or, in a sentence
# where the authors report nothing of theirs, a citation stands in the value's clause ("Black (1988) observed 75% …";
# not "Compared with X (Finkel et al., 2005), T-SEG obtains …"), cited authors open the sentence ("Han et al (2006) use
# …, achieving 83% accuracy"), two authors report it ("Ma and Liberman report 99.1% precision") or a possessive name
# opens that clause or the sentence ("…, Merialdo’s trigram tagger was reported to have an accuracy of 86.6%"; not "The
# Feature Assessor improves Hu’s precision …").
CITES = re.compile(r"\((?:[^()]{0,60}?,?\s*)?(?:19|20)\d\d[a-z]?\)|\bet\s+al\b|^\s*[A-Z][a-z]+['’]s\s|"
                   r"^\s*[A-Z][\w\-]+\s+(?:et\s+al\b|(?:and|&)\s+[A-Z][\w\-]+\s*\(|\(\s*(?:19|20)\d\d)|"
                   r"\b[A-Z][a-z]+\s+(?:and|&)\s+[A-Z][a-z]+\s+(?:report|achiev|obtain|found|show|observ)\w*")  # "Ma and Liberman report …"
# A citation right after the value: "The best previously reported error rate … was 75% (Kuhn and DeMori 1990)".
CITED_AFTER = re.compile(r"^\s*%?\s*\((?:[^()]{0,60}?,?\s*)?(?:19|20)\d\d[a-z]?\)")
OWNER = re.compile(r"\b(we|our|ours|us|their|theirs|his|her|he|she)\b", re.I)
NOT_OWN = re.compile(r"\bour\s+(?:\w+\s+)?(?:baselines?|previous|earlier|prior)\b", re.I)  # "our baseline system" is not the proposal
DELTA = re.compile(r"\b(by|improv\w*|gain(?:s|ed)?|increas\w*|reduc\w*|decreas\w*|absolute|relative)(?:\s+of)?\s*$", re.I)
RELATIVE = re.compile(r"^(?:%\s)?(?:points?\s|pp\s)?(?:lower|higher|better|worse|less|more|above|below|faster|slower|times|fold)\b", re.I)
CHANGES = ("improvement", "gain", "increase", "decrease", "drop", "reduction", "jump", "boost")  # nouns naming a change, not a measure
DOWN = re.compile(r"drop|decreas|lower|loss|reduc", re.I)  # a change that lowers the measure
DIRECTION = re.compile(rf"improv|gain|increas|jump|boost|higher|more|over|above|better|{DOWN.pattern}", re.I)
CHANGE_WORDS = frozenset(CHANGES) | {f"{w}s" for w in CHANGES}
# A change named after the value ("a 2.1 percent F-measure improvement over ..."): a delta, not a level.
CHANGE_AFTER = re.compile(rf"^(?:%\s|percent\s)?(?:(?:[\w\-]+\s){{0,4}}(?:{'|'.join(CHANGES)})s?|relative|absolute"
                          r"|(?:[\w\-]+\s){0,3}points?\s(?:over|above|better|higher|more))\b", re.I)  # "1.66 BLEU points over the baseline"
# A test statistic; "recall that" (the verb); a rate set before training, not measured after it.
# Agreement between annotators measures the data, not a method ("an inter-tagger agreement of 84% for WordSim353", "The
# Kappa statistics for our experiments were all in the range 0.78 – 0.85").
NOT_A_METRIC = re.compile(r"^(?:[ztp][- ]?(?:score|value|statistic)s?|kappa statistics?|recall that|(?:learning|dropout|decay) rates?"
                          r"|inter[- ]?(?:annotator|tagger|coder|rater|judge)s?\s+agreements?(?:\s+rates?)?)$", re.I)
# "the upper bound for recall ... is 93%", "a ceiling of 90%": a limit on results, not one reached.
LIMIT = re.compile(r"\b(?:upper|lower)\s+bounds?\b|\bceiling\b", re.I)
# A value set against the result ("we got an AER of 15.5 (compare to 19.5 for Model 2)", "95.0% compared to
# 89.5%", "higher than the 0.6% error reported by …"): what it compares with, not the method's; "more than 90%" is a bound, and stays.
SET_AGAINST_VALUE = re.compile(r"(?:\b(?:compared?|comparison)\s+(?:to|with)|\bversus|\bvs\.?|\bagainst|"
                               r"(?<!more )(?<!less )(?<!fewer )(?<!greater )(?<!rather )\bthan)(?:\s+(?:the|a|an))?$", re.I)
# "The standard deviation of the final test BLEU of MERT was 0.13": how much results vary, not one reached.
SPREAD = re.compile(r"\bstandard\s+deviations?\b|\bvariances?\b|\bstd\b|\bstdev\b", re.I)
CLAUSE_GLUE = frozenset("and but while whereas".split())  # words that open a parallel clause ("X had 79.4 and our system 80.3")
# "1.2 million words", "4.7 days", "the 0.95 confidence intervals": a count, a duration or a level of confidence
COUNT = re.compile(r"^(?:million|billion|thousand|k|m|days?|hours?|minutes?|seconds?|ms|words|sentences|tokens|documents|"
                   r"iterations|epochs|confidence|significance|[a-z]+ per|[kmgt]hz|[kmgt]b|cpus?|cores?|gpus?)\b",
                   re.I)  # "1.43 tags per word": a rate of things; "3.46 GHz": the machine
SHARE = re.compile(r"^%\s+(?:of|training)\b", re.I)  # "47% of the time", "with 100% training": a share of something, not a score
LIST_GLUE = frozenset(", and or % / ;".split())  # what separates the values of a list ("75.49%, 80.87% and 79.12%")
DASHES = frozenset("- – —".split())
HYPOTHETICAL = re.compile(r"\b(?:if|assum\w*|suppos\w*|hypothetical\w*|would)\b", re.I)  # "if we assume the rate is 10%"
MAX_DISTANCE = 10  # tokens between a value and the metric it is bound to
# A metric name says what is measured: a known measure or a word that names one.
METRIC_WORD = re.compile(rf"(?:{METRIC_WORDS})|\b(?:score|rate|error|time|speed|accuracy|precision|recall|"
                         r"coverage|agreement|correlation|loss|gain)s?\b", re.I)
GENERIC = frozenset("our the a an this that these their its new proposed baseline final full basic simple standard best "
                    "parser parsers tagger taggers model models system systems method methods approach approaches "
                    "algorithm algorithms classifier classifiers framework technique network networks learner "
                    "individual".split())


def specific(name: str) -> bool:
    """A method name that tells which method it is ("TnT", "maximum entropy tagger"), not just "the
    parser" or a letter, and not a word the PDF reader split across a line ("Sys- tem", "Re- sulting")."""
    words = re.findall(r"[\w\-]+", name)
    if len(name.strip()) < 2:
        return False  # "annotator M": a letter names no method
    return bool(words) and not re.search(r"\w- [a-z]", name) and (any(any(c.isupper() for c in w) for w in words) or
                            sum(w.lower() not in GENERIC for w in words) >= 1 and len(words) >= 2)


# What the tagger may take for a Method that no paper's system is: a syntactic category ("SBAR", "VBN", "POS" in a
# parsing or tagging paper) or a known dataset (DATASET_RE: "WordNet", "Penn Treebank"). Where the most salient Method is one, the
# tagger misread the paper, and the next one is no better a guess ("TRANS", a feature; "PCFG" for Collins's Model 3).
SYNTACTIC_TAG = re.compile("CC|CD|DT|EX|FW|IN|JJ[RS]?|LS|MD|NNP?S?|PDT|POS|PRP|RB[RS]?|RP|SYM|TO|UH|VB[DGNPZ]?|WDT|WP|WRB|"
                           "ADJP|ADVP|NP|PP|SBAR[QS]?|SINV|SQ|VP|WH(?:NP|ADVP|PP|ADJP)|QP|PRN|UCP|NX")
# A plural names a kind of method, not the authors' one system ("language models", "generative models", "HFWs").
PLURAL = re.compile(r"(?:[a-z]|[A-Z]{2})(?<![su])s$")
# A measure the tagger took for a Method: "BLEU", "mWER", "SSER".
MEASURE = re.compile(rf"(?i:{METRIC_WORDS})|[a-z]?(?:WER|SSER|TER|PER|AER|CER|CDER)")
# How authors introduce their method by name: "a model named X", "we propose X".
NAMED_AS = re.compile(r"\b(?:called|named|dubbed|termed|coined)\s+(?:the\s+|an?\s+)?$", re.I)
# What a paper evaluates on; lower case only, so "the Test of English as a Foreign Language" names no test. A
# measure "for" a name is often one of a class ("recall for AIM"), not a dataset's.
EVALUATED = re.compile(r"\b(?:test(?:ed|ing|s)?|evaluat\w*|benchmarks?|held[- ]out|(?:development|dev) (?:set|data)|"
                       rf"(?:results?|experiments?|performance) (?:on|over|for|with)|(?:scores?|(?i:{METRIC_WORDS})) (?:on|over)|"
                       r"report(?:s|ed)? (?:results? )?on)\b|"
                       r"^(?:(?:\S+\s+){0,2}(?:test|development|dev|evaluation|held-out)\s+(?:sets?|data|corpus|material)|"
                       r"for (?:testing|evaluation))\b")
AUTHORS = re.compile(r"\b(?:we|our|this paper|this work)\b", re.I)
# In the abstract, what "this network" names is the paper's own: "This network, called CRF-RNN, ..."
THIS_ONE = re.compile(r"\b(?:this|the proposed|the resulting)\s+(?:[\w\-]+\s+){0,2}?(?:network|model|method|approach|architecture|"
                      r"framework|system|algorithm|tagger|parser)s?\b", re.I)
PROPOSE = re.compile(r"\b(?:we|this paper|this work)\s+(?:\w+\s+)?(?:propose|present|introduce|develop|describe|design)(?:s|d|ed)?\b",
                     re.I)  # "we have developed a statistical system, ALEK", "we present SVMTool"
# "a new … method based on neural networks (Net-Tagger) is presented": a name the sentence goes on to present
PRESENTED = re.compile(r"^\s*\)?\s*(?:is|are)\s+(?:here\s+)?(?:presented|proposed|introduced|described)\b", re.I)
# A citation right after a name says whose it is ("DMV (Klein and Manning, 2004)", "(MIRA) (Crammer et al, 2006)", "the
# PATR system (Shieber et al, 1983"): the work of others, not the authors' own system.
CITED_NAME = re.compile(r"^\W{0,3}(?:[a-z]\w*\s+){0,2}\((?:[^()]{0,60}?,?\s*)?(?:19|20)\d\d[a-z]?\b")
# A name, not a description: "SGAN", "LiteFlowNet", "Stacked Generative Adversarial Networks"; not "generative
# model", "ResNet-like architecture", nor a family of models ("RNN", "global GRU"); a bare two- or three-letter
# acronym is more often a task or a family ("SR", "NER") than the authors' name for their method.
WRITTEN_AS_NAME = re.compile(r"(?:[A-Z][a-z]*[A-Z]|[A-Z]{2,})")
TITLE_CASE = re.compile(r"[A-Z][a-z]+(?:[\s\-]+[A-Z][a-z]+)+")
MODEL_FAMILY = re.compile(r"[A-Z]?(?:RNN|CNN|DNN|NN|LSTM|GRU|GAN|VAE|SVM|CRF|HMM|MLP)s?")
FAMILY = re.compile(rf"(?:{MODEL_FAMILY.pattern}|[A-Z]{{2,3}})")
NOT_OURS = re.compile(r"\b(?:than|over|outperform\w*|compared?|baselines?|such as|like|using|uses?|to|with|based|from|of|"
                      r"on|for|by|in|and|which|that)\b", re.I)


@dataclass
class PaperAnalysis:
    """What the learned models say about one paper."""

    sentences: list  # the citable Sentence objects, in order
    tokens: list[list[tuple[str, int, int]]]
    doc: doc_entities.TaggedDoc
    clusters: list[doc_entities.Cluster]
    salient: list[int]
    pairs: list[tuple[int, int, float]]

    def first_sid(self, ci: int) -> int:
        return self.sentences[self.clusters[ci].mentions[0][0]].sid

    def evaluated_sid(self, ci: int) -> int | None:
        """The first prose sentence that names cluster `ci` as what the paper evaluates on, the cue next to the
        name ("tested on OP1", "evaluated against SemCor", "the MT08 test set"), and qualifies nothing (see
        `plain_sid`); else None. A dataset the paper only uses, builds from or thanks a grant for ("The method
        uses … probabilities over WordNet", "IRI 96-19124") is no result's setting."""
        for si, a, b in self.clusters[ci].mentions:
            sent, toks = self.sentences[si], self.tokens[si]
            if sent.kind != "prose" or b > len(toks):
                continue
            start, end = toks[a][1], toks[b - 1][2]
            if ((EVALUATED.search(sent.text[max(0, start - 60):start]) or EVALUATED.match(sent.text[end:end + 30].lstrip(" )")))
                    and not qualifies(sent.text)):
                return sent.sid
        return None

    def plain_sid(self, ci: int) -> int | None:
        """The first sentence naming cluster `ci` that qualifies nothing ("not", "only", "over 99%"),
        so citing it for the name adds no qualification the statement would have to keep."""
        return next((self.sentences[si].sid for si in dict.fromkeys(m[0] for m in self.clusters[ci].mentions)
                     if not qualifies(self.sentences[si].text)), None)

    def main(self, etype: str, salient_only: bool = False) -> int | None:
        """The most salient cluster of a type (the paper's own method, its main dataset, ...); in a
        paper too short for any to be salient, the most likely one (unless `salient_only`). Not one
        named only in table rows: a header's words ("PARSING TIME SENTS WORDS") are no dataset."""
        def named(i: int) -> bool:
            c = self.clusters[i]
            return c.type == etype and any(self.sentences[si].kind != "table_row" for si, _, _ in c.mentions)
        cands = [i for i in self.salient if named(i)]
        if not cands and not salient_only:
            cands = [i for i in range(len(self.clusters)) if named(i)]
        return max(cands, key=lambda i: (self.clusters[i].salience, len(self.clusters[i].mentions)), default=None)

    def introduced(self) -> int | None:
        """The first Method cluster the authors introduce by name in the title, abstract or first section
        ("we propose a novel generative model named Stacked GANs (SGAN)", "we present SVMTool"); not a
        name the sentence compares with or builds on ("we present a model that outperforms CRF", "we
        propose to use LSTMs")."""
        for si, (sent, toks, spans) in enumerate(zip(self.sentences, self.tokens, self.doc.spans)):
            if self.doc.sections[si] > 2:
                break
            for a, b, t in spans:
                if t != "Method":
                    continue
                before = sent.text[: toks[a][1]]
                lead = list(PROPOSE.finditer(before))
                # "a model named X" is theirs when they say so ("we propose …", "our …"), not "a system called FUNES"
                theirs = AUTHORS.search(before) or (self.doc.sections[si] <= 1 and THIS_ONE.search(before))
                called = NAMED_AS.search(before) and theirs
                named = called or (lead and len(before[lead[-1].end():].split()) <= 8 and not NOT_OURS.search(before[lead[-1].end():])) \
                    or (PRESENTED.match(sent.text[toks[b - 1][2]:]) and before.rstrip().endswith("("))
                surface = sent.text[toks[a][1]: toks[b - 1][2]]
                head = surface.split()[-1] if surface.split() else ""
                # a short acronym names a family or a task ("SR", "NER"), unless the authors say it is what they call theirs ("called CBC")
                family = MODEL_FAMILY.fullmatch(head) if called else FAMILY.fullmatch(head)
                name_like = (WRITTEN_AS_NAME.search(head) and not family) or TITLE_CASE.fullmatch(surface)
                if named and name_like and (ci := self.cluster_of(si, a)) is not None and not self.cited(ci):
                    return ci
        return None

    def own(self, title: str) -> tuple[str, int | None, int]:
        """The paper's own method: (name, its cluster or None, a sid that names it). Unless the title opens
        with a name, the Method its authors introduce by name; else a salient Method named in the title,
        else the title's name for the system, else the most salient specific Method unless it is a syntactic
        tag, a dataset, a kind of method (a family, a plural, a short acronym the title does not spell out), a
        measure or cited work; else the title said as the authors' approach."""
        low = title.lower()
        head = title_head(title)  # "LiteFlowNet: A Lightweight ...": the title names it first
        if head is None and (intro := self.introduced()) is not None:
            return self.clusters[intro].name, intro, self.first_sid(intro)
        # "Sentence-State LSTM for ...": the title's family ("LSTM") is what the method is built of, not its name; "POS" in
        # "Why Doesn't EM Find Good HMM POS-Taggers?" is what the taggers assign
        named = [i for i in self.salient if self.clusters[i].type == "Method" and specific(self.clusters[i].name)
                 and not MODEL_FAMILY.fullmatch(self.clusters[i].name) and not SYNTACTIC_TAG.fullmatch(self.clusters[i].name)
                 and any(len(s) > 1 and re.search(rf"\b{re.escape(s.lower())}\b", low) for s in self.clusters[i].surfaces)]
        if named:
            best = max(named, key=lambda i: self.clusters[i].salience)
            return self.clusters[best].name, best, 0
        if (name := title_system_name(title)) is not None:
            return name, None, 0
        methods = [i for i in self.salient if self.clusters[i].type == "Method" and specific(self.clusters[i].name)]
        if methods:
            best = max(methods, key=lambda i: self.clusters[i].salience)
            name = self.clusters[best].name
            kind = FAMILY.fullmatch(name) and not title_acronym(name, title)  # "ILP" for "… Integer Linear Programming …"
            if not (SYNTACTIC_TAG.fullmatch(name) or DATASET_RE.fullmatch(name) or kind or MEASURE.fullmatch(name)
                    or PLURAL.search(name) or self.cited(best)):
                return name, best, self.first_sid(best)
        return paper_system_name(title), None, 0

    def cited(self, ci: int) -> bool:
        """Whether the paper cites cluster `ci` as others' work: a year follows one of its mentions."""
        return any(CITED_NAME.match(self.sentences[si].text[self.tokens[si][b - 1][2]:]) for si, _, b in self.clusters[ci].mentions
                   if b <= len(self.tokens[si]))

    def cluster_of(self, si: int, a: int) -> int | None:
        for ci, c in enumerate(self.clusters):
            if (si, a) in {(m[0], m[1]) for m in c.mentions}:
                return ci
        return None


def analyse(sm: SourceMap, skip_section) -> PaperAnalysis:
    # The title counts (salience reads it), results are never drawn from it.
    sents = [s for s in sm.sentences if s.sid == 0 or s.kind in CITABLE and not skip_section(s.section or "")]
    toks = [mention_tagger.tokenize(s.text)[:200] for s in sents]
    words = [[w for w, _, _ in t] for t in toks]
    tagged = [[(sp.start, sp.end, sp.type) for sp in row] for row in mention_tagger.load().tag(words)]
    tagged = [_known(s.text, t, row) for s, t, row in zip(sents, toks, tagged)]
    section_ids: dict[str, int] = {"title": 0, "abstract": 1}
    secs = [section_ids.setdefault((s.section or "").lower(), len(section_ids)) if s.sid else 0 for s in sents]
    doc = doc_entities.TaggedDoc(words, secs, tagged)
    cs, salient, pairs = doc_entities.load().analyse(doc)
    return PaperAnalysis(sents, toks, doc, cs, salient, pairs)


# "A Maximum Entropy Model for ...", "A Memory-Based Approach to ...": the title names the approach.
TITLE_APPROACH = re.compile(r"\s*(?:A|An)\s+((?:[\w\-]+\s+){1,4}?(?:Approach|Method|Model|Framework|System|Algorithm|Tagger|"
                            r"Parser|Classifier|Architecture|Technique))\s+(?:to|for|of|that|based)\b", re.I)
# Words that say how good or what kind an approach is, not which one: "A Simple Approach", "A Statistical Model".
KIND_WORDS = GENERIC | frozenset("novel efficient fast improved uniform general fully empirically based unsupervised supervised "
                                 "semi-supervised statistical probabilistic joint global syntactic semantic trainable "
                                 "high-performance polynomial-time machine learning architecture and".split())
ACRONYM = re.compile(r"[A-Z]{2,4}")  # "IR", "TAG"; not a word in capitals ("COMPUTATIONAL")
NAME = r"[A-Z][a-z]*[A-Z][A-Za-z0-9']*|[A-Z]{2,}[a-z]*"  # written as a name: "TnT", "RASP", "CCGbank"
NAME_WORD = re.compile(rf"({NAME})\b")
MOTTO_WORD = re.compile(r"\s(?:for|from|to|the|of|in|on|with|and|or|than|is|are|be)\s")
NAMED_AFTER_MOTTO = re.compile(r"\s*(?:The|An?)\s+((?:[A-Z][\w\-]*\s+){0,3}(?:Net|Network|Model|Parser|Tagger|System|Architecture))\s*$")
NAMED_SYSTEM = re.compile(rf"\b((?:{NAME}) (?:System|Parser|Tagger))\b")  # "The RASP System"


def title_system_name(title: str) -> str | None:
    """The name authors give their own system in the title: a name before a colon, the approach a
    title opens with ("A Memory-Based Approach to ..." gives "the memory-based approach"), a name
    written as its first word ("TnT ...") or before "System", "Parser" or "Tagger". An acronym
    elsewhere names the topic or a tool ("... for Statistical MT", "Improving IBM Word Alignment
    Model 1"), not the system; so does a title in capitals throughout."""
    if ":" in title:
        head = title.split(":", 1)[0].strip()
        # a motto before the colon names nothing ("Striving for Simplicity: The All Convolutional Net")
        motto = MOTTO_WORD.search(head) and not NAME_WORD.search(head)
        if 0 < len(head.split()) <= 4 and not motto:
            return head
        if motto and (m := NAMED_AFTER_MOTTO.match(title.split(":", 1)[1])):
            return m.group(1)
    letters = [c for c in title if c.isalpha()]
    if sum(c.isupper() for c in letters) > 0.6 * len(letters):
        return None
    if (m := TITLE_APPROACH.match(title)) and any(w.lower() not in KIND_WORDS for w in m.group(1).split()):
        # Said as a common noun ("the memory-based approach"); a name inside keeps its capitals ("the TAG-based ...").
        return "the " + " ".join("-".join(p if ACRONYM.fullmatch(p) else p.lower() for p in w.split("-"))
                                 for w in m.group(1).split())
    if (m := NAME_WORD.match(title.strip())) and m.group(1).lower() not in {"a", "an", "the"}:
        return m.group(1)
    if m := NAMED_SYSTEM.search(title):
        return m.group(1)
    return None


def title_acronym(name: str, title: str) -> bool:
    """Whether `name` is the initials of consecutive title words ("USP" in "Unsupervised Semantic Parsing", "QG" in
    "… Quasi-Synchronous Grammar …": a hyphenated word gives one initial or one per part)."""
    words = re.findall(r"[A-Za-z]+(?:-[A-Za-z]+)*", title)
    options = [{w[0].upper(), "".join(p[0] for p in w.split("-")).upper()} for w in words]
    reach: set[str] = set()  # initials of the title words read so far that are a prefix of `name`, started at any word
    for opts in options:
        reach = {r + o for r in reach | {""} for o in opts if name.upper().startswith(r + o)}
        if name.upper() in reach:
            return True
    return False


def title_head(title: str) -> str | None:
    """The system name a title opens with, before a colon or a dash ("TnT - A Statistical Part-of-Speech
    Tagger", "Meteor 1.3: ..."): one or two words, one of them written as a name (a capital inside
    it, all capitals, or a digit), so "Chinese Part-Of-Speech Tagging: ..." names a topic, not a system."""
    m = re.match(r"\s*(.{1,40}?)\s*(?::|\s[-–—]\s)", title)
    if not m or len(words := m.group(1).split()) > 2:
        return None
    return m.group(1) if any(re.search(r"^[A-Z]{2,}|.[A-Z]|\d", w) for w in words) else None


def paper_system_name(title: str) -> str:
    """The title's name for the system, else the whole title said as the authors' approach (never cut short)."""
    name = title_system_name(title)
    if name:
        return name
    title = " ".join(title.split())
    return f"the approach of '{title}'" if title else "the authors' system"


def _known(text: str, toks: list[tuple[str, int, int]], spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Token spans with known dataset and metric names merged in (l2.mentions.with_known_names)."""
    if not toks:
        return spans
    chars = [(toks[a][1], toks[b - 1][2], t, "") for a, b, t in spans]
    out = []
    for a, e, t, _ in with_known_names(text, chars):
        inside = [i for i, (_, s, f) in enumerate(toks) if s >= a and f <= e]
        if inside:
            out.append((inside[0], inside[-1] + 1, t))
    return out


def _nearest(spans: list[tuple[int, int, str]], kind: str, pos: int, before_first: bool = False) -> tuple[int, int, str] | None:
    cands = [sp for sp in spans if sp[2] == kind]
    if before_first:
        before = [sp for sp in cands if sp[1] <= pos]
        cands = before or cands
    return min(cands, key=lambda sp: _distance(sp, pos), default=None)


def result_facts(sm: SourceMap, pa: PaperAnalysis, prov: Provenance) -> tuple[list[Fact], set[int]]:
    """Result facts, and the sids they were drawn from whole (every value in the sentence became a
    result fact, so its verbatim copy is not needed; a sentence with a value left over keeps it)."""
    facts: list[Fact] = []
    used: set[int] = set()
    own_name, own, own_sid = pa.own(sm.title)
    head = title_head(sm.title)  # the system's name the title opens with ("TnT - A Statistical ...")
    # The paper's main task, and a sentence naming it, for results whose sentence names no task.
    main_task = pa.main("Task", salient_only=True)
    task_name = DANGLING.sub("", pa.clusters[main_task].name) if main_task is not None else ""
    if FIELD.fullmatch(task_name):
        main_task = None  # "NLP": the field, not a task a result is reported for
    task_sid = pa.plain_sid(main_task) if main_task is not None else None
    by_sid = {s.sid: s for s in sm.sentences}
    for si, (sent, toks, spans) in enumerate(zip(pa.sentences, pa.tokens, pa.doc.spans)):
        if sent.sid == 0 or sent.kind != "prose" or not any(t == "Metric" for _, _, t in spans):
            continue  # a flattened table row has lost the columns that say what each value measures
        words = [w for w, _, _ in toks]
        candidates = _candidate_values(words, spans)
        lists = _value_lists(words, candidates)
        # Method spans naming a system: "gives scores of 7.80 NIST" names a measure the tagger took for one.
        systems = [sp for sp in spans if sp[2] == "Method" and not METRIC_RE.fullmatch(_surface(sent.text, toks, sp))]
        aligned = _respectively(words, [sp for sp in spans if sp[2] == "Metric"], systems, lists)
        values, made = set(), set()  # the sentence's values, and those a result fact states
        for i in candidates:
            w, percent = words[i], _is_percent(words, i)
            if points(sent.text, toks[i][1]):
                continue  # a number pointing somewhere ("section 4.1")
            values.add(i)
            after = " ".join(words[i + 1:i + 4])
            if (RELATIVE.match(after) or COUNT.match(after) or SHARE.match(after) or _span_end(words, i)
                    or HYPOTHETICAL.search(sent.text[:toks[i][1]])):
                continue  # "1.8 points lower than X", "1.2 million", "47% of the time", "from 0.38 to 0.45", "if ...": no level reached
            if i == 0 and "." in w and not percent:
                continue  # "5.3 Precision for the Words with High Confidence": a section number run into the sentence
            if i > 0 and words[i - 1] in ("P", "R", "F"):
                continue  # "P 78.77 / R 63.94 / F1 70.58": a measure abbreviated to a letter the tagger does not mark
            if i > 0 and words[i - 1] in ("x", "×", "*", "·"):
                continue  # "Exact match = correct / assigned x 100%": a formula's factor
            if i in lists and i not in aligned:
                continue  # one of a list of values ("75.49%, 80.87% and 79.12% for ..."), each under a setting the sentence does not pair
            if _setting(words, spans, i):
                continue  # "when the Dirichlet prior α = 0.1": a parameter set, not a result
            metric, method = aligned.get(i) or (_metric_of(words, spans, i), _owner_after(words, spans, systems, i))
            if metric is None or not METRIC_WORD.search(_surface(sent.text, toks, metric)) or _not_a_metric(sent.text, toks, metric):
                continue
            clause_start = -1  # where the value's clause starts, when its metric is named in an earlier one
            if _distance(metric, i) > MAX_DISTANCE and i not in aligned:
                clause_start = _shared_metric(words, spans, candidates, metric, i)
                if clause_start is None:
                    continue
            clause = " ".join(words[_clause_start(words, i):i])
            if LIMIT.search(clause) or SPREAD.search(clause) or SET_AGAINST_VALUE.search(" ".join(words[max(0, i - 3):i])):
                continue
            evidence = [sent.sid]
            before_value = sent.text[:toks[i][1]]
            # The value is cited work's: a result fact only with the method and dataset the sentence names, never the
            # paper's own method, datasets or task (a verbatim fact of the sentence keeps it otherwise).
            owners = OWNER.findall(before_value)
            cites = (owners[-1].lower() in ("their", "theirs", "his", "her", "he", "she") if owners
                     else (CITES.search(_value_clause(before_value)) or CITES.match(sent.text)
                           or CITED_AFTER.match(sent.text[toks[i][2]:])) is not None
                     and not AUTHOR.search(sent.text))
            nearest = method is None  # not named by "respectively" nor right after the value
            method = method or _later_owner(words, candidates, _nearest(systems, "Method", i, before_first=True), i)
            if method is not None and (_compared(words, method) or _compared_between(words, method, i)):
                continue  # "a gain of 1.1 BLEU over GIZA++": the value is not GIZA++'s, and whose it is the sentence does not name
            if nearest and method is not None and _authors_clause(words, method, i):
                method = None  # "X had 79.44 and our system has 80.32", "for our system was 71.6% and for X's": ours
            if method is not None and not specific(_surface(sent.text, toks, method)):
                # unless "we"/"our" stands between the phrase and the value ("several parsers …, we obtain 92.1%")
                if not _authors(words, method) and not any(AUTHOR.fullmatch(w) for w in words[method[1]:i]):
                    continue  # "our version had 67.71, the winning system had 67.75": a system the sentence does not name
                method = None
            if clause_start >= 0 and (method is None or not clause_start < method[0] < i):
                continue  # the value's own clause names no method: the other clause's is not its
            if method is not None and head and _authors(words, method):
                method_name = head  # "our much simpler HMM approach": the paper's own method, by the title's name for it
                evidence.append(0)
            elif method is not None:
                method_name = _surface(sent.text, toks, method)
            elif AUTHOR.search(sent.text) and not NOT_OWN.search(sent.text) and not cites:
                method_name = own_name
                evidence.append(own_sid)
            else:
                continue
            if re.search(rf"(?<![\d.]){re.escape(w)}(?![\d.])", method_name):
                continue  # the version in a name ("Meteor 1.3"), not a value
            data = _dataset_of(words, spans, i)
            if cites and data is None:
                continue
            if data is not None:
                dataset = _surface(sent.text, toks, data)
            else:
                # The dataset the model pairs with this method, else the paper's main dataset: only one the paper says
                # it evaluates on, cited by the sentence that says so (else the result is stated on no dataset).
                ci = pa.cluster_of(si, method[0]) if method is not None else own
                paired = [d for m, d, _ in pa.pairs if m == ci] or [d for d in [pa.main("Material", salient_only=True)] if d is not None]
                # A language alone ("English") is a setting only where the value's own sentence says so.
                found = next(((d, sid) for d in paired if not NATURAL_LANGUAGE.fullmatch(pa.clusters[d].name)
                              and (sid := pa.evaluated_sid(d)) is not None), None)
                dataset = pa.clusters[found[0]].name if found else ""
                if found:
                    evidence.append(found[1])
            task_span = _nearest(spans, "Task", i)
            task = _surface(sent.text, toks, task_span) if task_span is not None else ""
            if task_span is None and task_sid is not None and not cites:
                task = task_name
                evidence.append(task_sid)
            metric_name = _surface(sent.text, toks, metric)
            text = w + ("%" if percent else "")
            before, change = " ".join(words[max(0, i - 3):i]), CHANGE_AFTER.match(" ".join(words[i + 1:i + 8]))
            delta = bool(DELTA.search(before)) or bool(change)
            # "an 8% drop in recall", "reducing relative error by 8%"; a change after the value that names no direction
            # ("reduces errors by 10% relative") leaves it to the words before
            said = change.group(0) if change and DIRECTION.search(change.group(0)) else " ".join(words[max(0, i - 5):i])
            down = DOWN.search(said)
            verb = (f"achieves {metric_name} of {text}" if delta and re.search(r"reduction|improvement|gain", metric_name, re.I)
                    else f"lowers {metric_name} by {text}" if delta and down
                    else f"raises {metric_name} by {text}" if delta and LOWER_IS_BETTER.search(metric_name)
                    else f"improves {metric_name} by {text}" if delta else f"reaches {text} {metric_name}")
            statement = f"{method_name} {verb}" + (f" on {dataset}" if dataset else "") + (f" for {task}" if task else "")
            statement = statement[:1].upper() + statement[1:]  # a sentence, though the method is written "trigram tagger"
            q = Quantity(value=float(w), text=text, unit="%" if percent else "", metric=metric_name, dataset=dataset,
                         subject=method_name, method=method_name, task=task, delta=delta)
            fact = Fact(statement=statement[:2000], subject=method_name[:300], type=FactType.finding,
                        context=Context(conditions=[f"on {dataset}"] if dataset else []), quantities=[q],
                        evidence=[sm.locator(s) for s in dict.fromkeys(evidence)], provenance=prov,
                        variant="r" + stable_hash([method_name, metric_name, dataset, text], 9))
            verification, note = verify_fact(fact, " ".join(by_sid[x].text for x in dict.fromkeys(evidence)))
            if verification == Verification.failed:
                continue  # the sentence qualifies the value ("not", "only", "about"): its verbatim fact keeps it
            facts.append(fact.model_copy(update={"verification": verification, "verification_note": note}))
            made.add(i)
        if made and made == values:
            used.add(sent.sid)
    return _dedupe(facts), used


def _dataset_of(words: list[str], spans: list[tuple[int, int, str]], i: int) -> tuple[int, int, str] | None:
    """The dataset the value at `i` is reported on: one named right after it ("26.3% for Chinese"), else the
    nearest, unless one named after it ("for NWIRE") closes the value's own clause and the nearest ends an
    earlier one ("68.4 (recall) … for BNEWS, and 75.7 (precision), 69.2 (recall) … for NWIRE": 69.2 is NWIRE's)."""
    nearest = _nearest(spans, "Material", i)
    after = next((sp for sp in spans if sp[2] == "Material" and sp[0] > i), None)
    j = _after_measure(words, spans, i)
    if after is not None and j < len(words) and words[j].lower() in ("for", "on") and after[0] in (j + 1, j + 2):
        return after  # right after it: "33.9% for Spanish and 26.3% for Chinese"
    if nearest is None or after is None or nearest == after or nearest[1] > i or words[after[0] - 1].lower() not in ("for", "on"):
        return nearest

    def clause_break(a: int, b: int) -> bool:  # ";" or ", and", ", while", …: a new clause
        return any(words[j] == ";" or words[j].lower() in CLAUSE_GLUE and words[j - 1] == "," for j in range(max(a, 1), b))

    return after if clause_break(nearest[1], i) and not clause_break(i, after[0]) else nearest


def _distance(span: tuple[int, int, str], i: int) -> int:
    return min(abs(span[0] - i), abs(span[1] - 1 - i))


def _candidate_values(words: list[str], spans: list[tuple[int, int, str]]) -> list[int]:
    """Positions of the numbers that may be reported values: a decimal or a percentage, not a year,
    not inside a name ("CoNLL 2003", "BLEU-4")."""
    return [j for j, w in enumerate(words) if VALUE.match(w) and not YEAR.match(w) and ("." in w or _is_percent(words, j))
            and not any(a <= j < b for a, b, _ in spans)]


def nearest_mention_values(pa: PaperAnalysis) -> list[tuple[float, str, str, str]]:
    """The baseline result_facts is measured against (evaluations.scirex_eval.result_values): every
    candidate value of a prose sentence naming a metric, bound to the nearest method, dataset and
    metric mentions: (value, method, dataset, metric), "" where the sentence names none."""
    out = []
    for sent, toks, spans in zip(pa.sentences, pa.tokens, pa.doc.spans):
        if sent.sid == 0 or sent.kind != "prose" or not any(t == "Metric" for _, _, t in spans):
            continue
        words = [w for w, _, _ in toks]
        for i in _candidate_values(words, spans):
            names = [_nearest(spans, kind, i) for kind in ("Method", "Material", "Metric")]
            out.append((float(words[i]), *(_surface(sent.text, toks, sp) if sp else "" for sp in names)))
    return out


def _shared_metric(words: list[str], spans: list[tuple[int, int, str]], values: list[int], metric: tuple[int, int, str],
                   i: int) -> int | None:
    """A second value whose metric is elided in a parallel clause ("X reports an accuracy of 96.6%
    ..., our approach delivers 96.7%"): the sentence names one metric and gives two values of the same
    kind (both percentages or neither), the first within reach of the metric and `i` the second; not
    a change "from 95.5% ... to 96.4%". A sentence listing more values is a flattened table or a
    list, whose columns say what each value measures. `values`: the sentence's candidate values.
    Returns the first value's position."""
    if sum(t == "Metric" for _, _, t in spans) != 1:
        return None
    if len(values) != 2 or values[1] != i:
        return None
    j = values[0]
    if j > 0 and words[j - 1].lower() == "from" and "to" in (w.lower() for w in words[j:i]):
        return None
    return j if _distance(metric, j) <= MAX_DISTANCE and _is_percent(words, j) == _is_percent(words, i) else None


CLAUSE_BREAK = frozenset(",;.():")  # tokens a phrase does not reach across
COMPARED = frozenset("outperforms outperform outperformed outperforming beats beat surpasses surpass than over versus vs vs. "
                     "against".split())


# "compared to X", "on a par with X", "comparable to X": X is what the value is set against
IMPROVES = frozenset("improve improves improved improving".split())
COMPARED_WITH = frozenset("relative compared comparison respect par comparable similar".split())


def _later_owner(words: list[str], candidates: list[int], method: tuple[int, int, str] | None, i: int) -> tuple[int, int, str] | None:
    """A method named only after the value owns it, unless another value stands between them ("81%
    accuracy with the manual holder and 67% with automatic holder detection": that one is its) or the
    value's clause compares ("outperformed the best single system by 4.7 BLEU points and the TER-based
    system by 1.0": both are what it beats)."""
    if method is None or method[0] < i:
        return method
    if any(i < c < method[0] for c in candidates) or any(w.lower() in COMPARED for w in words[_clause_start(words, i):i]):
        return None
    return method


def _compared(words: list[str], span: tuple[int, int, str]) -> bool:
    """A method named as what is compared against ("outperforms the system of Hiero by 0.7", "better
    than HMM"), not what reaches the value; "none outperform X, which attains 74%" names X's value."""
    seen = 0
    for j in range(span[0] - 1, -1, -1):
        w = words[j].lower()
        if j == span[0] - 1 and w == "(":
            continue  # a system cited in parentheses: "over a state-of-the-art discourse parser (Marcu, 2000)"
        seen += w not in DASHES  # "over a state-of-the-art parser": a hyphenated word counts once
        if seen > 8:
            break
        if (w in COMPARED or w in ("to", "with") and j > 0 and words[j - 1].lower() in COMPARED_WITH
                or w in ("on", "upon") and j > 0 and words[j - 1].lower() in IMPROVES):  # "improves on the delexicalized parser"
            return not (j > 0 and words[j - 1].lower() in ("none", "no", "not", "never"))
        if w in CLAUSE_BREAK:
            return False
    return False


def _compared_between(words: list[str], span: tuple[int, int, str], i: int) -> bool:
    """The sentence turns to something compared between the method and its value ("UML-DOP achieved
    82.9%, a 20.5% error reduction compared to U-DOP's f-score of 78.5%"): the value is not the method's."""
    between = [w.lower() for w in words[span[1]:i]]
    return any(w in ("than", "over", "versus", "vs", "vs.") or w in ("to", "with") and k > 0 and between[k - 1] == "compared"
               for k, w in enumerate(between))


def _not_a_metric(text: str, toks: list[tuple[str, int, int]], metric: tuple[int, int, str]) -> bool:
    """A "z score" is a test statistic, and "recall that" is the verb, not recall; in "17% of errors,
    prepositions 12%" the errors are what is shared out, not a measure the 12% is a level of."""
    name = _surface(text, toks, metric)
    following = text[toks[metric[1]][1]:toks[metric[1]][2]] if metric[1] < len(toks) else ""
    shared_out = [w for w, _, _ in toks[max(0, metric[0] - 2):metric[0]]] == ["%", "of"]
    return bool(NOT_A_METRIC.match(name) or NOT_A_METRIC.match(f"{name} {following}")) or shared_out


def _value_clause(before: str) -> str:
    """The clause a value closes, from the text before it: after its last comma or semicolon outside brackets."""
    depth, start = 0, 0
    for k, ch in enumerate(before):
        depth += (ch == "(") - (ch == ")")
        if ch in ",;" and depth <= 0:
            start = k + 1
    return before[start:]


def _clause_start(words: list[str], i: int) -> int:
    """Where the clause holding the token at `i` starts: after the last punctuation or conjunction before it."""
    return next((j + 1 for j in range(i - 1, -1, -1) if words[j] in CLAUSE_BREAK or words[j].lower() in CLAUSE_GLUE), 0)


def _authors_clause(words: list[str], method: tuple[int, int, str], i: int) -> bool:
    """The value at `i` stands in a clause of the authors' own, not the method's: "X had an F-measure
    of 79.44 and our current system has 80.32" (a parallel clause in "our" voice opens between them),
    "precision for our system was 71.6% and for X's was 52.7%" (the method only follows, in the next clause)."""
    low = [w.lower() for w in words]

    def ours(k: int) -> bool:  # "our system", "we obtain"; not "our baseline", nor "we find it ..."
        return (low[k] == "our" and not NOT_OWN.match(" ".join(words[k:k + 3]))
                or low[k] == "we" and re.match(r"(?:(?:also|then|now|still|finally|\w+ly)\s)?(?:obtain|achiev|get|got|reach|score)",
                                               " ".join(low[k + 1:k + 3])) is not None)

    if method[1] <= i:
        return any(low[k - 1] in CLAUSE_GLUE | {",", ";"} and ours(k) for k in range(method[1] + 1, i))
    return any(ours(k) for k in range(_clause_start(words, i), i))


def _span_end(words: list[str], i: int) -> bool:
    """One end of a range or a change: "from 0.38 to 0.45", "from 0.7% in BNEWS up to 4.2%", "78.2 – 82.01", "57.0% to 60.4%",
    "from the low 30% range to almost 40%"."""
    low = [w.lower() for w in words]
    if "from" in low[max(0, i - 3):i] and not any(VALUE.match(w) for w in low[low.index("from", max(0, i - 3)):i]) \
            and "to" in low[i + 1:i + 9]:
        return True
    if i > 0 and low[i - 1] == "to" and "from" in low[max(0, i - 9):i - 1]:
        return True
    after = _after_value(words, i)
    if after + 1 < len(words) and (words[after] in DASHES or low[after] == "to") and VALUE.match(words[after + 1]):
        return True  # "78.2 – 82.01", "(57.0% to 60.4%)"
    return i > 1 and (words[i - 1] in DASHES or low[i - 1] == "to") and (VALUE.match(words[i - 2]) is not None or words[i - 2] == "%")


def _value_lists(words: list[str], values: list[int]) -> dict[int, list[int]]:
    """The values that are items of a list ("75.49%, 80.87% and 79.12%"; "49.0% and 45.6%"): each
    maps to its whole list. Only commas, "and", "or", "/" and percent signs lie between the items."""
    groups: list[list[int]] = []
    for j in values:
        if groups and all(w.lower() in LIST_GLUE for w in words[groups[-1][-1] + 1:j]):
            groups[-1].append(j)
        else:
            groups.append([j])
    return {j: g for g in groups if len(g) > 1 for j in g}


def _respectively(words: list[str], metrics: list[tuple[int, int, str]], methods: list[tuple[int, int, str]],
                  lists: dict[int, list[int]]) -> dict[int, tuple[tuple[int, int, str], tuple[int, int, str] | None]]:
    """List items a "respectively" pairs with names, in order: (metric, method or None) per value.
    "precision, recall and F-score being 97.2%, 76.7% and 85.7% respectively" pairs metrics;
    "X and Y reach 80% and 82% accuracy respectively" pairs methods under the one metric. A list the
    sentence's names do not match one for one is paired with nothing."""
    low = [w.lower() for w in words]
    if "respectively" not in low:
        return {}
    resp = low.index("respectively")
    out: dict = {}
    for group in {tuple(g) for g in lists.values()}:
        if resp < group[-1] or any(re.search(r"\d", w) for w in words[group[-1] + 1:resp]):
            continue  # "respectively" pairs other numbers ("(+34 and +37 … respectively)"), not this list
        # The names a list pairs with are written on one side of it: before it, or after it up to "respectively".
        for lo, hi in ((0, group[0]), (group[-1] + 1, resp)):
            ms, ys = [sp for sp in metrics if lo <= sp[0] and sp[1] <= hi], [sp for sp in methods if lo <= sp[0] and sp[1] <= hi]
            ms, ys = (ms if _listed(words, ms) else []), (ys if _listed(words, ys) else [])
            if len(ms) == len(group):
                out |= {j: (ms[k], None) for k, j in enumerate(group)}
                break
            if len(metrics) == 1 and len(ys) == len(group):
                out |= {j: (metrics[0], ys[k]) for k, j in enumerate(group)}
                break
    return out


def _listed(words: list[str], names: list[tuple[int, int, str]]) -> bool:
    """Names written as one list ("precision, recall and F-score", "the HMM tagger and the CRF tagger"),
    not spread over the sentence ("lower precision than …, gains in recall … f-score gains")."""
    return all(w.lower() in LIST_GLUE or w.lower() in ("the", "a", "an") for a, b in pairwise(names) for w in words[a[1]:b[0]])


def _metric_of(words: list[str], spans: list[tuple[int, int, str]], i: int) -> tuple[int, int, str] | None:
    """The metric a value measures: the one written right after it ("98% precision and 61% recall"
    gives 61% to recall, though precision is as near), else the nearest."""
    # "an 8% drop in recall": the change word is no measure, whatever the tagger says
    spans = [sp for sp in spans if not (sp[1] - sp[0] == 1 and words[sp[0]].lower() in CHANGE_WORDS)]
    after = _after_value(words, i)
    if named := next((sp for sp in spans if sp[2] == "Metric" and sp[0] == after), None):
        return named
    if after < len(words) and words[after].lower() == "in" and (named := next(
            (sp for sp in spans if sp[2] == "Metric" and sp[0] == after + 1), None)):
        return named  # "72.6% in recall, 72.4% in precision"
    if after + 2 < len(words) and words[after].lower() in CHANGE_WORDS and words[after + 1].lower() == "in":
        # "a 28% reduction in error": the change names its measure, though another stands nearer ("Our accuracy represents …")
        k = after + 3 if words[after + 2].lower() in ("the", "a", "an") else after + 2
        if named := next((sp for sp in spans if sp[2] == "Metric" and sp[0] == k), None):
            return named
        if k < len(words) and METRIC_WORD.fullmatch(words[k]):
            return k, k + 1, "Metric"
    if after < len(words) and METRIC_RE.fullmatch(words[after]):
        return (after, after + 1, "Metric")  # "7.80 NIST": a known measure the tagger took for something else
    return _nearest(spans, "Metric", i)


def _owner_after(words: list[str], spans: list[tuple[int, int, str]], systems: list[tuple[int, int, str]],
                 i: int) -> tuple[int, int, str] | None:
    """The system a value is credited to right after it ("88.6% accuracy with COMPOPR, 90.1% with
    SCNEGEX"): it owns the value, though another system stands nearer before."""
    j = _after_measure(words, spans, i)
    if j < len(words) and words[j].lower() in ("with", "using", "by"):
        start = j + 2 if j + 1 < len(words) and words[j + 1].lower() in ("the", "a", "an", "our") else j + 1
        return next((sp for sp in systems if sp[0] == start), None)
    return None


def _setting(words: list[str], spans: list[tuple[int, int, str]], i: int) -> bool:
    """Whether a value is assigned to something that is not a measure ("α = 0.1", "k = 5.5")."""
    return i > 0 and words[i - 1] in ("=", "≈") and not any(t == "Metric" and b == i - 1 for _, b, t in spans)


def _is_percent(words: list[str], i: int) -> bool:
    return i + 1 < len(words) and words[i + 1] == "%"


def _after_measure(words: list[str], spans: list[tuple[int, int, str]], i: int) -> int:
    """The token after the value at `i`, its percent sign and the metric named right after it ("88.6% accuracy")."""
    j = _after_value(words, i)
    return next((b for a, b, t in spans if t == "Metric" and a == j), j)


def _after_value(words: list[str], i: int) -> int:
    """The token right after the value at `i` and its percent sign."""
    return i + 2 if _is_percent(words, i) else i + 1


def _authors(words: list[str], span: tuple[int, int, str]) -> bool:
    """A method the authors call their own: "our" opens the phrase ending in the name, within the
    clause ("our baseline CRF" and "our earlier tagger" are not the method the paper proposes)."""
    for j in range(span[0] - 1, max(-1, span[0] - 7), -1):
        w = words[j].lower()
        if w in ("our", "ours"):
            return True
        if w in CLAUSE_BREAK or w in ("baseline", "baselines", "previous", "earlier", "prior"):
            return False
    return False


# A field of study, which no result is reported for ("NLP"), when it is all a paper's main task names.
FIELD = re.compile(r"(?:NLP|NLG|IR|AI|ML|CL|natural language (?:processing|generation)|computational linguistics|"
                   r"information retrieval|machine learning|artificial intelligence)", re.I)
# A span the tagger ran on into a conjunction, a preposition or a dash ("joint tagging and", "IL -").
DANGLING = re.compile(r"(?:[\s,;/(\-–—]+|\s+(?:and|or|of|the|a|an|for|with|in|on|to|by|from|vs\.?)\b)+$")  # lower case: "Model A" keeps its A


def _surface(text: str, toks: list[tuple[str, int, int]], span: tuple[int, int, str]) -> str:
    """The span's words as written, without a dangling end (unless nothing else is left)."""
    words = text[toks[span[0]][1]:toks[span[1] - 1][2]]
    return DANGLING.sub("", words) or words


def _dedupe(facts: list[Fact]) -> list[Fact]:
    seen: dict[str, Fact] = {}
    for f in facts:
        seen.setdefault(f.variant, f)
    return list(seen.values())
