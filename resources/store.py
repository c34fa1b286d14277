"""The store resource: a DuckDB store directory (embedded default)."""

from __future__ import annotations

from dagster import ConfigurableResource

from scholarstack.store import Store


class StoreResource(ConfigurableResource):
    home: str | None = None  # default: $SCHOLARSTACK_HOME or ./.scholarstack
    lock_timeout_s: float = 300.0

    def get(self) -> Store:
        return Store(self.home, lock_timeout=self.lock_timeout_s)
