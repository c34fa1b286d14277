"""Claim verification against a cited paper, from its L1 facts (view) or its full text.

Labels: SciFact's SUPPORT / CONTRADICT / NOT ENOUGH INFO with rationale sentences, and the
citation-quality scale Supported / Overstate / Topical match / Irrelevant. Offline rules: the
best evidence decides relevance by coverage; opposite polarity (negation or a reversed direction
word) means CONTRADICT; a claim stronger than its evidence (hedge dropped, universal added) is an
Overstate.
"""

from __future__ import annotations

import re
import time
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, Field

from ..llm.client import LLMClient, LLMOutputError
from ..views.views import KnowledgeBase
from .common import TaskAnswer, check_text_input, cited_sources, count_tokens
from .evidence import facts_context, fulltext_context, paper_items, score_items

NEG = re.compile(r"\b(not|no|never|cannot|fails?|failed|unable|lack|lacks|absence|neither|nor|without)\b", re.I)
DIRECTIONS = [("increase", "decrease"), ("increased", "decreased"), ("increases", "decreases"), ("higher", "lower"),
              ("more", "less"), ("improve", "impair"), ("promote", "inhibit"), ("promotes", "inhibits"), ("up", "down"),
              ("enhance", "reduce"), ("enhances", "reduces"), ("activate", "suppress"), ("activates", "suppresses"),
              ("positive", "negative"), ("risk", "protect")]
HEDGES = re.compile(r"\b(may|might|could|possibly|suggests?|likely|associated)\b", re.I)
UNIVERSALS = re.compile(r"\b(all|always|every|never|completely|entirely|only|cures?|proves?|causes?)\b", re.I)


class LLMVerdict(BaseModel):
    label: Literal["SUPPORT", "CONTRADICT", "NOT ENOUGH INFO"]
    rationale: list[str] = Field(default_factory=list, max_length=3, description="locators of the deciding sentences")
    reason: str = Field("", max_length=200)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


def _polarity_clash(claim: str, evidence: str) -> bool:
    cw, ew = _words(claim), _words(evidence)
    if bool(NEG.search(claim)) != bool(NEG.search(evidence)):
        return True
    return any((a in cw and b in ew and b not in cw) or (b in cw and a in ew and a not in cw) for a, b in DIRECTIONS)


def decide(claim: str, ranked) -> tuple[str, str, list]:
    """(SciFact label, quality label, rationale items)."""
    if not ranked or ranked[0].coverage < 0.3:
        quality = "Irrelevant" if not ranked or ranked[0].coverage < 0.15 else "Topical match"
        return "NOT ENOUGH INFO", quality, []
    best = ranked[0]
    if best.coverage < 0.5:
        return "NOT ENOUGH INFO", "Topical match", []
    rationale = [r for r in ranked[:3] if r.coverage >= 0.5][:2]
    if _polarity_clash(claim, best.item.text):
        return "CONTRADICT", "Irrelevant" if best.coverage < 0.5 else "Topical match", rationale
    overstated = (HEDGES.search(best.item.text) and not HEDGES.search(claim)) or (UNIVERSALS.search(claim) and not UNIVERSALS.search(best.item.text))
    return "SUPPORT", "Overstate" if overstated else "Supported", rationale


def _learned(claim: str, ranked) -> tuple[str, str, list] | None:
    """The learned verifier over the candidates (None: no committed weights, or no MiniLM)."""
    from ..learned.claim_verifier import default_verifier

    model = default_verifier()
    if model is None or not ranked:
        return None
    try:
        embedder = verifier_encoder()
    except (ImportError, OSError):
        return None
    cands = ranked[:40]  # the paper's best-scoring items: enough for an abstract or a paper's L1 set
    verdict = model.predict(claim, [r.item.text for r in cands], embedder)
    used = [cands[i] for i in verdict.rationale]
    if verdict.label == "SUPPORT":
        text = " ".join(u.item.text for u in used)
        overstated = (HEDGES.search(text) and not HEDGES.search(claim)) or (UNIVERSALS.search(claim) and not UNIVERSALS.search(text))
        quality = "Overstate" if overstated else "Supported"
    else:
        quality = "Topical match" if verdict.label == "CONTRADICT" or ranked[0].coverage >= 0.3 else "Irrelevant"
    return verdict.label, quality, used


@lru_cache(maxsize=1)
def verifier_encoder():
    from ..index.embed import MiniLMEmbedder

    return MiniLMEmbedder()


def verify_claim(kb: KnowledgeBase, claim: str, paper_id: str, mode: str = "view", embedder=None,
                 client: LLMClient | None = None, method: str = "learned") -> TaskAnswer:
    """`method` (offline backend): `learned` (the trained verifier, when its weights are present)
    or `rules` (coverage and polarity rules)."""
    claim = check_text_input(claim, "claim", 5000)
    if method not in ("learned", "rules"):
        raise ValueError(f"unknown method {method!r} (learned or rules)")
    started = time.perf_counter()
    if mode == "view":  # the paper's whole L1 set, compactly
        context, ranked = facts_context(kb, claim, paper_id, embedder)
    elif mode == "fulltext":
        context = fulltext_context(kb.store, [paper_id])
        ranked = score_items(claim, paper_items(kb, paper_id, ("sentence",)), embedder)
    else:
        raise ValueError(f"unknown mode {mode!r} (view or fulltext)")
    tokens_in = count_tokens(claim) + count_tokens(context)
    extra: dict = {}
    if client is None:
        learned = _learned(claim, ranked) if method == "learned" else None
        label, quality, used = learned or decide(claim, ranked)
        extra["method"] = "learned" if learned else "rules"
        sentences = sorted({loc for u in used for loc in u.item.locators})
        sources = [u.item.source() for u in used]
        interp = f"{quality}: " + ("evidence polarity differs from the claim" if label == "CONTRADICT" else
                                    "evidence covers the claim" if label == "SUPPORT" else "no sentence covers the claim")
        tokens_out = 0
    else:
        how = "its sentence numbers in the paper named first" if mode == "view" else "its locator"
        prompt = (f"Paper context (each line starts with {how}):\n{context}\n\nClaim: {claim}\n"
                  "Does the paper SUPPORT or CONTRADICT the claim, or is there NOT ENOUGH INFO? Cite the deciding "
                  + ("sentence numbers." if mode == "view" else "locators."))
        try:
            out, usage = client.structured(prompt, LLMVerdict)
        except LLMOutputError as exc:
            return TaskAnswer(task="verify_claim", question=claim, answer="NOT ENOUGH INFO", mode=mode, tokens_in=tokens_in,
                              seconds=time.perf_counter() - started, extra={"error": str(exc), "quality": "Irrelevant", "rationale": []})
        if mode == "view":  # the compact facts context numbers sentences within the paper: "4" is paper:4
            cited = [f"{paper_id}:{c.strip()}" if c.strip().isdigit() else c for c in out.rationale]
            allowed = {loc for r in ranked for loc in r.item.locators}
            sources, extra["invalid_citations"] = cited_sources(kb.store, context, cited, allowed)
        else:
            sources, extra["invalid_citations"] = cited_sources(kb.store, context, out.rationale)
        sentences = [s.locators[0] for s in sources]
        label = out.label
        quality = {"SUPPORT": "Supported", "CONTRADICT": "Topical match", "NOT ENOUGH INFO": "Irrelevant"}[label]
        interp, tokens_in, tokens_out = out.reason, usage.tokens_in or tokens_in, usage.tokens_out
    extra |= {"quality": quality, "rationale": sentences}
    return TaskAnswer(task="verify_claim", question=claim, answer=label, mode=mode, sources_state=sources, interpretation=interp,
                      tokens_in=tokens_in, tokens_out=tokens_out, seconds=round(time.perf_counter() - started, 4), extra=extra)


def judge_claim(kb: KnowledgeBase, claim: str, paper_id: str, mode: str = "view", client: LLMClient | None = None,
                reuse: bool = True, register: bool = True) -> TaskAnswer:
    """`verify_claim`, registered as a judgement and reused while what it read stands."""
    from ..models import JudgementTask
    from .memory import judged

    settings = f"mode={mode} backend={'openai' if client else 'offline'}"
    return judged(kb.store, JudgementTask.verify_claim, claim, [paper_id], settings,
                  lambda: verify_claim(kb, claim, paper_id, mode=mode, embedder=kb.embedder, client=client), reuse, register)
