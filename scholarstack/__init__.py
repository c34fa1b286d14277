"""ScholarStack's functional core: object model, store, parsing, extraction, organisation,
synthesis, views and tasks. Imports no Dagster."""

__version__ = "0.1.0"
