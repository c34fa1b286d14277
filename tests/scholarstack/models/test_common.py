"""Ids: memoised on the identity values, always what hashing the identity key gives."""

from scholarstack.models import Entity, Fact, Judgement
from scholarstack.models.common import _object_id


def test_memoised_ids_are_the_hashed_identity():
    fact = Fact(statement="TnT reaches 96.7% accuracy.", subject="TnT", type="finding", evidence=["P1:3"])
    assert fact.id == _object_id("fact", ("P1", "P1:3", "finding")) == fact.id
    other = fact.model_copy(update={"evidence": ["P1:4"]})
    assert other.id == _object_id("fact", ("P1", "P1:4", "finding")) != fact.id  # a changed identity, a new id
    assert fact.model_copy(update={"variant": "v1"}).id not in (fact.id, other.id)
    entity = Entity(type="method", key="tnt", name="TnT")
    assert entity.id == _object_id("entity", (entity.type, "tnt"))
    # A list in the identity cannot be a memo key: hashed each time, the same id.
    judgement = Judgement(task_name="qa", request="Which tagger is best?", scope=["P1", "P2"], answer="TnT")
    assert judgement.id == _object_id("judgement", ("qa", "Which tagger is best?", ["P1", "P2"], ""))
