"""Evidence localisation (CL-SciSumm 2018) and the evidence fidelity of the store itself.

Localisation: given a citing sentence and the cited paper (compiled from its Reference_XML, so
sentence ids match the annotation), return the reference sentences; scored against the
annotators' `Reference Offset` at sentence level (micro precision, recall, F1). Systems:
`bm25` over the paper's sentences, and `scholarstack`, which ranks by the paper's compiled facts
and sentences through a knowledge view (evidence.score_items) and returns their locators.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from scholarstack.ingest.records import PaperRecord, Section
from scholarstack.store import Store


SENT_RE = re.compile(r"<S\s+sid\s*=\s*\"(\d+)\"[^>]*>(.*?)</S>", re.S)
FIELD_RE = re.compile(r"(Reference Article|Citation Text|Reference Offset):\s*(.*?)\s*(?=\|\s*[A-Z][\w ]+:|$)")


def reference_record(topic: Path) -> PaperRecord | None:
    xmls = sorted((topic / "Reference_XML").glob("*.xml"))
    if not xmls:
        return None
    raw = xmls[0].read_text(errors="replace")
    sents = [(int(sid), " ".join(html.unescape(re.sub(r"<[^>]+>", " ", t)).split())) for sid, t in SENT_RE.findall(raw)]
    sents = [(sid, t) for sid, t in sents if t]
    title = next((t for sid, t in sents if sid == 0), topic.name)
    return PaperRecord(paper_id=f"cls-{topic.name}", title=title, source_format="clscisumm_xml", source=str(xmls[0]),
                       sections=[Section(title="body", sentences=[(sid, t) for sid, t in sents if sid > 0])])


def annotations(topic: Path) -> list[tuple[str, set[int]]]:
    out = []
    for ann in sorted((topic / "annotation").glob("*.txt")):
        for line in ann.read_text(errors="replace").splitlines():
            fields = dict(FIELD_RE.findall(line))
            if "Citation Text" not in fields or "Reference Offset" not in fields:
                continue
            text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fields["Citation Text"])).split())
            offsets = {int(x) for x in re.findall(r"\d+", fields["Reference Offset"])}
            if text and offsets:
                out.append((text, offsets))
    return out


def eval_localisation(store: Store, root: Path | None = None, limit: int | None = None, k: int = 2, progress: bool = False,
                      embedder: str | None = None) -> dict[str, Any]:
    from scholarstack.tasks.evidence import paper_items, score_items
    from scholarstack.views.views import KnowledgeBase

    from scholarstack.settings import shared_data_dir

    from .benchmarks import _embedder, compile_records, spread

    root = Path(root) if root else shared_data_dir() / "clscisumm2018"
    emb = _embedder(embedder, store) if embedder else None
    topics = [t for t in sorted(root.iterdir()) if t.is_dir()]
    records = {t.name: reference_record(t) for t in topics}
    items = [(f"cls-{t.name}", text, gold) for t in topics if records[t.name] for text, gold in annotations(t)]
    items = spread(items, limit)
    compile_records(store, [records[pid[4:]] for pid in sorted({p for p, _, _ in items})], progress)
    kb = KnowledgeBase(store)
    cache: dict[tuple[str, tuple[str, ...]], list] = {}
    results = {}
    # bm25: lexical over sentences; scholarstack: the view's hybrid scoring over facts and sentences.
    for system, kinds, e in (("bm25", ("sentence",), None), ("scholarstack", ("fact", "sentence"), emb)):
        tp = n_pred = n_gold = 0
        for pid, text, gold in items:
            key = (pid, kinds)
            if key not in cache:
                cache[key] = paper_items(kb, pid, kinds)
            ranked = score_items(text, cache[key], e)
            pred: list[int] = []
            for r in ranked:
                for loc in r.item.locators:
                    sid = int(loc.rsplit(":", 1)[1])
                    if sid not in pred:
                        pred.append(sid)
                if len(pred) >= k:
                    break
            pred_set = set(pred[:k])
            tp += len(pred_set & gold)
            n_pred += len(pred_set)
            n_gold += len(gold)
        p, r, f = _prf(tp, n_pred, n_gold)
        results[system] = {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4), "k": k}
    return {"benchmark": "localisation", "n": len(items), "systems": results}


def _prf(tp: int, n_pred: int, n_gold: int) -> tuple[float, float, float]:
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def store_fidelity(store: Store) -> dict[str, Any]:
    """Share of facts whose locators resolve, that pass semantic verification, and of synthesis
    citations that resolve to live objects."""
    q = store.query
    facts = q("SELECT count(*) FROM objects WHERE kind = 'fact' AND lifecycle <> 'withdrawn'")[0][0]
    resolving = q("SELECT count(*) FROM objects o WHERE o.kind = 'fact' AND o.lifecycle <> 'withdrawn' AND NOT EXISTS ("
                  "SELECT 1 FROM evidence e LEFT JOIN sentences s ON s.locator = e.locator AND s.is_current "
                  "WHERE e.obj_id = o.id AND s.locator IS NULL)")[0][0]
    passed = q("SELECT count(*) FROM objects WHERE kind = 'fact' AND lifecycle <> 'withdrawn' AND verification = 'passed'")[0][0]
    cites = q("SELECT count(*), count(d.id) FILTER (WHERE d.lifecycle <> 'withdrawn') FROM refs r JOIN objects s ON s.id = r.src_id "
              "LEFT JOIN objects d ON d.id = r.dst_id WHERE s.kind = 'synthesis' AND s.lifecycle <> 'withdrawn'")[0]
    return {"benchmark": "store_fidelity", "n": facts, "systems": {"store": {
        "facts": facts, "locators_resolve": round(resolving / facts, 4) if facts else None,
        "verification_passed": round(passed / facts, 4) if facts else None,
        "synthesis_citations": cites[0], "synthesis_citations_resolve": round(cites[1] / cites[0], 4) if cites[0] else None}}}
