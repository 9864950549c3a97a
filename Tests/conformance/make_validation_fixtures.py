#!/usr/bin/env python3
"""Writes Tests/ParserTests/Fixtures/validation: one crafted skill per validation rule.

Each case is a folder holding one skill folder (the skill's name must match its folder, so the
case needs a folder of its own). Run again after changing a case; the output is checked in.
"""
import pathlib
import shutil

ROOT = pathlib.Path(__file__).resolve().parent.parent / "ParserTests" / "Fixtures" / "validation"
BODY = "\n# Title\n\nUse this skill to do the thing.\n"


def skill(case, folder, frontmatter, body=BODY, file="SKILL.md", raw=None):
    path = ROOT / case / folder
    path.mkdir(parents=True, exist_ok=True)
    data = raw if raw is not None else ("---\n" + frontmatter + "---\n" + body).encode()
    (path / file).write_bytes(data)
    return path


def main():
    shutil.rmtree(ROOT, ignore_errors=True)
    ok = "description: Formats tables. Use when the user asks to align a markdown table.\n"
    skill("valid", "good-skill", "name: good-skill\n" + ok)
    skill("valid-all-fields", "all-fields", "name: all-fields\n" + ok
          + "license: Apache-2.0\ncompatibility: Needs python3\nmetadata:\n  author: me\n  version: \"1.0\"\nallowed-tools: Bash Read\n")
    skill("name-missing", "no-name", ok)
    skill("name-empty", "empty-name", "name: \"\"\n" + ok)
    skill("name-uppercase", "Bad-Name", "name: Bad-Name\n" + ok)
    skill("name-leading-hyphen", "-lead", "name: -lead\n" + ok)
    skill("name-trailing-hyphen", "trail-", "name: trail-\n" + ok)
    skill("name-double-hyphen", "double--hyphen", "name: double--hyphen\n" + ok)
    skill("name-underscore", "under_score", "name: under_score\n" + ok)
    long_name = "a" * 65
    skill("name-too-long", long_name, f"name: {long_name}\n" + ok)
    skill("name-mismatch", "folder-name", "name: other-name\n" + ok)
    skill("name-unicode", "café", "name: café\n" + ok)
    skill("name-not-string", "list-name", "name:\n  - list-name\n" + ok)
    skill("description-missing", "no-description", "name: no-description\n")
    skill("description-empty", "empty-description", "name: empty-description\ndescription: \"\"\n")
    skill("description-too-long", "long-description", "name: long-description\ndescription: " + "x" * 1025 + "\n")
    skill("description-not-string", "map-description", "name: map-description\ndescription:\n  what: a map\n")
    skill("compatibility-too-long", "long-compatibility", "name: long-compatibility\n" + ok + "compatibility: " + "c" * 501 + "\n")
    skill("metadata-nested", "nested-metadata", "name: nested-metadata\n" + ok + "metadata:\n  author:\n    name: me\n")
    skill("metadata-list", "list-metadata", "name: list-metadata\n" + ok + "metadata:\n  - a\n  - b\n")
    skill("allowed-tools-list", "tools-list", "name: tools-list\n" + ok + "allowed-tools:\n  - Bash\n  - Read\n")
    skill("unknown-field", "vendor-field", "name: vendor-field\n" + ok + "version: 1.0.0\n")
    skill("no-frontmatter", "no-frontmatter", "", raw=b"# No frontmatter\n\nJust text.\n")
    skill("frontmatter-unclosed", "unclosed", "", raw=b"---\nname: unclosed\n" + ok.encode() + b"\n# Title\n\nText.\n")
    skill("frontmatter-not-map", "not-a-map", "", raw=b"---\n- just\n- a list\n---\n# Title\n")
    skill("yaml-syntax", "yaml-syntax", "", raw=b"---\nname: yaml-syntax\ndescription: [unclosed\n---\n# Title\n")
    skill("comment-cut", "comment-cut", "name: comment-cut\ndescription: Formats tables #markdown. Use when aligning tables.\n")
    skill("invalid-utf8", "bad-bytes", "", raw=b"---\nname: bad-bytes\ndescription: Caf\xe9 menus. Use when pricing coffee.\n---\n# Title\n")
    skill("crlf", "crlf-skill", "", raw=("---\nname: crlf-skill\n" + ok + "---\n" + BODY).replace("\n", "\r\n").encode())
    skill("bom", "bom-skill", "", raw=b"\xef\xbb\xbf---\nname: bom-skill\n" + ok.encode() + b"---\n# Title\n")
    skill("lowercase-file", "lower-file", "name: lower-file\n" + ok, file="skill.md")
    (ROOT / "no-skill-md" / "empty-folder").mkdir(parents=True, exist_ok=True)
    (ROOT / "no-skill-md" / "empty-folder" / "README.md").write_text("# Not a skill\n")
    skill("claude-reserved-word", "claude-helper", "name: claude-helper\n" + ok)
    skill("claude-xml-tag", "xml-tag", "name: xml-tag\ndescription: Formats <table> tags. Use when writing HTML tables.\n")
    big = skill("claude-too-many-files", "many-files", "name: many-files\n" + ok)
    for i in range(201):
        (big / "assets").mkdir(exist_ok=True)
        (big / "assets" / f"f{i:03}.txt").write_text("x\n")


if __name__ == "__main__":
    main()
