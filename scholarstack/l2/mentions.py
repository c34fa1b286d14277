"""Typed mention extraction from text (methods, datasets, metrics, tasks).

Two extractors with one output (character spans, so both can be scored against gold tokens):
the learned tagger (`learned.mention_tagger`, trained on SciREX; the default) and surface rules
(`rule_mentions`, the baseline it is measured against). Used on fact statements to build
canonical entities and relations, and on search results for keywords.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..models import EntityType

METRIC_WORDS = (
    "accuracy|precision|recall|f-score|f-measure|f1(?:-score)?|f score|bleu(?:-\\d)?|nist|meteor|rouge(?:-[12l])?|"
    "word error rate|error rate|wer|aer|perplexity|mrr|mean reciprocal rank|mean average precision|map|uas|las|"
    "kappa|auc|ndcg|exact match|top-1 accuracy|top-5 accuracy|mean iou|miou|iou|psnr|ssim|bpc|cider|spice|em"
)
METRIC_RE = re.compile(rf"\b({METRIC_WORDS})\b", re.I)
# Measures where a smaller figure is the better one (error rates, alignment error, times, perplexity): a rise in one
# is no improvement (l1/results.py), and the best result is the lowest (ideas/seed.py).
LOWER_IS_BETTER = re.compile(r"\b(error|errors|wer|ter|cer|aer|loss|perplexity|time|times|runtime|latency|seconds?|ms|distance|(?<!reciprocal )rank|"
                             r"rmse|mse|mae)\b", re.I)
# Natural languages are a closed class, known by name rather than tagged: QA answers "which languages" with them
# (tasks/qa.py), and a result takes a language alone as its setting only from its own sentence (l1/results.py).
LANGUAGE_NAMES = ("English|German|French|Spanish|Italian|Portuguese|Dutch|Russian|Chinese|Mandarin|Cantonese|Japanese|Korean|"
                  "Arabic|Hebrew|Hindi|Urdu|Bengali|Persian|Farsi|Turkish|Swedish|Danish|Norwegian|Finnish|Estonian|Hungarian|"
                  "Czech|Polish|Slovak|Slovene|Slovenian|Croatian|Serbian|Bulgarian|Romanian|Greek|Ukrainian|Vietnamese|Thai|"
                  "Indonesian|Malay|Tagalog|Swahili|Amharic|Yoruba|Hausa|Igbo|Zulu|Xhosa|Afrikaans|Tamil|Telugu|Marathi|"
                  "Gujarati|Punjabi|Basque|Catalan|Galician|Welsh|Irish|Latvian|Lithuanian|Icelandic|Mongolian|Tibetan|"
                  "Uyghur|Kazakh|Uzbek|Latin|Sanskrit|Maltese|Albanian|Armenian|Georgian|Nepali|Sinhala|Burmese|Khmer|Lao|"
                  "Sepedi|Setswana|Sesotho|Xitsonga|Tshivenda|siSwati|isiNdebele|isiZulu|isiXhosa")
# Families, answered as a group when the text names one ("Nguni languages", "the Romance languages").
LANGUAGE_FAMILIES = "Nguni|Sotho|Bantu|Romance|Germanic|Slavic|Semitic|Indo-European|Dravidian|Turkic|Uralic|Austronesian"
NATURAL_LANGUAGE = re.compile(rf"(?:{LANGUAGE_NAMES})")
# Words before a number that points somewhere ("table 5", "section 4.1"): the number is no quantity.
# A part of the paper or of a tool a number names ("Section 4.2", "sections 4.2 and 4.3", "§5.2", "Theorem 5.1",
# "version 2.0"), not a quantity.
POINTER = re.compile(r"(?:\b(?:tables?|fig(?:ure)?s?|sections?|sec|sect|eq(?:uation)?s?|chapters?|appendix|steps?|rows?|columns?|"
                     r"versions?|definitions?|theorems?|lemmas?|algorithms?|examples?|footnotes?)\.?|§)\s*"
                     r"(?:\d+(?:\.\d+)*\s*(?:,|and|or|to|-|–)\s*)*$", re.I)


def points(text: str, start: int) -> bool:
    """Whether the number at `start` in `text` points somewhere ("table 5", "section 4.1")."""
    return POINTER.search(text[max(0, start - 40):start]) is not None


TASK_HEADS = (
    "parsing|tagging|translation|recognition|classification|segmentation|resolution|extraction|summarization|"
    "summarisation|disambiguation|labeling|labelling|retrieval|generation|alignment|induction|detection|"
    "answering|inference|modeling|modelling|understanding|completion|prediction|estimation|matching|linking|"
    "captioning|synthesis|tracking|localization|reasoning"
)
TASK_RE = re.compile(rf"\b((?:[A-Za-z][\w\-]*\s){{0,3}}(?:{TASK_HEADS}))\b")
METHOD_HEADS = (
    "model|models|algorithm|algorithms|tagger|taggers|parser|parsers|classifier|classifiers|network|networks|"
    "kernel|kernels|method|methods|approach|approaches|framework|system|systems|decoder|encoder|transformer|"
    "grammar|grammars|machine|machines|regression|estimator|learner|architecture|heuristic|search|smoothing"
)
METHOD_RE = re.compile(rf"\b((?:[A-Za-z][\w\-]*\s){{1,3}}(?:{METHOD_HEADS}))\b")
DATASET_RE = re.compile(
    r"\b((?:[A-Z][\w\-]*\s){1,4}(?:Treebank|Corpus|corpus|Dataset|dataset|Benchmark|benchmark|Collection|Bank))\b|"
    r"\b(Penn Treebank|WSJ|Wall Street Journal|Brown [Cc]orpus|Switchboard|Europarl|Hansards?|MUC-?\d+|"
    r"CoNLL(?:[\-\s]?\d{2,4})?|TREC(?:[\-\s]?\d+)?|SemEval(?:[\-\s]?\d+)?|Senseval(?:[\-\s]?\d+)?|GENIA|Verbmobil|"
    r"ImageNet|CIFAR-?\d+|MNIST|SQuAD(?:\s?\d\.\d)?|COCO|Cityscapes|PASCAL VOC(?: \d+)?|WMT(?:\s?'?\d+)?|"
    r"Gigaword|PubMed|Wikipedia|NEGRA|TIGER|OntoNotes|FrameNet|PropBank|WordNet|SNLI|MultiNLI|GLUE|"
    r"Yelp|IMDB|KITTI|Penn Discourse Treebank|RST-DT|ACE(?: \d{4})?|BNC|ATIS|RCV1)\b"
)
ACRONYM_RE = re.compile(r"\b([A-Z][a-z]*[A-Z][A-Za-z0-9\-]*|[A-Z]{2,}[0-9]*s?)\b")
LONG_SHORT_RE = re.compile(r"((?:[A-Za-z][\w\-]*\s){1,7})\(([A-Z][A-Za-z0-9\-]{1,12})\)")
OPEN_CAPITAL = re.compile(r"\([A-Z]")
GENERIC_MODIFIERS = frozenset(
    "our the this that these those a an new novel proposed same first second third previous baseline simple "
    "standard other such each both all their its which whose different various several two three many more "
    "most best final following above current given original existing general specific basic".split()
)
NOT_ENTITIES = frozenset(
    "we i in it the a an this our table figure fig section eq ii iii iv us ok note all and or but for if we're "
    "np vp pp".split()
)
# S2ORC-derived text (QASPER) writes references as placeholders: "BIBREF17", "TABREF13", "FIGREF2".
REF_PLACEHOLDER = re.compile(r"\b(?:BIB|TAB|FIG|SEC|EQ)REF\d+\b")


@dataclass(frozen=True)
class Mention:
    text: str
    type: EntityType
    start: int
    end: int


def _good_phrase(phrase: str) -> bool:
    words = phrase.lower().split()
    return len(words) >= 2 and words[0] not in GENERIC_MODIFIERS and not all(w in GENERIC_MODIFIERS for w in words[:-1])


LEAD_STOP = GENERIC_MODIFIERS | frozenset(
    "for on in of to with by from at as and or is are was were be been use uses used using reach reaches "
    "reached achieve achieves than over into via per under when while also then both not no".split()
)


def _trim(phrase: str) -> str:
    """Keep the trailing run of content words: 'Treebank for part-of-speech tagging' → 'part-of-speech tagging'."""
    words = phrase.split()
    for i in range(len(words) - 1, -1, -1):
        if words[i].lower() in LEAD_STOP or any(ch.isdigit() for ch in words[i]):
            words = words[i + 1:]
            break
    return " ".join(words)


LEARNED_TYPES = {"Method": EntityType.method, "Task": EntityType.task, "Metric": EntityType.metric,
                 "Material": EntityType.dataset}
_CACHE: dict[str, tuple[Mention, ...]] = {}
CACHE_SIZE = 200_000  # L2 reads every statement twice (entities, then relations)
MENTIONS_VERSION = 2  # raise when the cleaning below changes what a tagged text yields
_DISK: list = []  # the store's on-disk cache of tagged texts, when one is kept (keep_on_disk)


def keep_on_disk(directory) -> None:
    """Keep tagged texts in `directory` (a store's) as well, keyed by the tagger's weights and the
    text: a later process (a one-paper update's L2) then tags only the texts it has not seen, not
    the corpus's tens of thousands of statements again (~100 s at 978 papers)."""
    import diskcache

    if not _DISK or _DISK[0].directory != str(directory):
        _DISK[:] = [diskcache.Cache(str(directory), size_limit=2**30)]


@lru_cache(maxsize=1)
def _tagger_version() -> str:
    import hashlib

    from ..learned.mention_tagger import WEIGHTS

    return f"{MENTIONS_VERSION}:{hashlib.sha256(WEIGHTS.read_bytes()).hexdigest()[:16]}"


def _disk_key(text: str) -> str:
    import hashlib

    return _tagger_version() + ":" + hashlib.sha256(text.encode()).hexdigest()


def with_known_names(text: str, found: list[tuple[int, int, str, str]]) -> list[tuple[int, int, str, str]]:
    """Known dataset and metric names (the rule lists) win over a learned span they overlap that is no
    longer: the tagger learned ML papers' names and cuts "Penn Treebank" to "Penn", or reads "BNC" as
    a method; a list of names is right here."""
    for regex, etype in ((DATASET_RE, "Material"), (METRIC_RE, "Metric")):
        for m in regex.finditer(text):
            a, e = m.span()
            over = [f for f in found if f[0] < e and a < f[1]]
            if all(e - a >= f[1] - f[0] for f in over):
                found = [f for f in found if f not in over] + [(a, e, etype, m.group(0))]
    return sorted(found)


LEADING_DETERMINER = re.compile(r"^(?:the|a|an|our|this|these|those|their|its|each|both)\s+", re.I)
GENERIC_NAMES = GENERIC_MODIFIERS | frozenset(
    "corpus corpora data dataset datasets model models method methods approach approaches system systems task tasks "
    "algorithm algorithms framework metric metrics score scores results result".split())


def _clean(a: int, e: int, t: str, surf: str) -> tuple[int, int, str, str] | None:
    """A learned span without a leading determiner ("The German NEGRA corpus" → "German NEGRA corpus");
    None when nothing specific is left ("the corpus")."""
    m = LEADING_DETERMINER.match(surf)
    if m:
        a, surf = a + m.end(), surf[m.end():]
    words = surf.lower().split()
    if not words or all(w in GENERIC_NAMES for w in words) or surf.lower() in NOT_ENTITIES or REF_PLACEHOLDER.search(surf):
        return None
    return a, e, t, surf


def prefetch(texts: list[str]) -> None:
    """Tag many texts in batches (much faster than one by one); later calls hit the cache."""
    from ..learned.mention_tagger import load

    todo = list(dict.fromkeys(t for t in texts if t not in _CACHE))
    if len(_CACHE) + len(todo) > CACHE_SIZE:
        _CACHE.clear()
    keys = {t: _disk_key(t) for t in todo} if _DISK else {}
    if keys:
        found_on_disk = {t: m for t, k in keys.items() if (m := _DISK[0].get(k)) is not None}
        _CACHE.update(found_on_disk)
        todo = [t for t in todo if t not in found_on_disk]
    for i in range(0, len(todo), 2048):
        chunk = todo[i:i + 2048]
        for text, found in zip(chunk, load().tag_text(chunk)):
            cleaned = [c for f in with_known_names(text, found) if (c := _clean(*f)) is not None]
            mentions = [Mention(surf, LEARNED_TYPES[t], a, e) for a, e, t, surf in cleaned]
            _CACHE[text] = tuple(mentions)
        if keys:
            with _DISK[0].transact():
                for text in chunk:
                    _DISK[0].set(keys[text], _CACHE[text])


def extract_mentions(text: str) -> tuple[Mention, ...]:
    """Typed mentions by the learned tagger, cached per text."""
    if text not in _CACHE:
        prefetch([text])
    return _CACHE[text]


@lru_cache(maxsize=50_000)
def rule_mentions(text: str) -> tuple[Mention, ...]:
    """The surface-rule baseline (what `eval scirex` reports as offline_rules)."""
    return tuple(_extract_mentions(text))


def _extract_mentions(text: str) -> list[Mention]:
    found: list[Mention] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, kind: EntityType) -> None:
        surface = text[start:end].strip()
        if not surface or surface.lower() in NOT_ENTITIES or len(surface) < 2:
            return
        if any(s < end and start < e for s, e in taken):
            return
        taken.append((start, end))
        found.append(Mention(surface, kind, start, end))

    for m in DATASET_RE.finditer(text):
        add(m.start(), m.end(), EntityType.dataset)
    for m in METRIC_RE.finditer(text):
        add(m.start(), m.end(), EntityType.metric)
    for regex, kind in ((TASK_RE, EntityType.task), (METHOD_RE, EntityType.method)):
        for m in regex.finditer(text):
            phrase = _trim(m.group(1))
            if _good_phrase(phrase):
                start = m.end(1) - len(phrase)
                add(start, m.end(1), kind)
    for m in ACRONYM_RE.finditer(text):
        add(m.start(), m.end(), EntityType.other)
    return sorted(found, key=lambda x: x.start)


def acronym_pairs(text: str) -> list[tuple[str, str]]:
    """(long form, short form) pairs written as "long form (LF)", checked by initials."""
    out: list[tuple[str, str]] = []
    if not OPEN_CAPITAL.search(text):  # every pair needs one; the full pattern backtracks over each word (~11 s at 80k facts)
        return out
    for m in LONG_SHORT_RE.finditer(text):
        words, short = m.group(1).split(), m.group(2)
        letters = [c for c in short.rstrip("s") if c.isupper() or c.isdigit()] or list(short.upper())
        n = len(letters)
        cand = words[-n:] if n <= len(words) else words
        initials = "".join(w[0].upper() for w in cand)
        if initials == "".join(letters).upper() or (len(cand) > 1 and initials[:2] == "".join(letters)[:2].upper()):
            out.append((" ".join(cand), short))
    return out
