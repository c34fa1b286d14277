"""L2 and L3 maintained from the memo of the last build equal a build from nothing, and an
update reads only the facts that changed."""

from __future__ import annotations

from scholarstack.store import new_run_id

LAYERS = "SELECT kind, id, content_hash FROM objects WHERE kind IN ('entity', 'taxonomy', 'assignment', 'relation', 'synthesis') " \
         "AND lifecycle IN ('current', 'needs_recheck') ORDER BY 1, 2"


def test_an_update_from_the_memo_equals_a_rebuild_from_nothing(compiled_sample, copy_store):
    from assets.settings import CompileSettings
    from scholarstack.compile import compile_organisation, compile_syntheses
    from scholarstack.organise import MEMO_FILE
    from scholarstack.store import revise, withdraw
    from scholarstack.store.registry import recheck

    store = copy_store(compiled_sample)
    tax = CompileSettings().taxonomy_path()

    def build() -> tuple[dict, dict]:
        l2, l3 = compile_organisation(store, new_run_id(), taxonomy_path=tax), compile_syntheses(store, new_run_id())
        recheck(store)  # as the compile's recheck step does after them
        return l2, l3

    def from_nothing() -> None:  # no memo, no record of the last build: everything computed again
        (store.home / MEMO_FILE).unlink()
        (store.home / "cache" / "builds.json").unlink()

    build()
    facts = store.current_models("fact")
    named = next(f for f in facts if f.quantities and "Treebank" in f.statement)  # a fact that names entities
    changed = named.model_copy(update={"statement": named.statement.replace(" ", " also ", 1)})
    assert revise(store, [changed], run_id=new_run_id()).outcomes[0].status == "revised"
    gone = next(f for f in facts if f.paper_id != named.paper_id and f.type.value == "finding")
    withdraw(store, [gone.id], reason="test: a fact withdrawn")

    l2, l3 = build()
    # Tagged: the revised fact; read: it and the facts of the entities and relations it touches (30 of the sample's
    # 1,018 in session 47): a share of the corpus, as for the entities built, not a count that grows with one paper.
    assert l2["facts_tagged"] == 1 and l2["facts_read"] < len(facts) / 20 and l2["entities_built"] < l2["entities"] / 10
    updated = store.query(LAYERS)
    from_nothing()
    l2, _ = build()
    assert l2["facts_tagged"] == l2["facts_in"] == len(facts) - 1 and l2["entities_built"] == l2["entities"]
    assert store.query(LAYERS) == updated and len(updated) > 500

    # L3 from loaded objects (no memo describes the store) equals L3 from the memo.
    (store.home / MEMO_FILE).unlink()
    (store.home / "cache" / "builds.json").unlink()
    assert compile_syntheses(store, new_run_id())["syntheses"] > 0
    assert store.query(LAYERS) == updated
