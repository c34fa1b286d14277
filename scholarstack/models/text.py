"""How each kind of stored object reads as text, in one place.

Two renderings, because they serve two readers: `display_text` is what a person or a model reads
in a view, an answer's sources or `show` (short, names resolved); `index_text` is what the lexical
and dense indexes match against (the fact's subject and conditions and every alias help a query
find it). Both take the stored `data` dict, so bulk reads need no model validation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

INDEXED_KINDS = ("sentence", "fact", "entity", "synthesis")
INDEX_TEXT_VERSION = 1  # part of each vector's key: raise it when `index_text` changes, and every object is embedded again


def display_text(kind: str, data: Mapping[str, Any], names: Mapping[str, str] | None = None, label: str = "") -> str:
    """`names`: entity id → name, for relations and assignments (ids are shown where a name is
    missing); `label`: the stored label, the fallback for kinds without a rendering of their own."""
    names = names or {}
    if kind == "fact":
        return data["statement"]
    if kind == "entity":
        return f"{data['name']} ({data['type']}); aliases: {', '.join(data['aliases'][:10]) or 'none'}"
    if kind == "synthesis":
        return data["account"]
    if kind == "relation":
        payload = f" ({', '.join(f'{k}={v}' for k, v in data['payload'].items())})" if data["payload"] else ""
        return (f"{names.get(data['source_id'], data['source_id'])} {data['type'].replace('_', ' ')} "
                f"{names.get(data['target_id'], data['target_id'])}{payload}")
    if kind == "assignment":
        return (f"{names.get(data['entity_id'], data['entity_id'])} in {data['category_id'].split('/', 1)[-1]} "
                f"({data['certainty']}, {'declared' if data['declared'] else 'inferred'})")
    return label or data.get("title") or ""


def index_text(kind: str, data: Mapping[str, Any]) -> str:
    if kind == "fact":
        conds = "; ".join(data["context"]["conditions"])
        return f"{data['statement']} ({data['subject']}{'; ' + conds if conds else ''})"
    if kind == "entity":
        return f"{data['name']} ({data['type']}): " + ", ".join(data["aliases"])
    if kind == "synthesis":
        return f"{data['scope']['topic']}: {data['account'][:1500]}"
    raise ValueError(f"{kind} objects are not indexed (indexed: {', '.join(INDEXED_KINDS)})")


def conditions(kind: str, data: Mapping[str, Any]) -> list[str]:
    """The conditions an object holds under, as a view shows them."""
    if kind == "fact":
        return data["context"]["conditions"] + data["context"]["assumptions"]
    if kind == "synthesis":
        return list(data["scope"]["conditions"])
    return []


def named_ids(kind: str, data: Mapping[str, Any]) -> list[str]:
    """The entity ids `display_text` names for this kind (to read their names in one query)."""
    if kind in ("relation", "assignment"):
        return [v for key in ("source_id", "target_id", "entity_id") if (v := data.get(key))]
    return []
