"""End-to-end conformance tests: the real `skill` binary under the official MCP Python SDK.

Run with `python3 -m pytest Tests/conformance -q` from the package root. The binary is
$SKILL_BIN, else .build/debug/skill (build it first). The MCP SDK (2.x) is installed when missing.
"""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

if importlib.util.find_spec("mcp") is None:
    subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "mcp>=2,<3"])

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "Tests" / "ServerTests" / "Fixtures" / "skills"


def skill_bin() -> str:
    path = Path(os.environ.get("SKILL_BIN", ROOT / ".build" / "debug" / "skill"))
    if not path.is_absolute():
        path = ROOT / path
    if not path.exists():
        pytest.exit(f"no skill binary at {path}: run `swift build` or set SKILL_BIN", returncode=2)
    return str(path)


@pytest.fixture(scope="session")
def binary() -> str:
    return skill_bin()


@pytest.fixture()
def hermetic_env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    cache = tmp_path / "cache"
    home.mkdir()
    cache.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("SKILL_PATH", "SKILL_INDEX", "SKILL_BUNDLED")}
    env.update({"HOME": str(home), "XDG_CACHE_HOME": str(cache)})
    return env


@pytest.fixture()
def server_args() -> list[str]:
    return ["serve", "--skills", str(FIXTURES), "--page-size", "2", "--log-level", "error"]
