"""Novelty assessment on the compiled sample: aspects, prior work without the paper itself and
later papers, the discrimination check, registration and reuse, bad input, both backends."""

from __future__ import annotations

import pytest

from scholarstack.index.embed import make_embedder
from scholarstack.ingest.records import anthology_year
from scholarstack.tasks.novelty import assess_novelty, aspects_of_text, judge_novelty
from scholarstack.tasks.retrieval import store_retriever
from tests.conftest import local_llm

IDEA = ("We propose a second-order hidden Markov model tagger that guesses unknown words from their suffixes. "
        "We evaluate it on the Penn Treebank and reach 96.7% accuracy.")


@pytest.fixture
def store(compiled_sample, copy_store):
    return copy_store(compiled_sample)


@pytest.fixture
def retriever(store):
    return store_retriever(store, make_embedder("tfidf", store.home))


def test_aspects_of_an_idea_in_words():
    aspects = {a.name: a for a in aspects_of_text(IDEA)}
    assert set(aspects) >= {"method", "result"}
    assert "96.7%" in aspects["result"].text and "penn treebank" in aspects["result"].entities


def test_a_paper_is_assessed_against_earlier_work_only(store, retriever):
    out = assess_novelty(store, paper="D08-1036", k=5, retriever=retriever)
    prior = out.extra["prior_work"]
    assert prior and "D08-1036" not in prior and "N18-3011" not in prior  # itself, and a 2018 paper
    assert out.answer in ("novel", "incremental", "anticipated") and out.interpretation
    assert {a["aspect"]["name"] for a in out.extra["aspects"]} >= {"problem", "method"}
    for a in out.extra["aspects"]:  # each aspect's closest prior paper: earlier, never the paper itself
        assert a["paper"] is None or (a["paper"] != "D08-1036" and anthology_year(a["paper"]) <= 2008)
    for s in out.sources_state:  # covering facts cited with their sentences
        assert s.object_id.startswith("fac_") and store.current_sentences(s.locators)


def test_a_paper_against_a_corpus_with_itself_is_anticipated(store, retriever):
    out = assess_novelty(store, paper="D08-1036", k=5, retriever=retriever, include_self=True)
    assert out.answer == "anticipated" and "D08-1036 already covers" in out.interpretation


def test_novelty_is_registered_and_reused(store):
    emb = make_embedder("tfidf", store.home)
    first = judge_novelty(store, idea=IDEA, k=5, embedder=emb)
    reg = first.extra["registration"]
    assert reg["status"] == "new" and reg["verification"] == "passed"
    assert store.get_row(reg["id"])["data"]["task_name"] == "novelty"
    again = judge_novelty(store, idea=IDEA, k=5, embedder=emb)
    assert again.extra["reuse"]["hit"] and again.answer == first.answer and again.tokens_in == 0


def test_bad_requests_are_clear_errors(store, retriever):
    with pytest.raises(ValueError, match="empty idea"):
        assess_novelty(store, idea="  ", retriever=retriever)
    with pytest.raises(ValueError, match="idea is 50,000 characters; the limit is 20,000"):
        assess_novelty(store, idea="x" * 50_000, retriever=retriever)
    with pytest.raises(ValueError, match="exactly one of --idea TEXT or --paper"):
        assess_novelty(store, idea=IDEA, paper="A00-1031", retriever=retriever)
    with pytest.raises(LookupError, match="neither a paper in store"):
        assess_novelty(store, paper="nope", retriever=retriever)


@pytest.mark.llm
def test_novelty_with_the_local_llm(store, retriever, llm_server, tmp_path):
    client = local_llm(llm_server, tmp_path / "c", max_tokens=200)
    out = assess_novelty(store, idea=IDEA, k=5, retriever=retriever, client=client)
    # Whatever the small model split: a verdict, every cited fact resolving, a failure said, not hidden.
    assert out.answer in ("novel", "incremental", "anticipated") and out.extra["aspects"]
    assert all(store.get_row(s.object_id) is not None for s in out.sources_state)
    assert "error_recovered" not in out.extra or "aspects from rules" in out.extra["error_recovered"]
