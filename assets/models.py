"""Learned models of the offline backend, as assets: trained from ../shared/data, seeded, with a
model card as metadata. Their weights are committed, so a fresh clone runs without retraining."""

from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset

from scholarstack.index.embed import make_embedder
from scholarstack.learned import claim_verifier as cv
from scholarstack.learned import doc_entities, localiser, mention_tagger, query_adapter
from scholarstack.settings import shared_data_dir

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
