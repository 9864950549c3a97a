#!/usr/bin/env python3
"""`skill search WORD` end to end against `rg -i WORD` over the same files, runs interleaved;
also the same search with `--skills` and `--index` given as options (read by the argument parser).

    python3 Benchmarks/cli_vs_rg.py --skills ../shared/corpus --bin before=/tmp/skill-old --bin after=.build/release/skill

One run of each command in turn, ROUNDS times (after 3 warm-up rounds), so a busy moment of this
shared machine falls on all of them alike; prints the median, mean and p90 of each, and the load
average. The index is built once (a temporary file), then warm: the readers' freshness rule
trusts the last check, as in a burst of searches. Each binary also runs `--version` (its start).
"""

import argparse
import os
import statistics
import subprocess
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--skills", default="../shared/corpus")
    parser.add_argument("--bin", action="append", default=[], help="NAME=PATH (repeatable); default after=.build/release/skill")
    parser.add_argument("--word", default="xcstrings")
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args()
    binaries = dict(b.split("=", 1) for b in args.bin) or {"after": ".build/release/skill"}
    work = tempfile.mkdtemp(prefix="skill-cli-rg.")
    # The roots and the index come from the environment, as for someone whose defaults are
    # set: `skill search WORD` with no option (read without the argument parser); the same
    # search with them as options goes through the parser.
    index = os.path.join(work, "index.sqlite")
    env = dict(os.environ, HOME=work, XDG_CACHE_HOME=work, NO_COLOR="1", SKILL_PATH=args.skills, SKILL_INDEX=index)
    options = ["--skills", args.skills, "--index", index]
    subprocess.run([next(iter(binaries.values())), "build", *options], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    commands = {}
    for name, path in binaries.items():
        commands[f"{name}: skill search {args.word}"] = [path, "search", args.word]
        commands[f"{name}: skill search --skills --index"] = [path, "search", *options, args.word]
        commands[f"{name}: skill --version"] = [path, "--version"]
    commands[f"rg -i {args.word}"] = ["rg", "-i", args.word, args.skills]
    times = {name: [] for name in commands}
    for round in range(args.rounds + 3):
        for name, command in commands.items():
            start = time.perf_counter()
            subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if round >= 3:
                times[name].append((time.perf_counter() - start) * 1000)
    print(f"load average {os.getloadavg()[0]:.1f}, {args.rounds} rounds")
    for name, values in times.items():
        values.sort()
        print(f"{name:40} median {statistics.median(values):5.1f} ms  mean {statistics.mean(values):5.1f}  p90 {values[int(len(values) * 0.9)]:5.1f}")


if __name__ == "__main__":
    main()
