"""The MCP Skills extension (`io.modelcontextprotocol/skills`) and `subscriptions/listen` of
`skill serve`, with the official MCP Python SDK's 2026-07-28 `Client` as the peer. The SDK (2.3.0)
ships no skills-extension client, so `skills/*` and `resources/directory/read` go as raw JSON-RPC
through its session (stamped with the 2026-07-28 `_meta` like any of its requests); `listen()` is
the SDK's own."""

import base64
import hashlib
import shutil
from typing import Any, Literal

import anyio
import mcp_types as types
import pytest
import yaml
from pydantic import TypeAdapter

from mcp import StdioServerParameters
from mcp.client.client import Client
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import ResourcesListChanged, ResourceUpdated

from conftest import FIXTURES

pytestmark = pytest.mark.anyio
EXTENSION = "io.modelcontextprotocol/skills"
RESULT = TypeAdapter(dict[str, Any])


@pytest.fixture
def anyio_backend():
    return "asyncio"


def raw_request(method_name):
    class Raw(types.Request[dict[str, Any] | None, str]):
        method: str = method_name
        params: dict[str, Any] | None = None

    return Raw


async def call(client, method, **params):
    return await client.session.send_request(raw_request(method)(params=params), RESULT)


@pytest.fixture
def skills_root(tmp_path):
    """The fixture skills, copied so a test may edit them."""
    root = tmp_path / "skills"
    shutil.copytree(FIXTURES, root)
    return root


def server(binary, env, root, *extra):
    return StdioServerParameters(command=binary, args=["serve", "--skills", str(root), "--log-level", "error", *extra], env=env)


async def all_skills(client):
    skills, cursor, pages = [], None, 0
    while True:
        result = await call(client, "skills/list", **({"cursor": cursor} if cursor else {}))
        assert result["resultType"] == "complete"
        assert isinstance(result["ttlMs"], int) and result["cacheScope"] in ("public", "private")
        skills += result["skills"]
        pages += 1
        cursor = result.get("nextCursor")
        if not cursor:
            return skills, pages


async def read_bytes(client, uri):
    contents = (await call(client, "resources/read", uri=uri))["contents"]
    assert len(contents) == 1
    content = contents[0]
    return content["text"].encode() if "text" in content else base64.b64decode(content["blob"])


async def test_extension_declared_listed_got_and_verified(binary, hermetic_env, skills_root):
    async with Client(server(binary, hermetic_env, skills_root, "--page-size", "1")) as client:
        assert client.protocol_version == "2026-07-28"
        assert client.server_capabilities.extensions == {EXTENSION: {"directoryRead": True}}
        assert client.server_capabilities.resources is not None

        skills, pages = await all_skills(client)
        assert pages == 2
        assert [s["uri"] for s in skills] == ["skill://state-basics/SKILL.md", "skill://swift-testing/SKILL.md"]
        for skill in skills:
            name = skill["uri"].split("/")[-2]
            folder = skills_root / name
            text = (folder / "SKILL.md").read_text()
            assert skill["frontmatter"] == yaml.safe_load(text.split("---\n")[1])
            assert skill["frontmatter"]["name"] == name
            listed = {r["uri"]: r for r in skill["resources"]}
            on_disk = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
            assert sorted(listed) == [f"skill://{name}/{p}" for p in on_disk]
            for path in on_disk:
                data = (folder / path).read_bytes()
                entry = listed[f"skill://{name}/{path}"]
                assert entry["digest"] == "sha256:" + hashlib.sha256(data).hexdigest()
                assert entry["size"] == len(data)
                served = await read_bytes(client, entry["uri"])
                assert "sha256:" + hashlib.sha256(served).hexdigest() == entry["digest"] and len(served) == entry["size"]

        got = await call(client, "skills/get", uri="skill://swift-testing/SKILL.md")
        assert got["resultType"] == "complete" and "ttlMs" in got and "cacheScope" in got
        assert got["skill"] == skills[1]

        with pytest.raises(MCPError) as unknown:
            await call(client, "skills/get", uri="skill://no-such-skill/SKILL.md")
        assert unknown.value.error.code == -32602

        children, cursor = [], None
        while True:
            page = await call(client, "resources/directory/read", uri="skill://swift-testing", **({"cursor": cursor} if cursor else {}))
            assert page["resultType"] == "complete"
            children += page["resources"]
            cursor = page.get("nextCursor")
            if not cursor:
                break
        assert children == [
            {"uri": "skill://swift-testing/SKILL.md", "name": "SKILL.md", "mimeType": "text/markdown"},
            {"uri": "skill://swift-testing/references", "name": "references", "mimeType": "inode/directory"},
            {"uri": "skill://swift-testing/scripts", "name": "scripts", "mimeType": "inode/directory"},
        ]
        with pytest.raises(MCPError) as not_directory:
            await call(client, "resources/directory/read", uri="skill://swift-testing/SKILL.md")
        assert not_directory.value.error.code == -32602


async def test_listen_hears_an_edited_skill(binary, hermetic_env, skills_root):
    async with Client(server(binary, hermetic_env, skills_root)) as client:
        before = await call(client, "skills/get", uri="skill://state-basics/SKILL.md")
        async with client.listen(resources_list_changed=True) as subscription:
            assert subscription.honored.resources_list_changed is True
            skill_file = skills_root / "state-basics" / "SKILL.md"
            skill_file.write_text(skill_file.read_text() + "\nOne more line.\n")
            with anyio.fail_after(30):
                event = await subscription.__anext__()
            assert event == ResourcesListChanged()
        after = await call(client, "skills/get", uri="skill://state-basics/SKILL.md")
        data = skill_file.read_bytes()
        assert after["skill"]["resources"][0] == {
            "uri": "skill://state-basics/SKILL.md",
            "digest": "sha256:" + hashlib.sha256(data).hexdigest(),
            "size": len(data),
        }
        assert after["skill"]["resources"] != before["skill"]["resources"]


async def test_listen_hears_an_added_skill_and_a_script_edited_in_place(binary, hermetic_env, skills_root):
    async with Client(server(binary, hermetic_env, skills_root)) as client:
        script = "skill://swift-testing/scripts/run.sh"
        async with client.listen(resources_list_changed=True, resource_subscriptions=[script]) as subscription:
            (skills_root / "swift-testing" / "scripts" / "run.sh").write_text("#!/bin/sh\nswift test --parallel\n")
            with anyio.fail_after(30):
                event = await subscription.__anext__()
            assert event in (ResourcesListChanged(), ResourceUpdated(uri=script))
            new = skills_root / "fresh"
            new.mkdir()
            (new / "SKILL.md").write_text("---\nname: fresh\ndescription: A new skill.\n---\n# Fresh\n")
            with anyio.fail_after(30):
                while True:
                    await subscription.__anext__()
                    skills, _ = await all_skills(client)
                    if "skill://fresh/SKILL.md" in [s["uri"] for s in skills]:
                        break
