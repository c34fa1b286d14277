"""`make demo`: ingest the bundled sample, compile it through L3 on the offline backend, print what
was produced, then revise one paper and show that only its partition recompiles and that its
dependents are marked and rechecked."""

from __future__ import annotations

import shutil
import tempfile
import textwrap
from pathlib import Path

from .ingest.catalog import ingest_paths
from .settings import SAMPLE_DIR
from .store import Store


def _wrap(text: str, indent: str = "    ", width: int = 100) -> str:
    return textwrap.fill(text, width=width, initial_indent=indent, subsequent_indent=indent)


def show_results(store: Store) -> None:
    facts = [r for r in store.objects("fact") if r["verification"] == "passed" and r["data"]["quantities"]][:3]
    print("\n== L1 facts with their evidence ==")
    for r in facts:
        d = r["data"]
        print(f"  {r['id']} [{d['type']}] subject: {d['subject']}  verification: {r['verification']}")
        print(_wrap(f"statement: {d['statement']}"))
        if d["context"]["conditions"]:
            print(_wrap(f"conditions: {'; '.join(d['context']['conditions'])}"))
        for q in d["quantities"][:3]:
            print(f"    quantity: {q['text']} metric={q['metric'] or '-'} dataset={q['dataset'] or '-'}")
        for loc, text in store.current_sentences(d["evidence"]).items():
            print(_wrap(f"evidence {loc}: {text}"))
    ents = sorted(store.objects("entity"), key=lambda r: (-len(r["data"]["aliases"]), -len(r["data"]["mentions"])))
    if ents:
        e = ents[0]["data"]
        print("\n== An L2 entity with aliases ==")
        print(f"  {ents[0]['id']} {e['name']} ({e['type']}): aliases {', '.join(e['aliases'][:8])}; "
              f"{len(e['mentions'])} mentions in {len({m['paper_id'] for m in e['mentions']})} papers")
        for note in e["merge_notes"][:3]:
            print(_wrap(f"merge: {note}"))
    syn = sorted(store.objects("synthesis"), key=lambda r: -len(r["data"]["scope"]["studies"]))
    if syn:
        s = syn[0]["data"]
        print("\n== An L3 synthesis with its basis ==")
        print(f"  {syn[0]['id']} scope: {s['scope']['topic']}; studies: {', '.join(s['scope']['studies'])}")
        print(_wrap(s["account"][:900] + ("..." if len(s["account"]) > 900 else "")))
        for b in s["basis"][:8]:
            print(f"    [{b['role']}] {b['object_id']} {b['note'][:70]}")
        print(f"    ... {len(s['basis'])} basis items in all; verification {syn[0]['verification']} (never inherited)")


def show_view(store: Store) -> None:
    from .tasks.qa import answer_question
    from .views.views import open_kb, render, retrieve

    kb = open_kb(store)
    view = retrieve(kb, "handling of unknown words in statistical taggers", k=5)
    print("\n== A knowledge view: retrieve('handling of unknown words in statistical taggers'), 900 characters ==")
    print(textwrap.indent(render(view, budget=900), "  "))
    ans = answer_question(kb, "How does TnT handle unknown words?", ["A00-1031"], embedder=kb.embedder)
    print(f"\n== ask: How does TnT handle unknown words? (A00-1031, {ans.tokens_in} input tokens from the view) ==")
    for s in ans.sources_state[:2]:
        print(_wrap(f"{', '.join(s.locators)}: {s.text}"))


def revise_one_paper(store: Store, backend: str) -> None:
    from orchestration.run import compile_store

    src = SAMPLE_DIR / "N18-3011.tei.xml"
    tmp = Path(tempfile.mkdtemp(prefix="scholarstack-demo-"))
    try:
        revised = tmp / src.name
        text = src.read_text()
        marker = "with precision within 1 point from the statistical models"
        if marker not in text:
            raise RuntimeError(f"{src}: the demo's revision marker is missing; was the sample edited?")
        revised.write_text(text.replace(marker, "with precision within 3 points from the statistical models"))
        report = ingest_paths(store, [revised], paper_id="N18-3011")  # named: a new version of that paper
        print(f"\n== Revision: N18-3011 edited; ingest: {report['changed']} changed, {report['unchanged']} unchanged ==")
        summary = compile_store(str(store.home), backend=backend, papers=["N18-3011"], progress=False, organise=False)
        l1 = summary["l1_facts"]
        print(f"  L1 facts of N18-3011: {l1.get('new', 0)} new, {l1.get('revised', 0)} revised, {l1.get('reused', 0)} reused, "
              f"{l1.get('withdrawn', 0)} withdrawn")
        st = store.status()
        print(f"  after recompiling only that partition: {st['needs_recheck']} objects need recheck")
        summary = compile_store(str(store.home), backend=backend, papers=[], progress=False)
        l2, l3, rc = summary["l2_organisation"], summary["l3_syntheses"], summary["store_recheck"]
        print(f"  L2: {l2.get('entities', 0)} entities, {l2.get('assignments', 0)} assignments, {l2.get('relations', 0)} relations; "
              f"L3: {l3.get('syntheses', 0)} syntheses; recheck: {rc.get('rechecked', 0)} objects re-verified")
        print(f"  needs_recheck now: {store.status()['needs_recheck']}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_demo(store_dir: str | None, backend: str = "offline") -> int:
    from orchestration.run import compile_store

    store = Store(store_dir or ".scholarstack/demo")
    print(f"ScholarStack demo: store {store.home}, backend {backend}")
    report = ingest_paths(store, [SAMPLE_DIR])
    print(f"ingested {report['loaded']} papers from {SAMPLE_DIR.name}/ ({report['new']} new, {report['changed']} changed, "
          f"{report['unchanged']} unchanged); failed {len(report['failed'])}")
    summary = compile_store(str(store.home), backend=backend, progress=True)
    for line in summary["lines"]:
        print(line)
    show_results(store)
    show_view(store)
    revise_one_paper(store, backend)
    print("\nExplore: scholarstack status --store", store.home, "| scholarstack show ID --store", store.home)
    return 0 if summary["ok"] else 1
