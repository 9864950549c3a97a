#!/usr/bin/env python3
"""Checks a judged question file against the markdown it judges.

Usage: Benchmarks/heldout/check.py QUESTIONS.json ROOT

Each question has an id, a query, an intent and judgements; each judgement's path exists under ROOT,
its `line` is a heading outside code fences whose text is `heading`, and its `end` is the line
before the next heading of the same or a higher level (or the file's last line). Prints the
counts and every problem; exits 1 when there is one.
"""
import json, os, re, sys

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")


def headings(path):
    """{line: (level, text)} of the ATX headings outside fences, and the file's line count."""
    lines = open(path, encoding="utf-8").read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    found, fence = {}, None
    for number, line in enumerate(lines, 1):
        marker = FENCE.match(line.lstrip())
        if fence is None:
            if marker and not (marker.group(1)[0] == "`" and "`" in marker.group(2)):
                fence = marker.group(1)
                continue
            heading = HEADING.match(line)
            if heading:
                found[number] = (len(heading.group(1)), re.sub(r"[ \t]+#+$", "", heading.group(2) or "").strip())
        elif marker and marker.group(1)[0] == fence[0] and len(marker.group(1)) >= len(fence) and not marker.group(2).strip():
            fence = None
    return found, len(lines)


def main(questions, root):
    problems, judgements, ids = [], 0, set()
    for q in json.load(open(questions)):
        if set(q) != {"id", "query", "intent", "judgements"} or q["id"] in ids:
            problems.append(f"{q.get('id')}: fields {sorted(q)} or a repeated id")
        ids.add(q.get("id"))
        for j in q["judgements"]:
            judgements += 1
            path = os.path.join(root, j["path"])
            if not os.path.isfile(path):
                problems.append(f"{q['id']}: no file {j['path']}")
                continue
            found, count = headings(path)
            if found.get(j["line"], (0, None))[1] != j["heading"]:
                problems.append(f"{q['id']}: {j['path']}:{j['line']} is not the heading {j['heading']!r}")
                continue
            level = found[j["line"]][0]
            after = [n for n in sorted(found) if n > j["line"] and found[n][0] <= level]
            end = after[0] - 1 if after else count
            if end != j["end"]:
                problems.append(f"{q['id']}: {j['path']}:{j['line']} ends at {end}, not {j['end']}")
    print(f"{len(ids)} questions, {judgements} judgements, {len(problems)} problems")
    for p in problems:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
