"""L1 extraction backends behind one interface: `extract(source_map) → ExtractionResult`.

offline: the rules in l1/offline.py. openai: a model asked, per window of numbered sentences,
for facts under a bounded schema; sentence numbers it cites are checked against the window, and
a citation to a sentence that is not there, or output that never validates, is recorded as a
rejection with its reason — never dropped. Both backends' facts are verified by the same checker.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field

from ..llm.client import LLMClient, LLMOutputError
from ..llm.usage import Usage
from ..models import Context, Fact, FactType, Provenance, Quantity, SourceMap
from ..verify import verify_fact
from .offline import SKIP_SECTIONS, extract_facts
from .study import attach_study


@dataclass
class ExtractionResult:
    facts: list[Fact] = field(default_factory=list)
    rejections: list[tuple[str, str, str]] = field(default_factory=list)  # (candidate id, reason, data)
    usage: Usage = field(default_factory=Usage)
    failed_windows: int = 0  # windows whose output never validated: the extraction is incomplete

    @property
    def complete(self) -> bool:
        return self.failed_windows == 0


class OfflineExtractor:
    backend = "offline"

    def extract(self, sm: SourceMap, run_id: str | None = None) -> ExtractionResult:
        started = time.perf_counter()
        facts = attach_study(sm, extract_facts(sm, run_id))
        return ExtractionResult(facts=facts, usage=Usage(seconds=time.perf_counter() - started))


# -- schemas the model fills (string lengths bounded so small models stop) ---------------------
class LLMQuantity(BaseModel):
    value: float
    unit: str = Field("", max_length=20)
    metric: str = Field("", max_length=40)
    dataset: str = Field("", max_length=60)


class LLMFact(BaseModel):
    sentence: int = Field(..., description="number of the sentence that states the fact")
    statement: str = Field(..., min_length=5, max_length=300)
    subject: str = Field(..., min_length=1, max_length=80)
    type: Literal["finding", "method_description", "theoretical_result", "limitation", "hypothesis", "dataset_description"]
    conditions: list[str] = Field(default_factory=list, max_length=3)
    quantities: list[LLMQuantity] = Field(default_factory=list, max_length=3)


class LLMFacts(BaseModel):
    facts: list[LLMFact] = Field(default_factory=list, max_length=4)


SYSTEM = (
    "You extract source-grounded scientific facts. Use only the numbered sentences given. "
    "Each fact cites the number of the sentence that states it. Keep qualifications (may, only, not)."
)


def build_prompt(sm: SourceMap, window: list[tuple[int, str]]) -> str:
    lines = "\n".join(f"[{sid}] {text}" for sid, text in window)
    return (f"Paper: {sm.title}\nSentences:\n{lines}\n\n"
            "Return up to 4 facts (findings with values, method descriptions, limitations, hypotheses, "
            "theoretical results, dataset descriptions). Cite one sentence number per fact.")


class LLMExtractor:
    backend = "openai"

    def __init__(self, client: LLMClient, window: int = 8, max_windows: int | None = None):
        self.client = client
        self.window = window
        self.max_windows = max_windows

    def extract(self, sm: SourceMap, run_id: str | None = None) -> ExtractionResult:
        result = ExtractionResult()
        body = [(s.sid, s.text) for s in sm.sentences if not SKIP_SECTIONS.search(s.section or "") and s.kind == "prose"]
        windows = [body[i:i + self.window] for i in range(0, len(body), self.window)]
        if self.max_windows is not None:
            windows = windows[: self.max_windows]
        for window in windows:
            prompt = build_prompt(sm, window)
            try:
                out, usage = self.client.structured(prompt, LLMFacts, system=SYSTEM)
            except LLMOutputError as exc:  # an outage (LLMUnavailableError) propagates: nothing is registered
                result.failed_windows += 1
                result.usage.add(exc.usage)
                result.rejections.append((f"{sm.paper_key}:{window[0][0]}-{window[-1][0]}", f"invalid LLM output: {exc}", prompt[:2000]))
                continue
            result.usage.add(usage)
            texts = dict(window)
            prov = Provenance(producer="extract.llm", backend=self.backend, model=self.client.config.model,
                              prompt_hash=self.client.prompt_hash(prompt), run_id=run_id)
            for item in out.facts:
                if item.sentence not in texts:
                    result.rejections.append((f"{sm.paper_key}:{item.sentence}",
                                              f"cites sentence {item.sentence}, which is not among the sentences given "
                                              f"({window[0][0]}-{window[-1][0]})", item.model_dump_json()))
                    continue
                fact = Fact(
                    statement=item.statement, subject=item.subject, type=FactType(item.type),
                    context=Context(conditions=[c[:200] for c in item.conditions if c.strip()]),
                    quantities=[Quantity(value=q.value, text=f"{q.value:g}{q.unit}", unit=q.unit, metric=q.metric,
                                         dataset=q.dataset, subject=item.subject) for q in item.quantities],
                    evidence=[sm.locator(item.sentence)], provenance=prov,
                )
                verification, note = verify_fact(fact, texts[item.sentence])
                result.facts.append(fact.model_copy(update={"verification": verification, "verification_note": note}))
        # Two facts of one type on one sentence share an identity: keep the first, say so.
        seen: dict[str, Fact] = {}
        for f in attach_study(sm, result.facts):
            if f.id in seen:
                result.rejections.append((f.id, "duplicate: another fact of this type already cites this sentence", f.statement))
            else:
                seen[f.id] = f
        result.facts = list(seen.values())
        return result
