"""Tasks as an asset: the question sets in configs/questions.yaml answered through knowledge views
and from full text, with answers, citations and costs recorded side by side."""

import json

import yaml
from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset

from resources import StoreResource
from resources.vectors import VectorIndexResource
from scholarstack.settings import CONFIG_DIR


@asset(deps=["vector_index"], group_name="tasks", description="Answers to configs/questions.yaml in view and full-text modes, with costs.")
def task_answers(context: AssetExecutionContext, store: StoreResource, vectors: VectorIndexResource) -> MaterializeResult:
    from scholarstack.tasks.claims import verify_claim
    from scholarstack.tasks.qa import answer_question
    from scholarstack.views.views import KnowledgeBase

    s = store.get()
    kb = KnowledgeBase(s, vectors.open(s), vectors.make_embedder(s))
    cfg = yaml.safe_load((CONFIG_DIR / "questions.yaml").read_text())
    rows, skipped = [], []
    jobs = [("qa", q["question"], q["papers"]) for q in cfg.get("qa", [])] + [("claim", c["claim"], [c["paper"]]) for c in cfg.get("claims", [])]
    for kind, text, papers in jobs:
        for mode in ("view", "fulltext"):
            try:
                ans = (answer_question(kb, text, papers, mode=mode, embedder=kb.embedder) if kind == "qa"
                       else verify_claim(kb, text, papers[0], mode=mode, embedder=kb.embedder))
            except LookupError as exc:
                skipped.append(f"{text[:60]}: {exc}")
                break
            rows.append({"task": kind, "question": text, "mode": mode, "answer": ans.answer[:200], "citations": sum(len(x.locators) for x in ans.sources_state),
                         "tokens_in": ans.tokens_in, "seconds": ans.seconds})
    out = s.home / "tasks" / "answers.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rows, indent=1))
    table = "| task | mode | question | answer | citations | tokens in |\n|---|---|---|---|---|---|\n" + "\n".join(
        f"| {r['task']} | {r['mode']} | {r['question'][:50]} | {r['answer'][:60].replace('|', '/')} | {r['citations']} | {r['tokens_in']} |" for r in rows)
    view_tokens = sum(r["tokens_in"] for r in rows if r["mode"] == "view")
    full_tokens = sum(r["tokens_in"] for r in rows if r["mode"] == "fulltext")
    return MaterializeResult(metadata={"answers": len(rows), "skipped": MetadataValue.json(skipped), "table": MetadataValue.md(table),
                                       "view_tokens": view_tokens, "fulltext_tokens": full_tokens, "file": MetadataValue.path(str(out))})


@asset(deps=["vector_index"], group_name="tasks",
       description="Summaries, related-work sections, reviews and experimental designs of configs/writing.yaml, every sentence cited, registered as task-derived objects.")
def writings(context: AssetExecutionContext, store: StoreResource, vectors: VectorIndexResource) -> MaterializeResult:
    from scholarstack.writing.design import design
    from scholarstack.writing.related_work import related_work
    from scholarstack.writing.review import review
    from scholarstack.writing.summary import summarize

    s = store.get()
    embedder = vectors.make_embedder(s)
    cfg = yaml.safe_load((CONFIG_DIR / "writing.yaml").read_text()) or {}
    jobs = ([(f"summary {c['paper']}", lambda c=c: summarize(s, c["paper"], words=c.get("words", 250))) for c in cfg.get("summaries", [])]
            + [(f"related work {c['paper']}", lambda c=c: related_work(s, paper=c["paper"], k=c.get("k", 10), embedder=embedder))
               for c in cfg.get("related_work", [])]
            + [(f"review {c['topic']}", lambda c=c: review(s, c["topic"], papers=c.get("papers"), k=c.get("k", 12), embedder=embedder))
               for c in cfg.get("reviews", [])]
            + [(f"design {c['request']}", lambda c=c: design(s, c["request"], k=c.get("k", 15), embedder=embedder))
               for c in cfg.get("designs", [])])
    rows, skipped = [], []
    for name, job in jobs:
        try:
            out = job()
        except LookupError as exc:
            skipped.append(f"{name}: {exc}")
            continue
        reg = out.registration
        context.log.info(f"{name}: {reg.get('id')} {reg.get('status')} ({out.seconds:.1f}s)")
        rows.append({"writing": name, "id": reg.get("id"), "status": reg.get("status"), "verification": reg.get("verification", ""),
                     "sentences": len(out.writing.sentences()), "interpretation": sum(x.interpretation for x in out.writing.sentences()),
                     "unknown_citations": len(out.citations.unknown), "tokens_out": out.tokens_out})
    table = "| writing | id | status | verification | sentences | interpretation | unknown citations |\n|---|---|---|---|---|---|---|\n" + "\n".join(
        f"| {r['writing'][:50]} | {r['id']} | {r['status']} | {r['verification']} | {r['sentences']} | {r['interpretation']} | {r['unknown_citations']} |"
        for r in rows)
    return MaterializeResult(metadata={"written": len(rows), "skipped": MetadataValue.json(skipped), "table": MetadataValue.md(table),
                                       "rejected": sum(r["status"] == "rejected" for r in rows)})
