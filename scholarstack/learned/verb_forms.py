"""Which words ending in -s are verbs ("proceeds", "captures", "relies"): a lexicon counted from
SciREX `train_docs.jsonl.gz`.

L1's subject is the phrase before the main verb, and its rules know the common verbs only: a
sentence whose verb is another ("The algorithm proceeds in two stages") had its subject run on.
A word form is counted a verb when, in the training papers, it follows a subject word (a pronoun,
"which", "also", or a generic noun such as "model") at least twice as often as a word after which
it would be a plural noun ("the", "our", "of", "several": "the results"), and its base form
follows "to", "we" or a modal at least once ("to capture": not "always", "thus", "analysis").
Only -s forms: an -ed form is a participle as often as a verb ("the model trained on WSJ is …").
Counting, not fitting: the lexicon is a word list in JSON, rebuilt by `train_from_shared`.
"""

from __future__ import annotations

import gzip
import json
import re
import time
from collections import Counter
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

WEIGHTS = Path(__file__).parent / "weights" / "verb_forms.json"
FORM = re.compile(r"[a-z]{3,}(?<!ss)s")  # not "class", "process"
SUBJECT_WORDS = frozenset("it which who they he she also approach method model system algorithm paper work".split())
NOUN_WORDS = frozenset("the a an these those our their its such some many two three several his her of more most "
                       "different other various similar".split())
BASE_WORDS = frozenset("to we can will may could would not must should cannot".split())
MIN_AS_VERB = 2  # times after a subject word
VERB_RATIO = 2.0  # at least this many times as often after a subject word as after a noun's word


def _bases(form: str) -> tuple[str, ...]:
    """The base forms `form` may have: "captures" → capture, "relies" → rely, "approaches" → approach."""
    out = [form[:-1]]
    if form.endswith("ies"):
        out.append(form[:-3] + "y")
    if form.endswith("es"):
        out.append(form[:-2])
    return tuple(out)


def count(documents: Iterable[list[str]]) -> dict[str, Any]:
    """From documents as word lists: the verb forms and the counts that chose them."""
    as_verb, as_noun, base = Counter(), Counter(), Counter()
    for words in documents:
        lower = [w.lower() for w in words]
        for before, word in zip(lower, lower[1:]):
            if before in BASE_WORDS:
                base[word] += 1
            if not FORM.fullmatch(word):
                continue
            if before in SUBJECT_WORDS:
                as_verb[word] += 1
            elif before in NOUN_WORDS:
                as_noun[word] += 1
    forms = sorted(w for w, n in as_verb.items()
                   if n >= MIN_AS_VERB and n >= VERB_RATIO * as_noun[w] and any(base[b] for b in _bases(w)))
    return {"forms": forms, "candidates": len(as_verb),
            "rejected_as_nouns": sorted((w for w, n in as_verb.items() if n >= MIN_AS_VERB and n < VERB_RATIO * as_noun[w]),
                                        key=lambda w: -as_verb[w])[:50]}


def read_words(path: Path, limit: int | None = None) -> Iterable[list[str]]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            if limit is not None and i >= limit:
                return
            yield json.loads(line)["words"]


def train_from_shared(data_dir: Path, out: Path = WEIGHTS, limit: int | None = None) -> dict[str, Any]:
    """Count the lexicon from SciREX train_docs, save it with its card, return the card."""
    t0 = time.perf_counter()
    path = data_dir / "scirex" / "train_docs.jsonl.gz"
    docs = list(read_words(path, limit))
    found = count(docs)
    card = {"model": "verb_forms", "data": "scirex/train_docs.jsonl.gz", "papers": len(docs),
            "words": sum(len(d) for d in docs), "seed": None, "forms": len(found["forms"]),
            "candidates": found["candidates"], "rule": f"after a subject word >= {MIN_AS_VERB} times and >= {VERB_RATIO}x as "
            "often as after a noun's word; base form after to/we/a modal", "rejected_as_nouns": found["rejected_as_nouns"][:20],
            "training_seconds": round(time.perf_counter() - t0, 2)}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"card": card, "forms": found["forms"]}, indent=0) + "\n")
    load.cache_clear()
    base_forms.cache_clear()
    return card


@cache
def load(path: Path = WEIGHTS) -> frozenset[str]:
    return frozenset(json.loads(path.read_text())["forms"])


@cache
def base_forms(path: Path = WEIGHTS) -> frozenset[str]:
    """The lexicon's verbs in their plural present form ("proceeds" → "proceed", "relies" → "rely")."""
    return frozenset(b for form in load(path) for b in _bases(form) if len(b) > 2)
