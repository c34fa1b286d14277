"""The layer checks validate each row once: rows seen passing (same id, content hash and
verification) are not validated again; changed, new or failing rows are."""

from expectations import checks
from scholarstack.store import revise


def test_suite_checks_validate_only_rows_not_seen_passing(compiled_sample, copy_store, monkeypatch):
    store = copy_store(compiled_sample)
    (store.home / "cache" / "checked_fact.json").unlink(missing_ok=True)
    first = checks._suite_check(store, "fact")
    n = first.metadata["objects"].value
    assert first.passed and first.metadata["validated"].value == n > 100
    again = checks._suite_check(store, "fact")
    assert again.passed and again.metadata["validated"].value == 0
    fact = store.current_models("fact")[0]
    revise(store, [fact.model_copy(update={"statement": fact.statement + " (revised)"})])
    assert checks._suite_check(store, "fact").metadata["validated"].value == 1  # only the revised fact

    class Failed:  # a suite result with one failed expectation
        success = False
        results = []

    monkeypatch.setattr(checks, "validate_frame", lambda kind, df: Failed())
    fact = store.current_models("fact")[1]
    revise(store, [fact.model_copy(update={"statement": fact.statement + " (revised)"})])
    assert not checks._suite_check(store, "fact").passed
    assert checks._suite_check(store, "fact").metadata["validated"].value == 1  # a failing row is not remembered
