"""The MCP server through a real MCP client session over stdio."""

from __future__ import annotations

import asyncio
import json
import sys

from mcp import Client
from mcp.client.stdio import StdioServerParameters


def _payload(result) -> dict:
    return json.loads(result.content[0].text)


def test_mcp_tools_over_stdio(compiled_sample, copy_store, monkeypatch):
    monkeypatch.setenv("SCHOLARSTACK_EMBEDDER", "tfidf")
    home = copy_store(compiled_sample).home  # `ask` registers its judgement: not into the shared sample

    async def session() -> None:
        params = StdioServerParameters(command=sys.executable, args=["-m", "scholarstack.cli", "mcp", "--store", str(home)],
                                       env={"SCHOLARSTACK_EMBEDDER": "tfidf", "PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1"})
        async with Client(params) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert {"retrieve_view", "select_view", "expand_view", "compare_view", "synthesize_view", "ask", "verify_claim", "show"} <= set(tools)
            # Fixed choices are enums, every parameter says what it is, and the hints say what a tool may change.
            ask_params = tools["ask"].input_schema["properties"]
            assert ask_params["mode"]["enum"] == ["view", "fulltext"] and ask_params["backend"]["enum"] == ["offline", "openai"]
            assert all(p.get("description") for t in tools.values() for p in t.input_schema["properties"].values())
            assert tools["retrieve_view"].annotations.read_only_hint and not tools["synthesize_view"].annotations.read_only_hint
            bad_layer = await client.call_tool("retrieve_view", {"query": "taggers", "layers": ["facts"]})
            assert bad_layer.is_error
            got = _payload(await client.call_tool("retrieve_view", {"query": "tagging accuracy on the Penn Treebank", "k": 6}))
            view = got["view"]
            assert view["items"] and "@" in got["rendered"]
            facts = _payload(await client.call_tool("select_view", {"view": view, "kinds": ["fact"]}))["view"]
            assert facts["items"] and all(i["kind"] == "fact" for i in facts["items"])
            grown = _payload(await client.call_tool("expand_view", {"view": facts, "follow": ["evidence"]}))["view"]
            assert len(grown["items"]) > len(facts["items"])
            cmp = _payload(await client.call_tool("compare_view", {"view": grown}))
            assert "rows" in cmp
            cand = _payload(await client.call_tool("synthesize_view", {"view": facts, "question": "How accurate are taggers?"}))
            assert cand["candidate"]["review_state"] == "candidate"
            ans = _payload(await client.call_tool("ask", {"question": "What accuracy does TnT achieve?", "papers": ["A00-1031"]}))
            assert ans["sources_state"] and ans["tokens_in"] > 0 and ans["extra"]["registration"]["status"] == "new"
            again = _payload(await client.call_tool("ask", {"question": "What accuracy does TnT achieve?", "papers": ["A00-1031"]}))
            assert again["extra"]["reuse"]["hit"] and again["tokens_in"] == 0  # the registered judgement, reused
            shown = _payload(await client.call_tool("show", {"object_id": facts["items"][0]["id"]}))
            assert shown["evidence"]
            bad = await client.call_tool("ask", {"question": "What?", "papers": ["nope"]})
            assert bad.is_error and "unknown paper 'nope'" in bad.content[0].text

    asyncio.run(session())


def test_mcp_writing_tools(compiled_sample, copy_store):
    store = copy_store(compiled_sample)

    async def session() -> None:
        params = StdioServerParameters(command=sys.executable, args=["-m", "scholarstack.cli", "mcp", "--store", str(store.home)],
                                       env={"SCHOLARSTACK_EMBEDDER": "tfidf", "PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1"})
        async with Client(params) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert {"summarize_paper", "related_work", "review", "assess_novelty"} <= set(tools)
            assert not tools["summarize_paper"].annotations.read_only_hint  # it registers what it wrote
            out = _payload(await client.call_tool("summarize_paper", {"paper": "A92-1018", "words": 80}))
            assert out["registration"]["status"] == "new" and out["writing"]["sections"]
            both = await client.call_tool("related_work", {"paper": "A92-1018", "abstract": "x"})
            assert both.is_error and "exactly one" in both.content[0].text

    asyncio.run(session())
