"""The idea-graph ablations run end to end on a small scale, with the judge's proxies beside the signals."""

from __future__ import annotations

from evaluations.ideas_eval import eval_ideas
from scholarstack.index.embed import TfidfSvdEmbedder
from scholarstack.store import Store
from scholarstack.views.views import KnowledgeBase
from tests.conftest import need_shared


def test_ideas_ablation_small(compiled_sample):
    need_shared("liveideabench", "kws.csv")
    kb = KnowledgeBase(Store(compiled_sample))
    emb = TfidfSvdEmbedder(dim=16)
    emb.fit(["problem hypothesis method evaluation risk repair evidence", "add support edge attach evidence propose repair skip"] * 3)
    out = eval_ideas(kb, emb, n_topics=1, n_train=2, rounds=2)
    assert set(out["systems"]) == {"random", "heuristic", "learned", "learned, sequential updates", "learned, untyped edges",
                                   "flat text state"}
    for row in out["systems"].values():
        assert 0 <= row["maturity"] <= 1 and 0 <= row["judged_context_adherence"] <= 1 and "judged_grounding" in row
