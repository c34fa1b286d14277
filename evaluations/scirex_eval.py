"""L2 quality against SciREX (90 ML papers with gold mentions, salient clusters and relations).

Two systems, measured in one run:
- `offline_rules`: the surface mention rules (l2.mentions); clusters by normalised form with
  abbreviations merged; salient = seen in two or more sections; relations from result sentences.
- `offline_learned`: the mention tagger, then the document entity model (salience and
  (Method, Material) result pairs), both trained on SciREX train_docs only.
Metrics:
- mention F1: predicted vs gold spans (exact token span; typed and untyped). Rule types map
  method/other → Method, task → Task, metric → Metric, dataset → Material.
- salient cluster F1: a predicted salient cluster matches a gold salient cluster when most of its
  mention spans are in that cluster (SciREX's criterion); precision over predicted clusters,
  recall over gold clusters.
- relation F1: (Method, Material) pairs mapped to gold cluster names vs the gold n-ary relations'
  (Method, Material) pairs (SciREX's binary end-to-end setting).

`own_method` (a second measurement): the paper's own method as L1 names it (the subject of the
authors' "we ..." statements), compiled from the document as ingestion reads it, is correct when it
is a surface of a gold result relation's Method cluster. Baselines: the title's name for the system
and the most salient specific Method cluster (what L1 used before the authors' naming counted).

`result_values` (a second measurement): L1's result facts, drawn from each document as ingestion
reads it, against the gold result relations that carry a score ("FRRN, Cityscapes, Mean IoU:
71.8%"). A fact states a gold value when its number is a gold score of the paper; it is bound right
when its method (and dataset, metric) is a surface of that relation's gold cluster. Gold recall: the
scored relations whose value some fact states with the right method. Gold scores come mostly from
tables, and prose also reports other systems' values, so value precision is a floor; binding
accuracy is what the rules decide. Baseline: every value in a prose sentence with a metric, bound to
the sentence's nearest Method, Material and Metric mentions (the tagger's structure, no rules).
"""

from __future__ import annotations

import gzip
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable

from scholarstack.models import EntityType
from scholarstack.l2.entities import normalise
from scholarstack.l2.mentions import acronym_pairs, rule_mentions

TYPE_MAP = {EntityType.method: "Method", EntityType.other: "Method", EntityType.task: "Task",
            EntityType.metric: "Metric", EntityType.dataset: "Material"}
RESULT_CUE = re.compile(r"\d|achiev|outperform|state-of-the-art|results?|accuracy|score|evaluat", re.I)

Span = tuple[int, int]
# (mentions (start, end, type), salient clusters key → spans, relations as (method key, material key))
Prediction = tuple[list[tuple[int, int, str]], dict[str, list[Span]], set[tuple[str, str]]]


def f1(tp: int, n_pred: int, n_gold: int) -> dict[str, float]:
    return pr_f1(tp / n_pred if n_pred else 0.0, tp / n_gold if n_gold else 0.0)


def pr_f1(p: float, r: float) -> dict[str, float]:
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0}


def predict_mentions(doc: dict) -> list[tuple[int, int, str, str]]:
    """Rules: (token start, token end exclusive, SciREX type, surface) for each predicted mention."""
    words = doc["words"]
    out = []
    for s, e in doc["sentences"]:
        starts, text = [], ""
        for i in range(s, e):
            starts.append(len(text))
            text += words[i] + " "
        for m in rule_mentions(text):
            toks = [s + k for k, c in enumerate(starts) if m.start <= c < m.end]
            if toks:
                out.append((toks[0], toks[-1] + 1, TYPE_MAP[m.type], m.text))
    return out


def _section_of(doc: dict, tok: int) -> int:
    return next((i for i, (a, b) in enumerate(doc["sections"]) if a <= tok < b), -1)


def predict_rules(doc: dict) -> Prediction:
    pred = predict_mentions(doc)
    alias = {normalise(short): normalise(long) for long, short in acronym_pairs(" ".join(doc["words"]))}
    clusters: dict[str, list[Span]] = defaultdict(list)
    for a, b, _, surface in pred:
        key = normalise(surface)
        clusters[alias.get(key, key)].append((a, b))
    salient = {k: spans for k, spans in clusters.items() if len({_section_of(doc, a) for a, _ in spans}) >= 2}
    rel = set()
    words = doc["words"]
    for s, e in doc["sentences"]:
        if not RESULT_CUE.search(" ".join(words[s:e])):
            continue
        keys = [(alias.get(normalise(x), normalise(x)), t) for a, _, t, x in pred if s <= a < e]
        methods = {k for k, t in keys if t == "Method" and k in salient}
        data = {k for k, t in keys if t == "Material" and k in salient}
        rel |= {(m, d) for m in methods for d in data}
    return [(a, b, t) for a, b, t, _ in pred], salient, rel


def learned_predictor() -> Callable[[dict], Prediction]:
    from scholarstack.learned import doc_entities, mention_tagger

    tagger, model = mention_tagger.load(), doc_entities.load()

    def predict(doc: dict) -> Prediction:
        tdoc, offsets = doc_entities.scirex_doc(doc, tagger)
        mentions = [(offsets[si] + a, offsets[si] + b, t) for si, spans in enumerate(tdoc.spans) for a, b, t in spans]
        cs, salient, pairs = model.analyse(tdoc)
        sal = {cs[i].key: [(offsets[si] + a, offsets[si] + b) for si, a, b in cs[i].mentions] for i in salient}
        return mentions, sal, {(cs[m].key, cs[d].key) for m, d, _ in pairs}

    return predict


def score_doc(doc: dict, pred: Prediction) -> dict[str, tuple[int, ...]]:
    mentions, salient_pred, pred_rel = pred
    gold = {(a, b, t) for a, b, t in doc["ner"]}
    pm = set(mentions)
    gold_clusters = {name: {tuple(s) for s in spans} for name, spans in doc["coref"].items() if spans}
    matched: dict[str, str] = {}
    for key, spans in salient_pred.items():
        best = max(gold_clusters, key=lambda g: sum(1 for s in spans if s in gold_clusters[g]), default=None)
        if best is not None and sum(1 for s in spans if s in gold_clusters[best]) > len(spans) / 2:
            matched[key] = best
    gold_rel = {(r["Method"], r["Material"]) for r in doc["n_ary_relations"] if r.get("Method") and r.get("Material")}
    mapped = {(matched.get(m, "?" + m), matched.get(d, "?" + d)) for m, d in pred_rel}
    return {
        "typed": (len(pm & gold), len(pm), len(gold)),
        "untyped": (len({(a, b) for a, b, _ in pm} & {(a, b) for a, b, _ in gold}), len({(a, b) for a, b, _ in pm}),
                    len({(a, b) for a, b, _ in gold})),
        "clusters": (len(set(matched.values())), len(salient_pred), len(gold_clusters), len(matched)),
        "relations": (len(mapped & gold_rel), len(mapped), len(gold_rel)),
    }


def evaluate_doc(doc: dict) -> dict[str, tuple[int, ...]]:
    """The rules system on one doc (kept for tests that score one paper)."""
    return score_doc(doc, predict_rules(doc))


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("_", " ").replace(" - ", "-").split())


def own_method(path: Path, limit: int | None = None) -> dict[str, Any]:
    from scholarstack.ingest.corpora import read_scirex
    from scholarstack.ingest.records import to_source_map
    from scholarstack.l1.offline import SKIP_SECTIONS
    from scholarstack.l1.results import analyse, specific, title_system_name

    with gzip.open(path, "rt") as fh:
        docs = {d["doc_id"]: d for d in map(json.loads, filter(str.strip, fh))}
    hits: dict[str, int] = defaultdict(int)
    n = 0
    for rec in read_scirex(path):
        if limit is not None and n >= limit:
            break
        if isinstance(rec, tuple):  # a document the reader rejects counts as missed by every system
            n += 1
            continue
        doc = docs[rec.external_ids["scirex"]]
        methods = {r["Method"] for r in doc["n_ary_relations"] if r.get("Method")}
        gold = set().union(*(_surfaces(doc, m) for m in methods))
        n += 1
        sm = to_source_map(rec)
        pa = analyse(sm, SKIP_SECTIONS.search)
        name, cluster, _ = pa.own(sm.title)
        salient = [i for i in pa.salient if pa.clusters[i].type == "Method" and specific(pa.clusters[i].name)]
        top = max(salient, key=lambda i: pa.clusters[i].salience, default=None)
        for system, (said, said_cluster) in {"scholarstack": (name, cluster), "title_name": (title_system_name(sm.title), None),
                                             "most_salient_method": (None, top)}.items():
            names = {said or ""} | (set(pa.clusters[said_cluster].surfaces) if said_cluster is not None else set())
            hits[system] += any(_norm(x) in gold for x in names if x)
    return {"n": n, "systems": {s: {"accuracy": round(hits[s] / max(1, n), 4)}
                                for s in ("scholarstack", "title_name", "most_salient_method")}}


def _score(text: str) -> float | None:
    m = re.search(r"\d+(?:\.\d+)?", text.replace(",", ""))
    return float(m.group(0)) if m else None


def _surfaces(doc: dict, name: str) -> set[str]:
    """A gold cluster's name and its mentions as written, normalised."""
    return {_norm(name)} | {_norm(" ".join(doc["words"][a:b])) for a, b in doc["coref"].get(name, [])}


def _same_value(a: float, b: float) -> bool:
    """A score written as a percentage or a fraction ("71.8%", "0.718")."""
    return any(abs(a * k - b) < 1e-6 for k in (1, 100, 0.01))


def result_values(path: Path, limit: int | None = None) -> dict[str, Any]:
    from scholarstack.ingest.corpora import read_scirex
    from scholarstack.ingest.records import to_source_map
    from scholarstack.l1.offline import SKIP_SECTIONS
    from scholarstack.l1.results import analyse, nearest_mention_values, result_facts
    from scholarstack.models import Provenance

    with gzip.open(path, "rt") as fh:
        docs = {d["doc_id"]: d for d in map(json.loads, filter(str.strip, fh))}
    prov = Provenance(producer="eval.scirex", backend="offline", run_id="eval")
    keys = ("stated", "gold_value", "method", "dataset", "metric", "tuple")
    counts = {s: dict.fromkeys(keys, 0) for s in ("scholarstack", "nearest_mentions")}
    found = {s: 0 for s in counts}
    n = n_gold = in_text = 0
    for rec in read_scirex(path):
        if limit is not None and n >= limit:
            break
        n += 1
        if isinstance(rec, tuple):  # a document the reader rejects: its gold values count as missed
            continue
        doc = docs[rec.external_ids["scirex"]]
        gold = [(v, _surfaces(doc, r["Method"]), _surfaces(doc, r["Material"]), _surfaces(doc, r["Metric"]))
                for r in doc["n_ary_relations"] if (v := _score(str(r.get("score") or ""))) is not None]
        n_gold += len(gold)
        numbers = [float(w) for w in doc["words"] if re.fullmatch(r"\d+(?:\.\d+)?", w)]
        in_text += sum(any(_same_value(x, g[0]) for x in numbers) for g in gold)
        sm = to_source_map(rec)
        pa = analyse(sm, SKIP_SECTIONS.search)
        stated = {"scholarstack": [(q.value, q.method, q.dataset, q.metric) for f in result_facts(sm, pa, prov)[0] for q in f.quantities],
                  "nearest_mentions": nearest_mention_values(pa)}
        for system, values in stated.items():
            c, hit = counts[system], set()
            for value, method, dataset, metric in values:
                c["stated"] += 1
                same = [k for k, g in enumerate(gold) if _same_value(value, g[0])]
                if not same:
                    continue
                right = [(_norm(method) in gold[k][1], _norm(dataset) in gold[k][2], _norm(metric) in gold[k][3]) for k in same]
                c["gold_value"] += 1
                for j, key in enumerate(("method", "dataset", "metric")):
                    c[key] += any(r[j] for r in right)
                c["tuple"] += any(all(r) for r in right)
                hit |= {k for k, r in zip(same, right) if r[0]}
            found[system] += len(hit)

    def row(system: str) -> dict[str, float]:
        c = counts[system]
        return {"values_stated": c["stated"], "gold_value_share": round(c["gold_value"] / max(1, c["stated"]), 4),
                **{f"{key}_right": round(c[key] / max(1, c["gold_value"]), 4) for key in ("method", "dataset", "metric", "tuple")},
                "gold_recall": round(found[system] / max(1, n_gold), 4)}

    # Most gold scores are in tables, which the documents do not hold: recall is capped by those in the text.
    return {"n": n, "gold_values": n_gold, "gold_values_in_text": in_text, "systems": {s: row(s) for s in counts}}


def run(path: Path, limit: int | None = None, systems: tuple[str, ...] = ("offline_rules", "offline_learned")) -> dict[str, Any]:
    predictors = {"offline_rules": predict_rules}
    if "offline_learned" in systems:
        predictors["offline_learned"] = learned_predictor()
    totals: dict[str, dict[str, list[int]]] = {s: defaultdict(lambda: [0, 0, 0, 0]) for s in systems}
    n = 0
    with gzip.open(path, "rt") as fh:
        for line in fh:
            if limit is not None and n >= limit:
                break
            n += 1
            doc = json.loads(line)
            for name in systems:
                for key, vals in score_doc(doc, predictors[name](doc)).items():
                    for i, v in enumerate(vals):
                        totals[name][key][i] += v
    out: dict[str, Any] = {"benchmark": "scirex_l2", "n": n, "systems": {}}
    for name, t in totals.items():
        out["systems"][name] = {
            "mention_f1_typed": f1(*t["typed"][:3]),
            "mention_f1_untyped": f1(*t["untyped"][:3]),
            "salient_cluster_f1": pr_f1(t["clusters"][3] / max(1, t["clusters"][1]), t["clusters"][0] / max(1, t["clusters"][2])),
            "relation_f1": f1(*t["relations"][:3]),
        }
    return out


if __name__ == "__main__":
    from scholarstack.settings import shared_data_dir

    print(json.dumps(run(shared_data_dir() / "scirex" / "docs.jsonl.gz"), indent=2))
