"""A self-contained HTML report (tables and plots) and a Markdown summary of a sweep's results,
plus the scaling figures from `bench_out/` when the benchmarks have been run."""

from __future__ import annotations

import base64
import io
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from scholarstack.settings import REPO_ROOT
from scholarstack.store import Store

from .sweep import all_results, newest_runs

HEADLINE = {"retrieval": "recall@10", "claims": "macro_f1", "qa": "answer_f1", "localisation": "f1",
            "pdf_fidelity": "text_recall", "scirex": "mention_f1", "store_fidelity": "locators_resolve",
            "related_work": "recall", "summary": "rouge2", "review": "coverage_at_k", "novelty": "recall@10",
            "design": "dataset_recall@5", "chain": "hit_rate", "ideas": "maturity"}
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
        fig, ax = plt.subplots(figsize=(5, 0.6 + 0.35 * len(vals)))
        xs = [v for _, v in vals]
        ax.barh([s for s, _ in vals], xs, color="#4c72b0")
        lo, hi = min(xs), max(xs)
        if lo > 0 and hi > lo and (hi - lo) < 0.25 * hi:  # close values: start the axis near them so differences show
            ax.set_xlim(lo - (hi - lo), hi + 0.5 * (hi - lo))
            ax.set_xlabel(f"{metric} (axis starts at {lo - (hi - lo):.3g})")
        else:
            ax.set_xlabel(metric)
        for i, x in enumerate(xs):
            ax.annotate(_fmt(x), (x, i), fontsize=7, xytext=(2, -3), textcoords="offset points")
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


def history_plots(history: list[dict[str, Any]]) -> dict[str, str]:
    """config_key → base64 PNG of its headline metric per system over the stored runs (two or more)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series: dict[str, dict[str, dict[str, float]]] = defaultdict(lambda: defaultdict(dict))  # key → system → ts → value
    metric_of: dict[str, str] = {}
    for r in history:
        if r["metric"] == HEADLINE.get(r["benchmark"]):
            series[r["config_key"]][r["system"]][str(r["ts"])] = r["value"]
            metric_of[r["config_key"]] = r["metric"]
    out = {}
    for key, systems in series.items():
        stamps = sorted({t for pts in systems.values() for t in pts})
        if len(stamps) < 2:
            continue
        fig, ax = plt.subplots(figsize=(5, 2.8))
        for system, pts in sorted(systems.items()):
            xs = [stamps.index(t) for t in sorted(pts)]
            ax.plot(xs, [pts[t] for t in sorted(pts)], "o-", label=system, markersize=3)
        ax.set_xticks(range(len(stamps)), [t[:16] for t in stamps], rotation=30, ha="right", fontsize=6)
        ax.set_ylabel(metric_of[key])
        ax.set_xlabel("run (UTC)")
        ax.legend(fontsize=6, loc="best")
        ax.set_title(f"{key}: runs over time", fontsize=9)
        out[key] = _png(fig)
    return out


def _anchor(key: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-")


def write_report(store: Store, sweep: str | None, out_dir: str | Path) -> dict[str, Any]:
    """report.html (jinja2 template: contents, a table and plots per configuration, runs over time)
    and report.md, with each plot also as a PNG."""
    import jinja2

    history = all_results(store, sweep)
    rows = newest_runs(history)
    if not rows:
        raise LookupError(f"no evaluation results{' for sweep ' + sweep if sweep else ''} in {store.home}; run `scholarstack sweep NAME` first")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tabs = tables(rows)
    bench_of = {r["config_key"]: r["benchmark"] for r in rows}
    meta = {r["config_key"]: r for r in rows}
    runs = {k: len({str(r["ts"]) for r in history if r["config_key"] == k}) for k in tabs}
    images = plots(tabs, bench_of)
    over_time = history_plots(history)
    md = [f"# ScholarStack evaluation report{': ' + sweep if sweep else ''}", ""]
    sections = []
    for key in sorted(tabs):
        m = meta[key]
        md += [f"## {key}", f"n={m['n']}; code {m['code_version']}; data {m['data_version']}; run {m['run_id']}; {str(m['ts'])[:19]}",
               "", markdown_table(tabs[key]), ""]
        metrics = sorted({name for s in tabs[key].values() for name in s})
        headline = HEADLINE.get(bench_of[key])
        best = max((v[headline] for v in tabs[key].values() if headline in v), default=None)
        figures = [{"name": name, "png": png} for name, png in images.items() if name.startswith(key + ":")]
        if key in over_time:
            figures.append({"name": f"{key}: runs over time", "png": over_time[key]})
        sections.append({"key": key, "anchor": _anchor(key), "n": m["n"], "code_version": m["code_version"],
                         "data_version": m["data_version"], "run_id": m["run_id"], "ts": str(m["ts"])[:19], "runs": runs[key],
                         "headline": f"best {headline} {_fmt(best)}" if best is not None else "",
                         "metrics": metrics, "rows": [(s, [_fmt(v.get(x)) for x in metrics]) for s, v in tabs[key].items()],
                         "figures": figures})
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"), autoescape=True)
    html = env.get_template("report.html.j2").render(sweep=sweep, sections=sections, scaling=images.get("compile scaling"))
    (out / "report.html").write_text(html)
    (out / "report.md").write_text("\n".join(md))
    for name, png in list(images.items()) + [(f"{k}: runs over time", png) for k, png in over_time.items()]:
        safe = "".join(c if c.isalnum() else "_" for c in name)[:80]
        (out / f"{safe}.png").write_bytes(base64.b64decode(png))
    return {"html": str(out / "report.html"), "markdown": str(out / "report.md"), "configs": len(tabs),
            "plots": len(images) + len(over_time)}
