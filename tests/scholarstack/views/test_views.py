"""The five view operations and rendering, on the compiled sample."""

from __future__ import annotations

import pytest

from scholarstack.store import Store, register
from scholarstack.index.sync import collection_for
from scholarstack.views.views import _dense_ranking, compare, expand, open_kb, render, retrieve, select, synthesize


@pytest.fixture(scope="module")
def kb(compiled_sample):
    return open_kb(Store(compiled_sample), "tfidf")


def test_retrieve_is_hybrid_typed_and_traceable(kb):
    assert kb.index is not None and kb.embedder is not None  # the dense half is in play
    view = retrieve(kb, "part-of-speech tagging accuracy on the Penn Treebank", k=8)
    assert 0 < len(view.items) <= 8
    kinds = {i.kind for i in view.items}
    assert "fact" in kinds
    for item in view.items:
        if item.kind in ("fact", "sentence"):
            assert item.locators and all(":" in loc for loc in item.locators)
        if item.kind == "fact":
            assert item.verification in ("passed", "failed", "unresolved", "unverified")
    assert view.items == sorted(view.items, key=lambda i: -i.score)
    only = retrieve(kb, "Markov model tagger", layers=("entity",), k=5)
    assert only.items and {i.kind for i in only.items} == {"entity"}


def test_sentences_beyond_the_front_matter_are_found_through_the_facts_citing_them(kb):
    front = {loc for loc, _, _ in kb.store.prose_sentences(front_only=True)}
    held = {oid for oid in kb.index.ids(collection_for(kb.embedder)) if ":" in oid}
    assert held and held <= front  # the index embeds the front matter's sentences only
    fact = next(r for r in kb.store.objects("fact") if set(r["data"]["evidence"]) & set(kb.docs()) - front)
    found = _dense_ranking(kb, fact["data"]["statement"], ("sentence",), 20)
    assert all(":" in oid for oid in found)  # sentences only: the facts stand in for the sentences they cite
    assert set(fact["data"]["evidence"]) & set(kb.docs()) - front <= set(found)
    assert set(found) - front  # beyond what the index holds


def test_retrieve_rejects_bad_input(kb):
    with pytest.raises(ValueError, match="empty query"):
        retrieve(kb, "   ")
    with pytest.raises(ValueError, match="unknown layer"):
        retrieve(kb, "tagging", layers=("facts",))


def test_select_expand_compare(kb):
    view = retrieve(kb, "tagger accuracy results", k=10)
    facts = select(view, kinds=["fact"], verification=["passed"])
    assert facts.items and all(i.kind == "fact" and i.verification == "passed" for i in facts.items)
    one_paper = select(view, papers=[facts.items[0].paper_id])
    assert one_paper.items and all(i.paper_id == facts.items[0].paper_id for i in one_paper.items)
    grown = expand(kb, facts, follow=("evidence",), neighbours=1)
    added = [i for i in grown.items if i.via == "expand:evidence"]
    assert added and all(i.kind == "sentence" for i in added)
    assert any(i.id == facts.items[0].locators[0] for i in added)
    cmp = compare(grown, ("dataset", "metric"))
    assert cmp.rows and all(r["fact"] in {i.id for i in facts.items} for r in cmp.rows)
    assert sum(len(v) for v in cmp.groups.values()) == len(cmp.rows)
    assert "never merged" in cmp.note


def test_expand_basis_of_a_synthesis(kb):
    view = retrieve(kb, "tagging and morphology", layers=("synthesis",), k=2)
    assert view.items
    grown = expand(kb, view, follow=("basis",))
    roles = {i.via for i in grown.items if i.via.startswith("expand:basis")}
    assert roles and all(r.split(":")[-1] in ("supporting", "opposing", "limiting") for r in roles)


def test_synthesize_is_a_candidate_until_registered(kb, copy_store):
    view = select(retrieve(kb, "tagging accuracy", k=10), kinds=["fact"])
    cand = synthesize(view, "How accurate are statistical taggers?")
    assert cand.review_state == "candidate" and cand.basis
    store = copy_store(kb.store.home)
    assert store.get_row(cand.id) is None
    out = register(store, cand, task="test")
    assert out.status == "new" and store.get_row(cand.id)["task"] == "test"
    bogus = cand.model_copy(update={"basis": [cand.basis[0].model_copy(update={"object_id": "fac_doesnotexist"})]})
    assert register(store, bogus).status == "rejected"


def test_render_respects_budget_and_keeps_locators(kb):
    view = expand(kb, retrieve(kb, "unknown words suffix analysis", k=10), follow=("evidence",))
    text = render(view, budget=600)
    assert 0 < len(text) <= 600
    assert "@" in text  # locators survive rendering
    long = render(view, budget=100_000, window=80)
    assert all(len(line) < 400 for line in long.splitlines())


def test_lexical_index_is_kept_for_the_next_process_until_the_store_changes(kb, copy_store, monkeypatch):
    import scholarstack.views.views as views_module
    from scholarstack.views.views import KnowledgeBase

    store = copy_store(kb.store.home)
    first = retrieve(KnowledgeBase(store), "tagging accuracy", layers=("fact",), k=5)
    assert (store.home / "lexical" / "fact" / "meta.json").exists()
    real = views_module.documents
    built = []
    monkeypatch.setattr(views_module, "documents", lambda *a, **k: built.append(1) or real(*a, **k))
    again = retrieve(KnowledgeBase(store), "tagging accuracy", layers=("fact",), k=5)  # a new process, in effect
    assert not built and again.ids() == first.ids()
    store.record_event("test", "fac_x", None, "the store moved on")
    retrieve(KnowledgeBase(store), "tagging accuracy", layers=("fact",), k=5)
    assert built  # a newer store: rebuilt, not served stale
