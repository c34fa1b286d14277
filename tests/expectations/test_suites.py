"""The Great Expectations suites directly: a failing row is found and the reason names the expectation and column."""

from expectations.suites import ge_validator
from tests.scholarstack.store.test_registry import fact


def test_fact_suite_names_the_failing_expectation():
    good = fact(1)
    # What a caller bypassing the model could send: too much evidence, a type outside the schema.
    too_much = good.model_copy(update={"evidence": [f"P1:{i}" for i in range(1, 23)]})
    bad_type = good.model_copy(update={"type": "opinion", "statement": good.statement + " Indeed."})
    failed = ge_validator("fact", [good, too_much, bad_type])
    assert set(failed) == {1, 2}
    assert "column n_evidence" in failed[1] and "between" in failed[1]
    assert "column type" in failed[2] and "in_set" in failed[2]
    assert ge_validator("fact", [good]) == {}
