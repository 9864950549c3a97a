#!/usr/bin/env bash
# Benchmark: zlib's CPU and savings on the index's long texts, for the settings `Deflate` could
# use. Every `text` and `code` of 64 bytes or more of an index (built with `skill build`) is
# compressed as the index does (one stream, reset for each value), five times; prints, per
# setting (level, window bits, memory level, strategy), the bytes saved and the CPU per pass.
# Usage: Benchmarks/zlib-levels.sh INDEX ["LEVEL BITS MEMORY STRATEGY"]...
#   (needs gcc, zlib1g-dev and python3; without settings, the ones of docs/benchmarks.md's table)
set -euo pipefail
index="${1:?usage: Benchmarks/zlib-levels.sh INDEX [SETTING]...}"
shift
settings=("$@")
[ ${#settings[@]} -gt 0 ] || settings=("1 15 8 0" "2 15 8 0" "6 15 8 0" "9 15 8 0" "1 12 4 0" "2 13 5 0" "1 15 2 0" "1 15 8 2" "1 15 8 3")
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$index" "$work/values" <<'PY'
import sqlite3, struct, sys, zlib
db = sqlite3.connect(sys.argv[1])
def plain(value):
    # The index stores a compressed value as its length (4 bytes) and a zlib stream.
    return zlib.decompress(value[4:]) if isinstance(value, bytes) else (value or "").encode()
with open(sys.argv[2], "wb") as out:
    for row in db.execute("SELECT text, code FROM entries"):
        for value in map(plain, row):
            if len(value) >= 64:
                out.write(struct.pack("<I", len(value)) + value)
PY
cat > "$work/levels.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>
int main(int argc, char **argv) {
    int level = atoi(argv[2]), bits = atoi(argv[3]), memory = atoi(argv[4]), strategy = atoi(argv[5]);
    FILE *file = fopen(argv[1], "rb");
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *values = malloc(size), *out = malloc(1 << 24);
    if (fread(values, 1, size, file) != (size_t)size) return 1;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    deflateInit2(&stream, level, Z_DEFLATED, bits, memory, strategy);
    long raw = 0, stored = 0, count = 0;
    struct timespec start, end;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
    for (int pass = 0; pass < 5; pass++) {
        raw = stored = count = 0;
        for (long at = 0; at < size;) {
            unsigned length;
            memcpy(&length, values + at, 4);
            at += 4;
            deflateReset(&stream);
            stream.next_in = values + at;
            stream.avail_in = length;
            stream.next_out = out;
            stream.avail_out = 1 << 24;
            deflate(&stream, Z_FINISH);
            long written = (1 << 24) - stream.avail_out;
            stored += written + 4 < length ? written + 4 : length;
            raw += length;
            at += length;
            count++;
        }
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &end);
    double ms = ((end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6) / 5;
    printf("| %d | %d | %d | %d | %ld | %.2f MB | %.2f MB | %.1f ms |\n", level, bits, memory, strategy, count, raw / 1e6, (raw - stored) / 1e6, ms);
    return 0;
}
C
gcc -O2 "$work/levels.c" -o "$work/levels" -lz
echo "| level | window bits | memory level | strategy | values | bytes | saved | CPU per pass |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for setting in "${settings[@]}"; do
    # shellcheck disable=SC2086
    "$work/levels" "$work/values" $setting
done
