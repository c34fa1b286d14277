"""CL-SciSumm reference papers keep the XML's abstract, sections and sentence ids."""

from __future__ import annotations

from scholarstack.ingest.clscisumm import human_summary, reference_record
from tests.conftest import need_shared


def test_reference_record_keeps_abstract_sections_and_sids():
    topic = need_shared("clscisumm2018", "C00-2123")
    record = reference_record(topic)
    assert record.title.startswith("Word Re-ordering and DP-based Search")
    assert [sid for sid, _ in record.abstract.sentences] == [1, 2, 3, 4]
    assert [s.title for s in record.sections][:3] == ["Introduction", "Basic Approach", "DP Algorithm for Statistical"]
    sids = [sid for s in record.sections for sid, _ in s.sentences]
    assert sids[0] == 5 and len(sids) == len(set(sids))  # the annotation's ids, each once
    assert human_summary(topic).startswith("The authors in this paper describe a search procedure")


def test_topic_without_summary_reads_empty(tmp_path):
    (tmp_path / "T1" / "Reference_XML").mkdir(parents=True)
    (tmp_path / "T1" / "Reference_XML" / "T1.xml").write_text('<PAPER><S sid="0">A title</S><S sid="3">Body &amp; more.</S>')
    record = reference_record(tmp_path / "T1")  # not well-formed XML still reads
    assert record.title == "A title" and record.abstract is None
    assert record.sections[0].title == "body" and record.sections[0].sentences == [(3, "Body & more.")]
    assert human_summary(tmp_path / "T1") == ""
