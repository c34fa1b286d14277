"""Semantic verification without a model: is a statement faithful to the sentences it cites?

Checks (each failure is named in the note, so a failed fact says why):
- attribution: the subject is found in the evidence, or the evidence speaks in the authors'
  voice ("we", "our") about their own system;
- content: most of the statement's content words occur in the evidence;
- quantities: every reported number occurs in the evidence;
- qualifications: negations and hedges in the evidence are kept in the statement.
Written text (summaries, related work, reviews) is checked sentence by sentence against what each
sentence cites, by the writers before registration and by the gate again; a judgement's sources
against what they cite.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pydantic import BaseModel, Field

from .models import (Assignment, CitedSentence, Entity, Fact, Judgement, Relation, ResearchObject, Section, Synthesis, Verification,
                     Writing, load_object)
from .models.common import LOCATOR_RE
from .views.lexical import STOP

WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9\-']*|\d+(?:\.\d+)?")
QUALIFIERS = frozenset("not no never without may might could possibly likely unlikely only approximately roughly "
                       "partially suggest suggests appear appears cannot".split())
NUMBER_RE = re.compile(r"\d+(?:\.\d+)?")
# A bound on a figure ("over 99%", "up to 3 points", "accuracy approaches 100%") is part of what it says: "99%" alone claims more.
BOUND_RE = re.compile(r"(\b(?:over|above|under|below|(?:more|less|fewer) than|up to|at (?:least|most)|nearly|almost|around|about"
                      r"|approach(?:es|ing))\s+"
                      r"|(?<![\w.])[<>≤≥~]=?\s*)(\d+(?:\.\d+)?)", re.I)  # "over 99", "> 0.8"
AUTHOR_VOICE = re.compile(r"\b(we|our|this paper|this work|the proposed|the present)\b", re.I)


def words(text: str) -> list[str]:
    return [w.lower() for w in WORD_RE.findall(text)]


def content_words(text: str) -> set[str]:
    return {w for w in words(text) if w not in STOP and len(w) > 1}


@lru_cache(maxsize=200_000)  # the same words recur across a corpus; stemming each once pays
def _stem(w: str) -> str:
    for suf in ("ing", "ed", "es", "s"):
        if len(w) > len(suf) + 3 and w.endswith(suf):
            return w[: -len(suf)]
    return w


def overlap(statement: str, evidence: str) -> float:
    s = {_stem(w) for w in content_words(statement)}
    if not s:
        return 0.0
    e = {_stem(w) for w in content_words(evidence)}
    return len(s & e) / len(s)


def _bounded(text: str) -> set[str]:
    """The figures `text` gives only with a bound ("over 99"), where it never gives them bare."""
    bounded = {(m.group(1).strip().lower(), m.group(2)) for m in BOUND_RE.finditer(text)}
    bare = NUMBER_RE.findall(BOUND_RE.sub(" ", text))
    return {f"{b} {n}" for b, n in bounded if n not in bare}


def qualifies(text: str) -> bool:
    """Whether `text` qualifies anything (a qualifier word or a bounded figure), which a statement
    citing it would have to keep (`verify_fact`)."""
    return bool(QUALIFIERS & set(words(text))) or BOUND_RE.search(text) is not None


def verify_fact(fact: Fact, evidence_text: str) -> tuple[Verification, str]:
    problems: list[str] = []
    ev_words = set(words(evidence_text))
    subj = content_words(fact.subject)
    attributed = bool(subj) and len({_stem(w) for w in subj} & {_stem(w) for w in ev_words}) >= max(1, len(subj) // 2)
    if not attributed and not AUTHOR_VOICE.search(evidence_text):
        return Verification.unresolved, f"subject '{fact.subject}' not found in the cited sentences"
    ov = overlap(fact.statement, evidence_text)
    if ov < 0.5:
        problems.append(f"only {ov:.0%} of the statement's content words occur in the evidence")
    numbers = set(NUMBER_RE.findall(evidence_text))
    for q in fact.quantities:
        found = NUMBER_RE.findall(q.text)
        if not found or not all(n in numbers for n in found):
            problems.append(f"quantity '{q.text}' not in the evidence")
        # its interval's bounds and its P value too, when it has them (the level "95%" is read as 95)
        elif qualified := [n for n in NUMBER_RE.findall(f"{q.interval} {q.p_value}") if n not in numbers]:
            problems.append(f"quantity '{q.text}' qualified by {', '.join(qualified[:3])}, not in the evidence")
    stated = set(NUMBER_RE.findall(fact.statement))
    stray = sorted(stated - numbers)
    if stray:
        problems.append(f"number(s) {', '.join(stray[:5])} in the statement but not in the evidence")
    bounds = {b for b in _bounded(evidence_text) - _bounded(fact.statement) if b.rsplit(" ", 1)[1] in stated}
    if bounds:
        problems.append("bound dropped: " + ", ".join(sorted(bounds)))
    dropped = (QUALIFIERS & ev_words) - set(words(fact.statement))
    if dropped:
        problems.append("qualification dropped: " + ", ".join(sorted(dropped)))
    if problems:
        return Verification.failed, "; ".join(problems)
    return Verification.passed, f"attributed; {ov:.0%} content overlap; quantities and qualifications kept"


def _names(entity: Entity | None) -> set[str]:
    if entity is None:
        return set()
    return {n.lower() for n in [entity.name, *entity.aliases]}


def _mentions(names: set[str], text: str) -> bool:
    low = text.lower()
    return any(re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", low) for n in names if n)


CITE_RE = re.compile(r"\[[^\]]*\]")


def basis_text(obj: ResearchObject | None) -> str:
    if obj is None:
        return ""
    if isinstance(obj, Fact):
        return f"{obj.subject} {obj.statement} " + " ".join(q.text for q in obj.quantities)
    if isinstance(obj, Entity):
        return " ".join([obj.name, *obj.aliases])
    if isinstance(obj, Assignment):
        return f"{obj.category_id.replace('/', ' ')} {obj.rationale}"
    return obj.label()


def verify_account(obj: Synthesis, ctx) -> tuple[Verification, str]:
    """Is the account written from its basis? Every number must occur in a basis object and most
    content words too. Passing is never `passed`: a synthesis never inherits verification."""
    cited = [ctx.object(b.object_id) for b in obj.basis]
    pool = " ".join(basis_text(c) for c in cited)
    for c in cited:  # an assignment speaks through its entity and supporting facts
        if isinstance(c, Assignment):
            pool += " " + basis_text(ctx.object(c.entity_id)) + " " + " ".join(basis_text(ctx.object(f)) for f in c.supporting_facts)
    account = CITE_RE.sub(" ", obj.account)
    # The scope may be counted in the account ("across 12 studies"): that number is the scope's own.
    scope_words = " ".join([obj.scope.topic, *obj.scope.conditions, str(len(obj.scope.studies))])
    missing_numbers = sorted(set(NUMBER_RE.findall(account)) - set(NUMBER_RE.findall(pool + " " + scope_words)))
    ov = overlap(account, pool + " " + scope_words)
    problems = []
    if missing_numbers:
        problems.append(f"number(s) not in the basis: {', '.join(missing_numbers[:5])}")
    if ov < 0.6:
        problems.append(f"only {ov:.0%} of the account's content words occur in its basis")
    if problems:
        return Verification.failed, "account not supported by its basis: " + "; ".join(problems)
    return Verification.unverified, f"account consistent with its basis ({ov:.0%} content overlap); awaits semantic review"


# -- written text (models.writing): the citation checker ----------------------------------------
SUPPORT_OVERLAP = 0.5  # share of a sentence's content words its cited texts must contain


class CitationReport(BaseModel):
    unknown: list[str] = Field(default_factory=list, description="citations that resolve to nothing current, removed")
    dropped: list[str] = Field(default_factory=list, description="sentences dropped: every citation was unknown")
    unsupported: list[str] = Field(default_factory=list, description="sentences their citations do not support: kept as interpretation")


def cited_texts(store, citations: list[str]) -> dict[str, tuple[str, str]]:
    """citation → (current text, paper id) for each citation that resolves: a sentence's text, an
    object's statement or label with the sentences it cites (which its statement rests on)."""
    locs = [c for c in citations if LOCATOR_RE.match(c)]
    out = {loc: (text, loc.rsplit(":", 1)[0]) for loc, text in store.current_sentences(locs).items()}
    rows = store.get_rows([c for c in citations if not LOCATOR_RE.match(c)])
    objs = {oid: load_object(row) for oid, row in rows.items() if row["lifecycle"] != "withdrawn" and row["kind"] != "paper"}
    evidence = store.current_sentences({loc for o in objs.values() for loc in o.locators()})
    for oid, obj in objs.items():
        out[oid] = (basis_text(obj) + " " + " ".join(evidence.get(loc, "") for loc in obj.locators()), rows[oid]["paper_id"] or "")
    return out


def supported(sentence: str, evidence: str, names: list[str] = ()) -> bool:
    """Most content words and every number of the sentence occur in its evidence; `names` (the
    cited papers' ids and titles, which a sentence may use to attribute) count as evidence."""
    pool = evidence + " " + " ".join(names)
    return overlap(sentence, pool) >= SUPPORT_OVERLAP and set(NUMBER_RE.findall(sentence)) <= set(NUMBER_RE.findall(pool))


def check_sections(store, sections: list[Section]) -> tuple[list[Section], CitationReport]:
    """Sections with unknown citations removed (a sentence left citing nothing is dropped) and
    sourced sentences their citations do not support turned into interpretation; what was changed
    is reported. A sentence may name the papers it cites (ids, titles) without that counting
    against it."""
    texts = cited_texts(store, sorted({c for sec in sections for s in sec.sentences for c in s.citations}
                                      | {r["fact"] for sec in sections for r in sec.table if r.get("fact")}))
    titles = store.titles({p for _, p in texts.values()})
    report = CitationReport()
    out = []
    for sec in sections:
        kept: list[CitedSentence] = []
        seen: set[str] = set()
        table = [r for r in sec.table if not r.get("fact") or r["fact"] in texts]
        report.unknown += [r["fact"] for r in sec.table if r.get("fact") and r["fact"] not in texts]
        for s in sec.sentences:
            if s.text.lower() in seen:  # the same statement from two facts is said once
                continue
            seen.add(s.text.lower())
            good = [c for c in s.citations if c in texts]
            report.unknown += [c for c in s.citations if c not in texts]
            if s.citations and not good:
                report.dropped.append(s.text)
                continue
            interp = s.interpretation
            if good and not interp:
                papers = sorted({texts[c][1] for c in good})
                if not supported(s.text, " ".join(texts[c][0] for c in good), papers + [titles.get(p, "") for p in papers]):
                    report.unsupported.append(s.text)
                    interp = True
            kept.append(s.model_copy(update={"citations": good, "interpretation": interp}))
        out.append(sec.model_copy(update={"sentences": kept, "table": table}))
    return out, report


def verify_writing(obj: Writing, ctx) -> tuple[Verification, str]:
    """Every sentence stated as from its sources is supported by what it cites (the writers' own
    check, run again here: the gate trusts no writer). Interpretation is counted, not checked."""
    _, report = check_sections(ctx.store, obj.sections)
    n = len(obj.sentences())
    interp = sum(s.interpretation for s in obj.sentences())
    if report.unknown or report.unsupported:
        bad = report.unsupported[:2] + report.unknown[:3]
        return Verification.failed, (f"{len(report.unsupported)} sentence(s) not supported by their citations, "
                                     f"{len(report.unknown)} unknown citation(s): " + "; ".join(x[:80] for x in bad))
    return Verification.passed, f"{n - interp} of {n} sentences supported by their citations; {interp} marked as interpretation"


def verify_judgement(obj: Judgement, ctx) -> tuple[Verification, str]:
    """Every source says what it quotes: its text is supported by its sentences and its object (the
    answer itself is the task's reading and is not checked here)."""
    bad = []
    for src in obj.sources:
        obj_id = src.object_id if src.object_id and not LOCATOR_RE.match(src.object_id) else None  # a sentence item's id is its locator
        evidence = basis_text(ctx.object(obj_id) if obj_id else None) + " " + " ".join(
            ctx.sentences.get(loc, "") for loc in src.locators)
        if not supported(src.text, evidence):
            bad.append(src.text[:80])
    if bad:
        return Verification.failed, f"{len(bad)} of {len(obj.sources)} source(s) not what they cite: " + "; ".join(bad[:2])
    return Verification.passed, f"{len(obj.sources)} source(s), each supported by what it cites"


def default_verifier(obj: ResearchObject, ctx) -> tuple[Verification, str]:
    """Used by recheck(); `ctx` is a store.admission.RecheckContext."""
    if isinstance(obj, Fact):
        return verify_fact(obj, " ".join(ctx.sentences.get(loc, "") for loc in obj.evidence))
    if isinstance(obj, Assignment):
        names = _names(ctx.object(obj.entity_id))
        facts = [ctx.object(f) for f in obj.supporting_facts]
        if any(f is not None and _mentions(names, f.statement) for f in facts):
            return Verification.passed, "a supporting fact names the entity"
        return Verification.unresolved, "no supporting fact names the entity"
    if isinstance(obj, Relation):
        src, dst = _names(ctx.object(obj.source_id)), _names(ctx.object(obj.target_id))
        facts = [ctx.object(f) for f in obj.anchoring_facts]
        if any(f is not None and _mentions(src, f.statement) and _mentions(dst, f.statement) for f in facts):
            return Verification.passed, "an anchoring fact names both endpoints"
        return Verification.unresolved, "no anchoring fact names both endpoints"
    if isinstance(obj, Writing):
        return verify_writing(obj, ctx)
    if isinstance(obj, Judgement):
        return verify_judgement(obj, ctx)
    if isinstance(obj, Synthesis):
        # A synthesis never inherits verification from its basis: at best it is consistent with it.
        return verify_account(obj, ctx)
    return Verification.unverified, "references resolve; no semantic check for this kind"
