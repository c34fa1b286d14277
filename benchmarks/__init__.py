"""Benchmarks (not tests): each writes what it measured under an output folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def save(out: str | Path, name: str, result: Any, markdown: str) -> None:
    """`<out>/<name>.json` and `<out>/<name>.md`, and the table printed."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.json").write_text(json.dumps(result, indent=2))
    (out / f"{name}.md").write_text(markdown + "\n")
    print(markdown)
