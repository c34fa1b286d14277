"""The two-head graph critic (PyTorch, CPU) of EIG, Appendix E.5: a relation-aware message-passing
encoder over node text embeddings, node type, role, confidence and evidence count (hidden 128, two
layers); an edit head scoring each candidate action from the graph summary, the target nodes'
summary, their neighbourhood's summary, the candidate's text and kind and the state-text embedding
(the whole graph written out and embedded), trained with a slate-ranking loss; a commit head scoring
the merged post-round graph from the graph summary, the state-text embedding and three signals
(class-weighted BCE, positive weight 1.115). Trained on episodes the system profiles with the
heuristic teacher, split by topic."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np

from .graph import MERGE_ORDER, Action, IdeaGraph, signals

NODE_TYPES = ["Problem", "Hypothesis", "Method", "Assumption", "Risk", "EvalPlan", "NoveltyClaim", "EvidenceNeed", "Repair"]
ROLE_NAMES = ["seed", "MechanismProposer", "FeasibilityCritic", "NoveltyExaminer", "EvaluationDesigner", "ImpactReframer"]
RELATIONS = ["supports", "contradicts", "depends_on", "overlaps_prior", "repairs", "refines", "requires_evidence", "related_to"]
KINDS = list(MERGE_ORDER) + ["skip"]


def state_text(graph: IdeaGraph) -> str:
    """The graph flattened to one text (what the state-text embedding reads): nodes, then edges."""
    nodes = "; ".join(f"{n.id} {n.type}: {n.text[:90]}" for n in graph.active_nodes())
    edges = "; ".join(f"{e.src} {graph.visible_type(e)}{' (resolved)' if e.resolved else ''} {e.dst}" for e in graph.edges)
    return f"{graph.topic}. {nodes}. {edges}"


def unmapped(graph: IdeaGraph, slate: list[Action]) -> str | None:
    """What the critic has no embedding for (a node type, role, relation or action kind it was not
    built with), or a candidate whose targets are not active nodes: then it must not decide."""
    for n in graph.active_nodes():
        if n.type not in NODE_TYPES or n.role not in ROLE_NAMES:
            return f"node {n.id}: {n.type} by {n.role}"
    for e in graph.edges:
        if graph.visible_type(e) not in RELATIONS:
            return f"relation {e.type}"
    for a in slate:
        if a.kind not in KINDS:
            return f"action {a.kind}"
        if a.kind != "skip" and not all(t in graph.nodes and graph.nodes[t].active for t in a.targets):
            return f"{a.kind} on missing {a.targets}"
    return None


def featurize(graph: IdeaGraph, embedder) -> dict[str, Any]:
    import torch

    nodes = graph.active_nodes()
    index = {n.id: i for i, n in enumerate(nodes)}
    text = torch.tensor(embedder.encode([n.text for n in nodes]), dtype=torch.float32)
    types = torch.tensor([NODE_TYPES.index(n.type) for n in nodes])
    roles = torch.tensor([ROLE_NAMES.index(n.role) if n.role in ROLE_NAMES else 0 for n in nodes])
    scal = torch.tensor([[n.confidence, min(len(n.evidence), 5) / 5] for n in nodes], dtype=torch.float32)
    edges = [(index[e.src], index[e.dst], RELATIONS.index(graph.visible_type(e)), float(e.resolved))
             for e in graph.edges if e.src in index and e.dst in index]
    state = torch.tensor(embedder.encode([state_text(graph)])[0], dtype=torch.float32)
    return {"index": index, "text": text, "types": types, "roles": roles, "scal": scal, "edges": edges, "n": len(nodes), "state": state}


def _torch_modules(text_dim: int, hidden: int = 128):
    import torch
    from torch import nn

    class Encoder(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.type_emb = nn.Embedding(len(NODE_TYPES), 16)
            self.role_emb = nn.Embedding(len(ROLE_NAMES), 16)
            self.inp = nn.Sequential(nn.Linear(text_dim + 32 + 2, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
            self.rel = nn.ModuleList([nn.ModuleList([nn.Linear(hidden, hidden) for _ in RELATIONS]) for _ in range(2)])
            self.upd = nn.ModuleList([nn.Sequential(nn.Linear(2 * hidden + 3, hidden), nn.ReLU(), nn.Linear(hidden, hidden)) for _ in range(2)])
            self.norm = nn.ModuleList([nn.LayerNorm(hidden) for _ in range(2)])

        def forward(self, f: dict[str, Any]):
            h = self.inp(torch.cat([f["text"], self.type_emb(f["types"]), self.role_emb(f["roles"]), f["scal"]], dim=1))
            n = f["n"]
            s_in, s_out, s_res = torch.zeros(n, 1), torch.zeros(n, 1), torch.zeros(n, 1)
            for u, v, _, res in f["edges"]:
                s_in[v] += 1
                s_out[u] += 1
                s_res[v] += res
            for layer in range(2):
                msg = torch.zeros_like(h)
                for u, v, r, _ in f["edges"]:  # relation-specific messages, normalised by in-degree
                    msg[v] = msg[v] + self.rel[layer][r](h[u]) / float(max(1.0, s_in[v].item()))
                h = self.norm[layer](h + self.upd[layer](torch.cat([h, msg, s_in / 5, s_res / 5, s_out / 5], dim=1)))
            return h, h.mean(dim=0)

    class Critic(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.encoder = Encoder()
            self.kind_emb = nn.Embedding(len(KINDS), 16)
            self.cand = nn.Linear(text_dim, 32)
            self.state = nn.Linear(text_dim, 32)  # the state-text embedding, projected
            self.edit = nn.Sequential(nn.Linear(3 * hidden + 32 + 16 + 32, hidden), nn.ReLU(), nn.Linear(hidden, 1))
            self.commit = nn.Sequential(nn.Linear(hidden + 32 + 3, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    return Critic()


def _candidate_text(a: Action, graph: IdeaGraph) -> str:
    parts = [a.kind.replace("_", " "), a.rationale] + [graph.nodes[t].text[:120] for t in a.targets if t in graph.nodes]
    nn_ = a.payload.get("new_node")
    if nn_:
        parts.append(nn_["text"][:120])
    return " | ".join(p for p in parts if p)


class GraphCritic:
    def __init__(self, text_dim: int, seed: int = 0):
        import torch

        torch.manual_seed(seed)
        self.text_dim = text_dim
        self.model = _torch_modules(text_dim)
        self.card: dict[str, Any] = {}

    def _edit_scores(self, graph: IdeaGraph, slate: list[Action], embedder):
        import torch

        f = featurize(graph, embedder)
        h, pooled = self.model.encoder(f)
        cand = self.model.cand(torch.tensor(embedder.encode([_candidate_text(a, graph) for a in slate]), dtype=torch.float32))
        state = self.model.state(f["state"])
        rows = []
        for i, a in enumerate(slate):
            idx = [f["index"][t] for t in a.targets if t in f["index"]]
            target = h[idx].mean(dim=0) if idx else torch.zeros_like(pooled)
            around = sorted({w for u, v, _, _ in f["edges"] for x, w in ((u, v), (v, u)) if x in idx} - set(idx))
            neighbourhood = h[around].mean(dim=0) if around else torch.zeros_like(pooled)
            kind = self.model.kind_emb(torch.tensor(KINDS.index(a.kind)))
            rows.append(torch.cat([pooled, target, neighbourhood, cand[i], kind, state]))
        return self.model.edit(torch.stack(rows)).squeeze(-1)

    def _commit_logit(self, graph: IdeaGraph, embedder):
        import torch

        f = featurize(graph, embedder)
        _, pooled = self.model.encoder(f)
        s = signals(graph)
        scal = torch.tensor([s["support_coverage"], s["unresolved_edge_share"], s["maturity"]], dtype=torch.float32)
        return self.model.commit(torch.cat([pooled, self.model.state(f["state"]), scal])).squeeze(-1)

    def score_slate(self, graph: IdeaGraph, slate: list[Action], embedder) -> list[float]:
        import torch

        with torch.no_grad():
            return self._edit_scores(graph, slate, embedder).tolist()

    def commit_probability(self, graph: IdeaGraph, embedder) -> float:
        import torch

        with torch.no_grad():
            return float(torch.sigmoid(self._commit_logit(graph, embedder)))

    def train(self, edit_examples: list[tuple[IdeaGraph, list[Action], int]], commit_examples: list[tuple[IdeaGraph, int]],
              embedder, epochs: int = 8, batch: int = 16, lr: float = 1e-3, seed: int = 0) -> dict[str, float]:
        """Slate-ranking loss (cross-entropy of the teacher's choice within its slate) + class-weighted BCE."""
        import torch
        from torch import nn

        rng = random.Random(seed)
        opt = torch.optim.AdamW(self.model.parameters(), lr=lr)
        bce = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(1.115))
        history = {}
        for epoch in range(epochs):
            data = [("edit", e) for e in edit_examples] + [("commit", c) for c in commit_examples]
            rng.shuffle(data)
            total, count = 0.0, 0
            for i in range(0, len(data), batch):
                opt.zero_grad()
                losses = []
                for kind, ex in data[i:i + batch]:
                    if kind == "edit":
                        g, slate, chosen = ex
                        scores = self._edit_scores(g, slate, embedder)
                        losses.append(nn.functional.cross_entropy(scores.unsqueeze(0), torch.tensor([chosen])))
                    else:
                        g, label = ex
                        losses.append(bce(self._commit_logit(g, embedder).unsqueeze(0), torch.tensor([float(label)])))
                loss = torch.stack(losses).mean()
                loss.backward()
                opt.step()
                total += float(loss.detach()) * len(losses)
                count += len(losses)
            history[f"epoch_{epoch}"] = round(total / max(1, count), 4)
        return history

    def edit_accuracy(self, edit_examples, embedder) -> float:
        if not edit_examples:
            return 0.0
        hits = sum(int(np.argmax(self.score_slate(g, s, embedder)) == c) for g, s, c in edit_examples)
        return hits / len(edit_examples)

    def save(self, path: str | Path, card: dict[str, Any] | None = None) -> Path:
        """Weights (half precision: the critic ranks, it does not need float32's digits) and the card,
        which names the embedder the critic reads node texts with."""
        import torch

        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.card = card or self.card
        torch.save({"text_dim": self.text_dim, "state": {k: v.half() for k, v in self.model.state_dict().items()},
                    "card": self.card}, path)
        return path

    @classmethod
    def load(cls, path: str | Path) -> "GraphCritic":
        import torch

        blob = torch.load(path, map_location="cpu", weights_only=True)
        critic = cls(blob["text_dim"])
        critic.model.load_state_dict({k: v.float() for k, v in blob["state"].items()})
        critic.model.eval()
        critic.card = blob.get("card", {})
        return critic


SHIPPED_WEIGHTS = Path(__file__).parents[1] / "learned" / "weights" / "idea_critic.pt"


def shipped_critic(path: Path = SHIPPED_WEIGHTS) -> tuple[GraphCritic | None, str]:
    """(the committed critic, what decides): None with the reason when its weights are missing, in
    which case the learned controller's heuristic fallback decides, and the caller should say so."""
    if not path.exists():
        return None, f"no critic weights at {path} (run `make models`): the heuristic teacher decides instead"
    try:
        critic = GraphCritic.load(path)
    except (RuntimeError, KeyError) as exc:  # weights of another architecture: say so, never guess
        return None, f"critic weights at {path} do not fit this critic ({str(exc)[:120]}; run `make models`): the heuristic teacher decides instead"
    return critic, f"critic {path.name} ({critic.card.get('embedder', '?')}, dev edit accuracy {critic.card.get('dev_edit_accuracy', '?')})"
