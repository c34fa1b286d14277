"""CL-SciSumm 2018 topics: the reference paper (Reference_XML, whose sentence ids the annotation
uses) and the annotated (citing sentence, reference sentence ids) pairs."""

from __future__ import annotations

import html
import re
from pathlib import Path

from .records import PaperRecord, Section

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
