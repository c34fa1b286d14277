"""Open-world retrieval planned by the views, against mock provider transports (no network): the
store's aliases and categories in the queries, candidates tiered by the request's conditions, a
provider failure recorded while the others answer, the transcript, ingesting what meets all."""

from __future__ import annotations

import json

import httpx
import pytest

from scholarstack.ingest.catalog import raw_paper_ids
from scholarstack.scholarly.providers import make_provider
from scholarstack.search.open_world import plan_queries, run_open_world

REQUEST = "unsupervised part-of-speech tagging with a Hidden Markov Model on the Penn Treebank since 2005"


def work(wid: str, title: str, abstract: str, year: int) -> dict:
    return {"id": f"https://openalex.org/{wid}", "display_name": title, "publication_year": year,
            "abstract_inverted_index": {w: [i] for i, w in enumerate(abstract.split())}}


WORKS = [work("W1", "Bayesian HMM tagging", "We train an HMM for unsupervised part-of-speech tagging on the Penn Treebank", 2008),
         work("W2", "Old HMM tagger", "An HMM tagger for unsupervised part-of-speech tagging on the Penn Treebank", 1999),
         work("W3", "Parsing with grammars", "A parser evaluated on German newspaper text", 2010)]


@pytest.fixture
def store(compiled_sample, copy_store):
    return copy_store(compiled_sample)


def providers(tmp_path, queries: list):
    def openalex(request: httpx.Request) -> httpx.Response:
        queries.append(request.url.params.get("search"))
        return httpx.Response(200, json={"results": WORKS})

    def s2(request: httpx.Request) -> httpx.Response:
        return httpx.Response(500, text="down")

    return [make_provider("openalex", tmp_path / "c1", transport=httpx.MockTransport(openalex)),
            make_provider("s2", tmp_path / "c2", transport=httpx.MockTransport(s2), max_retries=0)]


def test_the_views_plan_queries_and_conditions(store):
    plan = plan_queries(store, REQUEST)
    hmm = next(c for c in plan.conditions if c.text.lower() == "hidden markov model")
    assert "HMM" in hmm.terms  # an alias the store's canonical entity gathered
    assert any(c.year == (2005, 9999) for c in plan.conditions)
    assert any("HMM" in q for q in plan.queries) and len(plan.queries) <= 6
    assert plan.expansions  # what the views added, said
    with pytest.raises(ValueError, match="empty request"):
        plan_queries(store, " ")


def test_candidates_are_tiered_recorded_and_ingested(store, tmp_path):
    sent: list = []
    res = run_open_world(store, REQUEST, providers(tmp_path, sent), ingest=("meets all",))
    tiers = {f.id: f for f in res.found}
    assert tiers["W1"].tier == "meets all" and tiers["W2"].tier == "meets some" and "since 2005" in tiers["W2"].missing
    assert tiers["W3"].tier == "related" and [f.tier for f in res.found][0] == "meets all"
    assert sent and all(q for q in sent)  # every planned query was asked
    assert any(c["provider"] == "s2" and "error" in c for c in res.provider_queries)  # a failed provider is recorded
    transcript = json.loads(open(res.transcript).read())
    assert transcript["plan"]["queries"] and {f["id"] for f in transcript["found"]} == {"W1", "W2", "W3"}
    assert res.ingested and res.ingested[0] in raw_paper_ids(store)
    assert res.registration["status"] == "new"  # recorded as a task output
    row = store.get_row(res.registration["id"])
    assert row["data"]["task_name"] == "open_world_search" and row["data"]["answer"] == "1 meets all; 1 meets some; 1 related"
