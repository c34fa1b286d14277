"""Ingestion through dlt into raw.papers: versions by content hash, failures recorded, corpora read."""

from __future__ import annotations

import shutil

from scholarstack.ingest.catalog import ingest_paths, ingest_records, paper_years, raw_paper_ids, raw_record
from scholarstack.ingest.corpora import read_scifact
from scholarstack.ingest.records import PaperRecord, Section, anthology_year, to_source_map
from scholarstack.settings import SAMPLE_DIR
from tests.conftest import need_shared


def test_ingest_sample_then_change_one_file(store, tmp_path):
    folder = tmp_path / "papers"
    shutil.copytree(SAMPLE_DIR, folder)
    (folder / "broken.pdf").write_bytes(b"not a pdf at all")
    report = ingest_paths(store, [folder])
    assert report["new"] == 13 and report["changed"] == 0
    assert [f["source"] for f in report["failed"]] == [str(folder / "broken.pdf")]
    assert any("broken.pdf" in r["candidate_id"] and "not a readable PDF" in r["reason"] for r in store.rejections())
    again = ingest_paths(store, [folder])
    assert again["unchanged"] == 13 and again["new"] == again["changed"] == 0
    tei = folder / "N18-3011.tei.xml"
    tei.write_text(tei.read_text().replace("surprisingly good results", "remarkably good results"))
    third = ingest_paths(store, [folder])
    assert third["changed_ids"] == ["N18-3011"] and third["unchanged"] == 12
    assert "remarkably good results" in raw_record(store, "N18-3011").model_dump_json()
    assert len(raw_paper_ids(store)) == 13


def test_publication_years_from_records_and_anthology_ids(store):
    assert (anthology_year("P05-1022"), anthology_year("W99-0613"), anthology_year("N18-3011")) == (2005, 1999, 2018)
    assert anthology_year("scifact-1022") is None and anthology_year("P05-10221") is None
    text = [Section(title="Intro", text="We test a tagger on the Penn Treebank and report its accuracy.")]
    ingest_records(store, [PaperRecord(paper_id="P05-1022", source_format="text", source="a", sections=text),
                           PaperRecord(paper_id="arxiv-1", year=2021, source_format="text", source="b", sections=text),
                           PaperRecord(paper_id="notes", source_format="text", source="c", sections=text)])
    assert paper_years(store) == {"P05-1022": 2005, "arxiv-1": 2021}  # "notes" has no known year


def test_acl_corpus_keeps_sentence_ids(store):
    path = need_shared("acl_scisummnet", "papers.jsonl.gz")
    report = ingest_paths(store, [path], limit=3)
    assert report["loaded"] == 3
    sm = to_source_map(raw_record(store, "A00-1031"))
    by_sid = {s.sid: s.text for s in sm.sentences}
    assert by_sid[1].startswith("Trigrams'n'Tags (TnT) is an efficient statistical part-of-speech tagger")
    assert by_sid[27].startswith("TnT uses second order Markov models")


def test_scifact_sids_follow_rationale_indices():
    path = need_shared("scifact", "corpus.jsonl.gz")
    rec = next(read_scifact(path, limit=1))
    sm = to_source_map(rec)
    assert sm.sentences[0].sid == 0 and sm.sentences[1].sid == 1  # title, then abstract sentence index 0 → sid 1
    assert sm.paper_key.startswith("scifact-")


def test_records_read_ahead_are_handed_out_while_they_are_current(store):
    """`read_ahead` reads several records in one query; a record re-ingested since is read again."""
    def record(pid: str, text: str) -> PaperRecord:
        return PaperRecord(paper_id=pid, source_format="text", source=pid, sections=[Section(title="Intro", text=text)])

    ingest_records(store, [record("A", "We test a tagger on the Penn Treebank."), record("B", "We parse the Brown corpus.")])
    store.read_ahead(["A", "B", "unknown"])
    ingest_records(store, [record("B", "We parse the Brown corpus again, faster.")])
    assert "Penn Treebank" in raw_record(store, "A").model_dump_json()
    assert "again, faster" in raw_record(store, "B").model_dump_json()  # not the copy read ahead
    assert store.raw_record_json("unknown") is None
