#!/usr/bin/env python3
"""Issue 26's attacks on `skill serve --http`, measured: what each costs the server and the
other clients. Loopback only (127.0.0.1, a port chosen free at start), bounded in count and time.

    python3 Benchmarks/http_attacks.py --bin .build/release/skill --skills Tests/ServerTests/Fixtures/skills

- chunks: a 1 MiB body (--chunk-kib) sent as 1-byte chunks: the server's CPU seconds and the status it answers.
- slowloris: 256 connections each sending one header byte every 5 s for --seconds; meanwhile
  another client searches once a second: its worst latency and its failures.
- sigterm: SIGTERM while one client holds a half-sent request: seconds until the server exits.
"""

import argparse
import json
import os
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "attack", "version": "1"}}}
CLK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK


def start(binary, skills):
    tmp = tempfile.mkdtemp()
    env = dict(os.environ, HOME=tmp, XDG_CACHE_HOME=tmp)
    env.pop("SKILL_PATH", None)
    port = free_port()
    proc = subprocess.Popen([binary, "serve", "--skills", skills, "--log-level", "error", "--http", f"{HOST}:{port}"],
                            env=env, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr.readline().startswith("skill serve: listening on"), "the server did not start"
    return proc, port


def request(port, body: bytes, headers=b"", timeout=30.0):
    with socket.create_connection((HOST, port), timeout=timeout) as s:
        s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Accept: application/json, text/event-stream\r\nConnection: close\r\n" + headers +
                  b"Content-Length: %d\r\n\r\n" % len(body) + body)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
        return data


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def chunks(binary, skills, kib):
    proc, port = start(binary, skills)
    body = json.dumps(INIT).encode()
    body += b" " * ((kib << 10) - len(body))
    wire = b"".join(b"1\r\n" + body[i:i + 1] + b"\r\n" for i in range(len(body))) + b"0\r\n\r\n"
    before = cpu_seconds(proc.pid)
    t0 = time.monotonic()
    status = "no answer"
    try:
        with socket.create_connection((HOST, port), timeout=300) as s:
            s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Accept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
            try:
                s.sendall(wire)
            except OSError:
                pass  # answered and closed early
            data = s.recv(65536)
            status = data.split(b"\r\n", 1)[0].decode() if data else "closed"
    except OSError as e:
        status = repr(e)
    result = {"status": status, "server_cpu_s": round(cpu_seconds(proc.pid) - before, 2),
              "wall_s": round(time.monotonic() - t0, 2)}
    stop(proc)
    return result


def slowloris(binary, skills, seconds, connections=256):
    proc, port = start(binary, skills)
    reply = request(port, json.dumps(INIT).encode())
    session = [l.split(b":", 1)[1].strip() for l in reply.split(b"\r\n") if l.lower().startswith(b"mcp-session-id:")][0]
    search = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                         "params": {"name": "search", "arguments": {"query": "tests"}}}).encode()
    extra = b"Mcp-Session-Id: " + session + b"\r\nMCP-Protocol-Version: 2025-11-25\r\n"
    request(port, search, extra)  # waits for the index
    slow, opened, refused = [], 0, 0
    for _ in range(connections):
        try:
            s = socket.create_connection((HOST, port), timeout=5)
            s.sendall(b"POST /mcp HTTP/1.1\r\nX")
            slow.append(s)
            opened += 1
        except OSError:
            refused += 1
    latencies, failures = [], []
    deadline = time.monotonic() + seconds
    next_byte = time.monotonic() + 5
    while time.monotonic() < deadline:
        t0 = time.perf_counter()
        try:
            answer = request(port, search, extra, timeout=10)
            if not answer.startswith(b"HTTP/1.1 200"):
                failures.append(answer.split(b"\r\n", 1)[0].decode())
        except OSError as e:
            failures.append(repr(e))
        latencies.append((time.perf_counter() - t0) * 1000)
        if time.monotonic() >= next_byte:
            for s in slow:
                try:
                    s.sendall(b"x")
                except OSError:
                    pass
            next_byte += 5
        time.sleep(max(0.0, 1 - (time.perf_counter() - t0)))
    closed_by_server = 0
    for s in slow:
        try:
            s.setblocking(False)
            if s.recv(1) == b"":
                closed_by_server += 1
        except BlockingIOError:
            pass
        except OSError:
            closed_by_server += 1
        s.close()
    stop(proc)
    return {"slow_connections": opened, "refused_at_connect": refused, "closed_by_server": closed_by_server,
            "searches": len(latencies), "failures": len(failures), "first_failures": failures[:3],
            "search_ms_max": round(max(latencies), 1), "search_ms_median": round(sorted(latencies)[len(latencies) // 2], 1)}


def sigterm(binary, skills):
    proc, port = start(binary, skills)
    s = socket.create_connection((HOST, port), timeout=5)
    s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":")
    time.sleep(0.5)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        status = proc.wait(100)
    except subprocess.TimeoutExpired:
        proc.kill()
        status = "still running after 100 s (killed)"
    s.close()
    return {"exit_s": round(time.monotonic() - t0, 2), "status": status}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=str(ROOT / ".build" / "release" / "skill"))
    parser.add_argument("--skills", default=str(ROOT / "Tests" / "ServerTests" / "Fixtures" / "skills"))
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--only", choices=["chunks", "slowloris", "sigterm"])
    parser.add_argument("--chunk-kib", type=int, default=1024, help="body size for the 1-byte chunks (at most 4096)")
    args = parser.parse_args()
    args.seconds = max(5.0, min(args.seconds, 120.0))
    result = {}
    if args.only in (None, "chunks"):
        kib = max(1, min(args.chunk_kib, 4096))
        result[f"chunks_{kib}KiB_1byte"] = chunks(args.bin, args.skills, kib)
    if args.only in (None, "slowloris"):
        result["slowloris_256"] = slowloris(args.bin, args.skills, args.seconds)
    if args.only in (None, "sigterm"):
        result["sigterm_half_sent"] = sigterm(args.bin, args.skills)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
