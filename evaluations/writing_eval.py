"""Writing benchmarks (issue #13), on the ACL ScisummNet corpus.

related_work: each corpus paper that cites other corpus papers (`citing_paper_id` in
citances_dev.jsonl) gets its related work written from its own title and abstract, itself and
later papers excluded, citing as many papers as it really cites; cited-work precision and recall
against those, next to the top-k of hybrid retrieval on the abstract (the same exclusions). Also:
citation support (the share of sourced sentences the learned claim verifier labels SUPPORT from
their cited text, and the share the lexical citation check accepts), tokens per section.

review: reviews of taxonomy topics, asked by name: coverage of the topic's papers, citation
resolution and support, disagreements.

summary: ROUGE-1/2/L F (rouge-score, stemmed) of the summary written from the paper's L1/L2
objects against ScisummNet's human summary, next to the abstract, the first 250 words and a
full-text TextRank; tokens read for the view vs the full text. ScisummNet's human summaries start
from the paper's abstract, so the abstract baseline is strong by construction.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scholarstack.ingest.corpora import read_acl
from scholarstack.settings import shared_data_dir
from scholarstack.store import Store

from .papers import Compiler, compile_records, embedder_for, spread

ROOT = "acl_scisummnet"


def _corpus(store: Store, compiler: Compiler | None, progress: bool, keep=None):
    """The corpus papers (those `keep` accepts, when given), compiled into the store."""
    papers = [p for p in read_acl(shared_data_dir() / ROOT / "papers.jsonl.gz") if (p.abstract or p.sections)
              and (keep is None or keep(p.paper_id))]
    compile_records(store, papers, compiler, progress)
    return papers


def _ids() -> list[str]:
    return [pid for pid, _ in _human_summaries()]


def citing_gold(data: Path, in_corpus: set[str]) -> dict[str, set[str]]:
    """citing corpus paper → the corpus papers it cites (itself never)."""
    gold: dict[str, set[str]] = defaultdict(set)
    for line in data.read_text().splitlines():
        if line.strip():
            q = json.loads(line)
            if q["citing_paper_id"] in in_corpus and q["cited_paper_id"] in in_corpus and q["citing_paper_id"] != q["cited_paper_id"]:
                gold[q["citing_paper_id"]].add(q["cited_paper_id"])
    return dict(sorted(gold.items()))


def support_rates(store: Store, result, verifier, emb) -> tuple[int, int]:
    """(sourced sentences, those the claim verifier labels SUPPORT from their cited text); every
    sourced sentence that was kept passed the lexical check."""
    from scholarstack.verify import cited_texts

    sourced = [s for s in result.writing.sentences() if not s.interpretation]
    texts = cited_texts(store, sorted({c for s in sourced for c in s.citations}))
    by_model = 0
    for s in sourced:
        evidence = [texts[c][0] for c in s.citations if c in texts]
        if verifier is not None and evidence and verifier.predict(s.text, evidence, emb).label == "SUPPORT":
            by_model += 1
    return len(sourced), by_model


@dataclass
class CitingSetup:
    """What the citing-paper benchmarks share: the compiled corpus, each chosen citing paper's real
    in-corpus references, the embedder, and the store's retriever as a request from a new paper
    sees it (its own citing sentences left out, the query adapter cross-fitted by citing paper)."""

    corpus: Any
    items: list[tuple[str, set[str]]]
    citing_papers: int
    emb: Any
    retriever: Any
    data: Path


def citing_setup(store: Store, data: Path | None, limit: int | None, corpus_limit: int | None, embedder: str,
                 progress: bool, compiler: Compiler | None) -> CitingSetup:
    """`corpus_limit`: compile only the chosen citing papers, the papers they cite and other papers
    spread over the corpus up to that many (a small run); default the whole corpus."""
    from scholarstack.ingest.citations import contexts_from_store, load_contexts
    from scholarstack.learned import paper_ranker
    from scholarstack.tasks.retrieval import corpus_from_store

    from .benchmarks import cited_retriever

    data = Path(data) if data else shared_data_dir() / ROOT / "citances_dev.jsonl"
    ids = _ids()
    keep = None
    if corpus_limit:
        chosen = spread(list(citing_gold(data, set(ids)).items()), limit)
        wanted = {p for citing, cited in chosen for p in (citing, *cited)}
        wanted |= set(spread([p for p in ids if p not in wanted], max(0, corpus_limit - len(wanted))))
        keep = wanted.__contains__
    _corpus(store, compiler, progress, keep)
    corpus = corpus_from_store(store)
    gold = citing_gold(data, set(corpus.ids))
    emb = embedder_for(embedder, store)
    load_contexts(store, data)
    retriever = cited_retriever(store, corpus, emb, contexts_from_store(store))
    retriever.ranker = paper_ranker.load()
    return CitingSetup(corpus, spread(list(gold.items()), limit), len(gold), emb, retriever, data)


def eval_related_work(store: Store, data: Path | None = None, limit: int | None = None, corpus_limit: int | None = None,
                      embedder: str = "minilm", progress: bool = False, compiler: Compiler | None = None, **_: Any) -> dict[str, Any]:
    """`corpus_limit`: see citing_setup."""
    from tqdm import tqdm

    from scholarstack.ingest.catalog import paper_years
    from scholarstack.learned.claim_verifier import default_verifier
    from scholarstack.tasks.claims import verifier_encoder
    from scholarstack.tasks.retrieval import hybrid_rank
    from scholarstack.writing.organisation import read_organisation
    from scholarstack.writing.related_work import related_work, request_text

    setup = citing_setup(store, data, limit, corpus_limit, embedder, progress, compiler)
    corpus, items, emb, retriever = setup.corpus, setup.items, setup.emb, setup.retriever
    years = paper_years(store)
    org = read_organisation(store)
    verifier = default_verifier()
    verifier_emb = verifier_encoder()  # the verifier's own encoder, whatever embedder retrieval uses
    sums: dict[str, dict[str, float]] = {"hybrid_abstract": defaultdict(float), "scholarstack_related_work": defaultdict(float)}
    sentences = supported_model = sections = tokens = 0
    seconds = []
    for citing, cited in tqdm(items, desc="related work", unit="paper", disable=not progress):
        k = len(cited)
        query, _, _, _ = request_text(store, citing, None)
        year = years.get(citing)
        base = [p for p in hybrid_rank(corpus, query, emb, k + 50) if p != citing and years.get(p, year or 0) <= (year or 9999)][:k]
        t0 = time.perf_counter()
        result = related_work(store, paper=citing, k=k, embedder=emb, register=False, retriever=retriever, org=org)
        seconds.append(time.perf_counter() - t0)
        for name, found in (("hybrid_abstract", base), ("scholarstack_related_work", result.extra["cited_papers"])):
            hit = len(set(found) & cited)
            sums[name]["precision"] += hit / max(1, len(found))
            sums[name]["recall"] += hit / len(cited)
        n, by_model = support_rates(store, result, verifier, verifier_emb)
        sentences += n
        supported_model += by_model
        sections += len(result.writing.sections)
        tokens += result.tokens_out
    n = max(1, len(items))
    systems = {name: {m: round(v / n, 4) for m, v in s.items()} for name, s in sums.items()}
    systems["scholarstack_related_work"] |= {
        "citation_support_verifier": round(supported_model / max(1, sentences), 4),
        "citation_resolution": 1.0, "tokens_per_section": round(tokens / max(1, sections), 1),
        "seconds_per_paper": round(sum(seconds) / n, 3)}
    return {"benchmark": "related_work", "data": str(setup.data), "n": len(items), "citing_papers": setup.citing_papers, "systems": systems}


def textrank(sentences: list[str], words: int) -> str:
    """TextRank: PageRank (networkx) over TF-IDF cosine similarities (scikit-learn) of the sentences,
    the best ones in document order up to `words` (two libraries, ten lines: no summariser package
    here runs without downloading tokenizer data)."""
    import networkx as nx
    from sklearn.feature_extraction.text import TfidfVectorizer

    if len(sentences) < 2:
        return " ".join(sentences)
    tf = TfidfVectorizer(stop_words="english").fit_transform(sentences)
    sim = (tf @ tf.T).toarray()
    sim[range(len(sentences)), range(len(sentences))] = 0.0
    rank = nx.pagerank(nx.from_numpy_array(sim))
    chosen, used = [], 0
    for i in sorted(rank, key=lambda i: -rank[i]):
        if used >= words:
            break
        chosen.append(i)
        used += len(sentences[i].split())
    return " ".join(sentences[i] for i in sorted(chosen))


def eval_summary(store: Store, limit: int | None = None, words: int = 250, progress: bool = False,
                 compiler: Compiler | None = None, **_: Any) -> dict[str, Any]:
    """Both sets of human summaries: ScisummNet's (`human_summary`) and CL-SciSumm 2018's
    (`summary/*.human.txt`); `limit`: at most that many papers of each, spread over the set."""
    from scholarstack.ingest.clscisumm import human_summary, reference_record

    human = {pid: text for pid, text in _human_summaries() if text}
    chosen = set(spread(sorted(human), limit))
    papers = _corpus(store, compiler, progress, chosen.__contains__)
    sets = {"scisummnet": [(p, human[p.paper_id]) for p in papers]}
    topics = sorted(t for t in (shared_data_dir() / "clscisumm2018").iterdir() if t.is_dir())
    cls = spread([(r, text) for t in topics if (text := human_summary(t)) and (r := reference_record(t)) is not None], limit)
    compile_records(store, [r for r, _ in cls], compiler, progress)
    sets["clscisumm"] = cls
    out = {name: _score_summaries(store, items, words, progress) for name, items in sets.items()}
    return {"benchmark": "summary", "n": sum(o["n"] for o in out.values()), "sets": out,
            "systems": {f"{name}/{system}": v for name, o in out.items() for system, v in o["systems"].items()}}


def rouge():
    """rouge-score's ROUGE-1/2/L scorer (stemmed). rouge-score logs through absl, whose handler keeps
    the stderr of the moment absl was imported and closes it whenever logging is reconfigured (under
    pytest: the capture stream); it is pointed at the process's own stderr, which it never closes."""
    import sys

    from absl import logging as absl_logging
    from rouge_score import rouge_scorer, tokenizers

    absl_logging.get_absl_handler().python_handler.stream = sys.__stderr__
    return rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=tokenizers.DefaultTokenizer(use_stemmer=True))


def _score_summaries(store: Store, items: list, words: int, progress: bool) -> dict[str, Any]:
    """ROUGE F of each system's summary against the human one; tokens read by the view and by a
    full-text reader."""
    from tqdm import tqdm

    from scholarstack.tasks.common import count_tokens
    from scholarstack.writing.summary import summarize

    scorer = rouge()
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    read_view = read_full = failed = n = 0
    for p, gold in tqdm(items, desc="summaries", unit="paper", disable=not progress):
        if store.get_row(p.paper_id) is None:
            failed += 1
            continue
        prose = [s["text"] for s in store.paper_sentences(p.paper_id) if s["kind"] == "prose" and s["sid"] > 0]
        abstract = " ".join(t for _, t in p.abstract.sentences) or p.abstract.text if p.abstract else ""
        first = " ".join(" ".join(prose).split()[:words])
        try:
            result = summarize(store, p.paper_id, words=words, register=False)
        except (LookupError, ValueError):  # no facts, or none usable: counted, the others go on
            failed += 1
            continue
        n += 1
        ours = " ".join(s.text for s in result.writing.sentences())
        read_view += result.tokens_in
        read_full += count_tokens(" ".join(prose))
        for name, text in (("abstract", abstract), ("first_250_words", first), ("textrank_fulltext", textrank(prose, words)),
                           ("scholarstack_summary", ours)):
            for m, score in scorer.score(gold, text).items():
                sums[name][m] += score.fmeasure
            sums[name]["words"] += len(text.split())
    systems = {name: {m: round(v / max(1, n), 4) for m, v in s.items()} for name, s in sums.items()}
    if n:
        systems["scholarstack_summary"] |= {"tokens_read": round(read_view / n, 1)}
        systems["textrank_fulltext"] |= {"tokens_read": round(read_full / n, 1)}
    return {"n": n, "failed": failed, "systems": systems}


def topic_papers(org, dimension: str = "task_area") -> dict[str, list[str]]:
    """Taxonomy category name → the papers whose dominant category of `dimension` it is."""
    out: dict[str, list[str]] = defaultdict(list)
    for paper in sorted(org.categories):
        if (cat := org.dominant(paper, dimension)) is not None:
            out[org.category_names.get(cat, cat)].append(paper)
    return dict(sorted(out.items()))


def eval_review(store: Store, limit: int | None = 5, k: int = 30, corpus_limit: int | None = None, embedder: str = "minilm",
                progress: bool = False, compiler: Compiler | None = None, **_: Any) -> dict[str, Any]:
    """Reviews of `limit` topics (task-area categories of the compiled taxonomy, spread over them by
    name), each asked by its name alone with `k` papers found through the views. Per topic: coverage
    (the share of the topic's papers, those whose dominant task area it is, that the review cites;
    also out of at most `k`), precision (the share of cited papers in the topic), citation
    resolution (cited ids and locators that resolve in the store), citation support (the claim
    verifier), disagreements (from L3 syntheses), tokens and seconds."""
    from tqdm import tqdm

    from scholarstack.tasks.claims import verifier_encoder
    from scholarstack.learned.claim_verifier import default_verifier
    from scholarstack.verify import cited_texts
    from scholarstack.writing.organisation import read_organisation
    from scholarstack.writing.review import review

    _corpus(store, compiler, progress, set(spread(_ids(), corpus_limit)).__contains__ if corpus_limit else None)
    org = read_organisation(store)
    topics = spread(list(topic_papers(org).items()), limit)
    emb = embedder_for(embedder, store)
    verifier, verifier_emb = default_verifier(), verifier_encoder()
    rows = []
    for topic, members in tqdm(topics, desc="reviews", unit="topic", disable=not progress):
        t0 = time.perf_counter()
        result = review(store, topic, k=k, embedder=emb, register=False)
        seconds = time.perf_counter() - t0
        writing = result.writing
        citations = sorted({c for s in writing.sentences() for c in s.citations} | {r["fact"] for sec in writing.sections for r in sec.table})
        resolved = cited_texts(store, citations)
        cited_papers = {paper for _, paper in resolved.values() if paper}
        hit = len(cited_papers & set(members))
        n, by_model = support_rates(store, result, verifier, verifier_emb)
        rows.append({"topic": topic, "topic_papers": len(members), "cited_papers": len(cited_papers),
                     "coverage": round(hit / len(members), 4), "coverage_at_k": round(hit / min(k, len(members)), 4),
                     "precision": round(hit / max(1, len(cited_papers)), 4),
                     "citation_resolution": round(len(resolved) / max(1, len(citations)), 4),
                     "citation_support_verifier": round(by_model / max(1, n), 4), "sections": len(writing.sections),
                     "table_rows": sum(len(sec.table) for sec in writing.sections),
                     "disagreements": result.extra["disagreements"], "tokens_out": result.tokens_out,
                     "seconds": round(seconds, 2)})
    keys = ("coverage", "coverage_at_k", "precision", "citation_resolution", "citation_support_verifier")
    mean = {m: round(sum(r[m] for r in rows) / max(1, len(rows)), 4) for m in keys}
    mean["disagreements"] = sum(r["disagreements"] for r in rows)
    return {"benchmark": "review", "n": len(rows), "k": k, "topics": rows, "systems": {"scholarstack_review": mean}}


def _human_summaries():
    import gzip

    with gzip.open(shared_data_dir() / ROOT / "papers.jsonl.gz", "rt") as f:
        for line in f:
            d = json.loads(line)
            yield d["paper_id"], d.get("human_summary") or ""


WRITING_BENCHMARKS = {"related_work": eval_related_work, "summary": eval_summary, "review": eval_review}
