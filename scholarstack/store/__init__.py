"""The store (DuckDB; its SQL in this package) and the registration gate."""

from .db import Store, StoreBusyError, StoreError
from .registry import (
    Outcome,
    RecheckContext,
    RegistrationReport,
    load_object,
    new_run_id,
    recheck,
    register,
    register_many,
    revise,
    withdraw,
    withdraw_missing,
)

__all__ = [
    "Outcome", "RecheckContext", "RegistrationReport", "Store", "StoreBusyError", "StoreError",
    "load_object", "new_run_id", "recheck", "register", "register_many", "revise", "withdraw", "withdraw_missing",
]
