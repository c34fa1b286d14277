"""Corpus readers: records as the real files give them."""

from __future__ import annotations

from scholarstack.ingest.corpora import read_acl, read_scirex
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


def test_a_scirex_title_is_the_title_alone_and_the_abstract_is_the_abstract():
    path = need_shared("scirex", "docs.jsonl.gz")
    records = [r for r in read_scirex(path) if not isinstance(r, tuple)]
    by_title = {r.title: r for r in records}
    # Most docs open "document: <title>" and run the abstract on in the title's section, without a heading.
    sgan = by_title["Stacked Generative Adversarial Networks"]
    assert sgan.abstract.sentences[0][1].startswith("In this paper, we propose a novel generative model named Stacked")
    assert sgan.sections[0].title == "Introduction"
    # A title split at its colon is one title; a heading alone ("section:") leaves the abstract an abstract.
    assert "InfoGAN: Interpretable Representation Learning by Information Maximizing Generative Adversarial Nets" in by_title
    srcnn = by_title["Image Super-Resolution Using Deep Convolutional Networks"]
    assert srcnn.abstract.sentences[0][1].startswith("Abstract-We propose a deep learning method")
    assert srcnn.sections[0].title == "INTRODUCTION"
    # The sentence ids stay the document's sentence indexes: 0 is the title.
    assert sgan.abstract.sentences[0][0] == 1
    assert not any(r.title.lower().startswith("document:") for r in records)
    assert sum(len(r.title.split()) > 25 for r in records) <= 2  # a title the release ran on into its first sentence
