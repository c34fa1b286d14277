"""Compile settings shared by the layer assets (a resource so runs and tests can override it)."""


from dagster import ConfigurableResource


class CompileSettings(ConfigurableResource):
    taxonomy: str | None = "configs/taxonomies/nlp.yaml"  # None: induce one from the collection
    induce_k: int = 8
    great_expectations: bool = True
    progress: bool = False

    def taxonomy_path(self) -> str | None:
        if not self.taxonomy:
            return None
        from pathlib import Path

        from scholarstack.settings import REPO_ROOT

        p = Path(self.taxonomy)
        return str(p if p.is_absolute() or p.exists() else REPO_ROOT / p)

    def validator(self):
        if not self.great_expectations:
            return None
        from expectations.suites import ge_validator

        return ge_validator
