"""PDF ingestion fidelity against gold sentences (CL-SciSumm 2018: original PDF + Reference_XML).

For each paper, the gold sentences of `Reference_XML` (regex-read: the files are not all
well-formed XML) are compared with what our PDF parser produced, after normalisation (lower case,
letters and digits only):
- sentence recall: the share of gold sentences equal to one of our sentences;
- text recall: the share of gold sentences found inside our flat text (segmentation aside).
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from scholarstack.ingest.parsers import ParseError, parse_file
from scholarstack.ingest.records import to_source_map

GOLD_RE = re.compile(r"<S\s+sid\s*=\s*\"(\d+)\"[^>]*>(.*?)</S>", re.S)


def norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", html.unescape(text).lower())


def gold_sentences(xml_path: Path) -> list[str]:
    raw = xml_path.read_text(errors="replace")
    return [t for _, t in GOLD_RE.findall(raw) if len(norm(t)) >= 10]


def paper_fidelity(topic_dir: Path) -> dict[str, Any]:
    pdfs = sorted((topic_dir / "Documents_PDF").glob("*.pdf"))
    xmls = sorted((topic_dir / "Reference_XML").glob("*.xml"))
    if not pdfs or not xmls:
        return {"paper": topic_dir.name, "skipped": "the release has no PDF or no Reference_XML for this paper"}
    gold = gold_sentences(xmls[0])
    try:
        sm = to_source_map(parse_file(pdfs[0]))
    except (ParseError, ValueError) as exc:
        return {"paper": topic_dir.name, "gold": len(gold), "error": str(exc), "sentence_recall": 0.0, "text_recall": 0.0}
    ours = {norm(s.text) for s in sm.sentences}
    flat = "".join(norm(s.text) for s in sm.sentences)
    exact = sum(1 for g in gold if norm(g) in ours)
    inside = sum(1 for g in gold if norm(g) in flat)
    return {"paper": topic_dir.name, "gold": len(gold), "ours": len(sm.sentences),
            "sentence_recall": exact / len(gold) if gold else 0.0, "text_recall": inside / len(gold) if gold else 0.0}


def run(root: Path, limit: int | None = None) -> dict[str, Any]:
    topics = sorted(p for p in root.iterdir() if p.is_dir())[:limit]
    all_rows = [paper_fidelity(t) for t in topics]
    rows = [r for r in all_rows if "skipped" not in r]
    ok = [r for r in rows if "error" not in r]
    gold_total = sum(r["gold"] for r in ok)
    micro_sent = sum(r["sentence_recall"] * r["gold"] for r in ok) / gold_total if gold_total else 0.0
    micro_text = sum(r["text_recall"] * r["gold"] for r in ok) / gold_total if gold_total else 0.0
    return {"benchmark": "pdf_fidelity", "n": len(rows), "skipped_no_pdf": len(all_rows) - len(rows), "failed": len(rows) - len(ok), "gold_sentences": gold_total,
            "sentence_recall": round(micro_sent, 4), "text_recall": round(micro_text, 4), "papers": rows}


if __name__ == "__main__":
    import json

    from scholarstack.settings import shared_data_dir

    res = run(shared_data_dir() / "clscisumm2018")
    print(json.dumps({k: v for k, v in res.items() if k != "papers"}, indent=2))
