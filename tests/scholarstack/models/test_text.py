import pytest

from scholarstack.models.text import conditions, display_text, index_text, named_ids
from scholarstack.views.views import ViewItem

FACT = {"statement": "TnT reaches 96.7% accuracy.", "subject": "TnT",
        "context": {"conditions": ["WSJ test set"], "assumptions": ["gold tokens"]}}
ENTITY = {"name": "TnT", "type": "method", "aliases": ["Trigrams'n'Tags", "TnT tagger"]}
RELATION = {"source_id": "ent_a", "target_id": "ent_b", "type": "evaluated_on", "payload": {"accuracy": "96.7%"}}
ASSIGNMENT = {"entity_id": "ent_a", "category_id": "task_area/tagging", "certainty": "high", "declared": False}
SYNTHESIS = {"account": "Two taggers agree.", "scope": {"topic": "tagging", "conditions": ["English"]}}


def test_each_kind_reads_as_one_text_with_names_resolved():
    names = {"ent_a": "TnT", "ent_b": "Penn Treebank"}
    assert display_text("fact", FACT) == FACT["statement"]
    assert display_text("entity", ENTITY) == "TnT (method); aliases: Trigrams'n'Tags, TnT tagger"
    assert display_text("relation", RELATION, names) == "TnT evaluated on Penn Treebank (accuracy=96.7%)"
    assert display_text("relation", RELATION) == "ent_a evaluated on ent_b (accuracy=96.7%)"  # no names: the ids
    assert display_text("assignment", ASSIGNMENT, names) == "TnT in tagging (high, inferred)"
    assert display_text("synthesis", SYNTHESIS) == "Two taggers agree."
    assert display_text("taxonomy", {}, label="tax_1") == "tax_1"
    assert sorted(named_ids("relation", RELATION)) == ["ent_a", "ent_b"] and named_ids("fact", FACT) == []


def test_the_index_reads_what_helps_a_query_find_the_object():
    assert index_text("fact", FACT) == "TnT reaches 96.7% accuracy. (TnT; WSJ test set)"
    assert index_text("entity", ENTITY).endswith("Trigrams'n'Tags, TnT tagger")
    assert index_text("synthesis", SYNTHESIS).startswith("tagging: ")
    with pytest.raises(ValueError, match="relation objects are not indexed"):
        index_text("relation", RELATION)
    assert conditions("fact", FACT) == ["WSJ test set", "gold tokens"] and conditions("synthesis", SYNTHESIS) == ["English"]


def test_a_view_item_is_cited_as_one_source_model():
    item = ViewItem(id="fac_1", kind="fact", text="x" * 6000, locators=[f"P1:{i}" for i in range(30)])
    src = item.source()
    assert src.object_id == "fac_1" and len(src.text) == 5000 and len(src.locators) == 20
    short = item.source(chars=300, locators=3)
    assert len(short.text) == 300 and short.locators == ["P1:0", "P1:1", "P1:2"]
