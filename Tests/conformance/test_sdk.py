"""The official MCP Python SDK against `skill serve`: legacy ClientSession and the newer Client."""

import anyio
import mcp_types as types
import pytest

from mcp import ClientSession, StdioServerParameters
from mcp.client.client import Client
from mcp.client.stdio import stdio_client

pytestmark = pytest.mark.anyio

TOOLS = ["search", "get", "list_skills", "get_skill", "checklist", "review", "check"]
ANTI = "swift-testing/SKILL#swift-testing/common-mistakes/sleeping-in-tests~anti-pattern-1"


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
def params(binary, server_args, hermetic_env):
    return StdioServerParameters(command=binary, args=server_args, env=hermetic_env)


async def all_pages(fetch, key):
    items, cursor, pages = [], None, 0
    while True:
        result = await fetch(cursor)
        items += getattr(result, key)
        pages += 1
        cursor = result.next_cursor
        if not cursor:
            return items, pages


async def check_session(session):
    """The conformance checks of a legacy ClientSession, over any transport: initialize, then
    every tool, resource and prompt."""
    init = await session.initialize()
    assert init.protocol_version == "2025-11-25"
    assert init.server_info.name == "skill"
    assert init.capabilities.tools is not None
    assert init.capabilities.resources is not None and init.capabilities.prompts is not None
    assert init.capabilities.logging is None
    await session.send_ping()

    tools = (await session.list_tools()).tools
    assert [t.name for t in tools] == TOOLS
    for tool in tools:
        assert tool.title and tool.description and tool.output_schema["type"] == "object"
        assert tool.annotations.read_only_hint is True

    search = await session.call_tool("search", {"query": "sleep tests"})
    assert not search.is_error
    assert search.structured_content["hits"][0]["id"] == "swift-testing/SKILL#swift-testing/common-mistakes/sleeping-in-tests"
    assert "id: swift-testing/SKILL#" in search.content[0].text

    got = await session.call_tool("get", {"id": ANTI})
    assert got.structured_content["entry"]["kind"] == "anti-pattern"
    assert got.structured_content["fix"]["verdict"] == "good"

    skills = await session.call_tool("list_skills", {})
    assert [s["name"] for s in skills.structured_content["skills"]] == ["state-basics", "swift-testing"]

    skill = await session.call_tool("get_skill", {"name": "state-basics"})
    assert skill.structured_content["body"].startswith("# State basics")

    checklist = await session.call_tool("checklist", {"skill": "swift-testing"})
    assert len(checklist.structured_content["checklists"]) == 1

    bad = await session.call_tool("get", {"id": "swift-testing/SKILL#nope"})
    assert bad.is_error and "Nearest ids:" in bad.content[0].text

    resources, pages = await all_pages(lambda c: session.list_resources(params=types.PaginatedRequestParams(cursor=c) if c else None), "resources")
    assert pages == 2
    assert [str(r.uri) for r in resources] == [
        "skill://state-basics/SKILL.md",
        "skill://swift-testing/SKILL.md",
        "skill://swift-testing/references/async.md",
    ]
    for r in resources:
        contents = (await session.read_resource(r.uri)).contents
        assert contents[0].text.strip()
    templates = (await session.list_resource_templates()).resource_templates
    assert [t.uri_template for t in templates] == ["skill://{name}/SKILL.md", "skill://{name}/{+path}"]

    prompts, pages = await all_pages(lambda c: session.list_prompts(params=types.PaginatedRequestParams(cursor=c) if c else None), "prompts")
    assert [p.name for p in prompts] == ["use-state-basics", "use-swift-testing"]
    prompt = await session.get_prompt("use-swift-testing", {"task": "review my tests"})
    assert "Task: review my tests" in prompt.messages[0].content.text



async def test_client_session_lifecycle_tools_resources_prompts(params):
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await check_session(session)

async def test_unknown_resource_is_an_error(params):
    from mcp.shared.exceptions import MCPError

    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            with pytest.raises(MCPError) as raised:
                await session.read_resource("skill://swift-testing/../../etc/passwd")
            assert raised.value.error.code == -32002


async def test_progress_and_cancellation(params):
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            seen = []

            async def on_progress(progress, total, message):
                seen.append((progress, total, message))

            await session.call_tool("list_skills", {}, progress_callback=on_progress)
            assert [p for p, _, _ in seen] == [0, 1]

            # Abandon a call: the SDK sends notifications/cancelled; the session must stay usable.
            with anyio.CancelScope() as scope:
                scope.cancel()
                await session.call_tool("search", {"query": "state"})
            for _ in range(3):
                with anyio.move_on_after(0.001):
                    await session.call_tool("search", {"query": "tests", "limit": 50})
            result = await session.call_tool("search", {"query": "binding"})
            assert result.structured_content["hits"]
            await session.send_ping()


async def check_new_client(client):
    """The conformance checks of the newer Client in its default (2026-07-28) mode."""
    assert client.session.discover_result is not None
    assert client.session.protocol_version == "2026-07-28"
    tools = await client.list_tools()
    assert [t.name for t in tools.tools] == TOOLS
    result = await client.call_tool("search", {"query": "binding", "kind": "decision-tree"})
    assert result.structured_content["hits"][0]["id"] == "state-basics/SKILL#state-basics/decision"
    resources = await client.list_resources()
    assert resources.resources and resources.next_cursor
    text = (await client.read_resource("skill://swift-testing/references/async.md")).contents[0].text
    assert text.startswith("# Async tests")
    prompt = await client.get_prompt("use-state-basics")
    assert "@State" in prompt.messages[0].content.text


async def test_new_client_default_mode_discovers(params):
    async with Client(params) as client:
        await check_new_client(client)


async def test_new_client_legacy_mode(params):
    async with Client(params, mode="legacy") as client:
        assert client.session.protocol_version == "2025-11-25"
        got = await client.call_tool("get_skill", {"name": "swift-testing"})
        assert got.structured_content["name"] == "swift-testing"
