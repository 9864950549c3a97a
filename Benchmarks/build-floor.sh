#!/usr/bin/env bash
# Benchmark: what a full `skill build` costs next to the parts the design requires of it, each
# done alone at its lowest cost, in one run (#12's aim: a full build at most 6x cmark's parse).
#   cmark           the `cmark` command rendering every markdown file (the unit of the ratios)
#   skill parse     `skill parse CORPUS`: the parser alone (frontmatter, cmark, entries), no index
#   FTS5 fill       SQLite filling a table of the index's tokenizer (porter unicode61) with the
#                   entries' five searchable columns, in one statement, from a table in hand
#   vocabulary fill the same text into a contentless `unicode61` table (typo tolerance's words)
#   entries insert  the `entries` rows copied in one statement into a table of the same schema
#   zlib            every text and code of 64 bytes or more compressed as `Deflate` does
#                   (Benchmarks/zlib-levels.sh at level 1: C, one stream reset for each value)
#   skill build     one full build into a new index
# The SQLite and zlib parts read an index built by this run and use the same libraries as `skill`.
# The commands' CPU is the median of several runs (cmark 9, the others 5): cmark's own tens of
# milliseconds vary by a fifth from run to run.
# Usage: Benchmarks/build-floor.sh [SKILL_BINARY] [CORPUS]
#   (defaults: .build/release/skill and ../shared/corpus). Needs cmark, gcc, zlib1g-dev
#   and python3 (apt-get install -y cmark gcc zlib1g-dev). CPU is user + sys.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
skill="${1:-$root/.build/release/skill}"
corpus="${2:-$root/../shared/corpus}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

find "$corpus" -name '*.md' -print0 > "$work/files"

python3 - "$work" "$skill" "$corpus" "$root/Benchmarks/zlib-levels.sh" <<'PY'
import os, resource, sqlite3, statistics, subprocess, sys, time, zlib
work, skill, corpus, zlib_levels = sys.argv[1:]

def child_cpu(command, runs):
    """The median CPU (user + sys) of `runs` runs of `command`, from getrusage (microseconds)."""
    seconds = []
    for _ in range(runs):
        for name in ("index.sqlite", "index.sqlite-wal", "index.sqlite-shm"):
            if os.path.exists(os.path.join(work, name)):
                os.remove(os.path.join(work, name))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(seconds)

files = os.path.join(work, "files")
cmark = child_cpu(f"xargs -0 cmark < '{files}'", 9)
parse = child_cpu(f"'{skill}' parse '{corpus}'", 5)
build = child_cpu(f"'{skill}' build --skills '{corpus}' --index '{work}/index.sqlite'", 5)
index = sqlite3.connect(os.path.join(work, "index.sqlite"))

def plain(value):
    # The index stores a compressed value as its length (4 bytes), then a zlib stream.
    return zlib.decompress(value[4:]).decode() if isinstance(value, bytes) else value

rows = [(r[0], r[1], r[2], r[3], plain(r[4]), plain(r[5]))
        for r in index.execute("SELECT rowid, title, breadcrumb, keywords, text, code FROM entries")]

floor = sqlite3.connect(os.path.join(work, "floor.sqlite"))
floor.execute("CREATE TABLE fresh(rowid INTEGER PRIMARY KEY, title, breadcrumb, keywords, text, code)")
floor.executemany("INSERT INTO fresh VALUES (?, ?, ?, ?, ?, ?)", rows)
schema = index.execute("SELECT sql FROM sqlite_master WHERE name = 'entries'").fetchone()[0]
floor.execute(schema.replace("CREATE TABLE entries", "CREATE TABLE copy", 1))
for name, sql in index.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'entries' AND sql IS NOT NULL"):
    floor.execute(sql.replace(f"INDEX {name} ON entries", f"INDEX copy_{name} ON copy", 1))
floor.execute(f"ATTACH '{os.path.join(work, 'index.sqlite')}' AS built")
floor.commit()

def timed(sql):
    start = time.process_time()
    floor.execute(sql)
    floor.commit()
    return time.process_time() - start

columns = "title, breadcrumb, keywords, text, code"
parts = {
    "FTS5 fill": timed(f"CREATE VIRTUAL TABLE f USING fts5({columns}, content='', tokenize='porter unicode61 remove_diacritics 2');"
                       ) + timed(f"INSERT INTO f(rowid, {columns}) SELECT rowid, {columns} FROM fresh"),
    "vocabulary fill": timed(f"CREATE VIRTUAL TABLE v USING fts5({columns}, content='', detail=none, tokenize='unicode61 remove_diacritics 2');"
                             ) + timed(f"INSERT INTO v({columns}) SELECT {columns} FROM fresh"),
    "entries insert": timed("INSERT INTO copy SELECT * FROM built.entries"),
    # Its row ends "| CPU per pass |": "| 85.3 ms |".
    "zlib": float(subprocess.run([zlib_levels, os.path.join(work, "index.sqlite"), "1 15 8 0"], capture_output=True, text=True, check=True
                                 ).stdout.strip().split("\n")[-1].split("|")[-2].split()[0]) / 1000,
}
print(f"{len(rows)} entries, {sum(len(r[4].encode()) + len(r[5].encode()) for r in rows) / 1e6:.2f} MB of text and code")
print("| part | CPU | / cmark |")
print("| --- | --- | --- |")
print(f"| cmark | {cmark:.3f} s | 1.0x |")
print(f"| skill parse | {parse:.3f} s | {parse / cmark:.1f}x |")
for name, seconds in parts.items():
    print(f"| {name} | {seconds:.3f} s | {seconds / cmark:.1f}x |")
total = parse + sum(parts.values())
print(f"| **sum of the parts** | {total:.3f} s | **{total / cmark:.1f}x** |")
print(f"| skill build | {build:.3f} s | {build / cmark:.1f}x |")
PY
