"""Citation contexts: loaded line by line (bad lines reported, good ones kept) and used by retrieval."""

import json

from scholarstack.ingest.citations import contexts_from_store, load_contexts, read_contexts, strip_citation_markers
from scholarstack.tasks.retrieval import CitationIndex


def write(path, rows):
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n")
    return path


def test_bad_lines_are_reported_and_the_rest_loaded(store, tmp_path):
    f = write(tmp_path / "c.jsonl", [
        {"query_id": "q1", "query": "taggers like TnT [CITATION] are fast", "cited_paper_id": "A00-1031", "citing_paper_id": "X1"},
        "{not json",
        {"query": "no cited id", "citing_paper_id": "X2"},
        {"query_id": "q2", "query": "trigram HMM tagging [CITATION]", "cited_paper_id": "A00-1031", "citing_paper_id": "X2"},
    ])
    rows, failed = read_contexts(f)
    assert [r[0] for r in rows] == ["q1", "q2"] and rows[0][3] == "taggers like TnT are fast"
    assert len(failed) == 2 and all(str(f) in x and "skipped" in x for x in failed) and "line 3" in failed[1]
    report = load_contexts(store, f)
    assert report["loaded"] == 2 and report["cited_papers"] == 1
    load_contexts(store, f)  # loading again replaces by id: no duplicates
    assert len(contexts_from_store(store)) == 2


def test_citation_index_leaves_the_requests_own_paper_out():
    idx = CitationIndex([("P1", "X1", "trigram tagger with suffix analysis"), ("P2", "X2", "a trigram language model"),
                         ("P3", "X3", "unrelated words")], {"P1", "P2", "P3"})
    assert idx.rank("trigram tagger")[:2] == ["P1", "P2"]
    assert idx.rank("trigram tagger", exclude_citing="X1") == ["P2"]


def test_citation_markers_are_stripped_and_narrative_ones_on_request():
    text = "TnT (Brants, 2000; Collins and Duffy 2002) tags well [3], as Ratnaparkhi et al. (1996) found."
    assert strip_citation_markers(text) == "TnT tags well , as Ratnaparkhi et al. (1996) found."
    assert strip_citation_markers(text, narrative=True) == "TnT tags well , as found."
    assert strip_citation_markers("Brill and Ngai, 1999 and Collins et al. 2002 agree.", narrative=True) == "and agree."
    for kept in ("Results for 2000 sentences (Table 3).", "In 2000 sentences, Using 1999 data."):
        assert strip_citation_markers(kept, narrative=True) == kept
