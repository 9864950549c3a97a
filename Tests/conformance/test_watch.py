"""`skill serve` notices changed skills by watching their folders (inotify on Linux): a client
gets `notifications/resources/list_changed` after a file is written, with no request sent and
polling left out of the picture (`--poll` is the fallback, tested beside it)."""

import json
import queue
import subprocess
import sys
import threading

import pytest

INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "watch", "version": "1"}}}
SKILL = "---\nname: {0}\ndescription: The {0} skill.\n---\n# {0}\n\nAbout {0}.\n"


def send(process, message):
    process.stdin.write((json.dumps(message) + "\n").encode())
    process.stdin.flush()


def start(binary, env, root, *extra):
    process = subprocess.Popen([binary, "serve", "--skills", str(root), "--log-level", "info", *extra],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    messages = queue.Queue()
    threading.Thread(target=lambda: [messages.put(json.loads(l)) for l in process.stdout], daemon=True).start()
    send(process, INIT)
    assert messages.get(timeout=60)["id"] == 0
    send(process, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    # Any request waits for the first build; its answer means the index is there.
    send(process, {"jsonrpc": "2.0", "id": 1, "method": "resources/list"})
    assert messages.get(timeout=60)["id"] == 1
    return process, messages


def wait_for(messages, method, timeout=30):
    while True:
        message = messages.get(timeout=timeout)
        if message.get("method") == method:
            return message


def finish(process):
    process.stdin.close()
    process.wait(timeout=60)
    return process.stderr.read().decode()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")
def test_a_new_skill_is_announced_without_a_request(binary, hermetic_env, tmp_path):
    root = tmp_path / "skills"
    (root / "one").mkdir(parents=True)
    (root / "one" / "SKILL.md").write_text(SKILL.format("one"))
    process, messages = start(binary, hermetic_env, root)
    (root / "two").mkdir()
    (root / "two" / "SKILL.md").write_text(SKILL.format("two"))
    wait_for(messages, "notifications/resources/list_changed")
    send(process, {"jsonrpc": "2.0", "id": 2, "method": "resources/list"})
    listed = wait_for_id(messages, 2)
    assert "skill://two/SKILL.md" in [r["uri"] for r in listed["result"]["resources"]]
    stderr = finish(process)
    assert "skill serve: info: watching 2 folders for changes (inotify)" in stderr


def test_with_poll_a_change_is_announced_too(binary, hermetic_env, tmp_path):
    root = tmp_path / "skills"
    (root / "one").mkdir(parents=True)
    (root / "one" / "SKILL.md").write_text(SKILL.format("one"))
    process, messages = start(binary, hermetic_env, root, "--poll")
    (root / "one" / "SKILL.md").write_text(SKILL.format("one") + "\n## Wombats\n\nAbout wombats.\n")
    wait_for(messages, "notifications/resources/list_changed")
    stderr = finish(process)
    assert "skill serve: info: checking for changes every 1 s" in stderr
    assert "inotify" not in stderr


def wait_for_id(messages, id, timeout=30):
    while True:
        message = messages.get(timeout=timeout)
        if message.get("id") == id:
            return message
