"""Learned models of the offline backend, as assets: trained from ../shared/data, seeded, with a
model card as metadata. Their weights are committed, so a fresh clone runs without retraining."""

from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset

from scholarstack.index.embed import make_embedder
from scholarstack.learned import claim_verifier as cv
from scholarstack.learned import doc_entities, localiser, mention_tagger, paper_ranker, query_adapter, static_embedder, verb_forms
from scholarstack.settings import shared_data_dir

from resources import StoreResource

from .common import clean_metadata


def _result(card: dict) -> MaterializeResult:
    return MaterializeResult(metadata=clean_metadata(card | {"model_card": MetadataValue.json(card)}))


@asset(group_name="models", kinds={"sklearn", "numpy"},
       description="Claim verifier (rationale, contradiction and label models over MiniLM pair features), trained on "
                   "SciFact claims_train minus its development fifth; weights in scholarstack/learned/weights/.")
def claim_verifier(context: AssetExecutionContext) -> MaterializeResult:
    card = cv.train_from_shared(shared_data_dir(), make_embedder("minilm"), seed=0)
    context.log.info(f"claim verifier: dev macro-F1 {card['dev_macro_f1']} on {card['dev_pairs']} pairs")
    return _result(card)


@asset(group_name="models", kinds={"pytorch"},
       description="Scientific mention tagger (BiLSTM over MiniLM static word-piece vectors, BIO Viterbi) for Method, "
                   "Task, Metric and Material spans; trained on SciREX train_docs only.")
def scirex_mention_tagger(context: AssetExecutionContext) -> MaterializeResult:
    card = mention_tagger.train_from_shared(shared_data_dir(), seed=0, log=context.log.info)
    return _result(card)


@asset(group_name="models", kinds={"pytorch"},
       description="Static embedder for large vector indexes (SCHOLARSTACK_EMBEDDER=static): one vector per MiniLM word "
                   "piece, distilled from all-MiniLM-L6-v2 and trained to reproduce its sentence vectors on SciREX "
                   "train_docs sentences only.")
def index_static_embedder(context: AssetExecutionContext) -> MaterializeResult:
    return _result(static_embedder.train_from_shared(shared_data_dir(), seed=0, log=context.log.info))


@asset(group_name="models", kinds={"python"},
       description="L1's lexicon of verbs ending in -s that its rules do not list ('proceeds', 'captures'), counted from "
                   "SciREX train_docs: word forms after a subject word far more often than after a determiner, whose base "
                   "form follows 'to', 'we' or a modal. The subject of a fact is the phrase before its main verb.")
def l1_verb_forms(context: AssetExecutionContext) -> MaterializeResult:
    card = verb_forms.train_from_shared(shared_data_dir())
    context.log.info(f"verb forms: {card['forms']} of {card['candidates']} candidate -s forms")
    return _result(card)


@asset(group_name="models", kinds={"sklearn", "numpy"}, deps=[scirex_mention_tagger],
       description="Document entity model: salience of mention clusters and (Method, Material) result pairs, "
                   "logistic models over the tagger's output on SciREX train_docs.")
def scirex_doc_entities(context: AssetExecutionContext) -> MaterializeResult:
    card = doc_entities.train_from_shared(shared_data_dir(), seed=0, log=context.log.info)
    return _result(card)


@asset(group_name="models", kinds={"pytorch"},
       description="Query adapter for literature retrieval: a linear map on MiniLM query vectors trained with "
                   "in-corpus InfoNCE on ACL ScisummNet citing sentences against the cited papers' abstracts.")
def retrieval_query_adapter(context: AssetExecutionContext) -> MaterializeResult:
    card = query_adapter.train_from_shared(shared_data_dir(), make_embedder("minilm"), seed=0)
    return _result(card)


@asset(group_name="models", kinds={"sklearn", "numpy"}, deps=[scirex_mention_tagger, scirex_doc_entities],
       description="Evidence localiser: a logistic ranker of a cited paper's sentences for a citing sentence (lexical, "
                   "dense, neighbour, position, sentence kind and L1-fact features), trained on the CL-SciSumm 2018 topics; "
                   "k chosen by leave-topics-out F1.")
def evidence_localiser(context: AssetExecutionContext) -> MaterializeResult:
    card = localiser.train_from_shared(shared_data_dir(), make_embedder("minilm"), seed=0)
    context.log.info(f"localiser: leave-topics-out F1 by k {card['leave_topics_out_f1_by_k']}")
    return _result(card)


@asset(group_name="models", kinds={"sklearn", "numpy"}, deps=[claim_verifier],
       description="Deep search's relevance judge: a logistic model over dense, lexical and rationale (claim verifier) "
                   "similarity, depth and citations among the collected papers, trained on ACL ScisummNet papers' in-corpus "
                   "reference lists (each query hidden from its own search), with recall@10 cross-fitted by query paper.")
def search_relevance_judge(context: AssetExecutionContext) -> MaterializeResult:
    from scholarstack.search import judge

    card = judge.train_from_shared(make_embedder("minilm"), seed=0, progress=True)
    context.log.info(f"search judge: cross-fitted recall@10 {card['cross_fitted_recall@10']} "
                     f"(dense alone {card['dense_recall@10_same_searches']}) over {card['queries']} query papers")
    return _result(card)


@asset(group_name="models", kinds={"sklearn", "duckdb"}, deps=[retrieval_query_adapter],
       description="Paper ranker for literature retrieval: a logistic model over the retriever's rankings (full text, "
                   "dense, L1/L2/L3, citing sentences, query adapter, citation prior) and their agreement, trained on ACL "
                   "ScisummNet citing sentences against the store's compiled ACL corpus (papers later than the citing one left "
                   "out), with the adapter cross-fitted by citing paper.")
def retrieval_ranker(context: AssetExecutionContext, store: StoreResource) -> MaterializeResult:
    import json

    from dagster import Failure

    from evaluations.benchmarks import cited_retriever
    from scholarstack.ingest.citations import contexts_from_store, load_contexts
    from scholarstack.tasks.retrieval import corpus_from_store

    st = store.get()
    data = shared_data_dir() / "acl_scisummnet" / "citances_dev.jsonl"
    corpus = corpus_from_store(st)
    in_corpus = set(corpus.ids)
    requests = [r for r in map(json.loads, data.read_text().splitlines()) if r["cited_paper_id"] in in_corpus]
    if len(requests) < 1000:
        raise Failure(description=f"store {st.home} holds {len(corpus.ids)} papers, too few of the ACL ScisummNet corpus the "
                                  "ranker trains on; compile it first (`scholarstack eval retrieval --store DIR` does)")
    emb = make_embedder("minilm", st.home)
    load_contexts(st, data)
    return _result(paper_ranker.train_from_retriever(cited_retriever(st, corpus, emb, contexts_from_store(st)), requests, seed=0, log=context.log.info) |
                   {"data": "acl_scisummnet/citances_dev.jsonl against the store's ACL corpus"})
