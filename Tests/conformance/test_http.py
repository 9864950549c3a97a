"""The official MCP Python SDK's Streamable HTTP client against `skill serve --http`, on a
loopback port chosen free at test time: the same conformance checks as over stdio, plus the
transport's own rules (Origin, bearer token, sessions, shutdown)."""

import signal
import socket
import subprocess

import anyio
import httpx2
import pytest

from mcp import ClientSession
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError

from test_sdk import check_new_client, check_session

pytestmark = pytest.mark.anyio

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
ACCEPT = {"Accept": "application/json, text/event-stream"}


@pytest.fixture
def anyio_backend():
    return "asyncio"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    def __init__(self, binary, server_args, env, extra):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.process = subprocess.Popen([binary, *server_args, "--http", f"127.0.0.1:{self.port}", *extra],
                                        env=env, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        line = self.process.stderr.readline()
        assert line == f"skill serve: listening on {self.url}\n", line

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        status = self.process.wait(timeout=30)
        self.process.stderr.close()
        return status


@pytest.fixture
def serve(binary, server_args, hermetic_env):
    started = []

    def start(*extra):
        served = Served(binary, server_args, hermetic_env, extra)
        started.append(served)
        return served

    yield start
    for served in started:
        if served.process.poll() is None:
            assert served.stop() == 0


async def test_client_session_over_http(serve):
    served = serve()
    async with streamable_http_client(served.url) as (read, write):
        async with ClientSession(read, write) as session:
            await check_session(session)
            with pytest.raises(MCPError) as raised:
                await session.read_resource("skill://swift-testing/../../etc/passwd")
            assert raised.value.error.code == -32002
    assert served.stop() == 0


async def test_new_client_over_http(serve):
    served = serve()
    async with Client(served.url) as client:
        await check_new_client(client)
    async with Client(served.url, mode="legacy") as client:
        assert client.session.protocol_version == "2025-11-25"
        got = await client.call_tool("get_skill", {"name": "swift-testing"})
        assert got.structured_content["name"] == "swift-testing"


async def test_progress_arrives_over_sse(serve):
    served = serve()
    async with streamable_http_client(served.url) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            seen = []

            async def on_progress(progress, total, message):
                seen.append((progress, total))

            result = await session.call_tool("list_skills", {}, progress_callback=on_progress)
            assert [s["name"] for s in result.structured_content["skills"]] == ["state-basics", "swift-testing"]
            assert [p for p, _ in seen] == [0, 1]


async def test_two_sessions_at_once(serve):
    served = serve()
    async with streamable_http_client(served.url) as (r1, w1), streamable_http_client(served.url) as (r2, w2):
        async with ClientSession(r1, w1) as one, ClientSession(r2, w2) as two:
            await one.initialize()
            await two.initialize()
            results = {}

            async def search(name, session, query):
                results[name] = await session.call_tool("search", {"query": query})

            async with anyio.create_task_group() as group:
                for i in range(5):
                    group.start_soon(search, f"one{i}", one, "sleep tests")
                    group.start_soon(search, f"two{i}", two, "binding")
            assert all(not r.is_error and r.structured_content["hits"] for r in results.values())
            assert len(results) == 10
    # Each client ended its own session with DELETE; a raw request under an unknown one is 404.
    response = httpx2.post(served.url, json={"jsonrpc": "2.0", "id": 2, "method": "ping"},
                           headers={**ACCEPT, "Mcp-Session-Id": "not-a-session"})
    assert response.status_code == 404


def test_foreign_origin_is_refused(serve):
    served = serve()
    response = httpx2.post(served.url, json=INIT, headers={**ACCEPT, "Origin": "https://evil.example"})
    assert response.status_code == 403
    assert response.json()["error"]["message"] == "Forbidden: Origin https://evil.example is not allowed"
    local = httpx2.post(served.url, json=INIT, headers={**ACCEPT, "Origin": f"http://localhost:{served.port}"})
    assert local.status_code == 200
    assert local.headers["mcp-session-id"]


async def test_token_is_required(serve, tmp_path):
    token_file = tmp_path / "token"
    token_file.write_text("tok-123\n")
    token_file.chmod(0o600)
    served = serve("--token-file", str(token_file))
    missing = httpx2.post(served.url, json=INIT, headers=ACCEPT)
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"] == "Bearer"
    wrong = httpx2.post(served.url, json=INIT, headers={**ACCEPT, "Authorization": "Bearer tok-124"})
    assert wrong.status_code == 401
    assert wrong.json()["error"]["message"] == "Unauthorized: wrong bearer token"
    client = create_mcp_http_client(headers={"Authorization": "Bearer tok-123"})
    async with client, streamable_http_client(served.url, http_client=client) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            found = await session.call_tool("search", {"query": "sleep tests"})
            assert found.structured_content["hits"]


SKILL = "---\nname: {0}\ndescription: The {0} skill.\n---\n# {0}\n\nAbout {0}.\n"


async def test_list_changed_arrives_on_the_get_stream(serve, tmp_path):
    root = tmp_path / "skills"
    (root / "one").mkdir(parents=True)
    (root / "one" / "SKILL.md").write_text(SKILL.format("one"))
    served = serve("--skills", str(root))
    stream_open, changed = anyio.Event(), anyio.Event()

    async def on_response(response):
        # The SDK opens the session's GET stream itself, once initialized.
        if response.request.method == "GET" and response.status_code == 200:
            stream_open.set()

    async def on_message(message):
        if getattr(message, "method", None) == "notifications/resources/list_changed":
            changed.set()

    client = create_mcp_http_client()
    client.event_hooks["response"] = [on_response]
    async with client, streamable_http_client(served.url, http_client=client) as (read, write):
        async with ClientSession(read, write, message_handler=on_message) as session:
            await session.initialize()
            # An answer means the first build is done: what is written next is a change.
            assert (await session.call_tool("get_skill", {"name": "one"})).structured_content["name"] == "one"
            with anyio.fail_after(30):
                await stream_open.wait()
            (root / "two").mkdir()
            (root / "two" / "SKILL.md").write_text(SKILL.format("two"))
            with anyio.fail_after(30):
                await changed.wait()
            assert (await session.call_tool("get_skill", {"name": "two"})).structured_content["name"] == "two"
    assert served.stop() == 0


def test_get_stream_ends_on_delete(serve):
    served = serve()
    opened = httpx2.post(served.url, json=INIT, headers=ACCEPT)
    session = {"Mcp-Session-Id": opened.headers["mcp-session-id"]}
    listen = {"Accept": "text/event-stream", **session}
    with httpx2.Client(timeout=30) as streaming, streaming.stream("GET", served.url, headers=listen) as stream:
        assert stream.status_code == 200
        assert stream.headers["content-type"] == "text/event-stream"
        assert httpx2.get(served.url, headers=listen).status_code == 409
        assert httpx2.delete(served.url, headers=session).status_code == 200
        # The chunked body ends cleanly: no event was owed.
        assert stream.read() == b""
    assert httpx2.get(served.url, headers=listen).status_code == 404


def test_sigterm_ends_an_open_get_stream(serve):
    served = serve()
    opened = httpx2.post(served.url, json=INIT, headers=ACCEPT)
    listen = {"Accept": "text/event-stream", "Mcp-Session-Id": opened.headers["mcp-session-id"]}
    with httpx2.Client(timeout=30) as streaming, streaming.stream("GET", served.url, headers=listen) as stream:
        assert stream.status_code == 200
        served.process.send_signal(signal.SIGTERM)
        assert stream.read() == b""
        assert served.process.wait(timeout=30) == 0
    served.process.stderr.close()


def test_get_refusals_and_other_paths_404(serve):
    served = serve()
    assert httpx2.get(served.url, headers={"Accept": "text/event-stream"}).status_code == 400
    modern = httpx2.get(served.url, headers={"Accept": "text/event-stream", "MCP-Protocol-Version": "2026-07-28"})
    assert modern.status_code == 405
    assert modern.headers["allow"] == "GET, POST, DELETE"
    assert httpx2.put(served.url, json=INIT, headers=ACCEPT).status_code == 405
    assert httpx2.post(f"http://127.0.0.1:{served.port}/other", json=INIT, headers=ACCEPT).status_code == 404


def test_bad_arguments(binary, server_args, hermetic_env, tmp_path):
    run = lambda *a: subprocess.run([binary, *server_args, *a], env=hermetic_env, capture_output=True, text=True, timeout=30)
    bad = run("--http", "localhost")
    assert bad.returncode == 64
    assert "--http must be HOST:PORT (for example 127.0.0.1:8080 or [::1]:8080), not localhost" in bad.stderr
    empty = tmp_path / "empty"
    empty.write_text("\n")
    no_token = run("--http", f"127.0.0.1:{free_port()}", "--token-file", str(empty))
    assert no_token.returncode == 64
    assert f"--token-file {empty}: the file must hold one token (no spaces), not nothing" in no_token.stderr
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    busy = run("--http", f"127.0.0.1:{taken.getsockname()[1]}")
    taken.close()
    assert busy.returncode == 1
    assert "cannot listen on 127.0.0.1:" in busy.stderr and "Address already in use" in busy.stderr


def test_sigint_stops_with_status_0(serve):
    served = serve()
    kept = httpx2.Client()
    assert kept.post(served.url, json=INIT, headers=ACCEPT).status_code == 200
    # An idle kept-alive connection does not hold the shutdown.
    served.process.send_signal(signal.SIGINT)
    assert served.process.wait(timeout=30) == 0
    served.process.stderr.close()
    kept.close()


CORPUS = __import__("pathlib").Path(__file__).resolve().parents[2].parent / "shared" / "corpus"


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpus, absent beside this checkout")
def test_sigterm_during_the_first_build_exits_zero_and_leaves_no_temporary_file(binary, hermetic_env, tmp_path):
    # A first build of the 128-skill corpus takes seconds: SIGTERM lands while its temporary index
    # file exists, and the transport (not the build's file cleanup) decides how the process ends.
    index = tmp_path / "index.sqlite"
    port = free_port()
    process = subprocess.Popen([binary, "serve", "--http", f"127.0.0.1:{port}", "--skills", str(CORPUS), "--index", str(index)],
                               env=hermetic_env, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert process.stderr.readline() == f"skill serve: listening on http://127.0.0.1:{port}/mcp\n"
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 0
    process.stderr.close()
    assert list(tmp_path.glob("index.sqlite.tmp-*")) == []
