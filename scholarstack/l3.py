"""Building L3 (scoped syntheses; schemas in `models/l3.py`, asset `l3_syntheses`), offline: one
account per taxonomy category that spans papers; provenance names the step `synthesis.*`.

The basis cites registered assignments (supporting: why these entities belong here), findings
about the member entities (supporting), limitations (limiting), and findings that contradict
each other (opposing). Contradiction means opposite improves_over directions between the same two
entities; different values for one entity, metric and dataset are reported as a disagreement only
when the recorded conditions match, and otherwise as a context difference.
"""

from __future__ import annotations

from collections import defaultdict

from .models import (
    Assignment,
    BasisItem,
    BasisRole,
    Entity,
    Fact,
    FactType,
    Provenance,
    Relation,
    RelationType,
    Scope,
    Synthesis,
    SynthesisKind,
    Taxonomy,
    Verification,
)
from .l1.offline import about_cited_work
from .l2.entities import normalise
from .l2.mentions import METRIC_RE
from .l2.taxonomy import category_index

MAX_BASIS = 30
SHOWN_DIFFERENCES = 3  # context differences an account names


def account_order(f: Fact) -> tuple:
    """An account's findings (a Fact or the memo's brief of one): result facts first (a value bound to its method),
    then the studies' own findings before the work they cite, those with numbers first (the most comparable content)."""
    cited = about_cited_work(f.statement, f.subject or "")  # the related work a paper recounts, not what it found
    return (not any(q.method for q in f.quantities), cited, -len(f.quantities), f.paper_id, f.id)


def _cite(f: Fact) -> str:
    return f"[{f.id} @ {f.evidence[0]}]"


def _conflicts(relations: list[Relation], member_ids: set[str]) -> list[tuple[Relation, Relation]]:
    better = {(r.source_id, r.target_id): r for r in relations if r.type == RelationType.improves_over}
    out = []
    for (a, b), r in better.items():
        if a < b and (b, a) in better and (a in member_ids or b in member_ids):
            out.append((r, better[(b, a)]))
    return out


def _value_spreads(findings: list[Fact]) -> tuple[list[str], list[str], list[BasisItem]]:
    """Same metric and dataset, different papers, values > 5 points apart: disagreement if the
    conditions match, a context difference otherwise. With the basis items the texts cite: the two
    facts of a disagreement opposing, those of a difference supporting."""
    groups: dict[tuple[str, str], list[tuple[Fact, float]]] = defaultdict(list)
    for f in findings:
        for q in f.quantities:
            if q.metric and q.dataset:
                groups[(q.metric, q.dataset)].append((f, q.value))
    disagreements, differences, cited = [], [], []
    for (metric, dataset), items in groups.items():
        papers = {f.paper_id for f, _ in items}
        if len(papers) < 2:
            continue
        lo, hi = min(items, key=lambda x: x[1]), max(items, key=lambda x: x[1])
        if hi[1] - lo[1] <= 5 or lo[0].paper_id == hi[0].paper_id:
            continue
        text = f"{metric} on {dataset}: {lo[1]:g} {_cite(lo[0])} vs {hi[1]:g} {_cite(hi[0])}"
        same = set(lo[0].context.conditions) == set(hi[0].context.conditions)
        if same:
            disagreements.append(text + " under the same recorded conditions")
        elif len(differences) < SHOWN_DIFFERENCES:
            differences.append(text + f"; conditions differ ({'; '.join(lo[0].context.conditions) or 'none recorded'} vs "
                               f"{'; '.join(hi[0].context.conditions) or 'none recorded'})")
        else:
            continue
        role, note = (BasisRole.opposing, "a conflicting value") if same else (BasisRole.supporting, "a value under other conditions")
        cited += [BasisItem(object_id=f.id, role=role, note=f"{metric} on {dataset}: {note}") for f in (lo[0], hi[0])]
    return disagreements, differences, cited


def _capped(basis: list[BasisItem], cited: set[str]) -> list[BasisItem]:
    """The basis, each object in each role once, at most MAX_BASIS items unless the account cites more: every
    item of an object the account cites kept, the rest in order."""
    unique, seen = [], set()
    for b in basis:
        if (b.object_id, b.role) not in seen:
            seen.add((b.object_id, b.role))
            unique.append(b)
    room = MAX_BASIS - sum(b.object_id in cited for b in unique)
    out = []
    for b in unique:
        if b.object_id in cited or room > 0:
            room -= b.object_id not in cited
            out.append(b)
    return out


def synthesize_categories(taxonomy: Taxonomy, assignments: list[Assignment], entities: dict[str, Entity],
                          facts: dict[str, Fact], relations: list[Relation], run_id: str | None = None,
                          backend: str = "offline", min_papers: int = 2) -> list[Synthesis]:
    cats = category_index(taxonomy)
    by_cat: dict[str, list[Assignment]] = defaultdict(list)
    for a in assignments:
        if a.certainty != "uncertain":
            by_cat[a.category_id].append(a)
    prov = Provenance(producer="synthesis.offline", backend=backend, run_id=run_id)
    out = []
    for cat_id, members in sorted(by_cat.items()):
        dim, cat = cats[cat_id]
        member_ids = {a.entity_id for a in members}
        member_facts = {m.fact_id for eid in member_ids for m in entities[eid].mentions if m.fact_id in facts}
        papers = sorted({facts[f].paper_id for f in member_facts})
        if len(papers) < min_papers:
            continue
        fs = [facts[f] for f in sorted(member_facts)]
        good = [f for f in fs if f.verification == Verification.passed]
        findings = [f for f in good if f.type == FactType.finding]
        limits = [f for f in good if f.type == FactType.limitation]
        conflicts = _conflicts(relations, member_ids)
        disagreements, differences, spread_items = _value_spreads(findings)
        basis: list[BasisItem] = []
        top_members = sorted(members, key=lambda a: (-len(entities[a.entity_id].mentions), a.entity_id))
        for a in top_members[:8]:
            basis.append(BasisItem(object_id=a.id, role=BasisRole.supporting, note=f"{entities[a.entity_id].name} assigned ({a.certainty})"))
        findings.sort(key=account_order)
        per_paper: dict[str, int] = defaultdict(int)
        chosen = []
        for f in findings:
            if per_paper[f.paper_id] < 2:
                chosen.append(f)
                per_paper[f.paper_id] += 1
        for f in chosen[:12]:
            basis.append(BasisItem(object_id=f.id, role=BasisRole.supporting, note=f.subject))
        for f in limits[:6]:
            basis.append(BasisItem(object_id=f.id, role=BasisRole.limiting, note=f.subject))
        for r1, r2 in conflicts[:3]:
            for fid in (r1.anchoring_facts[0], r2.anchoring_facts[0]):
                if fid in facts:
                    basis.append(BasisItem(object_id=fid, role=BasisRole.opposing, note="reverse improves_over claim"))
        # what the account cites by id (its findings, limitations and value spreads) stays in the basis the gate checks it on
        basis = _capped(basis + spread_items, {f.id for f in chosen[:4] + limits[:2]} | {b.object_id for b in spread_items})
        conflict_text = [
            f"{entities[r1.source_id].name if r1.source_id in entities else r1.source_id} is reported better than "
            f"{entities[r1.target_id].name if r1.target_id in entities else r1.target_id} and the reverse is also reported"
            for r1, _ in conflicts
        ]
        names = ", ".join(entities[a.entity_id].name for a in top_members[:6])
        lines = [
            f"{cat.name} ({dim.name}): entities across {len(papers)} studies, among them {names}.",
        ]
        if chosen:
            lines.append("Reported findings: " + " ".join(f"{f.statement} {_cite(f)}" for f in chosen[:4]))
        if limits:
            lines.append("Limitations stated: " + " ".join(f"{f.statement} {_cite(f)}" for f in limits[:2]))
        if conflict_text or disagreements:
            lines.append("Disagreements: " + "; ".join(conflict_text + disagreements))
        if differences:
            lines.append("Differences explained by context: " + "; ".join(differences))
        lines.append("Scope: the studies listed; not a complete account of the field.")
        conditions = sorted({q.dataset for f in chosen for q in f.quantities if q.dataset} | {q.metric for f in chosen for q in f.quantities if q.metric})
        kind = SynthesisKind.disagreement if (conflicts or disagreements) else SynthesisKind.method_family
        out.append(Synthesis(
            synthesis_type=kind,
            account=" ".join(lines)[:8000],
            scope=Scope(topic=f"{dim.name}: {cat.name}", conditions=conditions[:12], studies=papers),
            basis=basis,
            disagreements=(conflict_text + disagreements)[:10],
            context_differences=differences[:10],
            provenance=prov,
        ))
    return out


# -- result comparisons ------------------------------------------------------------------------
SAME_VALUE = 0.5  # points: two reports of one method's result closer than this agree


def _key(text: str) -> str:
    return normalise(text)


def _metric_key(metric: str) -> str:
    """"test set accuracy" and "accuracy" are one metric: the measure's own word when one is known."""
    found = METRIC_RE.findall(metric)
    return _key(found[-1]) if found else _key(metric)


def synthesize_results(facts: dict[str, Fact], run_id: str | None = None, backend: str = "offline",
                       min_papers: int = 2, max_groups: int = 200) -> list[Synthesis]:
    """One account per (dataset, metric, task) setting reported by two or more papers: who reports
    what, best first. Reports of the same method in the same setting that differ are opposing basis
    items; the same method and metric on the same dataset under another task is a setting that
    differs and is said to differ, not compared. Limitation facts of the papers that name the
    dataset are limiting items."""
    groups: dict[tuple[str, str, str], list[tuple[Fact, float, str]]] = defaultdict(list)
    names: dict[tuple[str, str, str], tuple[str, str, str]] = {}
    for f in facts.values():
        if f.verification != Verification.passed:
            continue
        for q in f.quantities:
            if q.metric and q.dataset and q.method and not q.delta:
                key = (_key(q.dataset), _metric_key(q.metric), _key(q.task))
                groups[key].append((f, q.value, q.text))
                names.setdefault(key, (q.dataset, key[1], q.task))
    limits_by_paper: dict[str, list[Fact]] = defaultdict(list)
    for f in facts.values():
        if f.type == FactType.limitation and f.verification == Verification.passed:
            limits_by_paper[f.paper_id].append(f)
    prov = Provenance(producer="synthesis.results", backend=backend, run_id=run_id)
    ranked = sorted(groups.items(), key=lambda kv: (-len({f.paper_id for f, _, _ in kv[1]}), kv[0]))
    out = []
    for key, items in ranked[:max_groups]:
        papers = sorted({f.paper_id for f, _, _ in items})
        if len(papers) < min_papers:
            continue
        dataset, metric, task = names[key]
        setting = f"{metric} on {dataset}" + (f" for {task}" if task else "")
        items = sorted(items, key=lambda x: (-x[1], x[0].id))
        basis = [BasisItem(object_id=f.id, role=BasisRole.supporting, note=f"{f.quantities[0].method}: {text}")
                 for f, _, text in items[:20]]
        # Conflicts: one method, this setting, reports from different papers that differ.
        by_method: dict[str, list[tuple[Fact, float, str]]] = defaultdict(list)
        for f, v, text in items:
            by_method[_key(f.quantities[0].method)].append((f, v, text))
        disagreements, disputed = [], []  # the texts, and the facts each cites
        for reps in by_method.values():
            lo, hi = min(reps, key=lambda x: x[1]), max(reps, key=lambda x: x[1])
            if lo[0].paper_id != hi[0].paper_id and hi[1] - lo[1] > SAME_VALUE:
                disagreements.append(f"{lo[0].quantities[0].method}: {lo[2]} {_cite(lo[0])} vs {hi[2]} {_cite(hi[0])} "
                                     f"in {lo[0].paper_id} and {hi[0].paper_id}")
                disputed.append((lo[0].id, hi[0].id))
                basis += [BasisItem(object_id=x[0].id, role=BasisRole.opposing, note="another report of this method's result")
                          for x in (lo, hi)]
        # Settings that differ: the same dataset and metric under another task.
        differences = sorted({f"{n[1]} on {n[0]} is also reported for {n[2] or 'an unstated task'} "
                              f"({len({f.paper_id for f, _, _ in groups[k]})} paper(s)); not compared here"
                              for k, n in names.items() if k[:2] == key[:2] and k != key})[:5]
        dset = key[0]
        limits = [lf for p in papers for lf in limits_by_paper.get(p, []) if dset and dset in _key(lf.statement)][:4]
        basis += [BasisItem(object_id=lf.id, role=BasisRole.limiting, note=lf.subject) for lf in limits]
        reports = "; ".join(f"{f.quantities[0].method} {text} ({f.paper_id}) {_cite(f)}" for f, _, text in items[:10])
        lines = [f"{setting}, as reported by {len(papers)} papers, highest first: {reports}."]
        if disagreements:
            lines.append("Reports that disagree: " + "; ".join(disagreements[:3]) + ".")
        if differences:
            lines.append("Settings that differ: " + "; ".join(differences) + ".")
        if limits:
            lines.append("Limitations stated: " + " ".join(f"{lf.statement} {_cite(lf)}" for lf in limits[:2]))
        lines.append("Scope: results as the papers report them, under their own conditions; values from different "
                     "papers are comparable only as far as their settings match.")
        out.append(Synthesis(
            synthesis_type=SynthesisKind.disagreement if disagreements else SynthesisKind.result_comparison,
            account=" ".join(lines)[:8000],
            scope=Scope(topic=f"results: {setting}", conditions=[c for c in (dataset, metric, task) if c], studies=papers),
            # what the account cites by id (its reports, disagreements and limitations) stays in its basis
            basis=_capped(basis, {f.id for f, _, _ in items[:10]} | {i for pair in disputed[:3] for i in pair}
                          | {lf.id for lf in limits[:2]}),
            disagreements=disagreements[:10], context_differences=differences,
            provenance=prov,
        ))
    return out
