"""`scholarstack` command line. Heavy libraries (Dagster, torch, Great Expectations) are imported
inside the commands that use them, so `status` and `show` answer at once."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .settings import EMBEDDERS, quiet_telemetry


def _print_json(value: Any) -> None:
    print(json.dumps(value, indent=2, default=str, ensure_ascii=False))


def _store(args: argparse.Namespace, read_only: bool = False):
    from .store import Store

    return Store(args.store, read_only=read_only)


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {value}")
    return value


# -- foundation commands -----------------------------------------------------------------------
def cmd_status(args: argparse.Namespace) -> int:
    st = _store(args, read_only=True).status()
    if args.json:
        _print_json(st)
        return 0
    print(f"store: {st['store']}" + (f" (tables in {st['tables']})" if st["tables"] != "duckdb" else ""))
    print(f"sentences: {st['sentences']} in {st['papers_with_sentences']} papers")
    print(f"{'layer':<7}{'kind':<12}{'total':>7}  lifecycle / verification")
    for layer in ("source", "L1", "L2", "L3", "task"):
        for kind, k in sorted(st["layers"].get(layer, {}).items()):
            lc = ", ".join(f"{a}={b}" for a, b in sorted(k["lifecycle"].items()))
            vf = ", ".join(f"{a}={b}" for a, b in sorted(k["verification"].items()))
            print(f"{layer:<7}{kind:<12}{k['total']:>7}  {lc} | {vf}")
    print(f"versions: {st['versions']} over {st['objects_with_history']} objects; needs_recheck: {st['needs_recheck']}")
    rej = st["rejections"]
    print("rejections: " + (", ".join(f"{k}={v}" for k, v in rej.items()) if rej else "none"))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from .views.inspect import show_object

    out = show_object(_store(args, read_only=True), args.id, args.version)
    if args.json:
        _print_json(out)
        return 0
    d = out["data"]
    print(f"{out['id']}  {out['kind']}  v{out['version']}  {out['lifecycle']}  verification={out['verification']}")
    print(f"  {out['text']}")
    if out["verification_note"]:
        print(f"  note: {out['verification_note']}")
    if out["recheck_cause"]:
        print(f"  recheck cause: {out['recheck_cause']}")
    for key in ("subject", "type", "aliases", "category_id", "scope", "payload", "context", "quantities", "study"):  # the fields beyond its text
        if d.get(key) not in (None, "", [], {}):
            print(f"  {key}: {json.dumps(d[key], ensure_ascii=False) if not isinstance(d[key], str) else d[key]}")
    for b in d.get("basis", []):
        print(f"  basis [{b['role']}] {b['object_id']} {b.get('note', '')}")
    for s in d.get("first_sentences", []):
        print(f"  {s}")
    for ev in out["evidence"]:
        print(f"  evidence {ev['locator']}: {ev['text']}")
    print("  history: " + ", ".join(f"v{h['version']} {h['lifecycle']}" for h in out["history"]))
    if out["cites"]:
        print("  cites: " + ", ".join(f"{c['id']} ({c['role']})" for c in out["cites"][:10]))
    if out["cited_by"]:
        print("  cited by: " + ", ".join(f"{c['id']} ({c['kind']}, {c['lifecycle']})" for c in out["cited_by"][:10]))
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    store = _store(args, read_only=True)
    if store.get_row(args.id) is None:
        raise LookupError(f"no object {args.id} in store {store.home}")
    out = {"id": args.id, "versions": store.history(args.id), "events": store.events_for(args.id)}
    if args.json:
        _print_json(out)
        return 0
    for v in out["versions"]:
        print(f"v{v['version']}  {v['lifecycle']:<12} {v['verification']:<11} {v['created_at']}  run {v['run_id']}")
    for e in out["events"]:
        print(f"  #{e['seq']} {e['ts']} {e['event']}" + (f" v{e['version']}" if e["version"] else "") + (f": {e['detail']}" if e["detail"] else ""))
    return 0


def cmd_recheck(args: argparse.Namespace) -> int:
    from .store import recheck

    results = recheck(_store(args))
    if args.json:
        _print_json(results)
    else:
        print(f"rechecked {len(results)} objects")
        for r in results[:20]:
            print(f"  {r['id']} ({r['kind']}): {r['verification']} - {r['note']}")
    return 0


# -- compile commands (Dagster imported only here) ---------------------------------------------
def cmd_ingest(args: argparse.Namespace) -> int:
    from .ingest.catalog import ingest_paths

    report = ingest_paths(_store(args), args.paths, limit=args.limit, paper_id=args.id)
    if args.json:
        _print_json(report)
    else:
        print(f"ingested {report['loaded']} papers ({report['new']} new, {report['changed']} changed, {report['unchanged']} unchanged)"
              + (f"; {len(report['failed'])} failed" if report["failed"] else ""))
        if report["discarded_pending_loads"]:
            print(f"  note: discarded {report['discarded_pending_loads']} unfinished load(s) left by an interrupted ingest")
        for r in report["renamed"]:
            print(f"  renamed: {r['reason']}")
        for w in report["warnings"]:
            print(f"  warning: {w['reason']}")
        for f in report["failed"]:
            print(f"  failed: {f['reason']}", file=sys.stderr)
    # Nothing loaded and something failed: the command failed. Some loaded: done, with the failures listed.
    return 1 if report["failed"] and not report["loaded"] else 0


def cmd_citations(args: argparse.Namespace) -> int:
    from .ingest.citations import load_contexts

    report = load_contexts(_store(args), Path(args.file))
    if args.json:
        _print_json(report)
    else:
        print(f"loaded {report['loaded']} citing sentences for {report['cited_papers']} papers "
              f"({report['cited_in_store']} of them in the store)" + (f"; {len(report['failed'])} failed" if report["failed"] else ""))
        for f in report["failed"][:20]:
            print(f"  failed: {f}", file=sys.stderr)
    return 1 if report["failed"] and not report["loaded"] else 0


def cmd_find_papers(args: argparse.Namespace) -> int:
    from .index.embed import make_embedder
    from .tasks.retrieval import find_papers

    found = find_papers(_store(args), args.query, make_embedder("minilm"), k=args.k, before=args.before)
    if args.json:
        _print_json(found)
    else:
        for i, p in enumerate(found, 1):
            print(f"{i:3d}. {p['paper_id']}  {p['year'] or '    '}  {p['title'][:100]}")
    return 0


def cmd_compile(args: argparse.Namespace) -> int:
    from orchestration.run import compile_store

    summary = compile_store(args.store, backend=args.backend, papers=args.papers, progress=not args.json, workers=args.workers)
    if args.json:
        _print_json(summary)
    else:
        for line in summary["lines"]:
            print(line)
    return 0 if summary["ok"] else 1


def cmd_index(args: argparse.Namespace) -> int:
    """Sync the vector index, or one shard of it: a Kubernetes Indexed Job runs one pod per shard
    (configs/deploy/kubernetes/index-job.yaml), the shard from JOB_COMPLETION_INDEX."""
    import os

    from .index.embed import make_embedder
    from .index.sync import check_shard, sync_index
    from .index.vectors import open_index
    from .settings import settings

    env = settings()
    shard = args.shard if args.shard is not None else int(os.environ.get("JOB_COMPLETION_INDEX", "0"))
    check_shard(shard, args.shards)  # before the server check: a pod given a wrong index says so first
    if args.shards > 1 and not env.qdrant_url:
        raise ValueError("shards build one index together on a Qdrant server (set SCHOLARSTACK_QDRANT_URL); "
                         "the embedded index in the store takes one writer")
    store = _store(args, read_only=True)  # the sync reads the store and writes only the index
    meta = sync_index(store, open_index(store.home, env.qdrant_url), make_embedder(env.embedder, store.home),
                      progress=not args.json, shard=shard, shards=args.shards)
    if args.json:
        _print_json(meta)
    else:
        print(f"index {meta['collection']} (shard {meta['shard']}; {meta['sentences']} sentences): {meta['indexed']} embedded, "
              f"{meta['deleted']} deleted, {meta['total']} in the shard, {meta['seconds']} s")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    return run_demo(args.store, backend=args.backend)


# -- views and tasks ---------------------------------------------------------------------------
def cmd_retrieve(args: argparse.Namespace) -> int:
    from .views.views import open_kb, render, retrieve

    kb = open_kb(_store(args))
    view = retrieve(kb, args.query, layers=tuple(args.layers), k=args.k)
    if args.json:
        _print_json(view.model_dump(mode="json"))
    else:
        print(render(view, budget=args.budget))
    return 0


def _client(args: argparse.Namespace, store):
    if args.backend != "openai":
        return None
    from .llm.client import configured_client

    return configured_client(store.home)


def cmd_ask(args: argparse.Namespace) -> int:
    from .tasks.qa import ask
    from .views.views import open_kb

    store = _store(args)
    kb = open_kb(store)
    ans = ask(kb, args.question, args.paper, mode=args.mode, client=_client(args, store), reuse=not args.fresh)
    _print_answer(ans, args.json)
    return 0


def cmd_verify_claim(args: argparse.Namespace) -> int:
    from .tasks.claims import judge_claim
    from .views.views import open_kb

    store = _store(args)
    kb = open_kb(store)
    ans = judge_claim(kb, args.claim, args.paper, mode=args.mode, client=_client(args, store), reuse=not args.fresh)
    _print_answer(ans, args.json)
    return 0


def _print_answer(ans, as_json: bool) -> None:
    if as_json:
        _print_json(ans.model_dump(mode="json"))
        return
    print(f"answer ({ans.mode}): {ans.answer}" + (f"  [{ans.extra.get('quality')}]" if ans.extra.get("quality") else ""))
    for s in ans.sources_state:
        print(f"  source {', '.join(s.locators)}: {s.text}")
    if ans.interpretation:
        print(f"  interpretation: {ans.interpretation}")
    print(f"  tokens in/out: {ans.tokens_in}/{ans.tokens_out}; {ans.seconds:.3f}s; {_reuse_line(ans.extra)}")


def _reuse_line(extra: dict) -> str:
    reuse, reg = extra.get("reuse") or {}, extra.get("registration") or {}
    if reuse.get("hit"):
        return f"reused {reuse['id']} v{reuse['version']} ({reuse['saved_tokens']} tokens not spent)"
    if reg:
        return f"registered {reg['id']} ({reg['status']}" + (f": {reg['reason']}" if reg.get("reason") else "") + ")"
    return "not registered"


def cmd_sweep(args: argparse.Namespace) -> int:
    from orchestration.run import run_sweep

    out = run_sweep(args.store, args.name, backend=args.backend, progress=not args.json)
    if args.json:
        _print_json(out)
    else:
        print("\n".join(out["lines"][-1:]) + f"\ndone in {out['seconds']}s")
    return 0 if out["ok"] else 1


def cmd_report(args: argparse.Namespace) -> int:
    from evaluations.report import write_report
    from .store import Store

    base = _store(args)
    out = write_report(Store(base.home / "evals"), args.sweep, args.out or base.home / "evals" / "reports" / (args.sweep or "all"))
    if args.json:
        _print_json(out)
    else:
        print(f"report: {out['html']} ({out['configs']} configurations, {out['plots']} plots); summary: {out['markdown']}")
    return 0


def _providers(names: list[str], store) -> list:
    """Scholarly providers by name (`local`: the ACL corpus in ../shared, no network), caching under the store."""
    from .scholarly.providers import make_provider
    from .search.local import LocalProvider

    return [LocalProvider.acl() if name == "local" else make_provider(name, store.home / "api_cache") for name in names]


def cmd_search(args: argparse.Namespace) -> int:
    import asyncio

    from .search.pipeline import deep_search
    from .search.rerank import default_reranker, make_reranker, rerank

    store = _store(args)
    if args.paper:
        from .ingest.parsers import parse_file

        rec = parse_file(args.paper)  # the whole paper: queries are drafted from all of it, and rerankers read it all
        text = " ".join([rec.title, rec.abstract.text if rec.abstract else ""] + [s.text for s in rec.sections])
        bibliography = rec.references  # the paper's own reference list seeds the expansion
    elif args.query:
        text, bibliography = args.query, None
    else:
        raise ValueError("give a QUERY or --paper FILE")
    providers = _providers(args.providers, store)
    client = _client(args, store)
    res = asyncio.run(deep_search(text, providers, depth=args.depth, budget=args.budget, citing=args.citing, client=client,
                                  bibliography=bibliography))
    from .index.embed import make_embedder

    ranker = default_reranker(client) if args.reranker == "auto" else args.reranker
    ranked = rerank(text, res.candidates, make_reranker(ranker, make_embedder(args.embedder), client))
    top = ranked[: args.k]
    out = {"queries": res.queries, "query_origin": res.query_origin, "depth_counts": res.depth_counts,
           "provider_calls": res.provider_calls, "reranker": ranker, "results": [
               {"id": c.paper.id, "provider": c.paper.provider, "title": c.paper.title, "year": c.paper.year, "depth": c.depth,
                "found_by": c.found_by, "score": round(c.score, 4), "ids": c.paper.ids} for c in top]}
    if args.ingest:  # hand the found papers to ingestion; `scholarstack compile` then compiles them
        from .ingest.catalog import ingest_records

        out["ingested"] = ingest_records(store, [c.paper.to_record() for c in top])["paper_ids"]
    if args.json:
        _print_json(out)
        return 0
    if args.ingest:
        print(f"ingested {len(out['ingested'])} papers into {store.home}; run `scholarstack compile --store {store.home}`")
    print(f"queries ({res.query_origin}): " + "; ".join(res.queries))
    print(f"candidates by depth: {res.depth_counts}; provider calls: {res.provider_calls}; ranked by: {ranker}")
    for i, c in enumerate(top, 1):
        print(f"{i:>3}. [{c.score:.3f}] {c.paper.title[:90]} ({c.paper.provider}:{c.paper.id}, depth {c.depth}; {c.found_by[:50]})")
    return 0


# -- writing tasks ----------------------------------------------------------------------------
def _print_writing(result, as_json: bool) -> int:
    if as_json:
        _print_json(result.model_dump(mode="json"))
        return 0
    print(result.markdown)
    reg, cit = result.registration, result.citations
    print(f"\n---\nregistered {reg.get('id')} ({reg.get('status')}, v{reg.get('version')}, verification {reg.get('verification')})"
          if reg.get("status") != "rejected" else f"\n---\nnot registered: {reg.get('reason')}")
    if cit.unknown or cit.dropped or cit.unsupported:
        print(f"citation check: {len(cit.unknown)} unknown citation(s) removed, {len(cit.dropped)} sentence(s) dropped, "
              f"{len(cit.unsupported)} unsupported sentence(s) kept as interpretation")
    for err in result.extra.get("errors", []):
        print(f"LLM error: {err}", file=sys.stderr)
    print(f"{result.backend}; tokens read/written {result.tokens_in}/{result.tokens_out}; {result.seconds:.2f}s"
          + (f"; reused, {result.extra['reuse']['saved_tokens']} tokens not spent" if result.extra.get("reuse") else ""))
    return 0


def cmd_summarize(args: argparse.Namespace) -> int:
    from .writing.summary import summarize

    store = _store(args)
    return _print_writing(summarize(store, args.paper_id, words=args.words, client=_client(args, store), reuse=not args.fresh), args.json)


def cmd_related_work(args: argparse.Namespace) -> int:
    from .writing.related_work import related_work

    store = _store(args)
    return _print_writing(related_work(store, paper=args.paper, abstract=args.abstract, k=args.k, before=args.before,
                                       client=_client(args, store), reuse=not args.fresh), args.json)


def cmd_review(args: argparse.Namespace) -> int:
    from .writing.review import review

    store = _store(args)
    return _print_writing(review(store, args.topic, papers=args.papers, k=args.k, client=_client(args, store), reuse=not args.fresh), args.json)


def cmd_design(args: argparse.Namespace) -> int:
    from .views.views import open_kb
    from .writing.design import design

    store = _store(args)
    return _print_writing(design(store, args.request, k=args.k, client=_client(args, store), embedder=open_kb(store).embedder,
                                 reuse=not args.fresh), args.json)


def cmd_open_search(args: argparse.Namespace) -> int:
    from .search.open_world import run_open_world

    store = _store(args)
    providers = _providers(args.providers, store)
    tiers = {"none": (), "all": ("meets all",), "some": ("meets all", "meets some")}[args.ingest]
    res = run_open_world(store, args.request, providers, ingest=tiers, per_query=args.per_query)
    compiled = None
    if args.compile and res.ingested:
        from orchestration.run import compile_store

        compiled = compile_store(str(store.home), papers=res.ingested, progress=not args.json)
    if args.json:
        _print_json(res.model_dump(mode="json") | ({"compile": compiled} if compiled else {}))
        return 0
    print(f"queries (planned by the views): {'; '.join(res.plan.queries)}")
    for c in res.plan.conditions:
        print(f"condition: {c.text}" + (f" (any of: {', '.join(c.terms)})" if len(c.terms) > 1 else ""))
    for call in res.provider_queries:
        if call.get("error"):
            print(f"{call['provider']}: {call['error']}", file=sys.stderr)
    print("\n| tier | paper | year | reason |\n|---|---|---|---|")
    for f in res.found[: args.k]:
        print(f"| {f.tier} | {f.title[:80]} ({f.provider}:{f.id}) | {f.year or ''} | {f.reason[:100]} |")
    counts = {t: sum(f.tier == t for f in res.found) for t in ("meets all", "meets some", "related")}
    print(f"\n{len(res.found)} candidates: " + ", ".join(f"{n} {t}" for t, n in counts.items()) + f"; transcript {res.transcript}; "
          f"registered {res.registration.get('id')} ({res.registration.get('status')})")
    if res.ingested:
        print(f"ingested {len(res.ingested)} papers" + ("; compiled" if compiled and compiled["ok"] else f"; run `scholarstack compile --store {store.home}`"))
    return 0 if compiled is None or compiled["ok"] else 1


def cmd_novelty(args: argparse.Namespace) -> int:
    from .tasks.novelty import judge_novelty
    from .views.views import open_kb

    store = _store(args)
    ans = judge_novelty(store, idea=args.idea, paper=args.paper, k=args.k, before=args.before, embedder=open_kb(store).embedder,
                        client=_client(args, store), reuse=not args.fresh)
    if args.json:
        _print_json(ans.model_dump(mode="json"))
        return 0
    print(f"verdict: {ans.answer}\nreasons: {ans.interpretation}")
    print("\n| aspect | status | score | prior paper | covering fact or entities | aspect text |\n|---|---|---|---|---|---|")
    for v in ans.extra["aspects"]:
        cover = f"{v['fact']} [{v['locator']}]" if v["fact"] else ", ".join(v["entities"]) or "-"
        print(f"| {v['aspect']['name']} | {v['status']} | {v['score']} | {v['paper'] or '-'} | {cover} | {v['aspect']['text'][:70]} |")
    print(f"\nclosest prior work: {', '.join(ans.extra['prior_work'])}" + (f" (published by {ans.extra['before']})" if ans.extra.get("before") else ""))
    if ans.extra.get("error_recovered"):
        print(f"note: {ans.extra['error_recovered']}", file=sys.stderr)
    print(f"tokens in/out: {ans.tokens_in}/{ans.tokens_out}; {ans.seconds:.3f}s; {_reuse_line(ans.extra)}")
    return 0


def cmd_chain(args: argparse.Namespace) -> int:
    from orchestration.run import run_chain

    store = _store(args)
    out = run_chain(str(store.home), args.file, fresh=args.fresh)
    if args.json:
        _print_json(out)
        return 0 if out["ok"] else 1
    print("| step | task | request | result | output | tokens in/out | seconds |\n|---|---|---|---|---|---|---|")
    for s in out["steps"]:
        print(f"| {s['index']} | {s['task']} | {s['request'][:60]} | {s['status']} | {s['output']} | {s['tokens_in']}/{s['tokens_out']} | {s['seconds']} |")
    print(f"\n{out['chain']}: {len(out['steps'])} steps, {out['reused']} of {out['task_steps']} task steps reused "
          f"(hit rate {out['hit_rate']}); tokens {out['tokens_in']}/{out['tokens_out']}; {out['seconds']}s; transcript {out['transcript']}")
    for line in out["failures"]:
        print(line, file=sys.stderr)
    return 0 if out["ok"] else 1


def cmd_idea(args: argparse.Namespace) -> int:
    from .ideas.control import HeuristicTeacher, LearnedController, RandomController
    from .ideas.judge import judge_offline, judge_with_model
    from .ideas.proposal import synthesize_proposal, write_proposal
    from .ideas.runtime import run_episode
    from .views.views import open_kb

    store = _store(args)
    kb = open_kb(store)
    kb.paper_filter = args.papers or None
    note = args.controller
    if args.controller == "learned":
        from .ideas.critic import shipped_critic
        from .index.embed import make_embedder

        critic, note = shipped_critic()  # missing weights: the heuristic fallback decides, and the output says so
        controller = LearnedController(critic, make_embedder(critic.card.get("embedder", "minilm")) if critic
                                       else kb.embedder or make_embedder("tfidf", store.home))
        note = f"learned: {note}"
    else:
        controller = HeuristicTeacher() if args.controller == "heuristic" else RandomController(0)
    client = _client(args, store)
    ep = run_episode(args.topic, controller, kb, rounds=args.rounds, mode=args.mode, client=client)
    out_dir = store.home / "ideas" / "episodes"
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / ("".join(c if c.isalnum() else "_" for c in args.topic)[:60] + ".json")
    ep.save(path)
    prop = write_proposal(ep.final, client) if client is not None else synthesize_proposal(ep.final)
    judged = judge_with_model(prop, client) if client is not None else judge_offline(prop, ep.final, store)
    if args.json:
        _print_json({"episode": str(path), "controller": note, "committed_round": ep.committed_round,
                     "safeguards": controller.stats() if isinstance(controller, LearnedController) else None, "proposal": prop.model_dump(mode="json"),
                     "judged": judged.model_dump(mode="json"), "agents": ep.agents})
        return 0
    print(f"controller: {note}")
    if isinstance(controller, LearnedController):
        print("critic safeguards: " + ", ".join(f"{k} {v}" for k, v in controller.stats().items())
              + (f" (unmapped: {controller.unmapped[0]})" if controller.unmapped else ""))
    if ep.agents:  # the openai backend: the roles proposed with the model
        print(f"roles as agents: {ep.agents['calls']} model proposals, {len(ep.agents['failures'])} invalid, "
              f"{ep.agents['fallbacks']} fell back to the rule-based slate")
    print(f"idea graph for '{args.topic}': {len(ep.final.nodes)} nodes, {len(ep.final.edges)} edges; committed at round {ep.committed_round}")
    for r in ep.rounds:
        print(f"  round {r.round}: " + ", ".join(f"{a.role}:{a.kind}" for a in r.selected) + f"  maturity {r.signals['maturity']:.2f}")
    print(f"proposal written by: {prop.written_by}" + "".join(f"\n  note: {n}" for n in prop.notes))
    print(f"problem: {prop.problem}\nhypothesis: {prop.hypothesis}\nmethod: {prop.method}")
    for e in prop.experiments:
        print(f"experiment: {e}")
    print(f"judged ({judged.method}, {judged.scale}): " + ", ".join(f"{k} {v:.2f}" for k, v in judged.scores.items() if v is not None))
    for r in prop.risks + prop.prior_work:
        print(f"risk/prior: {r}")
    for n in prop.evidence_needs:
        print(f"evidence needed: {n}")
    print(f"references: {len(prop.references)}; episode saved to {path} (replayable)")
    return 0


def cmd_mcp(args: argparse.Namespace) -> int:
    from .mcp_server import serve

    serve(args.store)
    return 0


def _print_systems(systems: dict[str, dict]) -> None:
    metrics = list(dict.fromkeys(m for row in systems.values() for m in row))  # a system may lack a measure
    print("| system | " + " | ".join(metrics) + " |\n|---|" + "---|" * len(metrics))
    for name, row in systems.items():
        print(f"| {name} | " + " | ".join(str(row.get(m, "-")) for m in metrics) + " |")


def cmd_eval(args: argparse.Namespace) -> int:
    """Like one configuration of a sweep (the same options), stored with the sweeps' results as sweep
    `eval`, so `report --sweep eval` shows it."""
    from evaluations.sweep import ANSWERING, BUDGETED, Config, run_config, second_measurements

    from .store import Store, new_run_id

    store = _store(args)
    if args.budget and args.benchmark not in BUDGETED:
        raise ValueError(f"--budget applies to {', '.join(sorted(BUDGETED))}, not {args.benchmark} (it reads what it needs)")
    params = {k: v for k, v in (("data", args.data), ("limit", args.limit), ("embedder", args.embedder)) if v is not None}
    cfg = Config("eval", args.benchmark, args.backend if args.benchmark in ANSWERING else "offline", args.budget, params)
    client = _client(args, store) if args.benchmark in ANSWERING else None
    result = run_config(cfg, store, new_run_id(), client, progress=not args.json,
                        results=Store(store.home / "evals"))
    if args.json:
        _print_json(result)
        return 0
    print(f"{result['benchmark']}: n={result['n']} (saved as {cfg.key}; `scholarstack report --sweep eval` plots it)")
    _print_systems(result["systems"])
    for key, part in second_measurements(result).items():
        print(f"\n{key}: " + ", ".join(f"{k} {v}" for k, v in part.items() if k != "systems"))
        _print_systems(part["systems"])
    if result.get("topics"):  # the review benchmark's per-topic rows
        cols = list(result["topics"][0])
        print("\n| " + " | ".join(cols) + " |\n|---|" + "---|" * (len(cols) - 1))
        for row in result["topics"]:
            print("| " + " | ".join(str(row[c]) for c in cols) + " |")
    return 0


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("scholarstack")
    except PackageNotFoundError:
        return "unknown"


EXAMPLES = {  # shown under each command's --help
    "status": ["scholarstack status --json"],
    "show": ["scholarstack show fac_… --version 1"],
    "ingest": ["scholarstack ingest ../shared/data/acl_scisummnet/papers.jsonl.gz --limit 100", "scholarstack ingest paper.pdf --id my-paper"],
    "citations": ["scholarstack citations ../shared/data/acl_scisummnet/citances_dev.jsonl"],
    "find-papers": ['scholarstack find-papers "statistical POS taggers like TnT are available" --k 10 --before 2008'],
    "compile": ["scholarstack compile", "scholarstack compile --backend openai",
                "SCHOLARSTACK_STORE_URL=postgresql://u:p@host/db scholarstack compile --store runs/acl --workers 2"],
    "retrieve": ['scholarstack retrieve "unknown word handling in taggers" --layers fact entity --k 10'],
    "ask": ['scholarstack ask "What accuracy does TnT reach?" --paper A00-1031 --mode view'],
    "verify-claim": ['scholarstack verify-claim "TnT uses second order Markov models." --paper A00-1031'],
    "summarize": ["scholarstack summarize A00-1031 --words 250"],
    "related-work": ["scholarstack related-work --paper D08-1036 --k 10", 'scholarstack related-work --abstract "We tag …" --before 2008'],
    "review": ['scholarstack review "unsupervised POS tagging"'],
    "design": ['scholarstack design "part-of-speech tagging" --k 15'],
    "novelty": ["scholarstack novelty --paper D08-1036", 'scholarstack novelty --idea "an HMM tagger trained with Gibbs sampling"'],
    "open-search": ['scholarstack open-search "unsupervised POS tagging with HMMs since 2005" --providers local --ingest all --compile'],
    "chain": ["scholarstack chain configs/chains/demo.yaml", "scholarstack chain configs/chains/demo.yaml --fresh"],
    "search": ['scholarstack search "unsupervised POS tagging" --reranker ensemble', "scholarstack search --paper paper.pdf --depth 2 --budget 100"],
    "idea": ['scholarstack idea "weather forecasting" --controller learned'],
    "eval": ["scholarstack eval claims --limit 50", "scholarstack eval retrieval --json"],
    "index": ["scholarstack index", "SCHOLARSTACK_QDRANT_URL=http://qdrant:6333 scholarstack index --shards 64 --shard 0"],
    "sweep": ["scholarstack sweep ci"],
    "report": ["scholarstack report --sweep ci"],
}


def _help_formatter():
    """rich-argparse's help with defaults shown (except empty ones) and examples kept as written."""
    from rich_argparse import ArgumentDefaultsRichHelpFormatter, RawDescriptionRichHelpFormatter

    class HelpFormatter(ArgumentDefaultsRichHelpFormatter, RawDescriptionRichHelpFormatter):
        def _get_help_string(self, action: argparse.Action) -> str | None:
            if action.default in (None, False, argparse.SUPPRESS) or not action.option_strings:
                return action.help
            return super()._get_help_string(action)

    return HelpFormatter


def build_parser() -> argparse.ArgumentParser:
    formatter = _help_formatter()
    p = argparse.ArgumentParser(prog="scholarstack", description="Compile papers into linked research assets.", formatter_class=formatter)
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = p.add_subparsers(dest="command", required=True)

    def add(name: str, fn, help_: str, registers: bool = False) -> argparse.ArgumentParser:
        """`registers`: a task whose output is registered and reused, with a backend to derive it."""
        examples = EXAMPLES.get(name)
        sp = sub.add_parser(name, help=help_, description=help_, formatter_class=formatter,
                            epilog=("examples:\n" + "\n".join(f"  {e}" for e in examples)) if examples else None)
        sp.add_argument("--store", default=None, help="store directory (default $SCHOLARSTACK_HOME or ./.scholarstack)")
        sp.add_argument("--json", action="store_true", help="machine-readable output")
        if registers:
            sp.add_argument("--backend", choices=["offline", "openai"], default="offline")
            sp.add_argument("--fresh", action="store_true", help="derive it again even when a registered one can be reused")
        sp.set_defaults(fn=fn)
        return sp

    add("status", cmd_status, "counts per layer and state, versions, rechecks, rejections")
    sp = add("show", cmd_show, "an object, its evidence sentences, versions and what cites it")
    sp.add_argument("id")
    sp.add_argument("--version", type=positive_int, default=None)
    sp = add("history", cmd_history, "the version history and events of an object")
    sp.add_argument("id")
    add("recheck", cmd_recheck, "re-verify every object marked needs_recheck")
    sp = add("ingest", cmd_ingest, "load papers (files, folders, corpora) into the store's raw tables")
    sp.add_argument("paths", nargs="+", help="files, folders, corpus files (acl_scisummnet papers.jsonl.gz, scifact corpus.jsonl.gz)")
    sp.add_argument("--limit", type=positive_int, default=None, help="at most N papers from each corpus file")
    sp.add_argument("--id", default=None, help="the paper id for a single file (default: from its name); an existing id takes the file as that paper's new version")
    sp = add("citations", cmd_citations, "load citing sentences of corpus papers (JSONL: cited_paper_id, citing_paper_id, query)")
    sp.add_argument("file")
    sp = add("find-papers", cmd_find_papers, "rank the store's papers for a request (e.g. a citing sentence)")
    sp.add_argument("query")
    sp.add_argument("--k", type=positive_int, default=10)
    sp.add_argument("--before", type=positive_int, default=None, metavar="YEAR",
                    help="only papers published in or before YEAR (e.g. the year of the paper you are writing)")
    sp = add("compile", cmd_compile, "materialise source maps, L1, L2, L3 and the index (Dagster, in-process)")
    sp.add_argument("--backend", choices=["offline", "openai"], default="offline")
    sp.add_argument("--papers", nargs="*", default=None, help="only these paper ids (default: all ingested)")
    sp.add_argument("--workers", type=positive_int, default=1,
                    help="compile papers in this many processes (a PostgreSQL store only; DuckDB has one writer)")
    sp = add("index", cmd_index, "sync the vector index with the store (what `compile` does last), or one shard of it")
    sp.add_argument("--shards", type=positive_int, default=1, help="split the documents into N shards (needs a Qdrant server)")
    sp.add_argument("--shard", type=int, default=None, help="this run's shard, 0 to N-1 (default: $JOB_COMPLETION_INDEX or 0)")
    sp = add("demo", cmd_demo, "ingest the bundled sample, compile it through L3 and print what it produced")
    sp.add_argument("--backend", choices=["offline", "openai"], default="offline")
    sp = add("retrieve", cmd_retrieve, "hybrid retrieval over the compiled layers, rendered under a budget")
    sp.add_argument("query")
    sp.add_argument("--layers", nargs="+", default=["fact", "entity", "synthesis", "sentence"],
                    help="sentence fact entity assignment relation synthesis")
    sp.add_argument("--k", type=positive_int, default=10)
    sp.add_argument("--budget", type=positive_int, default=4000, help="characters of rendered output")
    sp = add("ask", cmd_ask, "answer a question from one or more papers, citing sentence locators", registers=True)
    sp.add_argument("question")
    sp.add_argument("--paper", action="append", required=True, help="paper id (repeat for several)")
    sp.add_argument("--mode", choices=["view", "fulltext"], default="view")
    sp = add("verify-claim", cmd_verify_claim, "check a claim against a cited paper", registers=True)
    sp.add_argument("claim")
    sp.add_argument("--paper", required=True)
    sp.add_argument("--mode", choices=["view", "fulltext"], default="view")
    sp = add("eval", cmd_eval, "run a benchmark; every system measured on the same items in one run")
    sp.add_argument("benchmark", choices=["retrieval", "claims", "qa", "localisation", "pdf_fidelity", "scirex", "store_fidelity",
                                          "related_work", "summary", "review", "chain", "novelty", "design", "ideas", "deep_search"])
    sp.add_argument("--data", default=None, help="another file of the same format")
    sp.add_argument("--limit", type=positive_int, default=None, help="at most N items, spread evenly over the file")
    sp.add_argument("--embedder", choices=EMBEDDERS, default=None)
    sp.add_argument("--backend", choices=["offline", "openai"], default="offline")
    sp.add_argument("--budget", type=positive_int, default=None, help="context tokens per question (qa; default 4000, as the sweeps)")
    add("mcp", cmd_mcp, "serve the views and tasks as MCP tools over stdio")
    sp = add("search", cmd_search, "deep literature search: keyword queries, citation-graph expansion, re-ranking")
    sp.add_argument("query", nargs="?", default=None)
    sp.add_argument("--paper", default=None, help="a query paper file (any ingestible format)")
    sp.add_argument("--depth", type=int, default=3, help="citation hops from the seed papers (the paper's D_max; the budget may stop it sooner)")
    sp.add_argument("--budget", type=positive_int, default=200, help="most papers collected (the paper's N_max)")
    sp.add_argument("--k", type=positive_int, default=20)
    sp.add_argument("--citing", action="store_true", help="also expand along citing papers")
    sp.add_argument("--ingest", action="store_true", help="ingest the top-k papers found into the store")
    sp.add_argument("--reranker", choices=["auto", "embedding", "lexical", "relevance", "debate", "ensemble"], default="auto",
                    help="auto: the LLM's debate with --backend openai, else the learned relevance judge (embedding where its weights are missing)")
    sp.add_argument("--providers", nargs="+", default=["local"], help="local arxiv openalex s2 (web providers need a network)")
    sp.add_argument("--embedder", choices=EMBEDDERS, default="minilm")
    sp.add_argument("--backend", choices=["offline", "openai"], default="offline")
    sp = add("idea", cmd_idea, "evolve a typed idea graph on a topic and synthesise a proposal grounded in the store")
    sp.add_argument("topic")
    sp.add_argument("--papers", nargs="*", default=None, help="draw evidence only from these papers")
    sp.add_argument("--rounds", type=positive_int, default=5)
    sp.add_argument("--controller", choices=["heuristic", "learned", "random"], default="heuristic")
    sp.add_argument("--mode", choices=["frozen", "sequential"], default="frozen")
    sp.add_argument("--backend", choices=["offline", "openai"], default="offline")
    sp = add("summarize", cmd_summarize, "a paper's problem, method, results and limitations from its L1/L2 objects, every sentence cited", registers=True)
    sp.add_argument("paper_id")
    sp.add_argument("--words", type=positive_int, default=250)
    sp = add("related-work", cmd_related_work, "a related-work section for a paper (prior work only, grouped into themes), every sentence cited", registers=True)
    what = sp.add_mutually_exclusive_group(required=True)
    what.add_argument("--paper", default=None, help="a paper id in the store, or a paper file")
    what.add_argument("--abstract", default=None, help="the new paper's abstract")
    sp.add_argument("--k", type=positive_int, default=10, help="papers to cite")
    sp.add_argument("--before", type=positive_int, default=None, metavar="YEAR", help="only work published by YEAR (default: the paper's year)")
    sp = add("review", cmd_review, "a structured literature review of a topic: sections from the taxonomy, results table, disagreements, limitations", registers=True)
    sp.add_argument("topic")
    sp.add_argument("--papers", nargs="+", default=None, help="review these paper ids (default: found through the views)")
    sp.add_argument("--k", type=positive_int, default=12, help="papers to find when --papers is not given")
    sp = add("design", cmd_design, "an experimental design for a task or idea: datasets, metrics, baselines, best results, ablations, threats; cited", registers=True)
    sp.add_argument("request", help="the task or idea, in words")
    sp.add_argument("--k", type=positive_int, default=15, help="closest papers to learn from")
    sp = add("open-search", cmd_open_search, "open-world retrieval: the views plan the queries, providers answer, candidates tiered by the request's conditions")
    sp.add_argument("request")
    sp.add_argument("--providers", nargs="+", choices=["local", "arxiv", "openalex", "s2"], default=["openalex", "arxiv"])
    sp.add_argument("--per-query", type=positive_int, default=20)
    sp.add_argument("--k", type=positive_int, default=20, help="candidates to print")
    sp.add_argument("--ingest", choices=["none", "all", "some"], default="none", help="ingest the papers that meet all (or some) conditions")
    sp.add_argument("--compile", action="store_true", help="compile what was ingested")
    sp = add("novelty", cmd_novelty, "is an idea or paper anticipated by prior work in the store? aspects, covering facts, a verdict", registers=True)
    what = sp.add_mutually_exclusive_group(required=True)
    what.add_argument("--idea", default=None, help="the idea, in words")
    what.add_argument("--paper", default=None, help="a paper id in the store, or a paper file")
    sp.add_argument("--k", type=positive_int, default=10, help="prior papers to consider per aspect")
    sp.add_argument("--before", type=positive_int, default=None, metavar="YEAR", help="only work published by YEAR (default: the paper's year)")
    sp = add("chain", cmd_chain, "run a chain of tasks (a YAML file) as Dagster assets; steps reuse what earlier runs registered")
    sp.add_argument("file")
    sp.add_argument("--fresh", action="store_true", help="derive every step again even when a registered output can be reused")
    sp = add("sweep", cmd_sweep, "materialise every benchmark configuration of configs/sweeps/NAME.yaml, then its report")
    sp.add_argument("name")
    sp.add_argument("--backend", choices=["offline", "openai"], default="offline")
    sp = add("report", cmd_report, "write the HTML report and Markdown summary of a sweep's newest results")
    sp.add_argument("--sweep", default=None)
    sp.add_argument("--out", default=None)
    for sp in sub.choices.values():  # options without a help line still show their default
        for action in sp._actions:
            if action.help is None and action.option_strings and action.default not in (None, False, argparse.SUPPRESS):
                action.help = "(default: %(default)s)"
    return p


def main(argv: list[str] | None = None) -> int:
    quiet_telemetry()
    args = build_parser().parse_args(argv)
    try:
        code = args.fn(args)
        sys.stdout.flush()  # inside the try: a closed pipe is met here, not at interpreter exit
        return code
    except (LookupError, ValueError, FileNotFoundError, RuntimeError) as exc:
        return _fail(args, exc)
    except BrokenPipeError:  # `scholarstack status --json | head`: the reader left; stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # disk full, permissions, a path that is a file: one line, never a traceback
        return _fail(args, f"{exc.strerror or exc}: {exc.filename}" if exc.filename else exc)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        import duckdb

        if isinstance(exc, duckdb.Error):  # a damaged or full store file
            return _fail(args, f"store error: {' '.join(str(exc).split())[:300]}")
        raise


def _fail(args: argparse.Namespace, exc: BaseException | str) -> int:
    message = " ".join(str(exc).split())
    try:
        if getattr(args, "json", False):
            print(json.dumps({"error": message, "command": args.command}), file=sys.stderr)
        else:
            print(f"scholarstack {args.command}: error: {message}", file=sys.stderr)
    except BrokenPipeError:
        pass
    return 2


if __name__ == "__main__":
    sys.exit(main())
