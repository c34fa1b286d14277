"""Idea generation as assets: the critic (its training data and weights, versioned with the code)
and one episode per configured topic, persisted and replayable, with its proposal."""

import yaml
from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, StaticPartitionsDefinition, asset

from resources import StoreResource
from resources.vectors import VectorIndexResource
from scholarstack.settings import CONFIG_DIR

IDEAS = yaml.safe_load((CONFIG_DIR / "ideas.yaml").read_text())
topic_partitions = StaticPartitionsDefinition(IDEAS["topics"])


@asset(deps=["vector_index"], group_name="ideas", kinds={"pytorch"}, code_version="2",
       description="The two-head graph critic, trained on heuristic-teacher episodes over LiveIdeaBench keywords (split by topic) "
                   "with evidence from the store; MiniLM node texts. Its weights are the package's "
                   "(scholarstack/learned/weights/idea_critic.pt, committed), so `--controller learned` works on a fresh clone.")
def idea_critic(context: AssetExecutionContext, store: StoreResource) -> MaterializeResult:
    from scholarstack.ideas.critic import SHIPPED_WEIGHTS
    from scholarstack.ideas.train import keywords, train_critic
    from scholarstack.index.embed import make_embedder
    from scholarstack.views.views import KnowledgeBase

    s = store.get()
    kb = KnowledgeBase(s)  # lexical evidence: the same critic whatever vector index a store has
    train = [k for k in keywords()[1::7] if k not in set(IDEAS["topics"])][: IDEAS["train_topics"]]
    critic, card = train_critic(train, make_embedder("minilm"), kb)
    card |= {"evidence_store": f"{s.home.name}: {s.status()['papers_with_sentences']} papers"}
    path = critic.save(SHIPPED_WEIGHTS, card)
    context.log.info(f"idea critic: dev edit accuracy {card['dev_edit_accuracy']} on {card['dev_edit_examples']} slates")
    return MaterializeResult(metadata={"weights": MetadataValue.path(str(path)), **{k: v for k, v in card.items() if k != "loss"},
                                       "loss": MetadataValue.json(card["loss"]), "model_card": MetadataValue.json(card)})


@asset(partitions_def=topic_partitions, deps=["idea_critic"], group_name="ideas",
       description="An idea-graph episode per topic (learned controller), persisted for replay, and its proposal.")
def idea_episodes(context: AssetExecutionContext, store: StoreResource, vectors: VectorIndexResource) -> MaterializeResult:
    from scholarstack.ideas.control import LearnedController
    from scholarstack.ideas.critic import shipped_critic
    from scholarstack.ideas.proposal import synthesize_proposal
    from scholarstack.ideas.runtime import run_episode
    from scholarstack.index.embed import make_embedder
    from scholarstack.views.views import KnowledgeBase

    s = store.get()
    kb = KnowledgeBase(s, vectors.open(s), vectors.make_embedder(s))
    critic, note = shipped_critic()
    context.log.info(f"controller: learned; {note}")
    controller = LearnedController(critic, make_embedder(critic.card.get("embedder", "minilm")) if critic else kb.embedder)
    ep = run_episode(context.partition_key, controller, kb, rounds=IDEAS["rounds"])
    out = s.home / "ideas" / "episodes" / f"{''.join(c if c.isalnum() else '_' for c in context.partition_key)}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    ep.save(out)
    prop = synthesize_proposal(ep.final)
    return MaterializeResult(metadata={"episode": MetadataValue.path(str(out)), "committed_round": ep.committed_round,
                                       **controller.stats(), **{k: round(v, 4) for k, v in prop.signals.items()},
                                       "proposal": MetadataValue.md(f"**Problem** {prop.problem}\n\n**Hypothesis** {prop.hypothesis}\n\n"
                                                                    f"**Method** {prop.method}\n\n**References** {len(prop.references)}")})
