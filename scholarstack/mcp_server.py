"""`scholarstack mcp`: the knowledge views and tasks as MCP tools over stdio, for research agents.

Views travel as JSON: `retrieve` returns one, and `select`, `expand`, `compare` and `synthesize`
take it back, so an agent composes operations without the server holding state. Errors come back
as tool errors with one clear line.
"""

from __future__ import annotations

from typing import Any

from .store import Store, register
from .views.views import View, compare, expand, open_kb, render, retrieve, select, synthesize


def _clear_errors(fn):
    """Known input errors become tool errors with their one-line message (not a crash)."""
    import functools

    from mcp.server.mcpserver.exceptions import ToolError

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (LookupError, ValueError) as exc:
            raise ToolError(str(exc)) from exc

    return wrapper


def build_server(store_dir: str | None = None):
    from mcp.server.mcpserver import MCPServer

    store = Store(store_dir)
    kb = open_kb(store)
    server = MCPServer("scholarstack", instructions="Read compiled research assets (facts, entities, relations, "
                       "syntheses) through knowledge views; every item carries locators back to source sentences.")

    def out(view: View, budget: int = 4000) -> dict[str, Any]:
        return {"view": view.model_dump(mode="json"), "rendered": render(view, budget=budget)}

    @server.tool(description="Hybrid (BM25 + dense, RRF) retrieval over layers: sentence, fact, entity, assignment, relation, synthesis.")
    @_clear_errors
    def retrieve_view(query: str, layers: list[str] | None = None, k: int = 10, budget: int = 4000) -> dict[str, Any]:
        return out(retrieve(kb, query, tuple(layers or ("fact", "entity", "synthesis", "sentence")), k), budget)

    @server.tool(description="Filter a view by kinds, papers, verification, lifecycle, category, fact types or text.")
    @_clear_errors
    def select_view(view: dict, kinds: list[str] | None = None, papers: list[str] | None = None,
                    verification: list[str] | None = None, category: str | None = None, fact_types: list[str] | None = None,
                    text: str | None = None) -> dict[str, Any]:
        return out(select(View.model_validate(view), kinds=kinds, papers=papers, verification=verification,
                          category=category, fact_types=fact_types, text=text))

    @server.tool(description="Follow evidence, basis, relations, mentions or categories from a view's items.")
    @_clear_errors
    def expand_view(view: dict, follow: list[str] | None = None, neighbours: int = 0) -> dict[str, Any]:
        return out(expand(kb, View.model_validate(view), tuple(follow or ("evidence",)), neighbours))

    @server.tool(description="Align a view's findings along dimensions (dataset, metric, conditions); no ranking.")
    @_clear_errors
    def compare_view(view: dict, dimensions: list[str] | None = None) -> dict[str, Any]:
        return compare(View.model_validate(view), tuple(dimensions or ("dataset", "metric", "conditions"))).model_dump(mode="json")

    @server.tool(description="Draft a candidate synthesis from a view's facts; register=true sends it through the gate.")
    @_clear_errors
    def synthesize_view(view: dict, question: str, register_candidate: bool = False) -> dict[str, Any]:
        cand = synthesize(View.model_validate(view), question)
        result: dict[str, Any] = {"candidate": cand.model_dump(mode="json"), "id": cand.id}
        if register_candidate:
            o = register(store, cand, task="mcp.synthesize")
            result["registration"] = {"status": o.status, "version": o.version, "reason": o.reason}
        return result

    @server.tool(description="Answer a question from one or more papers, citing sentence locators (mode: view or fulltext).")
    @_clear_errors
    def ask(question: str, papers: list[str], mode: str = "view") -> dict[str, Any]:
        from .tasks.qa import answer_question

        return answer_question(kb, question, papers, mode=mode, embedder=kb.embedder).model_dump(mode="json")

    @server.tool(description="Verify a claim against a cited paper: SUPPORT / CONTRADICT / NOT ENOUGH INFO with rationale.")
    @_clear_errors
    def verify_claim(claim: str, paper: str, mode: str = "view") -> dict[str, Any]:
        from .tasks.claims import verify_claim as run

        return run(kb, claim, paper, mode=mode, embedder=kb.embedder).model_dump(mode="json")

    @server.tool(description="One stored object with its evidence sentences, versions and what cites it.")
    @_clear_errors
    def show(object_id: str, version: int | None = None) -> dict[str, Any]:
        from .cli import show_object

        return show_object(store, object_id, version)

    return server


def serve(store_dir: str | None = None) -> None:
    build_server(store_dir).run("stdio")
