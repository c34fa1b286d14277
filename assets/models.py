"""Learned models of the offline backend, as assets: trained from ../shared/data, seeded, with a
model card as metadata. Their weights are committed, so a fresh clone runs without retraining."""

from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset

from scholarstack.index.embed import make_embedder
from scholarstack.learned.claim_verifier import train_from_shared
from scholarstack.settings import shared_data_dir

from .common import clean_metadata


@asset(group_name="models", kinds={"sklearn", "numpy"},
       description="Claim verifier (rationale, contradiction and label models over MiniLM pair features), trained on "
                   "SciFact claims_train minus its development fifth; weights in scholarstack/learned/weights/.")
def claim_verifier(context: AssetExecutionContext) -> MaterializeResult:
    card = train_from_shared(shared_data_dir(), make_embedder("minilm"), seed=0)
    context.log.info(f"claim verifier: dev macro-F1 {card['dev_macro_f1']} on {card['dev_pairs']} pairs")
    return MaterializeResult(metadata=clean_metadata(card | {"model_card": MetadataValue.json(card)}))
