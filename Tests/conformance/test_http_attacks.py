"""Issue 26's attacks on the HTTP transport (`skill-http`, which `skill serve --http` runs), each
bounded in count and time, on loopback only (127.0.0.1): slow clients, a stop with half-sent
requests, one-byte chunks, oversized bodies, a token file others can read. The assertions are on
behaviour (answered, closed, exited, refused); how fast is for Benchmarks/http_load.py."""

import json
import socket
import subprocess
import threading
from pathlib import Path

import httpx2
import pytest

from test_http import ACCEPT, INIT, Served, free_port

SEARCH = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "search", "arguments": {"query": "tests"}}}


@pytest.fixture
def http_binary(binary) -> str:
    path = Path(binary).parent / "skill-http"
    if not path.exists():
        pytest.fail(f"no skill-http beside {binary}: run `swift build` (it builds both)")
    return str(path)


class Server(Served):
    """`skill-http` itself (the server arguments without `serve`), with the attacks' own helpers."""

    def __init__(self, http_binary, server_args, env, *extra):
        super().__init__(http_binary, server_args[1:], env, extra)

    def session(self) -> dict:
        opened = httpx2.post(self.url, json=INIT, headers=ACCEPT, timeout=30)
        assert opened.status_code == 200
        return {**ACCEPT, "Mcp-Session-Id": opened.headers["mcp-session-id"], "MCP-Protocol-Version": "2025-11-25"}

    def raw(self) -> socket.socket:
        s = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        return s


@pytest.fixture
def server(http_binary, server_args, hermetic_env):
    started = []

    def start(*extra):
        started.append(Server(http_binary, server_args, hermetic_env, *extra))
        return started[-1]

    yield start
    for s in started:
        if s.process.poll() is None:
            s.process.kill()
            s.process.wait()
            s.process.stderr.close()


def read_until_closed(s: socket.socket) -> bytes:
    data = b""
    try:
        while chunk := s.recv(65536):
            data += chunk
    except ConnectionResetError:
        pass
    return data


def test_slow_clients_neither_shut_others_out_nor_stay_open(server):
    served = server("--request-timeout", "1")
    slow = []
    for _ in range(64):
        s = served.raw()
        s.sendall(b"POST /mcp HTTP/1.1\r\nHo")  # a head that never ends
        slow.append(s)
    # Others are answered meanwhile.
    headers = served.session()
    for _ in range(5):
        answer = httpx2.post(served.url, json=SEARCH, headers=headers, timeout=30)
        assert answer.status_code == 200 and "result" in answer.json()
    # The slow heads are closed by the server, not left holding a connection.
    for s in slow:
        assert read_until_closed(s) == b""
        s.close()
    assert served.stop() == 0


def test_sigterm_with_half_sent_requests_exits(server):
    served = server("--shutdown-grace", "1")
    half_head = served.raw()
    half_head.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-")
    half_body = served.raw()
    half_body.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Accept: application/json\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":")
    assert served.stop() == 0
    half_head.close()
    half_body.close()


def test_sigterm_answers_the_requests_in_flight(server):
    served = server()
    headers = served.session()
    answers = []

    def ask():
        try:
            answers.append(httpx2.post(served.url, json=SEARCH, headers=headers, timeout=30).status_code)
        except (httpx2.ConnectError, httpx2.ReadError, httpx2.RemoteProtocolError):
            answers.append("closed before its request was read")

    threads = [threading.Thread(target=ask) for _ in range(20)]
    for t in threads:
        t.start()
    status = served.stop()
    for t in threads:
        t.join()
    assert status == 0
    # Every request the server had read before the stop got its reply; a connection it had not
    # read from yet was closed (the client may retry it elsewhere). Nothing failed half-way.
    assert len(answers) == 20
    assert all(code in (200, "closed before its request was read") for code in answers), answers


def chunked(body: bytes) -> bytes:
    return b"".join(b"1\r\n" + body[i:i + 1] + b"\r\n" for i in range(len(body))) + b"0\r\n\r\n"


def test_one_byte_chunks_are_answered(server):
    served = server()
    body = json.dumps(INIT).encode()
    body += b" " * (256 * 1024 - len(body))
    s = served.raw()
    s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
              b"Accept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
    s.sendall(chunked(body))
    reply = read_until_closed(s)
    s.close()
    assert reply.startswith(b"HTTP/1.1 200 OK\r\n")
    assert b"mcp-session-id: " in reply.lower()
    assert served.stop() == 0


def test_oversized_bodies_are_413(server):
    served = server()
    # Declared too large: refused before a byte of it is read.
    s = served.raw()
    s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n")
    assert s.recv(65536).startswith(b"HTTP/1.1 413 ")
    s.close()
    # Chunked, past the limit.
    big = httpx2.post(served.url, content=iter([b" " * (1 << 20)] * 5), headers={**ACCEPT, "Content-Type": "application/json"},
                      timeout=30)
    assert big.status_code == 413
    assert big.json()["error"]["message"] == "Content Too Large: a request body is at most 4194304 bytes"
    assert served.stop() == 0


def test_a_token_file_others_can_read_is_refused(binary, server_args, hermetic_env, tmp_path):
    token = tmp_path / "token"
    token.write_text("tok-123\n")
    token.chmod(0o644)
    run = subprocess.run([binary, *server_args, "--http", f"127.0.0.1:{free_port()}", "--token-file", str(token)],
                         env=hermetic_env, capture_output=True, text=True, timeout=30)
    assert run.returncode == 64
    assert f"--token-file {token} is readable by other users (mode 644): run chmod 600 {token}" in run.stderr


def test_connections_per_client_are_capped(server):
    served = server("--max-connections-per-client", "4")
    held = [served.raw() for _ in range(4)]
    extra = served.raw()
    # Over the cap: closed before a byte is read.
    assert read_until_closed(extra) == b""
    extra.close()
    # The four admitted still work.
    held[0].sendall(b"DELETE /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert read_until_closed(held[0]).startswith(b"HTTP/1.1 400 ")
    for s in held:
        s.close()
    assert served.stop() == 0


def test_expect_100_continue_is_answered_before_the_body(server):
    served = server()
    body = json.dumps(INIT).encode()
    s = served.raw()
    s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\n"
              b"Expect: 100-continue\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(body))
    assert s.recv(65536).startswith(b"HTTP/1.1 100 Continue\r\n")
    s.sendall(body)
    assert read_until_closed(s).startswith(b"HTTP/1.1 200 OK\r\n")
    s.close()
    assert served.stop() == 0
