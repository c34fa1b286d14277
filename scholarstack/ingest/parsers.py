"""Parsers for the formats researchers bring: PDF, GROBID TEI XML, PubMed Central JATS XML,
S2ORC JSON, Markdown and plain text. Each returns a PaperRecord or raises ParseError naming the
file and the reason."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from .records import PaperRecord, Section, safe_paper_id

SUFFIX_FORMATS = {
    ".pdf": "pdf",
    ".tei.xml": "tei",
    ".nxml": "jats",
    ".json": "s2orc",
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
}
HEADING_RE = re.compile(
    r"^(?:(\d+(?:\.\d+)*)\.?\s+([A-Z][A-Za-z][^\n]{0,70})|(Abstract|ABSTRACT|Introduction|INTRODUCTION|Conclusions?|CONCLUSIONS?|"
    r"Acknowledge?ments?|ACKNOWLEDGE?MENTS?|References|REFERENCES|Bibliography|Related Work|Discussion|Results))\s*$"
)
REFERENCES_RE = re.compile(r"^(references|bibliography)$", re.I)


class ParseError(ValueError):
    pass


def detect_format(path: Path) -> str:
    name = path.name.lower()
    for suffix, fmt in SUFFIX_FORMATS.items():
        if name.endswith(suffix):
            if fmt == "s2orc" and name.endswith(".tei.json"):
                continue
            return fmt
    if name.endswith(".xml"):
        head = path.read_text(errors="replace")[:3000]
        if "tei-c.org" in head or "<TEI" in head:
            return "tei"
        if "<article" in head:
            return "jats"
    raise ParseError(f"{path}: unsupported file type (expected .pdf, .tei.xml, .nxml/.xml JATS, .json S2ORC, .md or .txt)")


def parse_file(path: str | Path, paper_id: str | None = None) -> PaperRecord:
    path = Path(path)
    if not path.is_file():
        raise ParseError(f"{path}: no such file")
    if path.stat().st_size == 0:
        raise ParseError(f"{path}: the file is empty")
    fmt = detect_format(path)
    pid = paper_id or id_from_name(path)
    try:
        record = PARSERS[fmt](path, pid)
    except ParseError:
        raise
    except Exception as exc:  # parser libraries raise many kinds; the user needs file + reason
        raise ParseError(f"{path}: cannot parse as {fmt}: {type(exc).__name__}: {exc}") from exc
    if not record.sections and not record.abstract:
        raise ParseError(f"{path}: no text found in the {fmt} file")
    return record


def id_from_name(path: Path) -> str:
    """The file name without its format suffix, made locator-safe; a name with nothing left
    (`论文.md`) gets `paper-<hash of the name>`: stable, and `ingest --id` can name it instead."""
    from ..models.common import stable_hash

    stem = re.sub(r"(\.tei)?\.(pdf|xml|nxml|json|md|markdown|txt)$", "", path.name, flags=re.I)
    try:
        return safe_paper_id(stem)
    except ValueError:
        return f"paper-{stable_hash(path.name, 10)}"


def read_text_file(path: Path) -> tuple[str, list[str]]:
    """Text in UTF-8, or in the encoding charset-normalizer detects (Latin-1 files are common in
    old corpora); a file decoded by guessing says so in a warning."""
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8-sig"), []
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(raw).best()
    encoding = best.encoding if best is not None else "cp1252"
    try:
        text = raw.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        encoding, text = "latin-1", raw.decode("latin-1")
    return text, [f"{path}: not UTF-8; decoded as {encoding}"]


# -- PDF ---------------------------------------------------------------------------------------
def pdf_text(path: Path) -> tuple[str, list[str]]:
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        raise ParseError(f"{path}: not a readable PDF ({exc})") from exc
    pages: list[str] = []
    warnings: list[str] = []
    try:
        for i in range(len(pdf)):
            try:
                page = pdf[i]
                textpage = page.get_textpage()
                pages.append(textpage.get_text_range())
                textpage.close()
                page.close()
            except pdfium.PdfiumError as exc:
                pages.append("")
                warnings.append(f"{path}: page {i + 1} of {len(pdf)} is damaged and was skipped ({exc})")
    finally:
        pdf.close()
    empty = [i + 1 for i, p in enumerate(pages) if not p.strip()]
    if empty and len(empty) < len(pages) and not warnings:
        warnings.append(f"{path}: page(s) {', '.join(map(str, empty[:10]))} of {len(pages)} have no extractable text")
    return "\n".join(pages), warnings


def _clean_pdf_lines(text: str) -> list[str]:
    text = text.replace("\r", "\n").replace("\ufffe", "").replace("\u00ad", "")
    text = re.sub(r"(\w)-\n(\w)", r"\1\2", text)  # words hyphenated across lines
    return [line.strip() for line in text.split("\n")]


def parse_pdf(path: Path, paper_id: str) -> PaperRecord:
    text, warnings = pdf_text(path)
    lines = _clean_pdf_lines(text)
    if not any(lines):
        raise ParseError(f"{path}: the PDF has no extractable text (scanned images need OCR)")
    title = next((ln for ln in lines[:15] if len(ln) > 8 and not re.search(r"proceedings|pages|\d{4}|volume", ln, re.I)), "")
    sections: list[Section] = []
    current = Section(title="front")
    buf: list[str] = []
    references: list[str] = []
    in_refs = False
    for line in lines[1:] if lines and lines[0] == title else lines:
        m = HEADING_RE.match(line)
        if m and in_refs and m.group(1) and int(m.group(1).split(".")[0]) >= 1000:
            m = None  # "2017. Semeval 2017 task 10…": a year inside a reference entry, not a numbered heading
        if m and len(line) < 80:
            if in_refs:
                break
            current.text = " ".join(buf)
            sections.append(current)
            buf = []
            name = (m.group(2) or m.group(3) or line).strip()
            current = Section(title=f"{m.group(1)} {name}" if m.group(1) else name)
            in_refs = bool(REFERENCES_RE.match(name))
            continue
        if in_refs:
            references.append(line)
        elif line:
            buf.append(line)
    if not in_refs:
        current.text = " ".join(buf)
        sections.append(current)
    sections = [s for s in sections if s.text.strip() and not REFERENCES_RE.match(s.title)]
    abstract = next((s for s in sections if s.title.lower() == "abstract"), None)
    body = [s for s in sections if s is not abstract]
    return PaperRecord(paper_id=paper_id, title=title, source_format="pdf", source=str(path),
                       abstract=abstract, sections=body, references=bibliography_entries(references), warnings=warnings)


AUTHOR_START = re.compile(r"^(?!(?:In|Proceedings|Journal|Transactions|Association|Advances|Conference|CoRR|IEEE|ACM|Springer)\b)"
                          r"[A-Z][A-Za-z'\u00C0-\u017F-]+(?:,| [A-Z][A-Za-z.'\u00C0-\u017F-]*)")
NUMBERED = re.compile(r"\s(?=\(\d{1,3}\) [A-Z])|\s(?=\[\d{1,3}\] [A-Z])")  # "(12) Gupta, R.; …" and "[12] Gupta, R. …"
YEAR = re.compile(r"\b(?:19|20)\d{2}[a-z]?\b")


def bibliography_entries(lines: list[str]) -> list[str]:
    """A PDF's reference lines joined into entries: a line that starts with an author name (not a
    venue) begins a new entry once the current one has its year and ends a sentence (ACL and most
    author-year styles); numbered styles are split at their numbers."""
    entries: list[str] = []
    for line in (ln.strip() for ln in lines):
        if not line:
            continue
        cur = entries[-1] if entries else ""
        if not entries or (AUTHOR_START.match(line) and YEAR.search(cur) and cur.rstrip().endswith((".", ")"))):
            entries.append(line)
        else:
            entries[-1] = f"{cur[:-1]}{line}" if cur.endswith("-") else f"{cur} {line}"
    return [part.strip() for e in entries for part in NUMBERED.split(e) if part.strip()]  # numbered styles run entries together


# -- XML formats -------------------------------------------------------------------------------
def _text(el: ET.Element | None) -> str:
    return " ".join("".join(el.itertext()).split()) if el is not None else ""


def _strip_ns(root: ET.Element) -> ET.Element:
    for el in root.iter():
        if isinstance(el.tag, str) and "}" in el.tag:
            el.tag = el.tag.split("}", 1)[1]
    return root


def _parse_xml(path: Path) -> ET.Element:
    try:
        return _strip_ns(ET.parse(path).getroot())
    except ET.ParseError as exc:
        raise ParseError(f"{path}: malformed XML ({exc})") from exc


def parse_tei(path: Path, paper_id: str) -> PaperRecord:
    root = _parse_xml(path)
    title = _text(root.find(".//teiHeader/fileDesc/titleStmt/title"))
    abstract = Section(title="abstract", text=" ".join(_text(p) for p in root.findall(".//teiHeader//abstract//p")))
    sections = []
    for div in root.findall(".//text/body/div"):
        head = div.find("head")
        name = (f"{head.get('n')} " if head is not None and head.get("n") else "") + _text(head)
        sections.append(Section(title=name.strip(), text=" ".join(_text(p) for p in div.findall("p"))))
    refs = [_text(b.find(".//title")) for b in root.findall(".//back//listBibl/biblStruct")]
    authors = [" ".join(_text(p) for p in a.findall(".//persName/*")) for a in root.findall(".//teiHeader//sourceDesc//author")]
    return PaperRecord(paper_id=paper_id, title=title, authors=[a for a in authors if a], source_format="tei",
                       source=str(path), abstract=abstract if abstract.text else None,
                       sections=[s for s in sections if s.text], references=[r for r in refs if r])


def parse_jats(path: Path, paper_id: str) -> PaperRecord:
    root = _parse_xml(path)
    meta = root.find(".//front/article-meta")
    title = _text(meta.find(".//title-group/article-title")) if meta is not None else ""
    abstract_el = meta.find("abstract") if meta is not None else None
    abstract = Section(title="abstract", text=" ".join(_text(p) for p in abstract_el.iter("p"))) if abstract_el is not None else None
    sections = []

    def walk(sec: ET.Element, prefix: str) -> None:
        name = (prefix + " / " if prefix else "") + _text(sec.find("title"))
        paras = [_text(p) for p in sec.findall("p")]
        if paras:
            sections.append(Section(title=name, text=" ".join(paras)))
        for sub in sec.findall("sec"):
            walk(sub, name)

    body = root.find(".//body")
    if body is not None:
        loose = [_text(p) for p in body.findall("p")]
        if loose:
            sections.append(Section(title="body", text=" ".join(loose)))
        for sec in body.findall("sec"):
            walk(sec, "")
    refs = [_text(r.find(".//article-title")) or _text(r) for r in root.findall(".//back//ref")]
    ids = {}
    if meta is not None:
        for aid in meta.findall("article-id"):
            ids[aid.get("pub-id-type", "id")] = _text(aid)
    return PaperRecord(paper_id=paper_id, title=title, source_format="jats", source=str(path),
                       abstract=abstract if abstract and abstract.text else None, sections=sections,
                       references=[r for r in refs if r], external_ids=ids)


# -- JSON and text -----------------------------------------------------------------------------
def parse_s2orc(path: Path, paper_id: str) -> PaperRecord:
    try:
        doc = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ParseError(f"{path}: malformed JSON ({exc})") from exc
    parse = doc.get("pdf_parse") or doc
    if "body_text" not in parse:
        raise ParseError(f"{path}: JSON is not an S2ORC document (no body_text)")
    abstract = Section(title="abstract", text=" ".join(p["text"] for p in parse.get("abstract", []) or []))
    sections: list[Section] = []
    for para in parse["body_text"]:
        name = " ".join(x for x in (para.get("sec_num") or "", para.get("section") or "") if x)
        if sections and sections[-1].title == name:
            sections[-1].text += " " + para["text"]
        else:
            sections.append(Section(title=name, text=para["text"]))
    refs = [b.get("title", "") for b in (parse.get("bib_entries") or {}).values()]
    authors = [" ".join(x for x in (a.get("first", ""), a.get("last", "")) if x) for a in doc.get("authors", []) or []]
    return PaperRecord(paper_id=safe_paper_id(str(doc.get("paper_id") or paper_id)), title=doc.get("title", ""),
                       authors=authors, year=int(doc["year"]) if str(doc.get("year") or "").isdigit() else None, source_format="s2orc", source=str(path),
                       abstract=abstract if abstract.text else None, sections=sections, references=[r for r in refs if r])


def parse_text(path: Path, paper_id: str) -> PaperRecord:
    raw, warnings = read_text_file(path)
    if not raw.strip():
        raise ParseError(f"{path}: the file has no text")
    fmt = "markdown" if path.suffix.lower() in (".md", ".markdown") else "text"
    title, sections, current, buf = "", [], "", []
    for line in raw.splitlines():
        heading = re.match(r"^#{1,6}\s+(.*)$", line) if fmt == "markdown" else None
        if heading:
            if not title:
                title = heading.group(1).strip()
            else:
                sections.append(Section(title=current, text=" ".join(buf)))
                current, buf = heading.group(1).strip(), []
        elif line.strip():
            buf.append(line.strip())
        elif buf and fmt == "text" and not title:
            title, buf = " ".join(buf), []
    sections.append(Section(title=current, text=" ".join(buf)))
    return PaperRecord(paper_id=paper_id, title=title, source_format=fmt, source=str(path),
                       sections=[s for s in sections if s.text], warnings=warnings)


PARSERS = {"pdf": parse_pdf, "tei": parse_tei, "jats": parse_jats, "s2orc": parse_s2orc, "markdown": parse_text, "text": parse_text}
