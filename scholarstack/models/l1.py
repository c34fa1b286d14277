"""L1: source-grounded Scientific Facts (statement, context, evidence)."""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from typing import ClassVar

from pydantic import BaseModel, Field

from .common import HasEvidence, ResearchObject, split_locator, stable_hash


class FactType(StrEnum):
    finding = "finding"  # qualitative or quantitative result
    method_description = "method_description"
    theoretical_result = "theoretical_result"
    limitation = "limitation"
    hypothesis = "hypothesis"
    dataset_description = "dataset_description"


class Quantity(BaseModel):
    """A reported value bound to its subject and the setting it was measured in."""

    value: float
    text: str = Field(..., description="the value as written, e.g. '96.7%'")
    unit: str = ""
    metric: str = ""
    dataset: str = ""
    subject: str = ""
    method: str = Field("", description="the method the value was measured for")
    task: str = Field("", description="the task (setting) it was measured on")
    delta: bool = Field(False, description="an improvement or reduction, not an absolute level")
    interval: str = Field("", description="an estimate's confidence interval as written, e.g. '0.61-0.70 (95% CI)'")
    p_value: str = Field("", description="its P value, e.g. 'P = .002'")

    LATER_FIELDS: ClassVar[tuple[str, ...]] = ("method", "task", "delta", "interval", "p_value")


class StudyType(StrEnum):
    quantitative = "quantitative"  # measured values: carries the sample measured and the effect
    qualitative = "qualitative"  # observations and analyses without measured values
    theoretical = "theoretical"  # proofs and derivations: carries the assumptions and the result


class Study(BaseModel):
    """The kind of study a result comes from, with the fields that kind needs (the ScholarStack
    paper's L1 schemas): sample and effect for quantitative, assumptions and result for theoretical."""

    type: StudyType
    sample: str = Field("", max_length=300, description="quantitative: the test set or sample measured, its size as written")
    effect: str = Field("", max_length=200, description="quantitative: the value or difference reported, with its metric")
    assumptions: list[str] = Field(default_factory=list, max_length=5, description="theoretical: what the result assumes")
    result: str = Field("", max_length=600, description="theoretical: the result as stated")


class Context(BaseModel):
    conditions: list[str] = Field(default_factory=list, description="settings, populations, data, conditions")
    assumptions: list[str] = Field(default_factory=list)


@lru_cache(maxsize=1 << 16)
def _variant_id(base: str, variant: str) -> str:
    return f"fac_{stable_hash([base, variant])}"


class Fact(HasEvidence, ResearchObject):
    kind: ClassVar[str] = "fact"
    # A fact is identified by its paper, its anchor sentence and its type: re-extraction of an
    # edited sentence by the same producer gives a new version of the same fact. Any other
    # statement on that sentence is another fact: the gate gives it a `variant` (never a version).
    identity_fields: ClassVar[tuple[str, ...]] = ("paper", "anchor", "type")

    statement: str = Field(..., min_length=3, max_length=2000)
    subject: str = Field(..., min_length=1, max_length=300)
    type: FactType
    context: Context = Field(default_factory=Context)
    quantities: list[Quantity] = Field(default_factory=list)
    study: Study | None = Field(None, description="for results: the study type the paper reports and its fields")
    variant: str = Field("", max_length=32, description="set by the gate: tells apart facts that share paper, anchor and type")

    @property
    def id(self) -> str:
        base = super().id
        return base if not self.variant else _variant_id(base, self.variant)

    def hashed_content(self) -> dict:
        data = super().hashed_content()
        for name in ("variant", "study"):  # added later: unset, they leave older facts' hashes alone
            if not data.get(name):
                data.pop(name, None)
        for q in data.get("quantities", []):  # fields added later: unset, they leave older facts' hashes alone
            for name in Quantity.LATER_FIELDS:
                if not q.get(name):
                    q.pop(name, None)
        return data

    @property
    def paper(self) -> str:
        return split_locator(self.evidence[0])[0]

    @property
    def anchor(self) -> str:
        return self.evidence[0]

    @property
    def paper_id(self) -> str:
        return self.paper

    def locators(self) -> list[str]:
        return list(self.evidence)

    def cited_ids(self) -> list[tuple[str, str]]:
        return [(self.paper, "source")]

    def label(self) -> str:
        return self.statement
