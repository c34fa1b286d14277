"""The store's errors."""


class StoreError(RuntimeError):
    pass


class StoreBusyError(StoreError):
    pass
