#!/usr/bin/env python3
"""Benchmarks for `skill serve` (release build): cold start, search latency, memory, reply sizes.

    swift build -c release
    python3 Benchmarks/server_bench.py --bin .build/release/skill --skills ../shared/corpus
    python3 Benchmarks/generate-corpus.py Benchmarks/.generated/corpus 10000
    python3 Benchmarks/server_bench.py --bin .build/release/skill --skills Benchmarks/.generated/corpus --synthetic-queries --starts 5
    python3 Benchmarks/server_bench.py --tail --starts 3    # judged queries + 20 common words: the tail

Numbers are wall-clock on this machine, client and server on the same 2 cores.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def line(message) -> bytes:
    return (json.dumps(message) + "\n").encode()


INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}


class Server:
    def __init__(self, binary, skills, env):
        self.proc = subprocess.Popen([binary, "serve", "--skills", skills, "--log-level", "error"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.next_id = 1

    def ask(self, method, params=None):
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.next_id += 1
        self.proc.stdin.write(line(message))
        self.proc.stdin.flush()
        raw = self.proc.stdout.readline()
        return raw

    def peak_kb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for row in f:
                if row.startswith("VmHWM:"):
                    return int(row.split()[1])

    def close(self):
        self.proc.stdin.close()
        return self.proc.wait(60)


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


STOP = set("a an and are as at be but by can do for from how i if in is it of on or the this to use "
           "used using with you your when what which that not no all any each more".split())


def tail_queries(skills):
    """Both judged sets' queries and the 20 words in most of the skills' markdown files."""
    corpus = ROOT.parent / "shared" / "corpus"
    queries = [q["query"] for name in ("relevance.json", "questions.json") for q in json.load(open(corpus / name))]
    counts = {}
    for path in sorted(skills.rglob("*.md")):
        words = set(re.findall(r"[a-z]{3,}", path.read_text(errors="replace").lower())) - STOP
        for word in words:
            counts[word] = counts.get(word, 0) + 1
    return queries + [w for w, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:20]]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=str(ROOT / ".build" / "release" / "skill"))
    parser.add_argument("--skills", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--starts", type=int, default=30)
    parser.add_argument("--synthetic-queries", action="store_true",
                        help="query with generate-corpus.py's words (for a generated corpus)")
    parser.add_argument("--tail", action="store_true",
                        help="query the judged queries of relevance.json and questions.json and the 20 "
                             "most common words of the skills, and report the slowest (issue #12)")
    parser.add_argument("--cache", help="XDG_CACHE_HOME for the server (default: a new folder): one whose vector "
                                            "cache holds the skills' vectors spares the server its embedding pass")
    args = parser.parse_args()

    tmp = tempfile.mkdtemp()
    env = dict(os.environ, HOME=tmp, XDG_CACHE_HOME=args.cache or tmp)
    env.pop("SKILL_PATH", None)

    # Cold start: spawn to the initialize reply.
    starts = []
    for _ in range(args.starts):
        t0 = time.perf_counter()
        proc = subprocess.Popen([args.bin, "serve", "--skills", args.skills, "--log-level", "error"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, bufsize=0)
        proc.stdin.write(line(INIT))
        proc.stdout.readline()
        starts.append((time.perf_counter() - t0) * 1000)
        proc.stdin.close()
        proc.wait(60)

    queries = [q["query"] for q in json.load(open(ROOT.parent / "shared" / "corpus" / "relevance.json"))]
    if args.synthetic_queries:
        import random
        # Words of Benchmarks/generate-corpus.py.
        WORDS = ("view model state binding observable navigation stack sheet list cache network retry "
                 "actor task async sendable protocol migration schema sync token keychain image layout "
                 "accessibility gesture animation widget intent menu window document export").split()
        rng = random.Random(7)
        queries = [" ".join(rng.sample(WORDS, rng.randint(1, 3))) for _ in range(100)]
    if args.tail:
        queries = tail_queries(Path(args.skills))
    server = Server(args.bin, args.skills, env)
    server.proc.stdin.write(line(INIT))
    server.proc.stdin.flush()
    server.proc.stdout.readline()
    tools_list = server.ask("tools/list")
    if args.cache and env.get("SKILL_MODEL") != "none":
        # The server writes its index's vector table after its first refresh (from the cache):
        # measure once the vector stage is on.
        deadline = time.time() + 120
        while time.time() < deadline and not list(Path(args.cache, "skill").glob("index-*.sqlite.vectors")):
            time.sleep(0.1)
    t0 = time.perf_counter()
    server.ask("tools/call", {"name": "search", "arguments": {"query": "warm up"}})
    load_ms = (time.perf_counter() - t0) * 1000
    pings = []
    for _ in range(200):
        t0 = time.perf_counter()
        server.ask("ping")
        pings.append((time.perf_counter() - t0) * 1000)
    latencies, sizes, by_query = [], [], {}
    for i in range(args.calls):
        query = queries[i % len(queries)]
        t0 = time.perf_counter()
        raw = server.ask("tools/call", {"name": "search", "arguments": {"query": query}})
        latencies.append((time.perf_counter() - t0) * 1000)
        by_query[query] = max(by_query.get(query, 0), latencies[-1])
        sizes.append(len(raw))
    peak = server.peak_kb()
    assert server.close() == 0

    report = {
        "skills": args.skills,
        "cold_start_ms": {"p50": round(statistics.median(starts), 2), "p90": round(percentile(starts, 90), 2)},
        "first_search_ms (loads the skills)": round(load_ms, 1),
        "search_ms": {"calls": args.calls, "queries": len(queries), "p50": round(percentile(latencies, 50), 3),
                      "p90": round(percentile(latencies, 90), 3), "p99": round(percentile(latencies, 99), 3),
                      "max": round(max(latencies), 3)},
        "slowest_queries_ms": {q: round(ms, 2) for q, ms in sorted(by_query.items(), key=lambda kv: -kv[1])[:5]},
        "ping_round_trip_ms": {"p50": round(percentile(pings, 50), 3), "p99": round(percentile(pings, 99), 3)},
        "peak_memory_mb": round(peak / 1024, 1),
        "tools_list_bytes": len(tools_list),
        "search_reply_bytes": {"median": int(statistics.median(sizes)), "max": max(sizes)},
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
