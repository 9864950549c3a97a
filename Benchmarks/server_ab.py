#!/usr/bin/env python3
"""Two or more `skill serve` builds over the same queries, interleaved: each query is asked of every
server in turn (the order reversed every other round), so a busy moment of this shared machine
falls on all of them alike. Prints each server's latency percentiles and its CPU time per call
(from /proc, which the machine's other work does not inflate as much as wall time).

    python3 Benchmarks/server_ab.py before=/tmp/skill-old after=.build/release/skill
    python3 Benchmarks/server_ab.py --long 9 --rounds 20 before=… after=…   # questions of 9+ words

The queries are `server_bench.py --tail`'s: the judged queries of both sets and the 20 most common
words of the skills. Each server builds its own index first and answers every query once before
the timed rounds.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_bench import INIT, Server, line, percentile, tail_queries  # noqa: E402


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("servers", nargs="+", help="NAME=BINARY")
    parser.add_argument("--skills", default=str(Path(__file__).resolve().parents[2] / "shared" / "corpus"))
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--long", type=int, default=0, help="only queries of at least this many words")
    args = parser.parse_args()
    queries = [q for q in tail_queries(Path(args.skills)) if len(q.split()) >= args.long]
    search = lambda server, query: server.ask("tools/call", {"name": "search", "arguments": {"query": query}})
    servers = []
    for spec in args.servers:
        name, binary = spec.split("=", 1)
        home = tempfile.mkdtemp()
        env = dict(os.environ, HOME=home, XDG_CACHE_HOME=home)
        env.pop("SKILL_PATH", None)
        server = Server(binary, args.skills, env)
        server.proc.stdin.write(line(INIT))
        server.proc.stdin.flush()
        server.proc.stdout.readline()
        for query in queries:
            search(server, query)
        servers.append((name, server, []))
    start = {name: cpu_seconds(server.proc.pid) for name, server, _ in servers}
    load = os.getloadavg()
    for round in range(args.rounds):
        for query in queries:
            for name, server, latencies in servers if round % 2 == 0 else servers[::-1]:
                t0 = time.perf_counter()
                search(server, query)
                latencies.append((time.perf_counter() - t0) * 1000)
    print(f"load average {load[0]:.2f} at the start, {os.getloadavg()[0]:.2f} at the end; "
          f"{len(queries)} queries x {args.rounds} rounds")
    for name, server, latencies in servers:
        cpu = (cpu_seconds(server.proc.pid) - start[name]) * 1000 / len(latencies)
        print(f"{name:12} p50 {percentile(latencies, 50):6.2f}  p90 {percentile(latencies, 90):6.2f}  "
              f"p99 {percentile(latencies, 99):6.2f}  max {max(latencies):6.2f} ms  "
              f"mean {statistics.mean(latencies):6.2f} ms  server CPU {cpu:5.2f} ms a call")
        assert server.close() == 0


if __name__ == "__main__":
    main()
