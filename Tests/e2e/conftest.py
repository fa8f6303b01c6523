"""Shared helpers for the end-to-end tests: they run the real, built atpad binary."""
import faulthandler
import json
import os
import subprocess
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def atpad_binary() -> str:
    explicit = os.environ.get("ATPAD_BIN")
    if explicit:
        return explicit
    return str(ROOT / ".build" / "debug" / "atpad")


@pytest.fixture(scope="session")
def atpad():
    path = atpad_binary()
    if not os.path.exists(path):
        pytest.fail(f"{path} is missing: run `swift build` first (or set ATPAD_BIN)")

    def run(*args, check_exit=None, input=None, env=None, cwd=None):
        full_env = dict(os.environ)
        full_env.update(env or {})
        proc = subprocess.run([path, *args], capture_output=True, text=True, input=input,
                              env=full_env, cwd=cwd, timeout=60)
        if check_exit is not None:
            assert proc.returncode == check_exit, (proc.returncode, proc.stdout, proc.stderr)
        return proc

    return run


@pytest.fixture
def replay(atpad):
    """Runs `atpad replay ARGS` and returns its parsed JSON (asserting exit 0)."""
    def run(*args):
        proc = atpad("replay", *args, check_exit=0)
        return json.loads(proc.stdout)
    return run


@pytest.fixture
def people(tmp_path):
    """Writes a small directory file and returns its path."""
    def write(entries, name="people.json"):
        path = tmp_path / name
        path.write_text(json.dumps(entries, ensure_ascii=False))
        return str(path)
    return write


# A test that hangs — in its body or in a fixture's teardown, where pytest's own timers
# are cancelled once the test has failed — ends the run with every thread's stack in
# HANG_REPORT (printed by scripts/test), rather than running into CI's time limit.
TEST_LIMIT = float(os.environ.get("ATPAD_TEST_LIMIT", "300"))
HANG_REPORT = ROOT / ".build" / "e2e-hang.txt"


@pytest.fixture(autouse=True)
def watchdog(request):
    """Set up before every other fixture of a test and torn down after them all."""
    ended = threading.Event()

    def bite():
        if ended.wait(TEST_LIMIT):
            return
        HANG_REPORT.parent.mkdir(exist_ok=True)
        with open(HANG_REPORT, "w") as report:
            report.write(f"{request.node.nodeid} did not end within {TEST_LIMIT:.0f} s; the stacks:\n")
            report.flush()
            faulthandler.dump_traceback(file=report, all_threads=True)
        os._exit(1)

    threading.Thread(target=bite, name="watchdog", daemon=True).start()
    yield
    ended.set()


@pytest.fixture(autouse=True)
def isolated_state(tmp_path, monkeypatch):
    """No test reads or writes the person's own config, frecency, drafts or indexes."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg-state"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    # URL sources honour proxies (libcurl): a machine's proxy must not take the local servers.
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")


@pytest.fixture
def services():
    """Local HTTP services on 127.0.0.1 (services.py), stopped after the test."""
    from services import Services
    running = Services()
    yield running
    running.stop()
