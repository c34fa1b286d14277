"""The offline seed idea, worded from what the store records on the topic.

The problem is a limitation the store records and the method builds on a method description; the
hypothesis, evaluation plan, novelty claim and assumption are written around the benchmark
setting (dataset and metric) that the topic's result facts report most: who reports
what there, the best figure to beat, and whether the seed's method already has a result there.
Without a store, or with no result facts on the topic, the wording is generic and says so.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from pydantic import BaseModel, Field

from ..l2.entities import normalise
from ..l2.mentions import LOWER_IS_BETTER
from ..views.lexical import STOP
from .graph import Evidence

SUFFIXES = ("ations", "ation", "ings", "ing", "ers", "er", "ions", "ion", "es", "s", "ed")
STOPWORDS = STOP | {"using", "based", "about"}


class SeedIdea(BaseModel):
    problem: str = Field(..., max_length=240)
    hypothesis: str = Field(..., max_length=240)
    method: str = Field(..., max_length=240)
    eval_plan: str = Field(..., max_length=240)
    novelty: str = Field(..., max_length=240)
    assumption: str = Field(..., max_length=240)


@dataclass
class Result:
    """A result fact's quantity bound to method, metric and dataset, and the fact as evidence."""
    method: str
    metric: str
    dataset: str
    task: str
    value: float
    text: str
    paper_id: str
    evidence: Evidence


@dataclass
class Setting:
    """The (dataset, metric) the topic's results report most, with every result reported there."""
    dataset: str
    metric: str
    task: str
    results: list[Result]

    @property
    def lower_is_better(self) -> bool:
        return LOWER_IS_BETTER.search(self.metric) is not None

    def ranked(self) -> list[Result]:
        """One result per method, best first (its best figure)."""
        best: dict[str, Result] = {}
        for r in self.results:
            key = normalise(r.method)
            if key not in best or (r.value < best[key].value if self.lower_is_better else r.value > best[key].value):
                best[key] = r
        return sorted(best.values(), key=lambda r: r.value if self.lower_is_better else -r.value)

    def has_method(self, name: str) -> bool:
        key = normalise(name)
        return bool(key) and any(key == normalise(r.method) for r in self.results)


def stems(text: str) -> set[str]:
    """Content words cut to a crude stem ("tagging", "tagger" → "tagg"): enough to tell a topic's words."""
    out = set()
    for w in re.findall(r"[a-z]{4,}", text.lower()):
        if w not in STOPWORDS:
            out.add(next((w[:-len(x)] for x in SUFFIXES if w.endswith(x) and len(w) - len(x) >= 3), w))
    return out


def on_topic(topic: str, text: str) -> bool:
    """Most of the topic's content words are in `text`: ranking alone would bring results of
    another field to a topic the store does not cover. A topic with no content word constrains nothing."""
    want = stems(topic)
    return not want or 2 * len(want & stems(text)) > len(want)


def first_on_topic(topic: str, evidence: list[Evidence], store) -> list[Evidence]:
    """The first piece of evidence on the topic (its text or its paper's title), as a list of at most one."""
    papers = [e.locators[0].rsplit(":", 1)[0] if e.locators else "" for e in evidence]
    titles = store.titles({p for p in papers if p})
    return next(([e] for e, p in zip(evidence, papers) if on_topic(topic, f"{titles.get(p, '')} {e.text}")), [])


def _name_like(text: str) -> bool:
    """A method or dataset name, not a run of sentence the extractor bound by mistake ("John drove to London . Corpus")."""
    return 0 < len(text.split()) <= 6 and re.search(r"\s[.,;:?!]\s|[?!]", text) is None


def results_in_view(items, topic: str, store) -> list[Result]:
    """Result quantities of the fact items in a view that are on the topic (by the fact's text or its
    paper's title), in the view's order."""
    titles, out = store.titles({i.paper_id for i in items}), []
    for item in items:
        if not on_topic(topic, f"{titles.get(item.paper_id, '')} {item.text}"):
            continue
        for q in item.data.get("quantities", []):
            if q.get("metric") and _name_like(q.get("method", "")) and _name_like(q.get("dataset", "")):
                out.append(Result(q["method"], q["metric"], q["dataset"], q.get("task", ""), float(q["value"]), q["text"],
                                  item.paper_id, item.source(chars=300, locators=3)))
                break  # a fact's first bound quantity is its result
    return out


def main_setting(results: list[Result]) -> Setting | None:
    """The (dataset, metric) with the most weight, a result counting more the better it ranks for the
    topic (reciprocal rank, as RRF weighs), so a setting several relevant papers share wins."""
    groups: dict[tuple[str, str], list[tuple[int, Result]]] = defaultdict(list)
    for rank, r in enumerate(results):
        groups[(normalise(r.dataset), normalise(r.metric))].append((rank, r))
    if not groups:
        return None
    members = max(groups.values(), key=lambda g: (sum(1 / (60 + rank) for rank, _ in g), -g[0][0]))
    first = members[0][1]
    task = next((r.task for _, r in members if r.task), "")
    return Setting(first.dataset, first.metric, task, [r for _, r in members])


def offline_seed(topic: str, limit: list[Evidence], method_ev: list[Evidence], method_subject: str,
                 setting: Setting | None) -> SeedIdea:
    problem = f"Current approaches to {topic} leave an open problem" + (f": {limit[0].text}" if limit else " (the store records no limitation on it).")
    method = f"A method for {topic}" + (f" building on: {method_ev[0].text}" if method_ev else " (the store records no method description on it).")
    if setting is None:
        return _seed(problem=problem, method=method,
                     hypothesis=f"Resolving this open problem improves results on {topic} (the store records no result to measure it against).",
                     eval_plan=f"Compare against the published baselines for {topic} (the store records no benchmark result for it).",
                     novelty=f"No work the store holds on {topic} addresses this open problem.",
                     assumption=f"A benchmark for {topic} exists on which the problem shows (none is recorded in the store).")
    ranked = setting.ranked()
    best = ranked[0]
    where = f"{setting.metric} on {setting.dataset}" + (f" for {setting.task}" if setting.task else "")
    direction = "lowers" if setting.lower_is_better else "raises"
    beyond = "below" if setting.lower_is_better else "above"
    papers = len({r.paper_id for r in setting.results})
    compared = ", ".join(f"{r.method} ({r.text})" for r in ranked[:3])
    hypothesis = f"Resolving this open problem {direction} {where} {beyond} the best reported result, {best.text} by {best.method}."
    eval_plan = (f"Measure {where} against the reported results of {compared}, "
                 f"from {papers} paper{'s' if papers > 1 else ''}, with the same test set and metric.")
    if method_subject and not setting.has_method(method_subject):
        novelty = f"None of the {len(setting.results)} results reported for {where} comes from {method_subject}."
    else:
        novelty = f"None of the {len(setting.results)} results reported for {where} addresses this open problem."
    assumption = f"The {setting.metric} figures the papers report on {setting.dataset} are comparable: the same test set and metric definition."
    return _seed(problem=problem, hypothesis=hypothesis, method=method, eval_plan=eval_plan, novelty=novelty, assumption=assumption)


def _seed(**fields: str) -> SeedIdea:
    """Each field cut to the model's bound (the names a store's results give can be long)."""
    return SeedIdea(**{name: text[:240] for name, text in fields.items()})
