"""The project's scripts: `scripts/skill` builds only when the binary is missing or older than the
sources (and says so), `scripts/skipped` lists skipped tests and fails under CI=true."""
import os
import pathlib
import shutil
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]


def fake_checkout(tmp_path):
    """A checkout with the real scripts/skill, a setup and a `swift` that only record their calls,
    and sources dated 2020."""
    root = tmp_path / "checkout"
    (root / "scripts").mkdir(parents=True)
    (root / "Sources").mkdir()
    shutil.copy(ROOT / "scripts" / "skill", root / "scripts" / "skill")
    calls = tmp_path / "calls"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    binary = root / ".build" / "release" / "skill"
    for path, body in [
        (root / "scripts" / "setup", f'echo setup >> "{calls}"'),
        # `swift build` writes the binary, as the real one does.
        (bin_dir / "swift", f'echo "swift $*" >> "{calls}"\nmkdir -p "{binary.parent}"\n'
                            f'printf \'#!/bin/sh\\necho "ran $*"\\n\' > "{binary}"\nchmod +x "{binary}"'),
    ]:
        path.write_text("#!/bin/sh\n" + body + "\n")
        path.chmod(0o755)
    for path in [root / "Package.swift", root / "Sources" / "main.swift"]:
        path.write_text("// source\n")
        os.utime(path, (1_577_836_800, 1_577_836_800))
    env = dict(os.environ, PATH=f"{bin_dir}:/usr/bin:/bin")
    return root, calls, env


def run_skill(root, env):
    return subprocess.run([str(root / "scripts" / "skill"), "search", "x"], capture_output=True, text=True, env=env)


def test_first_run_says_it_builds_then_later_runs_skip_the_build(tmp_path):
    root, calls, env = fake_checkout(tmp_path)
    first = run_skill(root, env)
    assert first.returncode == 0, first.stderr
    assert first.stdout == "ran search x\n"
    assert first.stderr == "skill: building the release binary, once (two to three minutes on 2 cores)…\n"
    assert calls.read_text().splitlines() == ["setup", f"swift build -c release --package-path {root} --product skill --static-swift-stdlib -q"]

    calls.unlink()
    again = run_skill(root, env)
    assert (again.stdout, again.stderr) == ("ran search x\n", "")
    assert not calls.exists(), "an up-to-date binary is run without setup or swift build"


def test_a_changed_source_rebuilds(tmp_path):
    root, calls, env = fake_checkout(tmp_path)
    run_skill(root, env)
    calls.unlink()
    (root / "Sources" / "main.swift").write_text("// changed\n")
    os.utime(root / "Sources" / "main.swift", None)
    binary = root / ".build" / "release" / "skill"
    os.utime(binary, (1_600_000_000, 1_600_000_000))
    changed = run_skill(root, env)
    assert changed.stderr == "skill: the sources changed since the last build; rebuilding…\n"
    assert calls.read_text().splitlines()[1].startswith("swift build -c release")


SWIFT_LOG = """◇ Test run started.
◇ Test jsonOfTestingSwift() skipped: "needs ../shared/corpus, absent beside this checkout"
✔ Test outlineOfAValidSkillExitsZero() passed after 0.487 seconds.
"""
PYTEST_LOG = """SKIPPED [2] Tests/conformance/test_validate_reference.py:100: needs ../shared/corpus, absent beside this checkout
10 passed, 2 skipped in 1.00s
"""


def skipped(tmp_path, ci, swift=SWIFT_LOG, python=PYTEST_LOG):
    (tmp_path / "swift.log").write_text(swift)
    (tmp_path / "python.log").write_text(python)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci:
        env["CI"] = "true"
    return subprocess.run([str(ROOT / "scripts" / "skipped"), str(tmp_path / "swift.log"), str(tmp_path / "python.log")],
                          capture_output=True, text=True, env=env)


def test_skipped_tests_are_listed_one_a_line_with_their_count(tmp_path):
    run = skipped(tmp_path, ci=False)
    assert run.returncode == 0
    assert run.stdout == (
        "skipped: jsonOfTestingSwift(): needs ../shared/corpus, absent beside this checkout\n"
        "skipped: Tests/conformance/test_validate_reference.py:100: needs ../shared/corpus, absent beside this checkout\n"
        "skipped: Tests/conformance/test_validate_reference.py:100: needs ../shared/corpus, absent beside this checkout\n"
        "3 tests skipped\n")


def test_a_skipped_test_fails_under_ci(tmp_path):
    run = skipped(tmp_path, ci=True)
    assert run.returncode == 1
    assert run.stderr == "error: 3 tests skipped under CI=true; CI must run them all (is ../shared beside the project?)\n"
    clean = skipped(tmp_path, ci=True, swift="✔ Test a() passed after 0.1 seconds.\n", python="3 passed in 0.1s\n")
    assert (clean.returncode, clean.stdout) == (0, "no test skipped\n")
