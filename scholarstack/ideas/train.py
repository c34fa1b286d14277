"""Profiling episodes with the heuristic teacher and training the critic on them, split by topic."""

from __future__ import annotations

import csv
import random
from pathlib import Path
from typing import Any

from .control import HeuristicTeacher
from .critic import GraphCritic
from .runtime import run_episode


def keywords(path: Path | None = None) -> list[str]:
    from ..settings import shared_data_dir

    path = path or shared_data_dir() / "liveideabench" / "kws.csv"
    with path.open() as fh:
        return [row["Keyword"].strip() for row in csv.DictReader(fh) if row.get("Keyword", "").strip()]


def profile(topics: list[str], kb=None, rounds: int = 5) -> tuple[list, list]:
    edits, commits = [], []
    for t in topics:
        ep = run_episode(t, HeuristicTeacher(), kb, rounds=rounds, record_slates=True)
        for s in ep.slates:
            if "slate" in s:
                edits.append((s["graph"], s["slate"], s["chosen"]))
            else:
                commits.append((s["graph"], s["commit_label"]))
    return edits, commits


def train_critic(topics: list[str], embedder, kb=None, dev_share: float = 0.25, epochs: int = 8, seed: int = 0) -> tuple[GraphCritic, dict[str, Any]]:
    """Split topics (not examples) into train and dev, so dev topics are unseen. Returns the critic
    and its card (what `GraphCritic.save` stores with the weights)."""
    import time

    started = time.perf_counter()
    if len(topics) < 2:
        raise ValueError("need at least two topics to split into train and dev")
    order = sorted(topics)
    random.Random(seed).shuffle(order)
    n_dev = max(1, int(len(order) * dev_share))
    dev_topics, train_topics = order[:n_dev], order[n_dev:]
    # Every other topic is also profiled without the store, where claims lack evidence and the
    # roles record the needs: the critic sees both regimes.
    tr_e, tr_c = (a + b for a, b in zip(profile(train_topics, kb), profile(train_topics[::2], None)))
    dv_e, dv_c = (a + b for a, b in zip(profile(dev_topics, kb), profile(dev_topics[::2], None)))
    critic = GraphCritic(embedder.encode(["probe"]).shape[1], seed)
    history = critic.train(tr_e, tr_c, embedder, epochs=epochs, seed=seed)
    report = {"model": "two-head graph critic (relation-aware message passing; edit and commit heads)",
              "data": "heuristic-teacher episodes on LiveIdeaBench keywords (CC BY 4.0), evidence from the given store "
                      "(every other topic also without a store)",
              "embedder": getattr(embedder, "name", "?"), "seed": seed, "epochs": epochs,
              "train_topics": len(train_topics), "dev_topics": len(dev_topics), "train_edit_examples": len(tr_e),
              "train_commit_examples": len(tr_c), "dev_edit_examples": len(dv_e),
              "train_edit_accuracy": round(critic.edit_accuracy(tr_e, embedder), 4),
              "dev_edit_accuracy": round(critic.edit_accuracy(dv_e, embedder), 4),
              "dev_commit_examples": len(dv_c),
              "dev_commit_accuracy": round(sum(int((critic.commit_probability(g, embedder) >= 0.5) == bool(y)) for g, y in dv_c)
                                           / max(1, len(dv_c)), 4),
              "loss": history, "training_seconds": round(time.perf_counter() - started, 1)}
    critic.card = report
    return critic, report
