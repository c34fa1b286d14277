"""Search metrics: P/R@K against a reference list, α-nDCG over subtopics, co-authorship distance."""

from __future__ import annotations

import math
from collections import defaultdict, deque
from collections.abc import Iterable


def precision_recall_at_k(ranked: list[str], reference: set[str], k: int) -> tuple[float, float]:
    top = ranked[:k]
    hits = len(set(top) & reference)
    return (hits / len(top) if top else 0.0), (hits / len(reference) if reference else 0.0)


def alpha_ndcg(ranked: list[str], subtopics: dict[str, set[str]], k: int, alpha: float = 0.5) -> float:
    """Novelty-aware nDCG (Clarke et al. 2008): a document's gain for a subtopic decays by (1-α)
    for every earlier document covering it. The ideal ranking is built greedily."""
    def dcg(order: list[str]) -> float:
        seen: dict[str, int] = defaultdict(int)
        total = 0.0
        for i, d in enumerate(order[:k]):
            gain = 0.0
            for t in subtopics.get(d, ()):
                gain += (1 - alpha) ** seen[t]
                seen[t] += 1
            total += gain / math.log2(i + 2)
        return total

    pool = [d for d in subtopics if subtopics[d]]
    ideal: list[str] = []
    seen: dict[str, int] = defaultdict(int)
    while pool and len(ideal) < k:
        best = max(pool, key=lambda d: (sum((1 - alpha) ** seen[t] for t in subtopics[d]), d))
        ideal.append(best)
        pool.remove(best)
        for t in subtopics[best]:
            seen[t] += 1
    best_dcg = dcg(ideal)
    return dcg(ranked) / best_dcg if best_dcg else 0.0


class AuthorGraph:
    """Co-authorship: two authors are adjacent when one paper names both."""

    def __init__(self, papers_authors: Iterable[Iterable[str]]):
        self.adjacent: dict[str, set[str]] = defaultdict(set)
        for authors in papers_authors:
            names = set(authors)
            for a in names:
                self.adjacent[a] |= names - {a}

    def distance(self, query: set[str], cand: set[str], cap: int = 4) -> int:
        """Fewest hops from an author in `query` to one in `cand`: 0 a shared author, 1 co-authors, …;
        `cap` stands for cap or more (and for no path)."""
        if query & cand:
            return 0
        seen, frontier = set(query), deque((a, 0) for a in query)
        while frontier:
            a, d = frontier.popleft()
            if d + 1 >= cap:
                continue
            for b in self.adjacent.get(a, ()):
                if b in cand:
                    return d + 1
                if b not in seen:
                    seen.add(b)
                    frontier.append((b, d + 1))
        return cap
