"""`skill serve` over raw pipes: malformed input, batches, errors, EOF, huge lines, memory."""

import json
import subprocess
import threading

import pytest

from conftest import FIXTURES

INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}


def line(message) -> bytes:
    return (json.dumps(message) + "\n").encode()


def run(binary, env, stdin: bytes, timeout=60):
    done = subprocess.run([binary, "serve", "--skills", str(FIXTURES), "--log-level", "error"],
                          input=stdin, capture_output=True, env=env, timeout=timeout)
    replies = [json.loads(l) for l in done.stdout.split(b"\n") if l]  # every stdout line is JSON
    for r in replies:
        for message in r if isinstance(r, list) else [r]:
            assert message["jsonrpc"] == "2.0"
    assert done.stdout == b"" or done.stdout.endswith(b"\n")
    return done.returncode, replies


def test_every_reply_to_a_mixed_stream(binary, hermetic_env):
    stdin = b"".join([
        line(INIT),
        b'{"jsonrpc":"2.0","id":1,"method":\n',                       # malformed JSON
        line([{"jsonrpc": "2.0", "id": 2, "method": "ping"}]),        # batch (not 2025-03-26)
        line({"jsonrpc": "2.0", "id": 3, "method": "no/such"}),       # unknown method
        line({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": 7}}),  # bad params
        line({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "nope"}}),  # unknown tool
        line({"jsonrpc": "2.0", "id": 6, "method": "resources/read", "params": {"uri": "skill://x/../../etc/passwd"}}),
        line({"jsonrpc": "2.0", "id": 7, "method": "resources/list", "params": {"cursor": "???"}}),
        line({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        b"\xff\xfe{}\n",                                                # invalid UTF-8
        line({"jsonrpc": "2.0", "id": None, "method": "ping"}),       # null id
        line({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "search", "arguments": {"query": "state"}}}),
    ])
    code, replies = run(binary, hermetic_env, stdin)
    assert code == 0
    summary = [(r.get("id"), r.get("error", {}).get("code")) for r in replies]
    assert summary == [(0, None), (None, -32700), (None, -32600), (3, -32601), (4, -32602), (5, -32602),
                       (6, -32002), (7, -32602), (None, -32700), (None, -32600), (8, None)]
    assert replies[-1]["result"]["structuredContent"]["hits"]


def test_batch_is_answered_under_2025_03_26(binary, hermetic_env):
    init = dict(INIT, params=dict(INIT["params"], protocolVersion="2025-03-26"))
    batch = [{"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]
    code, replies = run(binary, hermetic_env, line(init) + line(batch))
    assert code == 0
    assert [r["id"] for r in replies[1]] == [1, 2]


def test_one_request_then_eof_always_answers(binary, hermetic_env):
    request = line({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                    "params": {"name": "search", "arguments": {"query": "tests"}}})
    for _ in range(20):
        code, replies = run(binary, hermetic_env, request)
        assert code == 0 and len(replies) == 1 and replies[0]["id"] == 1


def test_stdin_closed_mid_message(binary, hermetic_env):
    code, replies = run(binary, hermetic_env, line(INIT) + b'{"jsonrpc":"2.0","id":9,"meth')
    assert code == 0
    assert [r.get("id") for r in replies] == [0, None]
    assert replies[1]["error"]["code"] == -32700


def test_twenty_megabyte_line(binary, hermetic_env):
    huge = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"' + b"a" * (20 * 1024 * 1024) + b'"}}\n'
    code, replies = run(binary, hermetic_env, huge + line({"jsonrpc": "2.0", "id": 2, "method": "ping"}))
    assert code == 0
    assert [(r.get("id"), r.get("error", {}).get("code")) for r in replies] == [(None, -32600), (2, None)]


def test_deep_nesting_and_nul_bytes(binary, hermetic_env):
    stdin = b"[" * 100_000 + b"\n" + b"\x00\x00\n" + line({"jsonrpc": "2.0", "id": 2, "method": "ping"})
    code, replies = run(binary, hermetic_env, stdin)
    assert code == 0
    assert [(r.get("id"), r.get("error", {}).get("code")) for r in replies] == [(None, -32700), (None, -32700), (2, None)]


def test_cancelled_request_does_not_break_the_session(binary, hermetic_env):
    stdin = b"".join([
        line(INIT),
        line({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "search", "arguments": {"query": "state"}}}),
        line({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "reason": "test"}}),
        line({"jsonrpc": "2.0", "id": 2, "method": "ping"}),
    ])
    code, replies = run(binary, hermetic_env, stdin)
    ids = [r["id"] for r in replies]
    assert code == 0 and ids[0] == 0 and ids[-1] == 2 and set(ids) <= {0, 1, 2}


def vm_hwm_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for row in f:
            if row.startswith("VmHWM:"):
                return int(row.split()[1])
    return 0


def test_ten_thousand_requests_in_bounded_memory(binary, hermetic_env):
    proc = subprocess.Popen([binary, "serve", "--skills", str(FIXTURES), "--log-level", "error"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=hermetic_env)
    replies = []

    def reader():
        for raw in proc.stdout:
            replies.append(json.loads(raw))

    thread = threading.Thread(target=reader)
    thread.start()
    proc.stdin.write(line(INIT))
    peaks = []
    methods = [("tools/call", {"name": "search", "arguments": {"query": "tests"}}), ("ping", None),
               ("resources/read", {"uri": "skill://swift-testing/SKILL.md"}), ("tools/list", None)]
    for i in range(1, 10_001):
        method, params = methods[i % len(methods)]
        message = {"jsonrpc": "2.0", "id": i, "method": method}
        if params:
            message["params"] = params
        proc.stdin.write(line(message))
        if i in (2_000, 10_000):
            proc.stdin.flush()
            while len(replies) < i + 1:
                thread.join(0.01)
            peaks.append(vm_hwm_kb(proc.pid))
    proc.stdin.close()
    thread.join(60)
    assert proc.wait(60) == 0
    assert len(replies) == 10_001
    assert all("error" not in r for r in replies)
    # After warm-up, 8,000 more requests may not raise the peak by more than 8 MB.
    assert peaks[1] - peaks[0] < 8 * 1024, peaks


def test_logs_go_to_stderr_only(binary, hermetic_env):
    stdin = line(INIT) + b"nonsense\n" + line({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                              "params": {"name": "search", "arguments": {"query": "state"}}})
    done = subprocess.run([binary, "serve", "--skills", str(FIXTURES), "--log-level", "debug"],
                          input=stdin, capture_output=True, env=hermetic_env, timeout=60)
    assert done.returncode == 0
    assert b"skill serve: info: initialize" in done.stderr
    assert [json.loads(l)["jsonrpc"] for l in done.stdout.splitlines()] == ["2.0"] * 3


def test_bad_log_level_is_a_usage_error(binary, hermetic_env):
    done = subprocess.run([binary, "serve", "--log-level", "loud"], input=b"", capture_output=True,
                          env=hermetic_env, timeout=60)
    assert done.returncode == 64
    assert done.stdout == b""
