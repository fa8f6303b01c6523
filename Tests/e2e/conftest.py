"""Shared helpers for the end-to-end tests: they run the real, built atpad binary."""
import faulthandler
import json
import os
import shlex
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tmux import Session

ROOT = Path(__file__).resolve().parents[2]

# The people of the `directory` fixture (a file that needs others defines its own `directory`).
PEOPLE = [
    {"id": "u1", "name": "John Doe", "handle": "jdoe", "detail": "iOS engineer"},
    {"id": "u2", "name": "Jane Roe", "handle": "jroe"},
    {"id": "u3", "name": "Johanna Lee"},
    {"id": "u4", "name": "Bruce Wayne", "handle": "batman"},
]

# git's identity for commits made in the tests.
IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@x"}


def wait_until(condition, timeout=10.0, interval=0.02):
    """Polls `condition()` until it is true or `timeout` seconds have passed, and returns its
    last value: the test then asserts what it needs (never a fixed sleep)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(interval)


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
# A test that waits longer on purpose (one that builds atpad) says so with
# `@pytest.mark.time_limit(SECONDS)`.
TEST_LIMIT = float(os.environ.get("ATPAD_TEST_LIMIT", "300"))
HANG_REPORT = ROOT / ".build" / "e2e-hang.txt"


def pytest_configure(config):
    config.addinivalue_line("markers", "time_limit(seconds): the watchdog's limit for this test, when above "
                                       "ATPAD_TEST_LIMIT (a test that waits for a build)")


@pytest.fixture(autouse=True)
def watchdog(request):
    """Set up before every other fixture of a test and torn down after them all."""
    ended = threading.Event()
    marker = request.node.get_closest_marker("time_limit")
    limit = max(TEST_LIMIT, float(marker.args[0])) if marker else TEST_LIMIT

    def bite():
        if ended.wait(limit):
            return
        HANG_REPORT.parent.mkdir(exist_ok=True)
        with open(HANG_REPORT, "w") as report:
            report.write(f"{request.node.nodeid} did not end within {limit:.0f} s; the stacks:\n")
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
def home(tmp_path):
    """A home of its own for spelling: no config, and a personal word list only if the
    test writes one (`home / ".config/atpad/words"`)."""
    path = tmp_path / "home"
    (path / ".config" / "atpad").mkdir(parents=True)
    return path


@pytest.fixture
def services():
    """Local HTTP services on 127.0.0.1 (services.py), stopped after the test."""
    from services import Services
    running = Services()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def synapse(tmp_path_factory):
    """A real Matrix homeserver (matrix_homeserver.py): Synapse on 127.0.0.1, started once
    for the session and stopped after it, with alice, bob and carol registered:
    `synapse.users["bob"]` is (user id, access token). Synapse missing or not starting
    fails the tests that need it (never a skip): CI proves the real server works."""
    from matrix_homeserver import Synapse, SynapseError
    try:
        server = Synapse(tmp_path_factory.mktemp("synapse"))
        server.start(timeout=float(os.environ.get("ATPAD_SYNAPSE_START_TIMEOUT", "120")))
    except SynapseError as error:
        pytest.fail(f"the Matrix tests need a running Synapse: {error}", pytrace=False)
    try:
        server.users = {name: server.register(name, displayname=display)
                        for name, display in [("alice", "Alice Archer"), ("bob", "Bob Baker"), ("carol", "Carol Chen")]}
    except (SynapseError, OSError) as error:
        server.stop()
        pytest.fail(f"Synapse started but registering users failed: {error}\n{server.last_words()}", pytrace=False)
    yield server
    server.stop()


@pytest.fixture
def directory(tmp_path):
    """A directory file of PEOPLE; returns its path."""
    path = tmp_path / "people.json"
    path.write_text(json.dumps(PEOPLE))
    return str(path)


def first_frame(screen):
    return "atpad" in screen or "small" in screen


@pytest.fixture
def sessions():
    """Starts atpad ARGS in tmux (tmux.Session), closed after the test.

    `ready` is what to wait for before returning, so that keys are not typed before atpad
    owns the terminal (they would meet a cooked tty): the first frame (True), some text, a
    predicate on the screen, or nothing (False)."""
    opened = []

    def start(args, width=80, height=24, env=None, cwd=None, redirect="", ready=True, term=None):
        command = " ".join(shlex.quote(a) for a in [atpad_binary(), *args]) + redirect
        s = Session(command, width=width, height=height, env=env, cwd=cwd, term=term)
        opened.append(s)
        if ready:
            s.wait_for(first_frame if ready is True else ready, what="the first frame")
        return s

    yield start
    for s in opened:
        s.close()


def popup_open(screen):
    return "┌" in screen


@pytest.fixture
def repo(tmp_path):
    """An empty git repository with a directory file beside it: (path, git runner, directory path)."""
    path = tmp_path / "repo"
    path.mkdir()

    def git(*args, env=None):
        return subprocess.run(["git", *args], cwd=path, capture_output=True, env={**os.environ, **IDENTITY, **(env or {})})
    git("init", "-q")
    git("config", "core.autocrlf", "false")
    people = tmp_path / "people.json"
    people.write_text(json.dumps([{"id": "u1", "name": "John Doe", "handle": "jdoe"},
                                  {"id": "u2", "name": "Baz Q", "handle": "baz"}]))
    return path, git, str(people)


@pytest.fixture
def git_session(repo):
    """A git command in tmux with atpad (no -f: the format comes from the file's name) as
    its editor."""
    opened = []

    def start(command, *extra):
        path, _, people = repo
        editor = " ".join(shlex.quote(a) for a in [atpad_binary(), "-d", people, "--implicit", "0", *extra])
        s = Session(command, env={**IDENTITY, "GIT_EDITOR": editor}, cwd=str(path))
        opened.append(s)
        return s

    yield start
    for s in opened:
        s.close()
