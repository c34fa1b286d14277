"""The vector index and embedder: embedded Qdrant Edge + packaged MiniLM by default;
`url` switches to a Qdrant server or cluster, `embedder: tfidf` to the light fallback."""

from dagster import ConfigurableResource

from scholarstack.index.embed import Embedder, make_embedder
from scholarstack.index.vectors import VectorIndex, open_index
from scholarstack.store import Store


class VectorIndexResource(ConfigurableResource):
    url: str | None = None
    embedder: str = "minilm"

    def open(self, store: Store) -> VectorIndex:
        return open_index(store.home, self.url)

    def make_embedder(self, store: Store) -> Embedder:
        return make_embedder(self.embedder, store.home)
