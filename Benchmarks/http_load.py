#!/usr/bin/env python3
"""Load on `skill serve --http` over loopback: N clients, each with its own MCP session and
keep-alive connection, searching in a loop for S seconds. Reports errors, p50/p99 latency,
throughput and the server's RSS at start and end.

    swift build -c release
    python3 Benchmarks/http_load.py --bin .build/release/skill --skills ../shared/corpus

Loopback only (127.0.0.1, a port chosen free at start); at most 200 clients and 300 seconds.
The clients are Python threads on the same 2 cores as the server, so throughput is a floor.
"""

import argparse
import http.client
import json
import os
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from server_bench import percentile

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def rss_kb(pid: int, field: str = "VmRSS") -> int:
    with open(f"/proc/{pid}/status") as f:
        for row in f:
            if row.startswith(field + ":"):
                return int(row.split()[1])
    return 0


class Client:
    def __init__(self, port):
        self.conn = http.client.HTTPConnection(HOST, port, timeout=60)
        self.headers = dict(HEADERS)
        self.next_id = 1

    def post(self, message):
        self.conn.request("POST", "/mcp", body=json.dumps(message), headers=self.headers)
        response = self.conn.getresponse()
        return response.status, response.getheader("Mcp-Session-Id"), response.read()

    def initialize(self):
        status, session, _ = self.post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "load", "version": "1"}}})
        assert status == 200 and session, status
        self.headers["Mcp-Session-Id"] = session
        self.headers["MCP-Protocol-Version"] = "2025-11-25"
        status, _, _ = self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert status == 202, status

    def search(self, query):
        self.next_id += 1
        status, _, body = self.post({"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call",
                                     "params": {"name": "search", "arguments": {"query": query}}})
        if status != 200:
            return f"HTTP {status}"
        reply = json.loads(body)
        if "result" not in reply or reply["result"].get("isError"):
            return f"error reply: {body[:200]!r}"
        return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=str(ROOT / ".build" / "release" / "skill"))
    parser.add_argument("--skills", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args()
    args.clients = max(1, min(args.clients, 200))
    args.seconds = max(1.0, min(args.seconds, 300.0))

    relevance = ROOT.parent / "shared" / "corpus" / "relevance.json"
    queries = [q["query"] for q in json.load(open(relevance))] if relevance.exists() else ["state", "tests", "binding"]
    tmp = tempfile.mkdtemp()
    env = dict(os.environ, HOME=tmp, XDG_CACHE_HOME=tmp)
    env.pop("SKILL_PATH", None)
    port = free_port()
    proc = subprocess.Popen([args.bin, "serve", "--skills", args.skills, "--log-level", "error", "--http", f"{HOST}:{port}"],
                            env=env, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr.readline().startswith("skill serve: listening on"), "the server did not start"

    clients = [Client(port) for _ in range(args.clients)]
    for c in clients:
        c.initialize()
    assert clients[0].search("warm up") is None  # waits for the index
    rss_start = rss_kb(proc.pid)

    latencies = [[] for _ in clients]
    errors = [[] for _ in clients]
    deadline = time.monotonic() + args.seconds

    def loop(i):
        c, n = clients[i], i
        while time.monotonic() < deadline:
            query = queries[n % len(queries)]
            n += 1
            t0 = time.perf_counter()
            try:
                failure = c.search(query)
            except Exception as e:  # a dropped connection counts as an error
                failure = repr(e)
                c.conn.close()
            latencies[i].append((time.perf_counter() - t0) * 1000)
            if failure:
                errors[i].append(failure)

    threads = [threading.Thread(target=loop, args=(i,)) for i in range(args.clients)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - t0
    rss_end, peak = rss_kb(proc.pid), rss_kb(proc.pid, "VmHWM")
    proc.terminate()
    status = proc.wait(60)

    all_ms = [v for l in latencies for v in l]
    all_errors = [e for l in errors for e in l]
    print(json.dumps({
        "skills": args.skills, "clients": args.clients, "seconds": round(elapsed, 1),
        "requests": len(all_ms), "errors": len(all_errors), "first_errors": all_errors[:3],
        "requests_per_second": round(len(all_ms) / elapsed, 1),
        "latency_ms": {"p50": round(percentile(all_ms, 50), 2), "p90": round(percentile(all_ms, 90), 2),
                       "p99": round(percentile(all_ms, 99), 2), "max": round(max(all_ms), 2)},
        "server_rss_mb": {"start": round(rss_start / 1024, 1), "end": round(rss_end / 1024, 1), "peak": round(peak / 1024, 1)},
        "exit_status_after_SIGTERM": status,
    }, indent=2))


if __name__ == "__main__":
    main()
