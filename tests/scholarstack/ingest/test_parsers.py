"""Parsers on the real files in ../shared/data/formats, segmentation, and clear errors for bad input."""

from __future__ import annotations

import pytest

from scholarstack.ingest.parsers import ParseError, parse_file
from scholarstack.ingest.records import EmptyPaperError, PaperRecord, Section, to_source_map
from scholarstack.ingest.segment import split_sentences
from tests.conftest import need_shared


@pytest.mark.parametrize("name,fmt,title_word", [
    ("N18-3011.pdf", "pdf", "Literature Graph"),
    ("N18-3011.tei.xml", "tei", "Literature Graph"),
    ("N18-3011.json", "s2orc", "Literature Graph"),
    ("PMC5828200.nxml", "jats", "Curcuminoid"),
    ("pone.0000217.nxml", "jats", "Complexity"),
    ("pasa.pdf", "pdf", "PaSa"),
])
def test_formats_parse_into_source_maps(name, fmt, title_word):
    path = need_shared("formats", name)
    record = parse_file(path)
    assert record.source_format == fmt and title_word.lower() in record.title.lower()
    sm = to_source_map(record)
    assert len(sm.sentences) > 100
    body = [s for s in sm.sentences if s.sid > 0]
    assert len({s.sid for s in sm.sentences}) == len(sm.sentences)
    assert all(s.end - s.start == len(s.text) for s in body)
    # The Introduction's first words are found in some sentence: text survives parsing.
    assert any("introduction" in s.section.lower() for s in body)


def test_same_paper_in_three_formats_shares_sentences():
    texts = {}
    for name in ("N18-3011.tei.xml", "N18-3011.json", "N18-3011.pdf"):
        sm = to_source_map(parse_file(need_shared("formats", name)))
        texts[name] = {" ".join(s.text.lower().split()) for s in sm.sentences}
    tei, s2, pdf = texts.values()
    assert len(tei & s2) / len(tei) > 0.5
    assert len(tei & pdf) / len(tei) > 0.3


def test_broken_and_empty_files_are_clear_errors(tmp_path):
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 this is not really a pdf")
    with pytest.raises(ParseError, match=r"broken\.pdf: not a readable PDF"):
        parse_file(broken)
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    with pytest.raises(ParseError, match=r"empty\.txt: the file is empty"):
        parse_file(empty)
    bad_xml = tmp_path / "bad.tei.xml"
    bad_xml.write_text("<TEI xmlns='http://www.tei-c.org/ns/1.0'><text>")
    with pytest.raises(ParseError, match=r"bad\.tei\.xml: malformed XML"):
        parse_file(bad_xml)
    with pytest.raises(ParseError, match="unsupported file type"):
        (tmp_path / "x.docx").write_text("x")
        parse_file(tmp_path / "x.docx")


def test_markdown_and_empty_paper(tmp_path):
    md = tmp_path / "note.md"
    md.write_text("# A Title\n\n## Method\nWe use a CRF tagger. It reaches 97.1% accuracy on WSJ.\n")
    sm = to_source_map(parse_file(md))
    assert sm.title == "A Title" and [s.text for s in sm.sentences[1:]] == ["We use a CRF tagger.", "It reaches 97.1% accuracy on WSJ."]
    with pytest.raises(EmptyPaperError, match="no text"):
        to_source_map(PaperRecord(paper_id="x", title="Only a title", source_format="text", source="x.txt", sections=[Section(text="  ")]))


def test_segmenter_keeps_abbreviations_and_decimals():
    text = "Brants et al. (2000) report 96.7% accuracy, e.g. on the WSJ. Fig. 2 shows it. The end is near."
    assert split_sentences(text) == [
        "Brants et al. (2000) report 96.7% accuracy, e.g. on the WSJ.", "Fig. 2 shows it.", "The end is near."]
