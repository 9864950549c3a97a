#!/usr/bin/env python3
"""Writes the archives the install tests need into OUTDIR: one good skill and one per attack.

Usage: make_zips.py OUTDIR. Every archive is made with Python's zipfile, as an attacker would,
not with the code under test.
"""
import base64
import io
import stat
import sys
import zipfile

SKILL = b"---\nname: demo\ndescription: A demo skill. Use when testing installs.\nallowed-tools: Bash Read\n---\n# Demo\n\nRun scripts/run.sh.\n"


def write(path, entries, compression=zipfile.ZIP_DEFLATED):
    """entries: (name, bytes) or (name, bytes, mode) tuples; mode with S_IFLNK makes a symlink."""
    with zipfile.ZipFile(path, "w", compression) as z:
        for entry in entries:
            name, data = entry[0], entry[1]
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = compression
            mode = entry[2] if len(entry) > 2 else (stat.S_IFREG | 0o644)
            info.external_attr = mode << 16
            info.create_system = 3
            z.writestr(info, data)


def main(out):
    good = [("demo/SKILL.md", SKILL), ("demo/scripts/run.sh", b"#!/bin/sh\necho hi\n", stat.S_IFREG | 0o755),
            ("demo/references/notes.md", b"# Notes\n")]
    write(f"{out}/good.zip", good)
    write(f"{out}/good-v2.zip", [("demo/SKILL.md", SKILL + b"\nVersion 2.\n")])
    write(f"{out}/parent.zip", good + [("demo/../../evil.txt", b"pwned\n")])
    write(f"{out}/absolute.zip", good + [("/tmp/evil.txt", b"pwned\n")])
    write(f"{out}/backslash.zip", good + [("demo\\..\\..\\evil.txt", b"pwned\n")])
    write(f"{out}/symlink.zip", good + [("demo/link", b"../../../../etc/passwd", stat.S_IFLNK | 0o777)])
    write(f"{out}/many.zip", [("demo/SKILL.md", SKILL)] + [(f"demo/f/{i}.txt", b"x") for i in range(2000)])
    write(f"{out}/two-folders.zip", good + [("other/SKILL.md", SKILL)])
    write(f"{out}/no-skill-md.zip", [("demo/README.md", b"# Not a skill\n")])
    write(f"{out}/nested.zip", good + [("demo/assets/inner.zip", b"PK\x05\x06" + b"\0" * 18)])
    write(f"{out}/duplicate.zip", good + [("demo/References/Notes.md", b"# Again\n")])
    write(f"{out}/invalid-skill.zip", [("demo/SKILL.md", b"---\nname: other\ndescription: Wrong name.\n---\n")])
    write(f"{out}/not-a-zip.zip", [])
    with open(f"{out}/not-a-zip.zip", "wb") as f:
        f.write(b"this is not a zip archive\n")
    # A bomb: 1 GiB of zeros, deflated to about 1 MB, streamed so the test stays light.
    with zipfile.ZipFile(f"{out}/bomb.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("demo/SKILL.md", SKILL)
        info = zipfile.ZipInfo("demo/zeros.bin", date_time=(2020, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        with z.open(info, "w", force_zip64=True) as f:
            chunk = b"\0" * (1 << 20)
            for _ in range(1024):
                f.write(chunk)

    # A SKILL.md whose headers declare 1,000 bytes but that inflates to 64 MiB.
    write(f"{out}/lying.zip", [("demo/SKILL.md", SKILL + b" " * (64 << 20))])
    with open(f"{out}/lying.zip", "r+b") as f:
        data = bytearray(f.read())
        local = data.index(b"PK\x03\x04")
        data[local + 22:local + 26] = (1000).to_bytes(4, "little")
        central = data.index(b"PK\x01\x02")
        data[central + 24:central + 28] = (1000).to_bytes(4, "little")
        f.seek(0)
        f.write(data)

    # Info-ZIP's `zip -r -fz` (zip64 forced) of a demo skill with two folder entries: its folder
    # entries declare 0xFFFFFFFF bytes, which are zip64 placeholders, not sizes.
    with open(f"{out}/zip64-folders.zip", "wb") as f:
        f.write(base64.b64decode(
            "UEsDBC0AAAAAADpLd10AAAAA//////////8FADAAZGVtby9VVAkAA58GBGufBgRrdXgLAAEEAAAAAAQAAAAAAQAQAAAAAAAA"
            "AAAAAAAAAAAAAABQSwMELQAAAAAAOkt3XQAAAAD//////////xAAMABkZW1vL3JlZmVyZW5jZXMvVVQJAAOfBgRrnwYEa3V4"
            "CwABBAAAAAAEAAAAAAEAEAAAAAAAAAAAAAAAAAAAAAAAUEsDBC0AAAAAADpLd11nwQPU//////////8UADAAZGVtby9yZWZl"
            "cmVuY2VzL2EubWRVVAkAA58GBGufBgRrdXgLAAEEAAAAAAQAAAAAAQAQAAoAAAAAAAAACgAAAAAAAAAjIEEKCnRleHQKUEsD"
            "BC0AAAAIADpLd12M/4eP//////////8NADAAZGVtby9TS0lMTC5tZFVUCQADnwYEa58GBGt1eAsAAQQAAAAABAAAAAABABAA"
            "YQAAAAAAAABbAAAAAAAAAB3MTQ5AMBAG0P2c4kus25VY2BFXcADRoRO00mkIp/ezfYtnjKEwbFzD8RbJsY5J9iwx1Gh+gy6y"
            "rphiwi17VWJIo5eD1aJXxuk5ILNmCbMl83YFuq+iNrrL0gNQSwECHgMKAAAAAAA6S3ddAAAAAAAAAAD/////BQAkAAAAAAAA"
            "ABAA7UEAAAAAZGVtby9VVAUAA58GBGt1eAsAAQQAAAAABAAAAAABAAgAAAAAAAAAAABQSwECHgMKAAAAAAA6S3ddAAAAAAAA"
            "AAD/////EAAkAAAAAAAAABAA7UFTAAAAZGVtby9yZWZlcmVuY2VzL1VUBQADnwYEa3V4CwABBAAAAAAEAAAAAAEACAAAAAAA"
            "AAAAAFBLAQIeAy0AAAAAADpLd11nwQPUCgAAAP////8UACQAAAAAAAEAAACkgbEAAABkZW1vL3JlZmVyZW5jZXMvYS5tZFVU"
            "BQADnwYEa3V4CwABBAAAAAAEAAAAAAEACAAKAAAAAAAAAFBLAQIeAy0AAAAIADpLd12M/4ePWwAAAP////8NACQAAAAAAAEA"
            "AACkgR0BAABkZW1vL1NLSUxMLm1kVVQFAAOfBgRrdXgLAAEEAAAAAAQAAAAAAQAIAGEAAAAAAAAAUEsGBiwAAAAAAAAAHgMt"
            "AAAAAAAAAAAABAAAAAAAAAAEAAAAAAAAAH4BAAAAAAAA0wEAAAAAAABQSwYHAAAAAFEDAAAAAAAAAQAAAFBLBQYAAAAABAAE"
            "AH4BAAD/////AAA="
        ))


if __name__ == "__main__":
    main(sys.argv[1])
