"""Corpus readers: records as the real files give them."""

from __future__ import annotations

from scholarstack.ingest.corpora import read_acl
from tests.conftest import need_shared


def test_an_acl_title_the_scanned_header_ran_on_into_is_the_title_alone():
    path = need_shared("acl_scisummnet", "papers.jsonl.gz")
    titles = {r.paper_id: r.title for r in read_acl(path) if not isinstance(r, tuple)}
    assert len(titles) == 978
    # The header's authors and affiliation are cut, exactly or through an OCR slip ("~om" for "from").
    assert titles["C00-1007"] == "Exploiting A Probabilistic Hierarchical Model For Generation"
    hearst = next(t for t in titles.values() if t.startswith("Automatic Acquisition Of Hyponyms"))
    assert hearst == "Automatic Acquisition Of Hyponyms From Large Text Corpora"
    # A long title that is only a title stays whole; so does a clean one.
    assert titles["A00-1031"] == "TnT - A Statistical Part-Of-Speech Tagger"
    assert any(t.startswith("A Tale of Two Parsers: Investigating and Combining Graph-based and Transition-based Dependency Pars")
               for t in titles.values())
    header = [t for t in titles.values() if any(m in t for m in ("@", "Department", "Laboratories", "Universi", "Dept."))]
    assert len(header) <= 3  # 32 in the file; left: a header whose summary title differs, and two running heads
