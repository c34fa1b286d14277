"""The offline seed idea is worded from the store's results on the topic, and says when it has none."""

from __future__ import annotations

import pytest

from scholarstack.ideas.graph import Evidence
from scholarstack.ideas.roles import _topic_view, seed_graph
from scholarstack.ideas.seed import Result, Setting, main_setting, on_topic, results_in_view
from scholarstack.store import Store
from scholarstack.views.views import open_kb


@pytest.fixture(scope="module")
def kb(compiled_sample):
    return open_kb(Store(compiled_sample), "tfidf")


def _result(method: str, metric: str, dataset: str, value: float, paper: str = "P1") -> Result:
    return Result(method, metric, dataset, "", value, f"{value}", paper, Evidence(text=f"{method} {value}", object_id=f"fac_{method}"))


def test_a_setting_ranks_its_methods_by_the_metric_s_direction_and_the_most_weighted_setting_wins():
    acc = [_result("TnT", "accuracy", "Penn Treebank", 96.7), _result("HMM", "accuracy", "Penn Treebank", 95.9, "P2"),
           _result("TnT", "accuracy", "Penn Treebank", 96.0)]
    err = [_result("Brill", "error rate", "Brown Corpus", 4.5), _result("TnT", "error rate", "Brown Corpus", 3.9)]
    best = main_setting(acc[:1] + err + acc[1:])  # three results at ranks 0, 3, 4 against two at 1, 2
    assert (best.dataset, best.metric) == ("Penn Treebank", "accuracy")
    assert [(r.method, r.value) for r in best.ranked()] == [("TnT", 96.7), ("HMM", 95.9)]  # one result a method, its best
    errors = Setting("Brown Corpus", "error rate", "", err)
    assert errors.lower_is_better and errors.ranked()[0].method == "TnT" and errors.has_method("tnt")
    assert main_setting([]) is None


def test_a_result_counts_for_a_topic_only_when_most_of_the_topic_s_words_are_there():
    assert on_topic("part-of-speech tagging", "A Practical Part-Of-Speech Tagger")
    assert not on_topic("part-of-speech tagging", "The Importance Of Supertagging For Wide-Coverage CCG Parsing")
    assert not on_topic("sentiment analysis", "the parser cannot find an analysis spanning the sentence")


def test_the_offline_seed_states_the_setting_and_the_figure_a_registered_result_reports(kb):
    g = seed_graph("part-of-speech tagging", kb)
    text = {n.type: n.text for n in g.nodes.values()}
    setting = main_setting(results_in_view(_topic_view(kb, "part-of-speech tagging results", ("fact",), 200, 200).items,
                                           "part-of-speech tagging", kb.store))
    assert setting is not None  # the sample's tagging papers report results
    best = setting.ranked()[0]
    for t in ("Hypothesis", "EvalPlan"):
        assert setting.dataset in text[t] and setting.metric in text[t] and best.text in text[t] and best.method in text[t]
    assert setting.dataset in text["Assumption"] and str(len(setting.results)) in text["NoveltyClaim"]
    row = kb.store.get_row(best.evidence.object_id)  # the figure is a registered fact's quantity, bound to what the seed says
    assert any(q["text"] == best.text and q["method"] == best.method and q["dataset"] == setting.dataset for q in row["data"]["quantities"])
    assert g.current("Problem").evidence and g.current("Method").evidence


def test_a_topic_the_store_does_not_cover_gets_no_borrowed_evidence_and_says_so(kb):
    g = seed_graph("protein structure prediction", kb)
    assert not g.current("Problem").evidence and not g.current("Method").evidence
    assert "records no result" in g.current("Hypothesis").text and "records no benchmark result" in g.current("EvalPlan").text
    bare = seed_graph("protein structure prediction")  # no store at all
    assert [n.text for n in bare.nodes.values()] == [n.text for n in g.nodes.values()]
