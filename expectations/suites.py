"""Great Expectations suites, one per object kind, run on every registration batch.

Each kind is flattened to a small dataframe (one row per candidate) and validated with an
ephemeral GX context; rows that fail an expectation are returned with the expectation's name,
so register() rejects exactly those candidates with a reason.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import pandas as pd

from scholarstack.bulk import long_lived
from scholarstack.models import FactType, ResearchObject

FACT_TYPES = [t.value for t in FactType]
VERIFICATION = ["unverified", "passed", "failed", "unresolved"]


def _rows(kind: str, objs: Sequence[ResearchObject]) -> pd.DataFrame:
    rows: list[dict[str, Any]] = []
    for o in objs:
        d = o.model_dump(mode="json", exclude={"sentences"} if kind == "paper" else None)  # a paper's sentences are counted, not dumped
        row = {"id": o.id, "verification": d.get("verification")}
        if kind == "fact":
            row |= {"statement": d["statement"], "subject": d["subject"], "type": d["type"], "n_evidence": len(d["evidence"])}
        elif kind == "paper":
            row |= {"title": d["title"] or "", "n_sentences": len(o.sentences)}
        elif kind == "entity":
            row |= {"name": d["name"], "type": d["type"], "n_mentions": len(d["mentions"])}
        elif kind == "assignment":
            row |= {"category_id": d["category_id"], "n_support": len(d["supporting_facts"])}
        elif kind == "relation":
            row |= {"type": d["type"], "n_anchors": len(d["anchoring_facts"])}
        elif kind == "synthesis":
            row |= {"account": d["account"], "n_basis": len(d["basis"]), "n_studies": len(d["scope"]["studies"])}
        rows.append(row)
    return pd.DataFrame(rows)


def _suite_spec(kind: str) -> list[tuple[str, dict[str, Any]]]:
    common = [("ExpectColumnValuesToBeInSet", {"column": "verification", "value_set": VERIFICATION}),
              ("ExpectColumnValuesToNotBeNull", {"column": "id"})]
    spec = {
        "fact": [
            ("ExpectColumnValueLengthsToBeBetween", {"column": "statement", "min_value": 3, "max_value": 2000}),
            ("ExpectColumnValueLengthsToBeBetween", {"column": "subject", "min_value": 1, "max_value": 300}),
            ("ExpectColumnValuesToBeInSet", {"column": "type", "value_set": FACT_TYPES}),
            ("ExpectColumnValuesToBeBetween", {"column": "n_evidence", "min_value": 1, "max_value": 20}),
        ],
        "paper": [("ExpectColumnValuesToBeBetween", {"column": "n_sentences", "min_value": 1})],
        "entity": [
            ("ExpectColumnValueLengthsToBeBetween", {"column": "name", "min_value": 1, "max_value": 200}),
            ("ExpectColumnValuesToBeBetween", {"column": "n_mentions", "min_value": 1}),
        ],
        "assignment": [("ExpectColumnValuesToBeBetween", {"column": "n_support", "min_value": 1})],
        "relation": [("ExpectColumnValuesToBeBetween", {"column": "n_anchors", "min_value": 1})],
        "synthesis": [
            ("ExpectColumnValueLengthsToBeBetween", {"column": "account", "min_value": 20, "max_value": 8000}),
            ("ExpectColumnValuesToBeBetween", {"column": "n_basis", "min_value": 1}),
            ("ExpectColumnValuesToBeBetween", {"column": "n_studies", "min_value": 1}),
        ],
    }.get(kind, [])
    return common + spec


@functools.cache
def _context():
    with long_lived():  # Great Expectations imports ~3,000 modules: see bulk.long_lived
        import great_expectations as gx
        from great_expectations.data_context.types.base import ProgressBarsConfig

        ctx = gx.get_context(mode="ephemeral")
        ctx.variables.progress_bars = ProgressBarsConfig(globally=False, metric_calculations=False)
    return ctx


@functools.cache
def _batch_definition(kind: str):
    ctx = _context()
    source = ctx.data_sources.add_pandas(name=f"scholarstack_{kind}")
    asset = source.add_dataframe_asset(name=kind)
    return asset.add_batch_definition_whole_dataframe(f"{kind}_batch")


@functools.cache
def suite(kind: str):
    import great_expectations as gx
    import great_expectations.expectations as gxe

    s = gx.ExpectationSuite(name=f"scholarstack_{kind}")
    for name, kwargs in _suite_spec(kind):
        s.add_expectation(getattr(gxe, name)(**kwargs))
    return _context().suites.add(s)


def validate_frame(kind: str, df: pd.DataFrame, result_format: str = "COMPLETE"):
    batch = _batch_definition(kind).get_batch(batch_parameters={"dataframe": df})
    return batch.validate(suite(kind), result_format={"result_format": result_format})


def ge_validator(kind: str, objs: Sequence[ResearchObject]) -> dict[int, str]:
    """register()'s batch validator: {index: 'expectation on column'} for each failing row."""
    if not objs:
        return {}
    df = _rows(kind, objs)
    # A pass/fail answer costs half of a complete one; the failing rows are only looked up on failure.
    if validate_frame(kind, df, "BOOLEAN_ONLY").success:
        return {}
    result = validate_frame(kind, df)
    failed: dict[int, str] = {}
    for r in result.results:
        if r.success:
            continue
        cfg = r.expectation_config
        for idx in r.result.get("unexpected_index_list") or []:
            i = idx if isinstance(idx, int) else idx.get("index", idx)
            failed.setdefault(int(i), f"{cfg.type} on column {cfg.kwargs.get('column')}")
    return failed
