"""What a corpus-wide build (L2, L3) last ran on, so a run whose inputs have not changed since can
reuse its result instead of rebuilding it; and the small records such reuse keeps in the store
directory (the layer checks keep theirs here too).

A build's key covers everything it reads and writes: the code and weights that compute it, its
settings, and (id, content hash, verification) of every live object (current or marked for
recheck) of the kinds it reads and the kinds it produces. Equal keys mean the rebuild would
register exactly what the store holds, since L2 and L3 are deterministic given these: a nightly
refresh that changed no fact (a re-ingested paper whose edit moved no fact) skips them. What such
an edit marks for recheck (the objects citing the paper's facts) is re-verified by the recheck
step, as the gate would have re-verified it in a rebuild. Anything else, including an object of
theirs withdrawn behind their back, changes the key and they rebuild. The record is a file in the
store directory: a machine without it rebuilds.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from .store import Store

CODE = ("compile.py", "l3.py", "l2", "models")  # under scholarstack/: what computes L2 and L3


@lru_cache(maxsize=1)
def code_version() -> str:
    from .learned.mention_tagger import WEIGHTS

    root = Path(__file__).parent
    files = sorted(p for name in CODE for p in ([root / name] if (root / name).is_file() else (root / name).rglob("*.py")))
    h = hashlib.sha256()
    for path in [*files, WEIGHTS]:
        h.update(path.name.encode() + path.read_bytes())
    return h.hexdigest()[:16]


def build_key(store: Store, kinds: tuple[str, ...], settings: dict[str, Any]) -> str:
    """The key of a build over `kinds` (read and written) with these settings: the code version,
    the settings and a digest of the live rows the store computes (an update asks for four)."""
    h = hashlib.sha256(json.dumps([code_version(), settings], sort_keys=True, default=str).encode())
    h.update(store.live_digest(kinds).encode())
    return h.hexdigest()


def read_record(store: Store, name: str) -> dict[str, Any]:
    """A record kept in the store directory (`cache/<name>.json`); empty when missing or damaged."""
    try:
        data = json.loads((store.home / "cache" / f"{name}.json").read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_record(store: Store, name: str, data: dict[str, Any]) -> None:
    path = store.home / "cache" / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data))
    tmp.replace(path)  # a reader never sees half a record


def last_key(store: Store, step: str) -> str | None:
    return read_record(store, "builds").get(step)


def remember(store: Store, step: str, key: str) -> None:
    write_record(store, "builds", read_record(store, "builds") | {step: key})
