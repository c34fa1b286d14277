"""Sentence-map hygiene: repair what text extraction broke, and give every sentence a kind.

Kinds: prose, heading, caption, table_row, equation, reference, garbled, and instruction (text
addressed to a model: prompt injection planted in a paper). Facts come from prose only; the other
kinds stay in the source map as sentences, so a caption or a table row can still be cited as
evidence. These are rules, and rules are right here: the kinds are visible in the characters
(numbers per token, symbols, bracket debris, bibliography patterns), not matters of meaning.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections import Counter
from functools import lru_cache

PROSE, HEADING, CAPTION, TABLE_ROW, EQUATION, REFERENCE, GARBLED, INSTRUCTION = (
    "prose", "heading", "caption", "table_row", "equation", "reference", "garbled", "instruction")

INSTRUCTION_RE = re.compile(
    r"\b(?:ignore|disregard|forget|override)\b[^.]{0,40}\b(?:previous|prior|above|earlier|all|any|your)\b[^.]{0,30}"
    r"\b(?:instructions?|prompts?|rules|context|directions)\b"
    r"|\b(?:you are (?:now )?(?:an? )?(?:ai|assistant|language model|llm|chatbot))\b"
    r"|\b(?:as an? (?:ai|large language model|llm)|(?:ai|llm|language model) (?:reviewers?|assistants?)[^.]{0,20}\b(?:must|should))\b"
    r"|\b(?:system prompt|jailbreak)\b"
    r"|\b(?:give|rate|score)\b[^.]{0,30}\b(?:positive review|high(?:est)? score|accept(?:ance)?)\b[^.]{0,40}\b(?:only|regardless)\b",
    re.I,
)
CAPTION_RE = re.compile(r"^(?:figure|fig\.|table|tab\.|algorithm)\s*\d+(?:\.\d+)*[a-z]?\s*[:.](?:\s|$)", re.I)
# A caption inside the text ("... 95.1 92.3 93.7 Table 10: Performance of ..."): a table the PDF reader ran into prose.
# "… 0.95(0.039)Table 3: Mean …": the reader may drop the space before the caption too.
EMBEDDED_CAPTION = re.compile(r"(?:\s|(?<=[\d%)]))(?:Table|Figure|Fig\.)\s*\d+\s*:\s")
# A table cell: "95.1", "(12)", "61.5%", and a mean with its deviation or interval, "0.18(0.10)".
NUMBER_TOKEN = re.compile(r"^[(\[]?[-+±]?\d[\d.,]*%?(?:\([\d.,±%]+\))?[)\]]?[*†‡]?$")
# Bracket, brace, tilde or semicolon debris inside a word, or a comma/paren between letters: OCR damage ("t)arent", "doc,wm").
# "whi(:h", "su<:h": an OCR'd "c".
DEBRIS_TOKEN = re.compile(r"[A-Za-z][\[{}~^\\;][A-Za-z():;]|[a-z]\][a-z]|^\][a-z]|[a-z][),][a-z]|[a-z]\d[a-z]|[A-Za-z][<(][:;]")
FUNCTION_WORDS = frozenset("the a an of in on to for and or with by from is are was were be we our this that which as at it".split())
MATH_CHARS = set("=+−*/^_<>∑∏√≤≥∈∀∃λαβγδθσμπ|∧∨¬→←⇒∂∫·×")
REFERENCE_RE = re.compile(
    r"^(?:\[\d+\]\s*)?[A-Z][A-Za-z'\-]+,\s+(?:[A-Z]\.\s*)+.*\b(?:19|20)\d\d\b"
    r"|\bIn Proceedings of\b.*\b(?:19|20)\d\d\b|\bpp\.\s*\d+\s*[-–]\s*\d+"
    r"|^[A-Z][A-Za-z'\-]+,?\s+(?:[A-Z][a-z]+\s+)?(?:and\s+[A-Z][A-Za-z'\-]+\s+)?\(?(?:19|20)\d\d[a-z]?\)?\.\s+[A-Z]"
    # pieces of an entry the sentence splitter cut apart: "In Proceedings of the …", "…, in proceedings
    # of the 15th …", "Technical Report RC 16374 …", "F. Jelinek: A fast sequential …", "… Research, vol."
    r"|^(?:In\s+)?(?:The\s+)?Proceedings\b|,\s*[Ii]n\s+[Pp]roceedings\s+of\b|^Technical Report\b|^[A-Z]\.\s*[A-Z][a-z]+:\s+[A-Z]"
    r"|^In\s+[A-Z][^.]{0,80}\b(?:Workshop|Conference|Symposium)\b.*\(pp\.\s*$|,\s*(?:vol|pp)\.\s*$",
)
REFERENCES_SECTION = re.compile(r"^\s*(?:\d+\.?\s*)?(?:references|bibliography|works cited)\s*$", re.I)
# A function word the PDF reader glued to the next word ("theL1", "toEnglish", "inFigure"): prose never
# writes a lower-case function word straight into a capital, and identifiers in camel case rarely start
# with one of these ("is" and "as" are left out for isEmpty, asList; a call, toString(), stays).
GLUED_WORD = re.compile(r"(?<![A-Za-z0-9_.@/])(the|of|and|in|for|with|from|to|on|by|into|than|between|that|our)"
                        r"(?=[A-Z][A-Za-z0-9]*\b(?!\())")
# A typographic apostrophe or quote the text's encoding turned into "?" ("the writer?s choice", "a
# ?clustering solution?"): a question mark is never written between two letters, nor right before one.
LOST_APOSTROPHE = re.compile(r"(?<=[A-Za-z])\?(?=(?:s|ll|re|ve)\b)|(?<=n)\?(?=t\b)|(?<=\bI)\?(?=m\b)")
LOST_QUOTES = re.compile(r"(?<![\w?])\?(?=[A-Za-z])([^?]{1,60}?[\w.,!])\?(?!\w)")
# An en dash lost the same way: between a word and a capitalised word ("Chinese?English", "English?German
# systems") or in a rising range of numbers ("TREC 8?13"; not "10?6", an exponent's minus).
LOST_DASH = re.compile(r"(?<=[a-z]{2})\?(?=[A-Z][a-z]{2,}\b)")
LOST_RANGE = re.compile(r"(?<![\w.^?])(\d{1,4})\?(\d{1,4})(?![\w.?])")
# A connective the PDF reader split in two ("How ever,", "there fore", "al though"): both halves are
# words, so join_split_words leaves them; these are never two words in prose.
SPLIT_CONNECTIVE = re.compile(r"\b(?:how ever|there fore|al though|be cause|never the less|with out|what ever|when ever|"
                              r"where as|other wise)\b", re.I)
LIGATURES = {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"}


def repair(text: str) -> str:
    """What extraction broke and can be restored without guessing: HTML entities (`&#8212;`),
    ligatures (`ﬁ`), soft hyphens and zero-width characters, compatibility forms (NFKC), a function
    word glued to a capitalised word (`theL1`), a connective split in two (`How ever,`), an apostrophe,
    quotes or a dash lost to "?" (`writer?s`, `Chinese?English`)."""
    if "&" in text:
        text = html.unescape(text)
    for lig, plain in LIGATURES.items():
        text = text.replace(lig, plain)
    text = text.replace("\u00ad", "").replace("\u200b", "").replace("\ufeff", "")
    text = GLUED_WORD.sub(r"\1 ", text)
    text = SPLIT_CONNECTIVE.sub(lambda m: m[0].replace(" ", ""), text)
    if "?" in text:
        text = LOST_QUOTES.sub("\u201c\\1\u201d", LOST_APOSTROPHE.sub("\u2019", text))
        text = LOST_RANGE.sub(lambda m: f"{m[1]}\u2013{m[2]}" if int(m[1]) < int(m[2]) else m[0], LOST_DASH.sub("\u2013", text))
    return " ".join(unicodedata.normalize("NFKC", text).split())


# A word the PDF reader left hyphenated across a line break ("num- ber", "non- projective"); not a
# suspended hyphen ("first- and second-order").
BROKEN_WORD = re.compile(r"\b([A-Za-z]+)- ([a-z]+)\b")
SUSPENDED = frozenset("and or to as vs nor but than".split())


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """The whole words of the packaged MiniLM's word-piece vocabulary (~22k, lower case)."""
    from ..learned.minilm_files import tokenizer

    return frozenset(w for w in tokenizer().get_vocab() if w.isalpha() and w.isascii())


def join_broken_words(texts: list[str]) -> list[str]:
    """A paper's sentences with the words broken across lines joined: as one word where that is a word
    ("number", "treebanks"), or where a half is none ("seg- mentation", "decid- ing"); with the hyphen
    where both halves are words and the whole is not ("tree-based", "cross-validation", "bag-of"). A
    word is one the paper writes whole (the halves of broken words aside) or one of english_words.
    A paper with no broken word is returned as it is, without reading either vocabulary."""
    if not any("- " in text for text in texts):
        return texts
    own = {w.lower() for text in texts for w in re.findall(r"[A-Za-z]+", BROKEN_WORD.sub(" ", text))}
    english = english_words()

    def known(word: str) -> bool:
        return word in own or word in english

    def join(m: re.Match) -> str:
        head, tail = m.group(1), m.group(2)
        if tail in SUSPENDED:
            return m.group(0)
        if not known((head + tail).lower()) and known(head.lower()) and known(tail):
            return f"{head}-{tail}"
        return head + tail
    return [BROKEN_WORD.sub(join, text) if "- " in text else text for text in texts]


# Function words that PDF text glues to a neighbour in lower case ("ifwe", "theforward", "setsof").
GLUE = ("the", "of", "and", "to", "for", "with", "from", "that", "is", "are", "if", "we", "by", "our", "this", "be", "as",
        "on", "an", "in", "at", "it", "or", "not", "can", "which", "was", "were", "has", "have", "than", "into", "all", "each")
LOWER_WORD = re.compile(r"(?<![A-Za-z\-])[a-z]{4,}(?![A-Za-z\-])")


def split_glued_words(texts: list[str]) -> list[str]:
    """A paper's sentences with a function word glued to a lower-case neighbour split off ("ifwe" →
    "if we", "setsof" → "sets of"): where the token is no word (not one of english_words, and the paper
    writes it at most three times) and the paper itself writes the two words apart somewhere, so
    "incoherent" stays unless the paper writes "in coherent"."""
    tokens = re.findall(r"[a-z]+", " ".join(texts).lower())
    counts = Counter(tokens)
    candidates = {t for text in texts for t in LOWER_WORD.findall(text) if counts[t] <= 3}
    if not candidates:
        return texts
    english = english_words()
    pairs: set[tuple[str, str]] | None = None  # the paper's word pairs, built only when a split is possible

    def splits(token: str):
        """(first, second, the half that is not the function word), in GLUE's order."""
        for glue in GLUE:
            if token.startswith(glue):
                yield glue, token[len(glue):], token[len(glue):]
            if token.endswith(glue):
                yield token[:-len(glue)], glue, token[:-len(glue)]

    fixes: dict[str, str] = {}
    for token in candidates - english:
        for a, b, other in splits(token):
            if (len(other) >= 3 or other in GLUE) and other in english:
                pairs = pairs if pairs is not None else set(zip(tokens, tokens[1:]))
                if (a, b) in pairs:
                    fixes[token] = f"{a} {b}"
                    break
    if not fixes:
        return texts
    glued = re.compile(r"(?<![A-Za-z\-])(" + "|".join(map(re.escape, sorted(fixes))) + r")(?![A-Za-z\-])")
    return [glued.sub(lambda m: fixes[m.group(1)], text) for text in texts]


# Two adjacent lower-case tokens (the first may be capitalised); matched up to the second, so the
# pairs overlap ("the re sults": "the re", "re sults").
SPLIT_PAIR = re.compile(r"(?<![A-Za-z\-])([A-Za-z][a-z]*) (?=([a-z]+)(?![A-Za-z\-]))")
# Suffixes the vocabulary holds as words, which prose never writes alone ("accord ing", "high er").
SUFFIXES = frozenset("ing ings ed er ers al ic ness".split())


def join_split_words(texts: list[str]) -> list[str]:
    """A paper's sentences with the words PDF text split by a space joined ("ex pected" → "expected",
    "lan guage" → "language", "accord ing" → "according"): where the whole is a word (one of
    english_words, or written whole twice in the paper) and a half is none, or the second is a suffix.
    A half is a word when it is one of english_words or the paper writes it more than three times
    beyond this pair, so "may be", "a part" and "Melamed uses" stay apart however the paper glues them
    elsewhere."""
    whole_text = "\n".join(texts)
    english = english_words()
    pairs: Counter[tuple[str, str]] = Counter()  # the pairs with a half that may be no word, in lower case
    written: dict[tuple[str, str], list[str]] = {}  # how the paper writes each
    for (a, b), times in Counter(SPLIT_PAIR.findall(whole_text)).items():
        if b not in english or b in SUFFIXES or a.lower() not in english:
            key = (a.lower(), b)
            pairs[key] += times
            written.setdefault(key, []).append(f"{a} {b}")
    if not pairs:
        return texts
    counts = Counter(re.findall(r"[a-z]+", whole_text.lower()))

    def word(half: str, times: int) -> bool:
        return half in english or counts[half] - times > 3

    fixes = {(a, b) for (a, b), times in pairs.items() if len(a + b) >= 5
             and (a + b in english or counts[a + b] >= 2)
             and not (word(a, times) and word(b, times) and b not in SUFFIXES)}
    if not fixes:
        return texts
    forms = [form for key in fixes for form in written[key]]

    def join(m: re.Match) -> str:
        return m.group(1) if (m.group(1).lower(), m.group(2)) in fixes else m.group(0)
    return [SPLIT_PAIR.sub(join, text) if any(form in text for form in forms) else text for text in texts]


def _unknown_share(tokens: list[str]) -> float:
    """The share of tokens with a lower-case letter that are no English word: with some debris, OCR damage spread
    over the sentence ("This exlw, r iment … cau triviaJly be incorlJorated …", 13 of 31), where a technical
    sentence with a stray mark mostly stays below 0.3 (MiniLM's vocabulary lacks "lexical", "collocations")."""
    known = english_words()
    return sum(1 for t in tokens if re.search(r"[a-z]", t) and t.strip(",.;:()\"'").lower() not in known) / len(tokens)


def sentence_kind(text: str, section: str = "") -> str:
    """The kind of one sentence, from its characters (see the module docstring)."""
    if INSTRUCTION_RE.search(text):
        return INSTRUCTION
    if REFERENCES_SECTION.search(section):
        return REFERENCE
    tokens = text.split()
    if not tokens:
        return GARBLED
    words = [t for t in tokens if re.search(r"[A-Za-z]{2,}", t)]
    numbers = [t for t in tokens if NUMBER_TOKEN.match(t)]
    if CAPTION_RE.match(text):
        return CAPTION
    # Prose keeps its function words even when it lists numbers or sets parameters ("We set b = 30 for ...").
    prose_like = sum(1 for t in tokens if t.lower().strip(",.;:()") in FUNCTION_WORDS) >= 0.15 * len(tokens)
    if len(numbers) >= 4 and len(numbers) >= 0.3 * len(tokens) and not prose_like:
        return TABLE_ROW
    # a table's header in capitals ("SUPERTAGGING/PARSING TIME SENTS WORDS CONSTRAINTS SEC /SEC …"): not a heading when
    # it runs past ten tokens or holds a number
    capitals = sum(1 for w in words if w.isupper() and len(re.sub(r"[^A-Za-z]", "", w)) >= 3)
    if capitals >= 4 and capitals >= 0.6 * len(words) and not prose_like and (len(tokens) > 10 or numbers):
        return TABLE_ROW
    if (m := EMBEDDED_CAPTION.search(text)) and sum(1 for t in text[:m.start()].split() if NUMBER_TOKEN.match(t)) >= 4:
        return TABLE_ROW  # a flattened table with its caption: kept for evidence, no fact of its own
    if m and text[m.end():m.end() + 1].isupper():
        return CAPTION  # a figure's text or a cut sentence run into a caption ("… replaced withweights 692 Figure 4: We …")
    math = sum(1 for ch in text if ch in MATH_CHARS)
    if math >= 3 and (math >= 0.08 * len(text) or len(words) < 0.5 * len(tokens)) and not prose_like:
        return EQUATION
    if REFERENCE_RE.search(text) and not re.search(r"\b(we|our|is|are|was|were|shows?|propose[sd]?)\b", text):
        return REFERENCE
    debris = sum(1 for t in tokens if DEBRIS_TOKEN.search(t))
    if debris >= 2 and (debris >= 0.08 * len(tokens) or _unknown_share(tokens) >= 0.3) or (len(tokens) >= 4 and len(words) < 0.4 * len(tokens) and not prose_like):
        return GARBLED
    if len(words) < 3 or (len(tokens) <= 10 and not re.search(r"[.!?:;]\W*$", text) and text[:1].isupper()
                          and not re.search(r"\b(is|are|was|were|has|have|we)\b", text)):
        return HEADING
    return PROSE
