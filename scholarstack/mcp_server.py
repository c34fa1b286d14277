"""`scholarstack mcp`: the knowledge views and tasks as MCP tools over stdio, for research agents.

Views travel as JSON: `retrieve` returns one, and `select`, `expand`, `compare` and `synthesize`
take it back, so an agent composes operations without the server holding state. Errors come back
as tool errors with one clear line.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import Field

from .models import FactType as FactTypeEnum
from .models import Verification as VerificationEnum
from .store import Store, register
from .views.views import View, compare, expand, open_kb, refresh, render, retrieve, select, synthesize

K = Annotated[int, Field(ge=1, le=200, description="number of items, 1 to 200")]
BUDGET = Annotated[int, Field(ge=100, le=100_000, description="characters of rendered output")]
VIEW = Annotated[dict, Field(description="a view as returned by retrieve_view (its `view` field)")]
Layer = Literal["sentence", "fact", "entity", "assignment", "relation", "synthesis"]
Follow = Literal["evidence", "basis", "relations", "mentions", "categories"]
Dimension = Literal["dataset", "metric", "conditions", "paper", "subject", "verification"]
# The models' enums as JSON-schema enums, so a client sees the choices.
Verification = Literal[tuple(v.value for v in VerificationEnum)]  # type: ignore[valid-type]
FactType = Literal[tuple(t.value for t in FactTypeEnum)]  # type: ignore[valid-type]
MODE = Annotated[Literal["view", "fulltext"], Field(description="view: the paper's compiled objects within a budget; "
                                                                "fulltext: the whole paper")]
BACKEND = Annotated[Literal["offline", "openai"], Field(description="offline: learned models and rules; openai: the "
                                                                    "configured OpenAI-compatible model (configs/backends.yaml)")]
PAPERS = Annotated[list[str], Field(min_length=1, description="paper ids as in locators, e.g. A00-1031")]
FRESH = Annotated[bool, Field(description="derive it again even when a registered one can be reused")]


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


def build_server(store_dir: str | None = None, warm: bool = False):
    """`warm`: build the lexical index (and load the embedder) in a background thread at start, so
    the first call does not wait for it (about 20 s on a 1,000-paper store)."""
    from mcp.server.mcpserver import MCPServer
    from mcp.types import ToolAnnotations

    reads = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)

    store = Store(store_dir)
    store.keep_warm()  # calls reuse one connection (released to other writers after a second idle)
    kb = open_kb(store)
    if warm:
        import threading

        threading.Thread(target=lambda: retrieve(kb, "warm up"), name="warm-views", daemon=True).start()
    server = MCPServer("scholarstack", instructions="Read compiled research assets (facts, entities, relations, "
                       "syntheses) through knowledge views; every item carries locators back to source sentences.")

    def out(view: View, budget: int = 4000) -> dict[str, Any]:
        return {"view": view.model_dump(mode="json"), "rendered": render(view, budget=budget)}

    @server.tool(description="Hybrid (BM25 + dense, RRF) retrieval over layers: sentence, fact, entity, assignment, relation, synthesis.",
                 annotations=reads)
    @_clear_errors
    def retrieve_view(query: Annotated[str, Field(description="what to look for, in words")],
                      layers: Annotated[list[Layer] | None, Field(description="kinds of object to search (default: fact, "
                                                                                "entity, synthesis, sentence)")] = None,
                      k: K = 10, budget: BUDGET = 4000) -> dict[str, Any]:
        return out(retrieve(kb, query, tuple(layers or ("fact", "entity", "synthesis", "sentence")), k), budget)

    @server.tool(description="Filter a view by kinds, papers, verification, category, fact types or text.", annotations=reads)
    @_clear_errors
    def select_view(view: VIEW, kinds: Annotated[list[Layer] | None, Field(description="keep these kinds")] = None,
                    papers: Annotated[list[str] | None, Field(description="keep items of these paper ids")] = None,
                    verification: Annotated[list[Verification] | None, Field(description="keep these verification statuses")] = None,
                    category: Annotated[str | None, Field(description="keep entities assigned to this taxonomy category id")] = None,
                    fact_types: Annotated[list[FactType] | None, Field(description="keep facts of these types")] = None,
                    text: Annotated[str | None, Field(description="keep items whose text contains this")] = None) -> dict[str, Any]:
        return out(select(View.model_validate(view), kinds=kinds, papers=papers, verification=verification,
                          category=category, fact_types=fact_types, text=text))

    @server.tool(description="Follow evidence, basis, relations, mentions or categories from a view's items.", annotations=reads)
    @_clear_errors
    def expand_view(view: VIEW, follow: Annotated[list[Follow] | None, Field(description="links to follow (default: evidence)")] = None,
                    neighbours: Annotated[int, Field(ge=0, le=5, description="sentences either side of each evidence sentence")] = 0
                    ) -> dict[str, Any]:
        return out(expand(kb, View.model_validate(view), tuple(follow or ("evidence",)), neighbours))

    @server.tool(description="Align a view's findings along dimensions (dataset, metric, conditions); no ranking.", annotations=reads)
    @_clear_errors
    def compare_view(view: VIEW, dimensions: Annotated[list[Dimension] | None, Field(description="default: dataset, metric, "
                                                                                                "conditions")] = None) -> dict[str, Any]:
        return compare(View.model_validate(view), tuple(dimensions or ("dataset", "metric", "conditions"))).model_dump(mode="json")

    @server.tool(description="Draft a candidate synthesis from a view's facts; register_candidate=true sends it through the gate "
                             "(which verifies it and keeps every earlier version).",
                 annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False))
    @_clear_errors
    def synthesize_view(view: VIEW, question: Annotated[str, Field(description="the synthesis's scope, as a question")],
                        register_candidate: Annotated[bool, Field(description="register it in the store")] = False) -> dict[str, Any]:
        # The client's view says which objects; their text is read from the store, never from the client.
        cand = synthesize(refresh(kb, View.model_validate(view)), question)
        result: dict[str, Any] = {"candidate": cand.model_dump(mode="json"), "id": cand.id}
        if register_candidate:
            o = register(store, cand, task="mcp.synthesize")
            result["registration"] = {"status": o.status, "version": o.version, "reason": o.reason}
        return result

    def client_for(backend: str):
        from .llm.client import configured_client

        return configured_client(store.home) if backend == "openai" else None

    writes = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=True)

    @server.tool(description="Answer a question from one or more papers, citing sentence locators. Registered as a judgement "
                             "and reused by later calls while the papers and facts it read are unchanged.", annotations=writes)
    @_clear_errors
    def ask(question: Annotated[str, Field(description="the question")], papers: PAPERS, mode: MODE = "view",
            backend: BACKEND = "offline", fresh: FRESH = False) -> dict[str, Any]:
        from .tasks.qa import ask as run

        return run(kb, question, papers, mode=mode, client=client_for(backend), reuse=not fresh).model_dump(mode="json")

    @server.tool(description="Verify a claim against a cited paper: SUPPORT / CONTRADICT / NOT ENOUGH INFO with rationale. "
                             "Registered as a judgement and reused while the paper and facts it read are unchanged.", annotations=writes)
    @_clear_errors
    def verify_claim(claim: Annotated[str, Field(description="the claim as a citing paper states it")],
                     paper: Annotated[str, Field(description="the cited paper's id")], mode: MODE = "view",
                     backend: BACKEND = "offline", fresh: FRESH = False) -> dict[str, Any]:
        from .tasks.claims import judge_claim

        return judge_claim(kb, claim, paper, mode=mode, client=client_for(backend), reuse=not fresh).model_dump(mode="json")

    @server.tool(description="Assess the novelty of an idea or a paper against prior work in the store: aspects (problem, method, "
                             "data, setting, result), the prior facts and entities covering each, and a verdict (novel, incremental, "
                             "anticipated) with reasons. Registered as a judgement and reused while the corpus is unchanged.",
                 annotations=writes)
    @_clear_errors
    def assess_novelty(idea: Annotated[str | None, Field(description="the idea, in words")] = None,
                       paper: Annotated[str | None, Field(description="or a paper id in the store")] = None,
                       k: Annotated[int, Field(ge=1, le=50, description="prior papers to consider per aspect")] = 10,
                       before: Annotated[int | None, Field(ge=1900, le=2100, description="only work published by this year")] = None,
                       backend: BACKEND = "offline", fresh: FRESH = False) -> dict[str, Any]:
        from .tasks.novelty import judge_novelty

        return judge_novelty(store, idea=idea, paper=paper, k=k, before=before, embedder=kb.embedder, client=client_for(backend),
                             reuse=not fresh).model_dump(mode="json")

    @server.tool(description="An experimental design for a task or idea from the closest papers in the store: datasets, metrics, "
                             "baselines, the best reported results (a table), ablations and threats to validity; every recommendation cited.",
                 annotations=writes)
    @_clear_errors
    def design_experiment(request: Annotated[str, Field(description="the task or idea, in words")],
                          k: Annotated[int, Field(ge=1, le=50, description="closest papers to learn from")] = 15,
                          backend: BACKEND = "offline", fresh: FRESH = False) -> dict[str, Any]:
        from .writing.design import design

        return design(store, request, k=k, client=client_for(backend), embedder=kb.embedder, reuse=not fresh).model_dump(mode="json")

    @server.tool(description="Summarise a paper (problem, method, results with numbers, limitations) from its compiled "
                             "objects; every sentence cites fact ids and sentence locators. Registered as a task-derived object.",
                 annotations=writes)
    @_clear_errors
    def summarize_paper(paper: Annotated[str, Field(description="the paper's id")],
                        words: Annotated[int, Field(ge=30, le=2000, description="about how many words")] = 250,
                        backend: BACKEND = "offline", fresh: FRESH = False) -> dict[str, Any]:
        from .writing.summary import summarize

        return summarize(store, paper, words=words, client=client_for(backend), reuse=not fresh).model_dump(mode="json")

    @server.tool(description="Write a related-work section for a paper in the store or an abstract: prior work only "
                             "(the paper itself and later papers excluded), grouped into themes, every sentence cited.",
                 annotations=writes)
    @_clear_errors
    def related_work(paper: Annotated[str | None, Field(description="a paper id in the store")] = None,
                     abstract: Annotated[str | None, Field(description="or the new paper's abstract")] = None,
                     k: Annotated[int, Field(ge=1, le=50, description="papers to cite")] = 10,
                     before: Annotated[int | None, Field(ge=1900, le=2100, description="only work published by this year")] = None,
                     backend: BACKEND = "offline", fresh: FRESH = False) -> dict[str, Any]:
        from .writing.related_work import related_work as run

        if bool(paper) == bool(abstract):
            raise ValueError("give exactly one of paper or abstract")
        return run(store, paper=paper, abstract=abstract, k=k, before=before, client=client_for(backend),
                   embedder=kb.embedder, reuse=not fresh).model_dump(mode="json")

    @server.tool(description="Write a structured literature review of a topic: sections from the taxonomy, a results table "
                             "aligned by dataset and metric, disagreements from syntheses, limitations; every sentence cited.",
                 annotations=writes)
    @_clear_errors
    def review(topic: Annotated[str, Field(description="the topic, in words")],
               papers: Annotated[list[str] | None, Field(description="review these paper ids (default: found through the views)")] = None,
               backend: BACKEND = "offline", fresh: FRESH = False) -> dict[str, Any]:
        from .writing.review import review as run

        return run(store, topic, papers=papers, client=client_for(backend), embedder=kb.embedder, reuse=not fresh).model_dump(mode="json")

    @server.tool(description="One stored object with its evidence sentences, versions and what cites it.", annotations=reads)
    @_clear_errors
    def show(object_id: Annotated[str, Field(description="an object id (fact-…, entity-…) or a paper id")],
             version: Annotated[int | None, Field(ge=1, description="an earlier version (default: the current one)")] = None
             ) -> dict[str, Any]:
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

    anyio.run(serve_stdio, build_server(store_dir, warm=True))
