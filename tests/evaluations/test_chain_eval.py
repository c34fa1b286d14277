"""The continuous-research benchmark on the compiled sample: a second run reuses everything; a
revised paper re-derives exactly the outputs that read it."""

from __future__ import annotations

from evaluations.chain_eval import eval_chain
from orchestration.run import compile_store


def test_chain_benchmark_small(compiled_sample, copy_store):
    res = eval_chain(copy_store(compiled_sample), limit=8, compiler=compile_store)
    run1, run2, after = res["systems"]["run1"], res["systems"]["run2"], res["systems"]["after_revision"]
    assert res["n"] == 8 and run1["tokens"] > 0
    assert run2["hit_rate"] == 1.0 and run2["tokens"] == 0
    assert res["rederived_all_dependent"] and res["independent_untouched"]
    assert res["rederived"] == res["dependent_outputs"] >= 1 and after["hit_rate"] < 1.0
