"""The study a result comes from (quantitative, qualitative, theoretical) and the fields each needs.

Applied to both backends' facts after extraction, so one rule decides it: a finding with measured
values is quantitative (its effect is the values with their metric and dataset; its sample is the
test set the paper describes, whose sentence the fact then cites); a theoretical result, or a
finding of a paper that proves rather than measures, is theoretical (its assumptions and result);
any other finding is qualitative. Method and dataset descriptions report no study.
"""

from __future__ import annotations

import re

from ..models import Fact, FactType, SourceMap, Study, StudyType
from ..models.common import split_locator

UNITS = r"sentences|words|tokens|documents|sentence pairs|pairs|questions|utterances|examples|instances|articles|abstracts|dialogues|queries|items|texts|images|reviews|tweets|users|participants|subjects"
SIZE = r"\d[\d,.]*(?:\s*(?:k|K|thousand|million|M))?"
SAMPLE_RE = re.compile(
    rf"\b(?:test(?:ing)?|evaluation|held[- ]out)\s+(?:set|data|corpus|section|portion|sample)s?\b[^.;]{{0,80}}?\b{SIZE}\s+(?:{UNITS})\b"
    rf"|\b{SIZE}\s+(?:{UNITS})\b[^.;]{{0,40}}?\b(?:for|as|in|of) (?:the )?(?:test(?:ing)?|evaluation|held[- ]out)\b", re.I)
PROOF_RE = re.compile(r"\b(theorem|lemma|proof|we prove|proposition|corollary)\b", re.I)
STUDY_TYPES = (FactType.finding, FactType.theoretical_result)


def measured_samples(sm: SourceMap) -> list[tuple[int, str, str, str]]:
    """(sentence id, section, the test set as written, sentence) for each description of what was measured on."""
    return [(s.sid, s.section or "", " ".join(m.group(0).split())[:300], s.text)
            for s in sm.sentences if s.kind == "prose" and (m := SAMPLE_RE.search(s.text))]


def sample_for(fact: Fact, samples: list[tuple[int, str, str, str]], section_of: dict[int, str]) -> tuple[int, str] | None:
    """The nearest test-set description in the fact's section or naming its dataset; None when none is."""
    anchor = split_locator(fact.anchor)[1]
    datasets = {q.dataset for q in fact.quantities if q.dataset}
    near = [(abs(sid - anchor), sid, phrase) for sid, section, phrase, text in samples
            if section == section_of.get(anchor) or any(d in text for d in datasets)]
    return min(near)[1:] if near else None


def paper_proves(sm: SourceMap) -> bool:
    """A paper whose results are proofs: several theorem/lemma/proof sentences."""
    return sum(1 for s in sm.sentences if s.kind == "prose" and PROOF_RE.search(s.text)) >= 3


def effect(fact: Fact) -> str:
    parts = []
    for q in fact.quantities:
        qualified = "; ".join(x for x in (q.interval, q.p_value) if x)
        words = [("+" if q.delta and not q.text.startswith(("+", "-")) else "") + q.text, q.metric,
                 f"({qualified})" if qualified else "", f"on {q.dataset}" if q.dataset else ""]
        parts.append(" ".join(w for w in words if w))
    return "; ".join(parts)[:200]


def attach_study(sm: SourceMap, facts: list[Fact]) -> list[Fact]:
    """Each finding and theoretical result with its `study`; quantitative ones cite the test-set sentence."""
    samples = measured_samples(sm)
    section_of = {x.sid: x.section or "" for x in sm.sentences}
    proves = paper_proves(sm)
    out = []
    for f in facts:
        if f.type not in STUDY_TYPES:
            out.append(f)
            continue
        update: dict = {}
        if f.type == FactType.theoretical_result or proves and not f.quantities:
            study = Study(type=StudyType.theoretical, assumptions=f.context.assumptions[:5], result=f.statement[:600])
        elif f.quantities:
            sample = sample_for(f, samples, section_of)
            study = Study(type=StudyType.quantitative, effect=effect(f), sample=sample[1] if sample else "")
            if sample and (loc := sm.locator(sample[0])) not in f.evidence and len(f.evidence) < 20:
                update["evidence"] = [*f.evidence, loc]
        else:
            study = Study(type=StudyType.qualitative)
        out.append(f.model_copy(update=update | {"study": study}))
    return out
