#!/usr/bin/env python3
"""Benchmarks for `skill check` (release build): a 10,000-line Swift tree from the CLI, and the
server's `review` of a 300-line file.

    swift build -c release --product skill
    python3 Benchmarks/check_bench.py [--bin .build/release/skill] [--skills DIR ...]

Default skills: the bundled ones and ../shared/corpus when present. The Swift tree is the
labelled set's Swift files copied, with their type names renamed per copy, until it holds
10,000 lines. Numbers are wall-clock on this machine (2 cores, shared).
"""

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LABELLED = ROOT / "Tests/CheckTests/Fixtures/labelled/swift"

parser = argparse.ArgumentParser()
parser.add_argument("--bin", default=str(ROOT / ".build/release/skill"))
parser.add_argument("--skills", action="append")
parser.add_argument("--runs", type=int, default=5)
parser.add_argument("--calls", type=int, default=50)
args = parser.parse_args()
skills = args.skills or [str(ROOT / "skills")] + ([str(ROOT.parent / "shared/corpus")] if (ROOT.parent / "shared/corpus").is_dir() else [])

sources = [p.read_text() for p in sorted(LABELLED.glob("*.swift"))]

with tempfile.TemporaryDirectory() as work:
    work = Path(work)
    env = dict(os.environ, HOME=str(work), XDG_CACHE_HOME=str(work / "cache"), NO_COLOR="1")
    index = work / "index.sqlite"
    roots = sum((["--skills", s] for s in skills), [])
    subprocess.run([args.bin, "build", "--index", str(index)] + roots, env=env, check=True, capture_output=True)

    tree = work / "tree"
    lines = copy = 0
    while lines < 10_000:
        folder = tree / f"Module{copy:02d}"
        folder.mkdir(parents=True)
        for n, text in enumerate(sources):
            text = re.sub(r"\b(struct|class|actor|enum) (\w+)", lambda m: f"{m.group(1)} {m.group(2)}{copy}", text)
            (folder / f"File{n:02d}.swift").write_text(text)
            lines += text.count("\n")
        copy += 1
    files = sum(1 for _ in tree.rglob("*.swift"))

    command = [args.bin, "check", "--index", str(index), "--json"] + roots + [str(tree)]
    subprocess.run(command, env=env, capture_output=True)  # warm the page cache and the index
    times = []
    cpu = []
    for _ in range(args.runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        run = subprocess.run(command, env=env, capture_output=True)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    findings = len(json.loads(run.stdout)["findings"])
    print(f"skills: {', '.join(os.path.relpath(s, ROOT) for s in skills)}")
    print(f"skill check, {lines} lines in {files} Swift files: median {statistics.median(times) * 1000:.0f} ms, "
          f"min {min(times) * 1000:.0f} ms over {args.runs} runs; CPU (user + sys) median {statistics.median(cpu) * 1000:.0f} ms "
          f"({findings} findings, exit {run.returncode}; load average {os.getloadavg()[0]:.1f})")

    # The server: one 300-line file, reviewed again and again.
    code_lines = []
    for text in sources:
        code_lines += text.splitlines()
        if len(code_lines) >= 300:
            break
    code = "\n".join(code_lines[:300]) + "\n"
    server = subprocess.Popen([args.bin, "serve", "--index", str(index), "--log-level", "error"] + roots,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)

    def ask(id, method, params):
        server.stdin.write((json.dumps({"jsonrpc": "2.0", "id": id, "method": method, "params": params}) + "\n").encode())
        server.stdin.flush()
        return json.loads(server.stdout.readline())

    ask(0, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}})
    call = {"name": "review", "arguments": {"code": code, "path": "Bench.swift"}}
    first = time.perf_counter()
    reply = ask(1, "tools/call", call)
    first = time.perf_counter() - first
    latencies = []
    for i in range(args.calls):
        start = time.perf_counter()
        reply = ask(i + 2, "tools/call", call)
        latencies.append(time.perf_counter() - start)
    server.stdin.close()
    server.wait()
    latencies.sort()
    found = len(reply["result"]["structuredContent"]["findings"])
    size = len(reply["result"]["content"][0]["text"])
    print(f"server review of a 300-line file: median {statistics.median(latencies) * 1000:.1f} ms, "
          f"p95 {latencies[int(len(latencies) * 0.95) - 1] * 1000:.1f} ms over {args.calls} calls "
          f"(first call {first * 1000:.0f} ms, building the checker; {found} findings, {size} characters of text)")
