"""Idea-generation ablations over LiveIdeaBench keywords, measured in one run on the same topics.

The critic is trained on profiling topics disjoint from the evaluation topics (split by topic).
Configurations: random, heuristic and learned controllers (frozen snapshot, typed edges); the
learned controller with sequential updates and with untyped edges; and a flat-text state (the
seed idea with evidence retrieved once, no graph edits). Structural metrics of the committed
graphs: the four signals, rounds to commit, share of nodes with evidence, proposal references.
"""

from __future__ import annotations

from typing import Any

from scholarstack.ideas.control import HeuristicTeacher, LearnedController, RandomController
from scholarstack.ideas.graph import signals
from scholarstack.ideas.judge import judge_offline
from scholarstack.ideas.proposal import synthesize_proposal
from scholarstack.ideas.roles import find_evidence, seed_graph
from scholarstack.ideas.runtime import run_episode
from scholarstack.ideas.train import keywords, train_critic

from .papers import spread


def _metrics(graph, rounds: int | None, committed: int | None, store=None, retriever=None, org=None) -> dict[str, float]:
    """Structural signals, and the offline judge's proxies (prefixed `judged_`) next to them."""
    s = signals(graph)
    nodes = graph.active_nodes()
    prop = synthesize_proposal(graph)
    out = {"maturity": s["maturity"], "grounding": s["grounding"], "contradiction_load": s["contradiction_load"],
           "completeness": s["completeness"], "rounds_to_commit": float(committed or rounds or 0),
           "evidence_share": sum(1 for n in nodes if n.evidence) / len(nodes) if nodes else 0.0,
           "references": float(len(prop.references))}
    judged = judge_offline(prop, graph, store, retriever, org)
    return out | {f"judged_{k}": v for k, v in judged.scores.items() if v is not None}


def _mean(per_topic: list[dict[str, float]]) -> dict[str, float]:
    """Each measure averaged over the topics that have it: a proxy a topic could not compute is not a zero."""
    keys = dict.fromkeys(k for m in per_topic for k in m)
    return {k: round(sum(vals) / len(vals), 4) for k in keys if (vals := [m[k] for m in per_topic if k in m])}


def eval_ideas(kb, embedder, n_topics: int = 30, n_train: int = 24, rounds: int = 5, progress: bool = False) -> dict[str, Any]:
    words = keywords()
    topics = spread(words, n_topics)
    train = [w for w in spread(words[1::2], n_train * 2) if w not in set(topics)][:n_train]
    critic, training = train_critic(train, embedder, kb)
    configs = {
        "random": lambda t: run_episode(t, RandomController(0), kb, rounds),
        "heuristic": lambda t: run_episode(t, HeuristicTeacher(), kb, rounds),
        "learned": lambda t: run_episode(t, LearnedController(critic, embedder), kb, rounds),
        "learned, sequential updates": lambda t: run_episode(t, LearnedController(critic, embedder), kb, rounds, mode="sequential"),
        "learned, untyped edges": lambda t: run_episode(t, LearnedController(critic, embedder), kb, rounds, typed=False),
    }
    from scholarstack.tasks.retrieval import store_retriever

    from scholarstack.writing.organisation import read_organisation

    retriever, org = store_retriever(kb.store, embedder), read_organisation(kb.store)  # once for every novelty judgement
    rows: dict[str, dict[str, float]] = {}
    for name, run in configs.items():
        eps = [run(t) for t in topics]
        rows[name] = _mean([_metrics(ep.final, len(ep.rounds), ep.committed_round, kb.store, retriever, org) for ep in eps])
        if progress:
            print(f"{name}: {rows[name]}", flush=True)
    flat = []
    for t in topics:  # flat text: the seed idea, evidence retrieved once for the topic, no structure
        g = seed_graph(t, kb)
        ev = find_evidence(kb, t, 3)
        for n in g.active_nodes():
            n.evidence = list(ev)
        flat.append(_metrics(g, 0, 0, kb.store, retriever, org))
    rows["flat text state"] = _mean(flat)
    return {"benchmark": "ideas", "n": len(topics), "idea_topics": topics, "training": training, "systems": rows}


def eval_ideas_on_store(store, limit: int | None = None, embedder: str | None = None, progress: bool = False,
                        compiler=None) -> dict[str, Any]:
    """`scholarstack eval ideas`: the ablations on `limit` topics (default 30), evidence from the
    store as it is (compile papers there first for grounded graphs)."""
    from scholarstack.index.embed import make_embedder
    from scholarstack.views.views import KnowledgeBase

    emb = make_embedder(embedder or "minilm", store.home)
    return eval_ideas(KnowledgeBase(store), emb, n_topics=limit or 30, n_train=24, progress=progress)
