"""The benchmarks: retrieval (ACL citing sentences), claims (SciFact), QA (QASPER).

One implementation, called by `scholarstack eval` and by the metric assets. Every system is
measured on the same items in the same run; results are returned as
`{"benchmark", "n", "systems": {name: {metric: value}}}`. With `limit`, items are taken evenly
across the file (not the first N), so a small run still spans the file.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scholarstack.ingest.catalog import raw_paper_ids
from scholarstack.ingest.corpora import read_acl, read_scifact
from scholarstack.ingest.records import PaperRecord, Section
from scholarstack.settings import shared_data_dir
from scholarstack.store import Store

from .metrics import accuracy, macro_f1, mrr_at_k, percentile, recall_at_k, set_f1, token_f1
from .papers import Compiler, compile_records, embedder_for, spread


def _timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


# -- retrieval ---------------------------------------------------------------------------------
class CrossFitAdapter:
    """Query adapters cross-fitted by citing paper: a request from a paper in fold f is adapted by
    the adapter trained on the other folds' citing sentences only."""

    FOLDS = 5

    def __init__(self, contexts: list[tuple[str, str, str]], corpus, emb, seed: int = 0):
        import numpy as np

        from scholarstack.learned.query_adapter import train

        row = {p: i for i, p in enumerate(corpus.ids)}
        ctx = [c for c in contexts if c[0] in row]
        vecs = emb.encode([t for _, _, t in ctx]) if ctx else np.zeros((0, emb.dim), dtype=np.float32)
        folds = np.array([self.fold(c[1]) for c in ctx])
        targets = np.array([row[c[0]] for c in ctx])
        docs = corpus.dense_matrix(emb)
        self.adapters = {f: train(vecs[folds != f], targets[folds != f], docs, seed=seed)[0] for f in range(self.FOLDS)}

    @classmethod
    def fold(cls, citing: str | None) -> int:
        import hashlib

        return int(hashlib.sha256(str(citing).encode()).hexdigest(), 16) % cls.FOLDS

    def apply(self, q, citing: str | None = None):
        return self.adapters[self.fold(citing)].apply(q)


def cited_retriever(store: Store, corpus, emb, contexts: list[tuple[str, str, str]]):
    """The retriever with every citation signal, the adapter cross-fitted by citing paper (what the
    benchmark measures and the `retrieval_ranker` asset trains on)."""
    from scholarstack.tasks.retrieval import CitationIndex, StoreRetriever

    return StoreRetriever(store, corpus, emb, citations=CitationIndex(contexts, set(corpus.ids), emb),
                          adapter=CrossFitAdapter(contexts, corpus, emb))


def cross_fitted_rankers(samples: list[tuple[dict, str, str]]) -> dict:
    """{fold: learned.paper_ranker trained on the other folds' requests}; samples: (rankings, cited, citing)."""
    from scholarstack.learned.paper_ranker import train

    return {f: train([(rk, cited) for rk, cited, citing in samples if CrossFitAdapter.fold(citing) != f])[0]
            for f in range(CrossFitAdapter.FOLDS)}


def eval_retrieval(store: Store, data: Path | None = None, limit: int | None = None, corpus_limit: int | None = None,
                   embedder: str = "minilm", progress: bool = False, layer_ablation: bool = False,
                   compiler: Compiler | None = None) -> dict[str, Any]:
    """Systems: bm25 / dense / hybrid on titles and abstracts; bm25 and hybrid on full text;
    `scholarstack_content` (full text + L1/L2/L3, the papers' own content only); `scholarstack`
    (that plus citation evidence: other papers' citing sentences, the query adapter, the citation
    prior), both fused by the learned ranker, and `_rrf` (the same rankings fused by fixed-weight
    RRF). A query's own citing paper is left out of the citation evidence, and the adapter and the
    ranker are cross-fitted by citing paper, so no query sees itself. The scholarstack systems know
    the request's year (the citing paper's, which its ACL id carries) and leave out later papers, as
    a user writing a paper would ask; `_undated` are the learned ones without that."""
    from scholarstack.ingest.citations import contexts_from_store, load_contexts
    from scholarstack.ingest.records import anthology_year
    from scholarstack.tasks.retrieval import (StoreRetriever, bm25_rank, corpus_from_store, dense_rank,
                                              fulltext_bm25_rank, fulltext_hybrid_rank, fuse, hybrid_rank, published_by)

    root = shared_data_dir() / "acl_scisummnet"
    data = Path(data) if data else root / "citances_dev.jsonl"
    papers = list(read_acl(root / "papers.jsonl.gz"))
    papers = [p for p in papers if p.abstract or p.sections]
    if corpus_limit:
        papers = spread(papers, corpus_limit)
    compile_records(store, papers, compiler, progress)
    corpus = corpus_from_store(store)
    in_corpus = set(corpus.ids)
    queries = [json.loads(line) for line in data.read_text().splitlines() if line.strip()]
    queries = spread([q for q in queries if q["cited_paper_id"] in in_corpus], limit)
    emb = embedder_for(embedder, store)
    corpus.dense_matrix(emb)  # embed the corpus once, outside the timed loop, for every system alike
    load_contexts(store, data)
    contexts = contexts_from_store(store)
    content = StoreRetriever(store, corpus, emb)
    full = cited_retriever(store, corpus, emb, contexts)
    # The store-based systems' rankings, once per request (timed); fused by RRF (the `_rrf` systems)
    # and by the learned ranker, cross-fitted by citing paper like the adapter.
    undated_content = [_timed(lambda q=q: content.rankings(q["query"])) for q in queries]
    undated_full = [_timed(lambda q=q: full.rankings(q["query"], citing_paper=q["citing_paper_id"])) for q in queries]

    def dated(pre):
        return [(published_by(rk, full.years, anthology_year(q["citing_paper_id"])), secs) for (rk, secs), q in zip(pre, queries)]

    ranked_content, ranked_full = dated(undated_content), dated(undated_full)

    def samples(pre):
        return [(rk, q["cited_paper_id"], q["citing_paper_id"]) for (rk, _), q in zip(pre, queries)]

    rankers = {True: cross_fitted_rankers(samples(ranked_full)), False: cross_fitted_rankers(samples(undated_full))}  # by dated
    row = {id(q): i for i, q in enumerate(queries)}

    def fused(pre, learned: bool, is_dated: bool = True):
        def rank(q):
            rk, secs = pre[row[id(q)]]
            ranked, more = _timed(lambda: rankers[is_dated][CrossFitAdapter.fold(q["citing_paper_id"])].rank(rk) if learned
                                  else fuse(rk, StoreRetriever.WEIGHTS))
            return ranked, secs + more
        return rank

    systems: dict[str, Callable[[dict], list[str]]] = {
        "bm25": lambda q: bm25_rank(corpus, q["query"], 100),
        "dense": lambda q: dense_rank(corpus, q["query"], emb, 100),
        "hybrid": lambda q: hybrid_rank(corpus, q["query"], emb, 100),
        "bm25_fulltext": lambda q: fulltext_bm25_rank(corpus, q["query"], 100),
        "hybrid_fulltext": lambda q: fulltext_hybrid_rank(corpus, q["query"], emb, 100),
    }
    timed_systems = {"scholarstack_content_rrf": fused(ranked_content, False), "scholarstack_content": fused(ranked_content, True),
                     "scholarstack_content_undated": fused(undated_content, True, False),
                     "scholarstack_rrf": fused(ranked_full, False), "scholarstack": fused(ranked_full, True),
                     "scholarstack_undated": fused(undated_full, True, False)}
    if layer_ablation:
        for layers in ("L1", "L1+L2"):
            systems[f"scholarstack_content_{layers}"] = (lambda r: lambda q: r.rank(q["query"]))(StoreRetriever(store, corpus, emb, layers))
    results: dict[str, dict[str, Any]] = {}
    for name, rank in {**systems, **timed_systems}.items():
        r1 = r5 = r10 = r100 = mrr = 0.0
        times = []
        for q in queries:
            ranked, secs = rank(q) if name in timed_systems else _timed(lambda: rank(q))
            times.append(secs)
            gold = q["cited_paper_id"]
            r1 += recall_at_k(ranked, gold, 1)
            r5 += recall_at_k(ranked, gold, 5)
            r10 += recall_at_k(ranked, gold, 10)
            r100 += recall_at_k(ranked, gold, 100)
            mrr += mrr_at_k(ranked, gold, 40)
        n = max(1, len(queries))
        results[name] = {"recall@1": round(r1 / n, 4), "recall@5": round(r5 / n, 4), "recall@10": round(r10 / n, 4),
                         "recall@100": round(r100 / n, 4), "mrr@40": round(mrr / n, 4),
                         "seconds_per_query": round(sum(times) / n, 5), "p50_ms": round(percentile(times, 50) * 1000, 2),
                         "p95_ms": round(percentile(times, 95) * 1000, 2), "llm_tokens_per_query": 0}
    return {"benchmark": "retrieval", "data": str(data), "n": len(queries), "corpus": len(corpus.ids), "embedder": emb.name,
            "systems": results}


# -- claims ------------------------------------------------------------------------------------
def eval_claims(store: Store, data: Path | None = None, limit: int | None = None, embedder: str | None = None,
                client=None, progress: bool = False, compiler: Compiler | None = None) -> dict[str, Any]:
    from scholarstack.learned.claim_verifier import is_dev_claim
    from scholarstack.tasks.claims import verify_claim
    from scholarstack.views.views import KnowledgeBase

    root = shared_data_dir() / "scifact"
    data = Path(data) if data else root / "claims_train.jsonl"
    claims = [json.loads(line) for line in data.read_text().splitlines() if line.strip()]
    split = "all"
    if data.name == "claims_train.jsonl":  # the learned verifier trains on the rest: measure on its development fifth
        claims, split = [c for c in claims if is_dev_claim(c["id"])], "dev"
    claims = spread(claims, limit)
    items = []  # (claim, paper_id, gold label, gold rationale locators)
    for c in claims:
        for doc in c.get("cited_doc_ids", []):
            ev = c.get("evidence", {}).get(str(doc), [])
            label = ev[0]["label"] if ev else "NOT ENOUGH INFO"
            rationale = {f"scifact-{doc}:{s + 1}" for e in ev for s in e["sentences"]}
            items.append((c["claim"], f"scifact-{doc}", label, rationale))
    wanted = {pid for _, pid, _, _ in items}
    records = [r for r in read_scifact(root / "corpus.jsonl.gz") if r.paper_id in wanted]
    compile_records(store, records, compiler, progress)
    have = set(raw_paper_ids(store))
    items = [it for it in items if it[1] in have]
    kb = KnowledgeBase(store)
    emb = embedder_for(embedder, store) if embedder else None
    results = {}
    systems = [("fulltext", "fulltext", "learned"), ("view", "view", "learned")]
    if client is None:  # before/after in one run: the rules the learned verifier replaces
        systems += [("fulltext_rules", "fulltext", "rules"), ("view_rules", "view", "rules")]
    for name, mode, method in systems:
        preds, golds, tokens, secs, rp, rr = [], [], 0, 0.0, [], []
        for claim, pid, label, rationale in items:
            ans = verify_claim(kb, claim, pid, mode=mode, embedder=emb, client=client, method=method)
            preds.append(ans.answer)
            golds.append(label)
            tokens += ans.tokens_in + ans.tokens_out
            secs += ans.seconds
            if label != "NOT ENOUGH INFO":
                p, r, _ = set_f1(set(ans.extra.get("rationale", [])), rationale)
                rp.append(p)
                rr.append(r)
        n = max(1, len(items))
        prec, rec = (sum(rp) / len(rp), sum(rr) / len(rr)) if rp else (0.0, 0.0)
        results[name] = {"label_accuracy": round(accuracy(preds, golds), 4),
                              "macro_f1": round(macro_f1(preds, golds, ["SUPPORT", "CONTRADICT", "NOT ENOUGH INFO"]), 4),
                              "rationale_f1": round(2 * prec * rec / (prec + rec), 4) if prec + rec else 0.0,
                              "tokens_per_claim": round(tokens / n, 1), "seconds_per_claim": round(secs / n, 4)}
    return {"benchmark": "claims", "data": str(data), "split": split, "n": len(items), "systems": results}


# -- QA ----------------------------------------------------------------------------------------
def qasper_records(path: Path) -> tuple[list[PaperRecord], list[tuple[str, str, str]]]:
    """QASPER as packaged by LEval: flat full text per paper; headings are short lines without a full stop."""
    records, questions = [], []
    for n, line in enumerate(path.read_text().splitlines()):
        if not line.strip():
            continue
        row = json.loads(line)
        pid = f"qasper-{n:03d}"
        sections, title, buf = [], "", []
        for ln in row["input"].splitlines():
            ln = ln.strip()
            if not ln:
                continue
            if len(ln) < 60 and not ln.endswith((".", ":", "?")) and len(ln.split()) <= 8:
                if buf:
                    sections.append(Section(title=title, text=" ".join(buf)))
                title, buf = ln, []
            else:
                buf.append(ln)
        if buf:
            sections.append(Section(title=title, text=" ".join(buf)))
        records.append(PaperRecord(paper_id=pid, title=sections[0].title if sections else pid, source_format="qasper_leval",
                                   source=f"{path}#{n}", sections=sections))
        questions += [(pid, q, a) for q, a in zip(row["instructions"], row["outputs"])]
    return records, questions


def eval_qa(store: Store, data: Path | None = None, limit: int | None = None, embedder: str | None = None,
            client=None, progress: bool = False, budget: int = 4000, compiler: Compiler | None = None) -> dict[str, Any]:
    from scholarstack.tasks.evidence import paper_items, score_items
    from scholarstack.tasks.qa import answer_question, extractive_answer
    from scholarstack.tasks.common import count_tokens
    from scholarstack.views.views import KnowledgeBase

    data = Path(data) if data else shared_data_dir() / "qasper_leval" / "scientific_qa.jsonl"
    records, questions = qasper_records(data)
    questions = spread(questions, limit)
    wanted = {pid for pid, _, _ in questions}
    compile_records(store, [r for r in records if r.paper_id in wanted], compiler, progress)
    kb = KnowledgeBase(store)
    emb = embedder_for(embedder, store) if embedder else None
    results = {}
    # Offline, `view_sentences` answers by quoting the best evidence (the answering rule before typed answers).
    systems = [("fulltext", "fulltext", True), ("rag", "rag", True), ("view", "view", True)]
    if client is None:
        systems.append(("view_sentences", "view", False))
    for name, mode, typed in systems:
        f1s, toks, secs, unans_right, unans_total = [], 0, 0.0, 0, 0
        for pid, q, gold in questions:
            if mode == "rag":  # plain passages: top sentences by BM25, no compiled objects
                t0 = time.perf_counter()
                ranked = score_items(q, paper_items(kb, pid, ("sentence",)), emb)[:5]
                context = "\n".join(r.item.text for r in ranked)
                answer = extractive_answer(q, ranked, typed)[0]  # the same answering rule as the other modes
                tokens, sec = count_tokens(q) + count_tokens(context), time.perf_counter() - t0
            else:
                ans = answer_question(kb, q, [pid], mode=mode, embedder=emb, client=client, budget=budget, typed=typed)
                answer, tokens, sec = ans.answer, ans.tokens_in, ans.seconds
            f1s.append(token_f1(answer, gold))
            toks += tokens
            secs += sec
            if gold.strip().lower() == "unanswerable":
                unans_total += 1
                unans_right += answer.strip().lower() == "unanswerable"
        n = max(1, len(questions))
        results[name] = {"answer_f1": round(sum(f1s) / n, 4), "input_tokens_per_question": round(toks / n, 1),
                         "unanswerable_recall": round(unans_right / unans_total, 4) if unans_total else None,
                         "seconds_per_question": round(secs / n, 4)}
    return {"benchmark": "qa", "data": str(data), "n": len(questions), "systems": results}


def eval_pdf_fidelity(store: Store, limit: int | None = None, **_: Any) -> dict[str, Any]:
    from . import pdf_fidelity

    res = pdf_fidelity.run(shared_data_dir() / "clscisumm2018", limit)
    return {"benchmark": "pdf_fidelity", "n": res["n"], "systems": {"pdfium": {
        "sentence_recall": res["sentence_recall"], "text_recall": res["text_recall"], "failed": res["failed"]}}}


def eval_scirex(store: Store, limit: int | None = None, **_: Any) -> dict[str, Any]:
    from . import scirex_eval

    path = shared_data_dir() / "scirex" / "docs.jsonl.gz"
    res = scirex_eval.run(path, limit)
    return {"benchmark": "scirex", "n": res["n"], "systems": {name: {
        "mention_f1": r["mention_f1_typed"]["f1"], "mention_f1_untyped": r["mention_f1_untyped"]["f1"],
        "salient_cluster_f1": r["salient_cluster_f1"]["f1"], "relation_f1": r["relation_f1"]["f1"]}
        for name, r in res["systems"].items()}, "own_method": scirex_eval.own_method(path, limit),
        "result_values": scirex_eval.result_values(path, limit)}


def eval_localisation(store: Store, **kw: Any) -> dict[str, Any]:
    from .localisation import eval_localisation as run

    return run(store, **{k: v for k, v in kw.items() if k in ("limit", "progress", "embedder", "compiler")})


def eval_store_fidelity(store: Store, **_: Any) -> dict[str, Any]:
    from .localisation import store_fidelity

    return store_fidelity(store)


BENCHMARKS = {"retrieval": eval_retrieval, "claims": eval_claims, "qa": eval_qa, "localisation": eval_localisation,
              "pdf_fidelity": eval_pdf_fidelity, "scirex": eval_scirex, "store_fidelity": eval_store_fidelity}
