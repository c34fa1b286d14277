"""Deep search: query drafting, identity deduplication, BFS limits, re-rankers and metrics."""

from __future__ import annotations

import asyncio
import math

import pytest

from scholarstack.scholarly.providers import PaperMeta
from scholarstack.search.keywords import keyphrases, strip_citations
from scholarstack.search.local import LocalProvider
from scholarstack.search.metrics import AuthorGraph, alpha_ndcg, precision_recall_at_k
from scholarstack.search.pipeline import IdentityIndex, deep_search
from scholarstack.search.rerank import EnsembleReranker, LexicalReranker, make_reranker, normalise_scores, rerank
from tests.conftest import local_llm, need_shared


def meta(pid: str, title: str, refs=(), **ids) -> PaperMeta:
    return PaperMeta(provider="local", id=pid, title=title, abstract=title + " abstract", references=list(refs), ids=ids)


def toy() -> LocalProvider:
    # a → b → c → d (a chain of references); e is unrelated; only "alpha" and "beta" match the query words.
    papers = {
        "a": meta("a", "alpha tagging with markov models", ["b"]),
        "b": meta("b", "beta smoothing for taggers", ["c"]),
        "c": meta("c", "gamma lexicon construction", ["d"]),
        "d": meta("d", "delta corpus annotation"),
        "e": meta("e", "epsilon protein folding"),
    }
    return LocalProvider(papers)


def test_the_query_papers_own_bibliography_seeds_the_expansion():
    bib = ["Smith, J. 2001. Gamma lexicon construction. In Proceedings of ACL.", "Nobody, A. 1999. A paper no provider has heard of."]
    res = asyncio.run(deep_search("alpha", [toy()], depth=1, queries=["alpha"], bibliography=bib))
    seeded = {c.paper.id: c for c in res.candidates if c.found_by == "bibliography of the query paper"}
    assert set(seeded) == {"c"} and seeded["c"].depth == 0
    assert any(c.paper.id == "d" and c.depth == 1 for c in res.candidates)  # expansion continued from the seeded reference
    assert res.bibliography_resolved["query paper"] == (1, 2)


def test_bibliography_from_a_real_pdf_seeds_the_search():
    from scholarstack.ingest.parsers import parse_file

    rec = parse_file(need_shared("formats", "N18-3011.pdf"))
    assert len(rec.references) == 27 and rec.references[3].startswith("Chandra Bhagavatula, Thanapon Noraset")  # as many as its TEI
    cited = {"x1": meta("x1", "Content-based citation recommendation"), "x2": meta("x2", "TabEL: Entity Linking in Web Tables"),
             "x3": meta("x3", "Natural Language Processing (Almost) from Scratch"), "z": meta("z", "zeta unrelated survey")}
    res = asyncio.run(deep_search("citation recommendation", [LocalProvider(cited)], depth=0, queries=["zeta"],
                                  bibliography=rec.references))
    assert {c.paper.id for c in res.candidates if c.found_by == "bibliography of the query paper"} == {"x1", "x2", "x3"}


def test_strip_citations_and_keyphrases():
    text = "We improve tagging (Brants, 2000) and parsing [3, 4].\nReferences\nBrants T. 2000. TnT."
    assert strip_citations(text) == "We improve tagging and parsing ."
    kp = keyphrases("Hidden Markov models for part-of-speech tagging. Hidden Markov models are trained with Baum-Welch. "
                    "Part-of-speech tagging of German text uses hidden Markov models.")
    assert any("markov model" in k for k in kp) and len(kp) == len(set(kp))


def test_identity_dedup_across_providers():
    ix = IdentityIndex()
    a = PaperMeta(provider="openalex", id="W1", title="Construction of the Literature Graph in Semantic Scholar", ids={"doi": "10.1/x"})
    b = PaperMeta(provider="s2", id="abc", title="Construction of the literature graph in Semantic Scholar!", ids={"arxiv": "1805.02262"})
    c = PaperMeta(provider="arxiv", id="1805.02262", title="A different title", ids={"arxiv": "1805.02262"})
    ida, new_a = ix.add(a)
    idb, new_b = ix.add(b)
    idc, new_c = ix.add(c)
    assert new_a and not new_b and not new_c and ida == idb == idc
    assert ix.papers[ida].ids["arxiv"] == "1805.02262"  # merged from the other provider


def test_bfs_respects_depth_and_budget():
    p = toy()
    res0 = asyncio.run(deep_search("alpha", [p], depth=0, queries=["alpha"]))
    assert [c.paper.id for c in res0.candidates] == ["a"]
    res2 = asyncio.run(deep_search("alpha", [p], depth=2, queries=["alpha"]))
    assert {c.paper.id: c.depth for c in res2.candidates} == {"a": 0, "b": 1, "c": 2}
    res3 = asyncio.run(deep_search("alpha", [p], depth=3, queries=["alpha"], budget=2))
    assert len(res3.candidates) == 2
    with pytest.raises(ValueError, match="empty query"):
        asyncio.run(deep_search(" ", [p]))


def test_rerankers():
    p = toy()
    res = asyncio.run(deep_search("alpha", [p], depth=3, queries=["alpha"]))
    lex = rerank("markov tagging", res.candidates, LexicalReranker())
    assert lex[0].paper.id == "a"
    assert normalise_scores({"x": 1, "y": 3}) == {"x": 0.0, "y": 1.0}
    ens = EnsembleReranker([LexicalReranker(), LexicalReranker()])
    assert rerank("markov tagging", res.candidates, ens)[0].paper.id == "a"
    with pytest.raises(ValueError, match="needs an LLM"):
        make_reranker("debate")


def test_metrics_hand_computed():
    assert precision_recall_at_k(["a", "b", "c"], {"b", "z"}, 2) == (0.5, 0.5)
    # subtopics: a covers {1}, b covers {1}, c covers {2}; α = 0.5.
    subs = {"a": {"1"}, "b": {"1"}, "c": {"2"}}
    # ranking a, b, c: gains 1, 0.5, 1 → DCG = 1 + 0.5/log2(3) + 1/2; ideal a, c, b: 1 + 1/log2(3) + 0.5/2
    dcg = 1 + 0.5 / math.log2(3) + 0.5
    ideal = 1 + 1 / math.log2(3) + 0.25
    assert alpha_ndcg(["a", "b", "c"], subs, 3) == pytest.approx(dcg / ideal)
    graph = AuthorGraph([{"q1", "x"}, {"x", "y"}, {"y", "c1"}])
    assert graph.distance({"q1"}, {"q1"}) == 0
    assert graph.distance({"q1"}, {"x"}) == 1
    assert graph.distance({"q1"}, {"c1"}) == 3
    assert graph.distance({"q1"}, {"zz"}) == 4
    assert graph.distance({"q1"}, {"c1"}, cap=3) == 3 and graph.distance({"q1"}, {"y"}, cap=2) == 2  # cap stands for cap or more


def test_expansion_raises_recall_on_the_acl_graph():
    need_shared("acl_scisummnet", "citances_dev.jsonl")
    from evaluations.search_eval import eval_search

    res = eval_search(limit=2, budget=100)  # every re-ranker on two queries (the judge embeds each candidate's sentences)
    rows = res["systems"]
    assert res["n"] == 2
    assert rows["expansion depth 2"]["recall@budget"] >= rows["keyword-only"]["recall@budget"]
    assert rows["expansion depth 2"]["candidates"] > rows["keyword-only"]["candidates"]
    assert set(res["rerankers_depth2"]) == {"discovery order", "embedding", "lexical", "relevance", "ensemble"}
    for row in [*rows.values(), *res["rerankers_depth2"].values()]:  # α-nDCG over the citing sentences, reported beside recall
        assert 0 <= row["alpha_ndcg@10"] <= 1 and 0 <= row["alpha_ndcg@20"] <= 1
    assert rows["expansion depth 2"]["alpha_ndcg@20"] > 0 and "no author lists" in res["coauthor_distance"]
    with pytest.raises(ValueError, match="trains on papers with fewer than 3"):  # the judge's training queries are not asked
        eval_search(limit=1, min_refs=2)


@pytest.mark.llm
def test_debate_reranker_with_local_llm(llm_server, tmp_path):
    client = local_llm(llm_server, tmp_path, context_tokens=3000)
    res = asyncio.run(deep_search("alpha", [toy()], depth=1, queries=["alpha"]))
    debate = make_reranker("debate", client=client)
    scores = debate.score("markov tagging", res.candidates)
    assert all(0 <= s <= 100 for s in scores.values()) and set(scores) <= {c.id for c in res.candidates}
    assert len(scores) + debate.failures == len(res.candidates)  # every candidate accounted for
    assert debate.shortened == 0  # a short query is read whole
    long_paper = " ".join(["We tag words with second order Markov models and smoothing."] * 400)
    debate.score(long_paper, res.candidates[:2])
    assert debate.shortened == 1  # a paper longer than the model's context is cut to fit, and counted


def test_bibliography_parsing_and_resolution():
    from scholarstack.search.bibliography import parse_entry, resolve_entries

    assert parse_entry("Thorsten Brants. 2000. TnT - A Statistical Part-of-Speech Tagger. In Proceedings of ANLP.") == (
        "TnT - A Statistical Part-of-Speech Tagger", ["Thorsten", "Brants"])
    assert parse_entry("T. Alazard, O. Lazar, and Q. H. Nguyen. On the dynamics of the roots of polynomials under "
                       "differentiation. Journal de Mathématiques Pures et Appliquées, 162:1–22, 2022.")[0] == (
        "On the dynamics of the roots of polynomials under differentiation")
    assert parse_entry('D. Cutting et al., "A practical part-of-speech tagger," in Proc. ANLP, 1992.')[0] == "A practical part-of-speech tagger"
    need_shared("acl_scisummnet", "papers.jsonl.gz")
    acl = LocalProvider.acl()
    entries = ["Thorsten Brants. 2000. TnT - A Statistical Part-Of-Speech Tagger. In Proc. of ANLP.",
               "Eric Brill. 1992. A Simple Rule-Based Part Of Speech Tagger. In Proc. of ANLP.",
               "Nobody Real. 2031. Quantum gravity for dolphins in the deep sea. Imaginary Journal."]
    got = asyncio.run(resolve_entries(entries, acl))
    assert [m.id if m else None for _, m, _ in got] == ["A00-1031", "A92-1021", None]


def test_expansion_resolves_a_bibliography_when_references_are_missing():
    p = toy()
    p.papers["a"].references = []
    p.papers["a"].bibliography = ["X. Writer. 1999. beta smoothing for taggers. In Proc."]
    res = asyncio.run(deep_search("alpha", [p], depth=1, queries=["alpha"]))
    assert {c.paper.id for c in res.candidates} == {"a", "b"} and res.bibliography_resolved == {"local:a": (1, 1)}
