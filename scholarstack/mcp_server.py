"""`scholarstack mcp`: the knowledge views and tasks as MCP tools over stdio, for research agents.

Views travel as JSON: `retrieve` returns one, and `select`, `expand`, `compare` and `synthesize`
take it back, so an agent composes operations without the server holding state. Errors come back
as tool errors with one clear line.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import Field

from .store import Store, register
from .views.views import View, compare, expand, open_kb, refresh, render, retrieve, select, synthesize

K = Annotated[int, Field(ge=1, le=200, description="number of items, 1 to 200")]
BUDGET = Annotated[int, Field(ge=100, le=100_000, description="characters of rendered output")]


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
    def retrieve_view(query: str, layers: list[str] | None = None, k: K = 10, budget: BUDGET = 4000) -> dict[str, Any]:
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
        # The client's view says which objects; their text is read from the store, never from the client.
        cand = synthesize(refresh(kb, View.model_validate(view)), question)
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
        from .views.inspect import show_object

        return show_object(store, object_id, version)

    _forbid_unknown_arguments(server)
    return server


def _forbid_unknown_arguments(server) -> None:
    """A misspelt argument (`kinds` as `kind`) is an error, not silently ignored."""
    for tool in server._tool_manager.list_tools():
        model = tool.fn_metadata.arg_model
        model.model_config["extra"] = "forbid"
        model.model_rebuild(force=True)


PARSE_ERROR, INVALID_REQUEST = -32700, -32600


def check_jsonrpc_line(line: str) -> dict[str, Any] | None:
    """None for a well-formed JSON-RPC message; else the error response the client is owed."""
    import mcp_types as types

    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"jsonrpc": "2.0", "id": None, "error": {"code": PARSE_ERROR, "message": f"Parse error: {exc.msg}"}}
    try:
        types.jsonrpc_message_adapter.validate_python(data, by_name=False)
    except Exception:
        msg_id = data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), (str, int)) else None
        return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": INVALID_REQUEST, "message": "Invalid Request: not a JSON-RPC 2.0 message"}}
    return None


class _LockedWriter:
    """stdout shared by the server and the line checker: one whole line at a time."""

    def __init__(self, file) -> None:
        import anyio

        self._file, self._lock = file, anyio.Lock()

    async def write(self, text: str) -> None:
        async with self._lock:
            await self._file.write(text)
            await self._file.flush()

    async def flush(self) -> None:
        pass


class _CheckedLines:
    """stdin lines for the MCP transport; a malformed line is answered (-32700 / -32600) here."""

    def __init__(self, lines, out: _LockedWriter) -> None:
        self._lines, self._out = lines, out

    def __aiter__(self):
        return self._iterate()

    async def _iterate(self):
        async for line in self._lines:
            if not line.strip():
                continue
            error = check_jsonrpc_line(line)
            if error is None:
                yield line
            else:
                await self._out.write(json.dumps(error) + "\n")


async def serve_stdio(server, stdin=None, stdout=None) -> None:
    import io
    import sys

    import anyio
    from mcp.server.stdio import stdio_server

    out = _LockedWriter(stdout or anyio.wrap_file(io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", write_through=True)))
    lines = _CheckedLines(stdin or anyio.wrap_file(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")), out)
    async with stdio_server(stdin=lines, stdout=out) as (read_stream, write_stream):
        low = server._lowlevel_server
        await low.run(read_stream, write_stream, low.create_initialization_options())


def serve(store_dir: str | None = None) -> None:
    import anyio

    anyio.run(serve_stdio, build_server(store_dir))
