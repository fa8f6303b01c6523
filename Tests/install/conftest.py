"""Shared helpers for the install tests: they install the static release build made by
`scripts/test-install` (scripts/install --no-build) and run it from folders with no
build directory in sight."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))  # the tmux harness

VERSION_LINE = r"^atpad \d+\.\d+\.\d+ \(commit [0-9a-f]{7,}(-modified)?\)$"


def clean_env(tmp_path, **extra):
    """An environment with no trace of the source tree: a fresh HOME and XDG folders."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ATPAD_", "SWIFT"))}
    env.update(HOME=str(tmp_path / "home"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_STATE_HOME=str(tmp_path / "state"), LC_ALL="C.UTF-8")
    env.update(extra)
    return env


def run(argv, **kwargs):
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, **kwargs)


@pytest.fixture
def install(tmp_path):
    """Installs atpad under a prefix in tmp_path and returns the prefix."""
    def go(name="prefix"):
        prefix = tmp_path / name
        proc = run([str(ROOT / "scripts" / "install"), "--no-build", "--prefix", str(prefix)])
        assert proc.returncode == 0, proc.stderr
        return prefix
    return go


@pytest.fixture
def elsewhere(tmp_path):
    """An empty working folder outside the source tree."""
    folder = tmp_path / "work"
    folder.mkdir()
    return folder
