"""One partition per paper: added by ingestion, the folder sensor and the refresh schedule."""

from dagster import DynamicPartitionsDefinition

paper_partitions = DynamicPartitionsDefinition(name="papers")
