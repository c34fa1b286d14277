"""Scholarly API clients through an HTTP mock transport serving each API's documented shapes,
including 429s with Retry-After, timeouts and malformed bodies. Nothing touches the network."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from scholarstack.ingest.catalog import ingest_paths
from scholarstack.ingest.records import to_source_map
from scholarstack.scholarly.http import ProviderError
from scholarstack.scholarly.providers import make_provider, normalize_query

ARXIV_FEED = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <entry>
    <id>http://arxiv.org/abs/2212.11867v2</id>
    <published>2022-12-22T18:00:00Z</published>
    <title>Zeros of a growing number of derivatives
      of random polynomials</title>
    <summary>We show that the zeros of the kth derivative converge. The limit is described explicitly.</summary>
    <author><name>Marcus Michelen</name></author><author><name>Xuan-Truong Vu</name></author>
  </entry>
</feed>"""
OPENALEX_WORK = {
    "id": "https://openalex.org/W4225968159", "display_name": "On the dynamics of the roots of polynomials",
    "publication_year": 2022, "ids": {"doi": "https://doi.org/10.1016/j.matpur.2022.05.002"},
    "abstract_inverted_index": {"We": [0], "study": [1], "roots": [3], "the": [2]},
    "authorships": [{"author": {"display_name": "T. Alazard"}}],
    "referenced_works": ["https://openalex.org/W1", "https://openalex.org/W2"],
}
S2_PAPER = {"paperId": "abc123", "title": "Construction of the Literature Graph in Semantic Scholar", "year": 2018,
            "abstract": "We describe a deployed scalable system.", "authors": [{"name": "Waleed Ammar"}],
            "externalIds": {"DOI": "10.18653/v1/N18-3011", "ArXiv": "1805.02262"}, "references": [{"paperId": "r1"}, {"paperId": None}]}


def transport(handler):
    return httpx.MockTransport(handler)


def test_query_normalisation():
    kws = ["graph neural network", "molecules"]
    assert normalize_query("arxiv", kws) == 'all:"graph neural network" AND all:molecules'
    assert normalize_query("openalex", kws) == '"graph neural network" molecules'
    assert normalize_query("s2", ["BERT (fine-tuning)", "QA"]) == "BERT  fine-tuning  QA"
    with pytest.raises(ValueError):
        normalize_query("arxiv", ["  "])


def test_each_provider_parses_its_documented_shape():
    def handler(request: httpx.Request) -> httpx.Response:
        host, path = request.url.host, request.url.path
        if host == "export.arxiv.org":
            return httpx.Response(200, text=ARXIV_FEED)
        if host == "api.openalex.org" and path == "/works":
            return httpx.Response(200, json={"results": [OPENALEX_WORK]})
        if host == "api.openalex.org":
            return httpx.Response(200, json=OPENALEX_WORK)
        if path.endswith("/search"):
            assert request.url.params["query"] == "literature graph"
            return httpx.Response(200, json={"total": 1, "data": [S2_PAPER]})
        return httpx.Response(200, json=S2_PAPER)

    t = transport(handler)
    arxiv = asyncio.run(make_provider("arxiv", transport=t).get("2212.11867"))
    assert arxiv.id == "2212.11867" and arxiv.title.startswith("Zeros of a growing") and arxiv.year == 2022
    assert arxiv.authors == ["Marcus Michelen", "Xuan-Truong Vu"]
    oa = asyncio.run(make_provider("openalex", transport=t).search("roots of polynomials"))[0]
    assert oa.id == "W4225968159" and oa.abstract == "We study the roots" and oa.references == ["W1", "W2"]
    s2 = asyncio.run(make_provider("s2", transport=t).search("literature graph"))[0]
    assert s2.ids["arxiv"] == "1805.02262" and s2.references == ["r1"]
    sm = to_source_map(s2.to_record())
    assert sm.paper_key == "s2-abc123" and sm.sentences[1].text == "We describe a deployed scalable system."


def test_rate_limit_retry_after_and_cache(tmp_path):
    hits = {"n": 0}

    def handler(request):
        hits["n"] += 1
        if hits["n"] == 1:
            return httpx.Response(429, headers={"Retry-After": "0.01"})
        return httpx.Response(200, json=OPENALEX_WORK)

    p = make_provider("openalex", cache_dir=tmp_path, transport=transport(handler), backoff_s=0.001)
    assert asyncio.run(p.get("W4225968159")).title.startswith("On the dynamics")
    assert p.http.rate_limited == 1 and hits["n"] == 2
    again = make_provider("openalex", cache_dir=tmp_path, transport=transport(handler))
    asyncio.run(again.get("W4225968159"))
    assert hits["n"] == 2 and again.http.cache_hits == 1 and again.http.calls == 0  # a rerun makes no calls


def test_timeouts_malformed_bodies_and_http_errors(tmp_path):
    def timeout(request):
        raise httpx.ReadTimeout("slow", request=request)

    p = make_provider("s2", transport=transport(timeout), max_retries=2, backoff_s=0.001)
    with pytest.raises(ProviderError, match=r"failed after 3 attempts \(ReadTimeout"):
        asyncio.run(p.get("x"))
    assert p.http.calls == 3
    flaky = iter([httpx.Response(503), httpx.Response(502), httpx.Response(200, json=OPENALEX_WORK)])
    p = make_provider("openalex", transport=transport(lambda r: next(flaky)), max_retries=2, backoff_s=0.001)
    assert asyncio.run(p.get("W4225968159")).title.startswith("On the dynamics") and p.http.calls == 3
    bad = make_provider("openalex", transport=transport(lambda r: httpx.Response(200, text="<html>oops")))
    with pytest.raises(ProviderError, match="malformed body"):
        asyncio.run(bad.get("W1"))
    missing = make_provider("s2", transport=transport(lambda r: httpx.Response(404, json={"error": "not found"})))
    with pytest.raises(ProviderError, match="HTTP 404"):
        asyncio.run(missing.get("nope"))
    wrong = make_provider("openalex", transport=transport(lambda r: httpx.Response(200, json={"meta": {}})))
    with pytest.raises(ProviderError, match="no results list"):
        asyncio.run(wrong.search("x"))


def test_ingest_by_api_id_records_failures(store):
    def handler(request):
        if request.url.host == "export.arxiv.org":
            return httpx.Response(200, text=ARXIV_FEED)
        return httpx.Response(404)

    report = ingest_paths(store, ["arxiv:2212.11867", "s2:missing"], transport=transport(handler))
    assert report["paper_ids"] == ["arxiv-2212.11867"]
    assert report["failed"][0]["source"] == "s2:missing" and "HTTP 404" in report["failed"][0]["reason"]
