"""L2 quality against SciREX (90 ML papers with gold mentions, salient clusters and relations).

- mention F1: our typed mention rules on each sentence vs gold spans (exact token span; typed and
  untyped). Types: method/other → Method, task → Task, metric → Metric, dataset → Material.
- salient cluster F1: our clusters (mentions grouped by normalised form, abbreviations merged)
  that occur in at least two sections are predicted salient; a predicted cluster matches a gold
  salient cluster when most of its mention spans are in that cluster (SciREX's criterion).
- relation F1: (Method, Material) pairs: ours from sentences that name both and report a result,
  mapped to gold clusters; gold from the n-ary Task–Dataset–Metric–Method relations.
"""

from __future__ import annotations

import gzip
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from scholarstack.models import EntityType
from scholarstack.organise.entities import normalise
from scholarstack.organise.mentions import acronym_pairs, extract_mentions

TYPE_MAP = {EntityType.method: "Method", EntityType.other: "Method", EntityType.task: "Task",
            EntityType.metric: "Metric", EntityType.dataset: "Material"}
RESULT_CUE = re.compile(r"\d|achiev|outperform|state-of-the-art|results?|accuracy|score|evaluat", re.I)


def f1(tp: int, n_pred: int, n_gold: int) -> dict[str, float]:
    return pr_f1(tp / n_pred if n_pred else 0.0, tp / n_gold if n_gold else 0.0)


def pr_f1(p: float, r: float) -> dict[str, float]:
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0}


def predict_mentions(doc: dict) -> list[tuple[int, int, str, str]]:
    """(token start, token end exclusive, SciREX type, surface) for each predicted mention."""
    words = doc["words"]
    out = []
    for s, e in doc["sentences"]:
        starts, text = [], ""
        for i in range(s, e):
            starts.append(len(text))
            text += words[i] + " "
        for m in extract_mentions(text):
            toks = [s + k for k, c in enumerate(starts) if m.start <= c < m.end]
            if toks:
                out.append((toks[0], toks[-1] + 1, TYPE_MAP[m.type], m.text))
    return out


def _section_of(doc: dict, tok: int) -> int:
    return next((i for i, (a, b) in enumerate(doc["sections"]) if a <= tok < b), -1)


def evaluate_doc(doc: dict) -> dict[str, Any]:
    pred = predict_mentions(doc)
    gold = {(a, b, t) for a, b, t in doc["ner"]}
    typed_tp = len({(a, b, t) for a, b, t, _ in pred} & gold)
    untyped_tp = len({(a, b) for a, b, _, _ in pred} & {(a, b) for a, b, _ in gold})
    # Clusters: normalised surface, abbreviations merged within the document.
    text = " ".join(doc["words"])
    alias = {normalise(short): normalise(long) for long, short in acronym_pairs(text)}
    clusters: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for a, b, _, surface in pred:
        key = normalise(surface)
        clusters[alias.get(key, key)].append((a, b))
    salient_pred = {k: spans for k, spans in clusters.items() if len({_section_of(doc, a) for a, _ in spans}) >= 2}
    gold_clusters = {name: {tuple(s) for s in spans} for name, spans in doc["coref"].items() if spans}
    matched: dict[str, str] = {}
    for key, spans in salient_pred.items():
        best = max(gold_clusters, key=lambda g: sum(1 for s in spans if s in gold_clusters[g]), default=None)
        if best is not None and sum(1 for s in spans if s in gold_clusters[best]) > len(spans) / 2:
            matched[key] = best
    # Relations (Method, Material).
    gold_types = {}
    for name, spans in doc["coref"].items():
        types = [t for a, b, t in doc["ner"] if (a, b) in {tuple(s) for s in spans}]
        gold_types[name] = max(set(types), key=types.count) if types else ""
    gold_rel = {(r["Method"], r["Material"]) for r in doc["n_ary_relations"] if r.get("Method") and r.get("Material")}
    pred_rel = set()
    words = doc["words"]
    for s, e in doc["sentences"]:
        sent = " ".join(words[s:e])
        if not RESULT_CUE.search(sent):
            continue
        inside = [(a, b, t, surf) for a, b, t, surf in pred if s <= a < e]
        # Relations hold between salient entities only, as in SciREX's end-to-end setting.
        keys = [(alias.get(normalise(x), normalise(x)), t) for _, _, t, x in inside]
        methods = {matched.get(k, "?" + k) for k, t in keys if t == "Method" and k in salient_pred}
        data = {matched.get(k, "?" + k) for k, t in keys if t == "Material" and k in salient_pred}
        pred_rel |= {(m, d) for m in methods for d in data}
    return {
        "typed": (typed_tp, len({(a, b, t) for a, b, t, _ in pred}), len(gold)),
        "untyped": (untyped_tp, len({(a, b) for a, b, _, _ in pred}), len({(a, b) for a, b, _ in gold})),
        "clusters": (len(set(matched.values())), len(salient_pred), len(gold_clusters), len(matched)),
        "relations": (len(pred_rel & gold_rel), len(pred_rel), len(gold_rel)),
    }


def run(path: Path, limit: int | None = None) -> dict[str, Any]:
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    n = 0
    with gzip.open(path, "rt") as fh:
        for line in fh:
            if limit is not None and n >= limit:
                break
            n += 1
            for key, vals in evaluate_doc(json.loads(line)).items():
                for i, v in enumerate(vals):
                    totals[key][i] += v
    t = totals
    return {
        "benchmark": "scirex_l2", "n": n,
        "mention_f1_typed": f1(*t["typed"][:3]),
        "mention_f1_untyped": f1(*t["untyped"][:3]),
        # cluster precision: predicted salient clusters that match; recall: gold clusters matched.
        "salient_cluster_f1": pr_f1(t["clusters"][3] / max(1, t["clusters"][1]), t["clusters"][0] / max(1, t["clusters"][2])),
        "relation_f1": f1(*t["relations"][:3]),
    }


if __name__ == "__main__":
    from scholarstack.settings import shared_data_dir

    print(json.dumps(run(shared_data_dir() / "scirex" / "docs.jsonl.gz"), indent=2))
