#!/usr/bin/env python3
"""Fuzzes `skill` with hostile and unlucky input and reports crashes, timeouts, time and peak
memory per megabyte, and output size.

Each case is one skill folder written to a temporary directory and run through
`skill parse DIR --json` (every fifth case also through `skill build` and `skill search`):
  - mutations of the shared corpus's markdown files (byte flips, truncation, duplicated and
    deleted lines, NULs, invalid UTF-8, CR and CRLF line ends), when ../shared/corpus exists;
  - generators for each pattern of docs/reliability.md at growing sizes: YAML alias expansion,
    merge keys, alias keys, deep frontmatter, nested task lists, duplicate headings, headings of
    number words, long decision trees, very large documents, a search word repeated in every place.

A crash is a run killed by a signal or exiting with a code other than 0 or 1; a timeout is a run
over --timeout seconds. Exits 1 when either happens, else 0.

    python3 Benchmarks/fuzz.py --seconds 60            # the CI round (scripts/test)
    python3 Benchmarks/fuzz.py --seconds 900 --bin .build/release/skill
"""
import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FRONT = "---\nname: f\ndescription: Fuzzed skill.\n"


def skill(front="", body="# Title\n\ntext\n"):
    return (FRONT + front + "---\n\n" + body).encode()


# Generators: name -> function(size step n, starting at 1) returning SKILL.md bytes.
def laughs(n):
    width = min(2 + n, 12)
    lines = ['a0: &a0 "lol"'] + [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]" for i in range(1, 10)]
    return skill("\n".join(lines) + "\n")


def merges(n):
    depth = 5 * n
    lines = ["m0: &m0 {k: v}"] + [f"m{i}: &m{i}\n  <<: *m{i - 1}\n  x{i}: [*m{i - 1}, *m{i - 1}]" for i in range(1, depth + 1)]
    return skill("\n".join(lines) + "\n")


def alias_key(n):
    lines = ['a0: &a0 "lol"'] + [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 6)]
    return skill("\n".join(lines) + f"\n? *a{min(n, 5)}\n: x\n")


def deep_front(n):
    depth = 100 * n
    return skill("x: " + "[" * depth + "]" * depth + "\n")


def task_list(n):
    depth = 250 * n
    return skill(body="# Notes\n\n" + "".join("  " * i + f"- [ ] task {i}\n" for i in range(depth)))


def duplicate_headings(n):
    return skill(body="# T\n\n" + "## Setup\n\ntext\n\n" * (4000 * n))


def number_words(n):
    return skill(body="# " + " ".join(["12"] * (50_000 * n)) + " checklist\n\n- [ ] x\n")


def tree(n):
    return skill(body="# Decide\n\n```text\nStart?\n" + "".join(f"├── q{i}? → use x\n" for i in range(25_000 * n)) + "```\n")


def large(n):
    paragraph = "Plain words about @State and NavigationStack in a long paragraph. " * 20 + "\n\n"
    parts = 1_500 * n
    return skill(body="".join(f"## Part {i}\n\n{paragraph}" for i in range(parts)))


def repeated_word(n):
    # Every word an instance of the searched word ("state"), every other case also a sentence:
    # a snippet that rescans every instance for each one is quadratic (12 s at 100,000).
    word = "state. " if n % 2 else "state "
    return skill(body="# Words\n\n## Many\n\n" + word * (60_000 * n) + "\n")


GENERATORS = {
    "yaml aliases": laughs, "merge keys": merges, "alias keys": alias_key, "deep frontmatter": deep_front,
    "nested task lists": task_list, "duplicate headings": duplicate_headings, "number-word heading": number_words,
    "long decision tree": tree, "large document": large, "repeated search word": repeated_word,
}


def mutate(data, rng):
    data = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        kind = rng.randrange(8)
        at = rng.randrange(len(data) + 1)
        if kind == 0 and data:
            data[min(at, len(data) - 1)] ^= 1 << rng.randrange(8)
        elif kind == 1:
            data = data[:at]
        elif kind == 2 or kind == 3:
            lines = bytes(data).split(b"\n")
            i = rng.randrange(len(lines))
            if kind == 2:
                lines.insert(i, lines[i])
            else:
                del lines[i]
            data = bytearray(b"\n".join(lines))
        elif kind == 4:
            data[at:at] = b"\0"
        elif kind == 5:
            data[at:at] = rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"])
        elif kind == 6:
            data = bytearray(bytes(data).replace(b"\n", b"\r\n"))
        else:
            data = bytearray(bytes(data).replace(b"\n", b"\r"))
    return bytes(data)


def run(cmd, timeout, env):
    """Runs cmd; returns (status, seconds, peak KB, output bytes). status: ok, crash or timeout."""
    start = time.monotonic()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL, env=env)
        deadline = start + timeout
        status = None
        while status is None:
            pid, code, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                status = "crash" if os.WIFSIGNALED(code) or os.WEXITSTATUS(code) not in (0, 1) else "ok"
                peak = usage.ru_maxrss
                break
            if time.monotonic() > deadline:
                proc.kill()
                _, _, usage = os.wait4(proc.pid, 0)
                status, peak = "timeout", usage.ru_maxrss
                break
            time.sleep(0.005)
        proc.returncode = 0
        seconds = time.monotonic() - start
        out.seek(0, 2)
        return status, seconds, peak, out.tell()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--bin", default=str(ROOT / ".build/debug/skill"))
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared/corpus"))
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--max-size", type=int, default=8, help="largest size step of the generators")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    if not os.access(args.bin, os.X_OK):
        print(f"fuzz: SKIP: no binary at {args.bin} (build first)")
        return 0
    rng = random.Random(args.seed)
    corpus = sorted(Path(args.corpus).rglob("*.md")) if Path(args.corpus).is_dir() else []
    if not corpus:
        print(f"fuzz: no corpus at {args.corpus}: mutations skipped, generators only")
    work = Path(tempfile.mkdtemp(prefix="skill-fuzz-"))
    env = dict(os.environ, HOME=str(work / "home"), XDG_CACHE_HOME=str(work / "cache"), NO_COLOR="1")
    env.pop("SKILL_PATH", None)
    stats = {}  # name -> dict
    failures = []
    step = {name: 1 for name in GENERATORS}
    end = time.monotonic() + args.seconds
    case = 0
    try:
        while time.monotonic() < end:
            case += 1
            if corpus and case % 2:
                name = "corpus mutations"
                data = mutate(rng.choice(corpus).read_bytes(), rng)
            else:
                name = rng.choice(list(GENERATORS))
                data = GENERATORS[name](step[name])
                step[name] = step[name] % args.max_size + 1
            folder = work / "skills" / "f"
            shutil.rmtree(work / "skills", ignore_errors=True)
            folder.mkdir(parents=True)
            (folder / "SKILL.md").write_bytes(data)
            commands = [[args.bin, "parse", str(folder), "--json"]]
            if case % 5 == 0:
                index = str(work / "index.sqlite")
                commands += [[args.bin, "build", "--skills", str(work / "skills"), "--index", index],
                             [args.bin, "search", "state", "--skills", str(work / "skills"), "--index", index, "--json"]]
            s = stats.setdefault(name, {"cases": 0, "runs": 0, "crashes": 0, "timeouts": 0, "bytes": 0,
                                        "s_per_mb": 0.0, "kb": 0, "out_ratio": 0.0, "largest": 0})
            s["cases"] += 1
            s["bytes"] += len(data)
            s["largest"] = max(s["largest"], len(data))
            megabytes = max(len(data) / 1e6, 0.01)
            for cmd in commands:
                status, seconds, peak, out = run(cmd, args.timeout, env)
                s["runs"] += 1
                if status != "ok":
                    s["crashes" if status == "crash" else "timeouts"] += 1
                    kept = work.parent / f"skill-fuzz-{status}-{case}.md"
                    kept.write_bytes(data)
                    failures.append(f"{status}: {' '.join(cmd[1:2])} on {name} ({len(data)} bytes), kept as {kept}")
                s["s_per_mb"] = max(s["s_per_mb"], seconds / megabytes)
                s["kb"] = max(s["kb"], peak)
                if cmd[1] == "parse":
                    # Per input byte, counting inputs under 10 KB as 10 KB (a skill's JSON has a floor).
                    s["out_ratio"] = max(s["out_ratio"], out / max(len(data), 10_000))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"| input | cases | runs | crashes | timeouts | largest input | worst s/MB | worst peak MB | worst output/input |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, s in sorted(stats.items()):
        print(f"| {name} | {s['cases']} | {s['runs']} | {s['crashes']} | {s['timeouts']} | {s['largest'] / 1e6:.2f} MB "
              f"| {s['s_per_mb']:.2f} | {s['kb'] / 1024:.0f} | {s['out_ratio']:.1f} |")
    total = sum(s["cases"] for s in stats.values())
    print(f"\nfuzz: {total} cases in {args.seconds:.0f} s, {len(failures)} failures")
    for line in failures:
        print("  " + line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
