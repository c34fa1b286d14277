"""The gate's admission stage: a batch sees its own earlier candidates, and a changed fact is a
revision only when its producer re-extracted it from changed evidence (else another fact)."""

from __future__ import annotations

from scholarstack.models import Fact, Provenance, Sentence, SourceMap
from scholarstack.store import register, register_many

from .test_registry import SENTENCES, graph, paper  # noqa: F401  (graph: a fixture)


def fact(statement: str, producer: str = "extractor", paper_key: str = "P1") -> Fact:
    return Fact(statement=statement, subject="TnT", type="finding", evidence=[f"{paper_key}:1"],
                provenance=Provenance(producer=producer))


def test_a_batch_sees_the_papers_it_registers(store):
    p = SourceMap(paper_key="P2", title="Paper P2", sentences=[Sentence(sid=1, text="TnT is fast.")])
    report = register_many(store, [p, fact("TnT is fast.", paper_key="P2")])
    assert [o.status for o in report.outcomes] == ["new", "new"]
    late = register_many(store, [fact("TnT is fast.", paper_key="P3")])  # no such paper: its locator cannot resolve
    assert late.outcomes[0].status == "rejected" and "P3:1" in late.outcomes[0].reason


def test_changed_statement_is_a_variant_unless_its_producer_reextracted_changed_evidence(store):
    register(store, paper())
    first = register(store, fact(SENTENCES[0]))
    other = register(store, fact("TnT reaches 96.7% accuracy.", producer="someone else"))
    assert other.status == "new" and other.id != first.id  # another fact: the first one stands
    assert store.get_row(first.id)["version"] == 1
    register(store, paper(texts=["TnT achieves 96.9% accuracy on the Penn Treebank.", *SENTENCES[1:]]))  # the sentence changed
    again = register(store, fact("TnT achieves 96.9% accuracy on the Penn Treebank."))
    assert again.id == first.id and again.status == "revised" and again.version == 2


def test_only_a_synthesis_loads_what_its_cited_objects_cite(store, graph):  # noqa: F811  (the imported fixture)
    """A relation's verifier reads its entities and anchoring facts; a synthesis's reads an assignment's
    entity and supporting facts too. Loading what a relation's entities cite would read every fact
    that mentions them."""
    from scholarstack.store.admission import RecheckContext

    g = graph
    rel = RecheckContext(store, {})
    rel.preload(c for c, _ in g["rel"].cited_ids())
    rel.preload_cited([g["rel"]])
    assert set(rel.cited) == {g["tnt"].id, g["ptb"].id, g["f1"].id}
    syn = RecheckContext(store, {})
    syn.preload(c for c, role in g["syn"].cited_ids() if role != "source")
    syn.preload_cited([g["syn"]])
    assert {g["tnt"].id, g["f2"].id} <= set(syn.cited)  # the assignment's entity and supporting fact
