"""A self-contained HTML report (tables and plots) and a Markdown summary of a sweep's results,
plus the scaling figures from `bench_out/` when the benchmarks have been run."""

from __future__ import annotations

import base64
import html
import io
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from scholarstack.settings import REPO_ROOT
from scholarstack.store import Store

from .sweep import latest_results

HEADLINE = {"retrieval": "recall@10", "claims": "macro_f1", "qa": "answer_f1", "localisation": "f1",
            "pdf_fidelity": "text_recall", "scirex": "mention_f1", "store_fidelity": "locators_resolve",
            "related_work": "recall", "summary": "rouge2", "review": "coverage_at_k", "novelty": "recall@10",
            "design": "dataset_recall@5", "chain": "hit_rate"}
COST = {"qa": "input_tokens_per_question", "claims": "tokens_per_claim"}


def tables(rows: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, float]]]:
    """config_key → system → metric → value."""
    out: dict[str, dict[str, dict[str, float]]] = defaultdict(lambda: defaultdict(dict))
    for r in rows:
        out[r["config_key"]][r["system"]][r["metric"]] = r["value"]
    return out


def markdown_table(systems: dict[str, dict[str, float]]) -> str:
    metrics = sorted({m for s in systems.values() for m in s})
    lines = ["| system | " + " | ".join(metrics) + " |", "|---|" + "---|" * len(metrics)]
    for name, vals in systems.items():
        lines.append(f"| {name} | " + " | ".join(_fmt(vals.get(m)) for m in metrics) + " |")
    return "\n".join(lines)


def _fmt(v: float | None) -> str:
    if v is None:
        return "-"
    return f"{v:.4g}" if isinstance(v, float) else str(v)


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode()


def plots(tabs: dict[str, dict[str, dict[str, float]]], bench_of: dict[str, str]) -> dict[str, str]:
    """name → base64 PNG: headline metric per system, tokens vs quality, scaling curves."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker  # noqa: F401  (used for log-axis labels)

    out = {}
    for key, systems in tabs.items():
        metric = HEADLINE.get(bench_of[key])
        vals = [(s, v[metric]) for s, v in systems.items() if metric in v]
        if not vals:
            continue
        fig, ax = plt.subplots(figsize=(5, 2.6))
        ax.barh([s for s, _ in vals], [v for _, v in vals], color="#4c72b0")
        ax.set_xlabel(metric)
        ax.set_title(key, fontsize=9)
        out[f"{key}: {metric} by system"] = _png(fig)
        cost = COST.get(bench_of[key])
        pts = [(s, v[cost], v[metric]) for s, v in systems.items() if cost in v and metric in v]
        if pts:
            fig, ax = plt.subplots(figsize=(5, 2.8))
            for s, x, y in pts:
                ax.scatter(x, y, s=40)
                ax.annotate(s, (x, y), fontsize=8, xytext=(4, 2), textcoords="offset points")
            ax.set_xscale("log")
            ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
            ax.set_xlabel(cost + " (log)")
            ax.set_ylabel(metric)
            ax.set_title(f"{key}: tokens vs quality", fontsize=9)
            out[f"{key}: tokens vs quality"] = _png(fig)
    scaling = REPO_ROOT / "bench_out" / "compile_bench.json"
    if scaling.exists():
        rows = json.loads(scaling.read_text())
        fig, ax = plt.subplots(1, 2, figsize=(8, 2.8))
        ax[0].plot([r["papers"] for r in rows], [r["compile_seconds"] for r in rows], "o-")
        ax[0].set_xlabel("papers")
        ax[0].set_ylabel("full compile (s)")
        ax[1].plot([r["papers"] for r in rows], [r["papers_per_minute"] for r in rows], "o-")
        ax[1].set_xlabel("papers")
        ax[1].set_ylabel("papers / minute")
        fig.suptitle("Compile scaling (offline backend)", fontsize=9)
        out["compile scaling"] = _png(fig)
    return out


def write_report(store: Store, sweep: str | None, out_dir: str | Path) -> dict[str, Any]:
    rows = latest_results(store, sweep)
    if not rows:
        raise LookupError(f"no evaluation results{' for sweep ' + sweep if sweep else ''} in {store.home}; run `scholarstack sweep NAME` first")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tabs = tables(rows)
    bench_of = {r["config_key"]: r["benchmark"] for r in rows}
    meta = {r["config_key"]: (r["n"], r["code_version"], r["data_version"], r["run_id"], str(r["ts"])[:19]) for r in rows}
    images = plots(tabs, bench_of)
    md = [f"# ScholarStack evaluation report{': ' + sweep if sweep else ''}", ""]
    body = [f"<h1>ScholarStack evaluation report{': ' + html.escape(sweep) if sweep else ''}</h1>"]
    for key in sorted(tabs):
        n, cv, dv, run, ts = meta[key]
        md += [f"## {key}", f"n={n}; code {cv}; data {dv}; run {run}; {ts}", "", markdown_table(tabs[key]), ""]
        metrics = sorted({m for s in tabs[key].values() for m in s})
        rows_html = "".join(f"<tr><th>{html.escape(s)}</th>" + "".join(f"<td>{_fmt(v.get(m))}</td>" for m in metrics) + "</tr>"
                            for s, v in tabs[key].items())
        body.append(f"<h2>{html.escape(key)}</h2><p class=meta>n={n}; code {cv}; data {dv}; run {run}; {ts}</p>"
                    f"<table><tr><th>system</th>{''.join(f'<th>{html.escape(m)}</th>' for m in metrics)}</tr>{rows_html}</table>")
        for name, png in images.items():
            if name.startswith(key + ":"):
                body.append(f"<figure><img alt='{html.escape(name)}' src='data:image/png;base64,{png}'><figcaption>{html.escape(name)}</figcaption></figure>")
    if "compile scaling" in images:
        body.append(f"<h2>Compile scaling</h2><img alt='compile scaling' src='data:image/png;base64,{images['compile scaling']}'>")
    style = ("body{font-family:system-ui,sans-serif;max-width:1000px;margin:2em auto;color:#222}table{border-collapse:collapse;margin:.5em 0}"
             "td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px;text-align:right}th:first-child{text-align:left}"
             ".meta{color:#666;font-size:12px}figure{display:inline-block;margin:.5em}")
    (out / "report.html").write_text(f"<!doctype html><meta charset=utf-8><title>ScholarStack report</title><style>{style}</style>" + "\n".join(body))
    (out / "report.md").write_text("\n".join(md))
    for name, png in images.items():
        safe = "".join(c if c.isalnum() else "_" for c in name)[:80]
        (out / f"{safe}.png").write_bytes(base64.b64decode(png))
    return {"html": str(out / "report.html"), "markdown": str(out / "report.md"), "configs": len(tabs), "plots": len(images)}
