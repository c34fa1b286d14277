"""Co-authorship distance on the unarXive sample: human references against re-rankers' top N."""

from __future__ import annotations

from evaluations.coauthor_eval import eval_coauthorship, read_sample
from scholarstack.search.metrics import AuthorGraph
from tests.conftest import need_shared


def test_co_authorship_distance_of_human_and_re_ranked_references_on_the_unarxive_sample():
    path = need_shared("unarxive", "papers.jsonl.gz")
    papers, reading = read_sample(path)
    assert len(papers) == 49 and reading["with_authors"] / reading["references"] > 0.85  # most reference strings read
    res = eval_coauthorship(path, limit=4, rerankers=("lexical",))
    human, lexical = res["systems"]["human references"], res["systems"]["lexical"]
    assert res["queries"] == 4 and human["pairs"] == lexical["pairs"] > 0  # matched top N: as many pairs as references
    for row in (human, lexical):
        shares = [row[k] for k in ("d=0", "d=1", "d=2", "d=3", "d>=4")]
        assert abs(sum(shares) - 1) < 1e-3 and abs(row["d<=1"] - row["d=0"] - row["d=1"]) < 2e-4
    assert 0 <= lexical["human_references_in_top_n"] <= 1
    # A paper whose authors cite themselves is at distance 0 from that reference.
    graph = AuthorGraph([p["authors"] for p in papers] + [r["authors"] for p in papers for r in p["refs"]])
    own = [(p, r) for p in papers for r in p["refs"] if p["authors"] & r["authors"]]
    assert own and all(graph.distance(p["authors"], r["authors"]) == 0 for p, r in own[:20])
