"""CL-SciSumm 2018 topics: the reference paper (Reference_XML, whose sentence ids the annotation
uses) and the annotated (citing sentence, reference sentence ids) pairs."""

from __future__ import annotations

import html
import re
from pathlib import Path

from .records import PaperRecord, Section

# The XML is not always well-formed, so its parts are read with one pattern in document order.
PART_RE = re.compile(r"<(?P<tag>/?ABSTRACT|/?SECTION)(?:\s+title\s*=\s*\"(?P<title>[^\"]*)\")?[^>]*>"
                     r"|<S\s+sid\s*=\s*\"(?P<sid>\d+)\"[^>]*>(?P<text>.*?)</S>", re.S)
FIELD_RE = re.compile(r"(Reference Article|Citation Text|Reference Offset):\s*(.*?)\s*(?=\|\s*[A-Z][\w ]+:|$)")


def reference_record(topic: Path) -> PaperRecord | None:
    """The reference paper with its abstract and sections as the XML marks them (sentences outside
    both go to a `body` section); the XML's sentence ids are kept, since the annotation uses them."""
    xmls = sorted((topic / "Reference_XML").glob("*.xml"))
    if not xmls:
        return None
    raw = xmls[0].read_text(errors="replace")
    title, abstract, sections = topic.name, Section(title="abstract"), [Section(title="body")]
    current = sections[0]
    for m in PART_RE.finditer(raw):
        tag, name, sid, text = m.group("tag"), m.group("title"), m.group("sid"), m.group("text")
        if tag == "ABSTRACT":
            current = abstract
        elif tag == "SECTION":
            current = Section(title=" ".join(html.unescape(name or "").split()).rstrip(". ") or "body")
            sections.append(current)
        elif tag in ("/ABSTRACT", "/SECTION"):
            current = sections[0]
        elif sid is not None:
            text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())
            if text and int(sid) == 0:
                title = text
            elif text:
                current.sentences.append((int(sid), text))
    return PaperRecord(paper_id=f"cls-{topic.name}", title=title, source_format="clscisumm_xml", source=str(xmls[0]),
                       abstract=abstract if abstract.sentences else None, sections=[s for s in sections if s.sentences])


def human_summary(topic: Path) -> str:
    """The topic's human-written summary (`summary/*.human.txt`), or "" where it has none."""
    files = sorted((topic / "summary").glob("*.human.txt"))
    return " ".join(files[0].read_text(errors="replace").split()) if files else ""


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
