"""The Dagster code location: `dagster dev -w workspace.yaml` shows this asset graph."""

from scholarstack.settings import quiet_telemetry

quiet_telemetry()
import warnings  # noqa: E402

warnings.filterwarnings("ignore", message=".*is currently in beta.*")

from dagster import Definitions  # noqa: E402

from assets.chains import chain_assets, configured_chains  # noqa: E402

from .graph import ASSETS, CHECKS  # noqa: E402
from .jobs import compile_papers_job, ingest_job, organise_job  # noqa: E402
from .run import resources_for  # noqa: E402

__all__ = ["ASSETS", "CHECKS", "defs"]
from .sensors import compile_ingested_sensor, refresh_sources_schedule, watched_folder_sensor  # noqa: E402

defs = Definitions(
    assets=ASSETS + [a for chain in configured_chains() for a in chain_assets(chain)],
    asset_checks=CHECKS,
    jobs=[ingest_job, compile_papers_job, organise_job],
    sensors=[watched_folder_sensor, compile_ingested_sensor],
    schedules=[refresh_sources_schedule],
    resources=resources_for(),
)
