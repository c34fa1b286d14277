"""The OpenAI-compatible backend against a real local llama.cpp server (SmolLM2-135M).

The model's answers are weak, so these tests check validity, citation integrity, caching and
error handling, never answer quality."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, Field, field_validator

from scholarstack.l1.backends import LLMExtractor
from scholarstack.llm.client import LLMClient, LLMOutputError, LLMUnavailableError
from scholarstack.models import Sentence, SourceMap, Verification
from tests.conftest import local_llm

pytestmark = pytest.mark.llm

SENTENCES = [
    "TnT is an efficient statistical part-of-speech tagger.",
    "TnT achieves 96.7% accuracy on the Penn Treebank.",
    "The tagger uses second order Markov models.",
    "Unknown words are handled by suffix analysis.",
    "However, the tagger cannot use features of the right context.",
    "The Maximum Entropy tagger reaches 96.6% accuracy on the same data.",
]


def paper() -> SourceMap:
    return SourceMap(paper_key="T1", title="TnT - A Statistical Part-Of-Speech Tagger",
                     sentences=[Sentence(sid=i + 1, text=t, section="1 Introduction") for i, t in enumerate(SENTENCES)])


def client(base_url: str, tmp_path, max_retries: int = 2, **kw) -> LLMClient:
    """The client's default retries: these tests exercise the retry path."""
    return local_llm(base_url, tmp_path / "cache", max_tokens=400, max_retries=max_retries, **kw)


def test_extraction_is_valid_cited_and_cached(llm_server, tmp_path):
    extractor = LLMExtractor(client(llm_server, tmp_path), window=6)
    first = extractor.extract(paper(), run_id="r1")
    assert first.usage.calls == 1 and first.usage.tokens_in > 50 and first.usage.tokens_out > 0
    valid_locators = {f"T1:{i + 1}" for i in range(len(SENTENCES))}
    for f in first.facts:
        assert set(f.evidence) <= valid_locators  # every accepted fact cites a sentence that was given
        assert f.verification in (Verification.passed, Verification.failed, Verification.unresolved)
        assert f.provenance.backend == "openai" and f.provenance.model == "smollm2" and f.provenance.prompt_hash
    for cid, reason, _ in first.rejections:
        assert "not among the sentences given" in reason or "duplicate" in reason
    assert first.facts or first.rejections  # the model's output is accounted for either way
    second = extractor.extract(paper(), run_id="r2")
    assert second.usage.calls == 0 and second.usage.cache_hits == 1
    assert [f.content_hash() for f in second.facts] == [f.content_hash() for f in first.facts]


class Impossible(BaseModel):
    answer: str = Field(..., max_length=20)

    @field_validator("answer")
    @classmethod
    def never(cls, v: str) -> str:
        raise ValueError("this validator rejects every answer")


def test_invalid_output_raises_after_retries(llm_server, tmp_path):
    c = client(llm_server, tmp_path, max_retries=1)
    with pytest.raises(LLMOutputError) as info:
        c.structured("Say hello.", Impossible)
    assert info.value.usage.failures == 1
    assert len(c.cache) == 0  # failures are never cached


def test_unreachable_endpoint_raises_an_outage_not_an_empty_result(tmp_path):
    # An outage is not "no facts": the caller must keep what it had (see tests/faults).
    dead = LLMExtractor(client("http://127.0.0.1:9/v1", tmp_path, max_retries=0), window=6)
    with pytest.raises(LLMUnavailableError, match="unreachable"):
        dead.extract(paper())


def test_compile_with_openai_backend(llm_server, store):
    from orchestration.run import compile_store
    from scholarstack.ingest.catalog import ingest_paths
    from scholarstack.settings import SAMPLE_DIR

    ingest_paths(store, [SAMPLE_DIR / "N18-3011.tei.xml"])
    llm = {"base_url": llm_server, "model": "smollm2", "max_windows": 2, "max_tokens": 400}
    first = compile_store(str(store.home), backend="openai", progress=False, llm=llm)
    assert first["ok"], first["lines"]
    l1 = first["l1_facts"]
    assert l1["llm_calls"] + l1["llm_failures"] >= 1 and l1["llm_tokens_in"] > 0
    facts = store.objects("fact")
    assert facts or l1["rejected"] or l1["llm_failures"]  # what the model proposed was kept, rejected or failed, never lost
    assert all(f["data"]["provenance"]["backend"] == "openai" for f in facts)
    # Every registered fact's evidence resolves; every rejected candidate has its reason stored.
    assert store.query("SELECT count(*) FROM evidence e LEFT JOIN sentences s ON s.locator = e.locator "
                       "AND s.is_current WHERE s.locator IS NULL")[0][0] == 0
    assert len(facts) == l1["facts"]
    assert len([r for r in store.rejections() if r["kind"] == "fact"]) == l1["rejected"]
    second = compile_store(str(store.home), backend="openai", progress=False, llm=llm)
    assert second["l1_facts"]["llm_calls"] == 0 and second["l1_facts"]["llm_cache_hits"] >= 1
