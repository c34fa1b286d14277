"""What the last L2 build computed per unit, kept in the store directory so the next build
recomputes only the units whose inputs changed: a nightly refresh touches a few of ~80k facts.

Each table maps a digest of a unit's inputs to what the unit produced (a fact's mentions and its
brief, a block's adjudicated near-matches, a group's entity, an entity's category assignments, a
fact's relation contributions, a merged relation). An entry is looked up by its inputs, so a
changed input never finds a stale entry; what a build did not use is dropped when it saves. A
missing, damaged or other-settings memo is an empty one: the build then computes everything, as a
first build does. The memo also lists what the build registered, which L3 reads instead of
loading every object (`organise.organisation_inputs`). It is the store's own cache, pickled like
the tagged-mentions cache beside it; the facts table is one file per paper.
"""

from __future__ import annotations

import pickle
import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

from ..bulk import long_lived, paused_gc
from ..models import Assignment, Entity, EntityType, Fact, Relation
from ..models.common import stable_hash

MEMO_VERSION = 5  # raise when a table's layout changes
MISSING = object()


class MentionRef(NamedTuple):
    fact_id: str


class EntityRef(NamedTuple):
    """What later steps (relations, assignments, L3) read of a registered entity, without loading it."""
    id: str
    content_hash: str
    type: EntityType
    name: str
    aliases: tuple[str, ...]
    mention_fids: tuple[str, ...]  # the facts of its mentions, in mention order

    @classmethod
    def of(cls, e: Entity) -> EntityRef:
        return cls(e.id, e.content_hash(), e.type, e.name, tuple(e.aliases), tuple(m.fact_id for m in e.mentions))

    @property
    def mentions(self) -> tuple[MentionRef, ...]:
        return tuple(MentionRef(f) for f in self.mention_fids)

    def link_signature(self) -> tuple:
        """What relation extraction reads of the entity (not its mentions: a new mention elsewhere
        changes no other fact's relations)."""
        return self.id, self.type.value, self.name, self.aliases


class AssignmentRef(NamedTuple):
    id: str
    content_hash: str
    entity_id: str
    taxonomy_id: str
    category_id: str
    certainty: str

    @classmethod
    def of(cls, a: Assignment) -> AssignmentRef:
        return cls(a.id, a.content_hash(), a.entity_id, a.taxonomy_id, a.category_id, a.certainty.value)


class RelationRef(NamedTuple):
    id: str
    content_hash: str
    type: str
    source_id: str
    target_id: str
    anchoring_facts: tuple[str, ...]

    @classmethod
    def of(cls, r: Relation) -> RelationRef:
        return cls(r.id, r.content_hash(), r.type.value, r.source_id, r.target_id, tuple(r.anchoring_facts))


class QuantityBrief(NamedTuple):
    value: float
    text: str
    metric: str
    dataset: str
    method: str
    task: str
    delta: bool


class ContextBrief(NamedTuple):
    conditions: tuple[str, ...]


class FactBrief(NamedTuple):
    """What L3 reads of a fact (its syntheses cite, group and quote facts; `l3` reads these
    attributes of a Fact or a brief alike), kept so L3 need not load ~80k facts to rebuild."""
    id: str
    paper_id: str
    type: str
    verification: str
    statement: str
    subject: str
    evidence: tuple[str, ...]
    quantities: tuple[QuantityBrief, ...]
    context: ContextBrief

    @classmethod
    def of(cls, f: Fact) -> FactBrief:
        return cls(f.id, f.paper_id, f.type.value, f.verification.value, f.statement, f.subject, tuple(f.evidence),
                   tuple(QuantityBrief(q.value, q.text, q.metric, q.dataset, q.method, q.task, q.delta) for q in f.quantities),
                   ContextBrief(tuple(f.context.conditions)))


class Carry:
    """One table across two builds: reads come from the last build's entries, and each entry read
    or written is kept for the next."""

    def __init__(self, old: dict) -> None:
        self.old, self.new = old, {}

    def get(self, key: str, default: Any = None) -> Any:
        value = self.old.get(key, MISSING)
        if value is MISSING:
            return default
        self.new[key] = value
        return value

    def __setitem__(self, key: str, value: Any) -> None:
        self.new[key] = value


_LAST: dict[Path, tuple[tuple, OrganisationMemo]] = {}  # the memo this process last read or wrote, by its file's stamp


def _stamp(path: Path) -> tuple:
    st = path.stat()
    return st.st_mtime_ns, st.st_size


@dataclass
class OrganisationMemo:
    settings: str
    facts: dict = field(default_factory=dict)  # fact id → (content hash, FactMentions, FactBrief)
    blocks: dict = field(default_factory=dict)  # block digest → its edges
    entities: dict = field(default_factory=dict)  # group signature → EntityRef, or None (no entity)
    assignments: dict = field(default_factory=dict)  # unit digest → (AssignmentRef, ...)
    contributions: dict = field(default_factory=dict)  # unit digest → the fact's relation contributions
    relations: dict = field(default_factory=dict)  # unit digest (one merged relation) → RelationRef
    # What the build registered, for L3: the live entities, assignments and relations.
    out_entities: dict = field(default_factory=dict)  # id → EntityRef
    out_assignments: list = field(default_factory=list)  # AssignmentRef
    out_relations: list = field(default_factory=list)  # RelationRef

    @classmethod
    def load(cls, path: Path, settings: str | None) -> OrganisationMemo:
        """The memo at `path`; an empty one when it is missing, damaged or built with other
        `settings` (None: any settings, as L3 reads it)."""
        try:
            stamp = _stamp(path)
            last = _LAST.get(path)
            if last is not None and last[0] == stamp:
                memo = last[1]
            else:
                with long_lived():  # the memo is kept for the process (in _LAST): see bulk.long_lived
                    with open(path, "rb") as fh:
                        version, memo = pickle.load(fh)
                    if version != MEMO_VERSION or not isinstance(memo, cls):
                        return cls(settings or "")
                    if settings is not None and memo.settings != settings:
                        return cls(settings)  # its facts table is not read: another settings' entries are never used
                    memo.facts = _load_facts(_facts_dir(path, memo.settings))
                _LAST.clear()
                _LAST[path] = (stamp, memo)
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, ValueError, TypeError):
            return cls(settings or "")
        return memo if settings is None or memo.settings == settings else cls(settings)

    def save(self, path: Path, before: OrganisationMemo) -> None:
        """Write the memo; of the facts table, only the papers whose facts differ from `before`'s
        (a one-paper update rewrites one small file, not the ~35 MB table)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        _save_facts(_facts_dir(path, self.settings), self.facts, before.facts if before.settings == self.settings else {})
        tmp = path.with_suffix(".tmp")
        with open(tmp, "wb") as fh, paused_gc():
            pickle.dump((MEMO_VERSION, replace(self, facts={})), fh, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(path)  # a reader never sees half a memo
        _LAST.clear()
        _LAST[path] = (_stamp(path), self)


# The facts table is kept apart, one file a paper. Its entries are a function of a fact's content
# and the settings alone, so a file may be written before or after the memo without making it wrong.

def _facts_dir(path: Path, settings: str) -> Path:
    return path.with_name(path.stem + "_facts") / stable_hash([MEMO_VERSION, settings], 32)


def _paper_file(directory: Path, paper_id: str) -> Path:
    return directory / f"{stable_hash(paper_id, 32)}.pickle"


def _load_facts(directory: Path) -> dict:
    """The facts table (read inside `OrganisationMemo.load`'s `long_lived`, which pauses the collector)."""
    facts: dict = {}
    for file in sorted(directory.glob("*.pickle")):
        with open(file, "rb") as fh:
            facts |= pickle.load(fh)
    return facts


def _by_paper(facts: dict) -> dict[str, dict]:
    papers: dict[str, dict] = {}
    for fid, entry in facts.items():
        papers.setdefault(entry[1].paper_id, {})[fid] = entry
    return papers


def _save_facts(directory: Path, facts: dict, before: dict) -> None:
    now, then = _by_paper(facts), _by_paper(before)
    if directory.parent.exists():
        for other in directory.parent.iterdir():  # tables of other settings are never read again
            if other != directory:
                shutil.rmtree(other, ignore_errors=True)
    directory.mkdir(parents=True, exist_ok=True)
    for paper, entries in now.items():
        old = then.get(paper)
        if old is None or {f: e[0] for f, e in old.items()} != {f: e[0] for f, e in entries.items()} \
                or not _paper_file(directory, paper).exists():
            file = _paper_file(directory, paper)
            tmp = file.with_suffix(".tmp")
            with open(tmp, "wb") as fh:
                pickle.dump(entries, fh, protocol=pickle.HIGHEST_PROTOCOL)
            tmp.replace(file)
    for paper in set(then) - set(now):
        _paper_file(directory, paper).unlink(missing_ok=True)
