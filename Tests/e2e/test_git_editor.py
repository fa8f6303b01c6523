"""The editor contract (issues 5 and 32): atpad as GIT_EDITOR. Save and quit → 0 and git
uses the message; save, type more, quit giving that up → 0 and git uses the saved
message; quit without ever saving → 1 and git aborts."""
import json
import os
import shlex
import subprocess

import pytest

from conftest import IDENTITY, atpad_binary
from tmux import Session


def make_repo(tmp_path, people):
    """A git repository with one staged file, a `git` runner in it and a directory file of
    `people` beside it: (path, git, directory path)."""
    path = tmp_path / "repo"
    path.mkdir()

    def git(*args):
        return subprocess.run(["git", *args], cwd=path, capture_output=True, text=True, env={**os.environ, **IDENTITY})
    git("init", "-q")
    (path / "a.txt").write_text("a\n")
    git("add", "a.txt")
    directory = tmp_path / "people.json"
    directory.write_text(json.dumps(people))
    return path, git, str(directory)


@pytest.fixture
def repo(tmp_path):
    """Here a repository with a file staged (conftest's `repo` has none)."""
    return make_repo(tmp_path, [{"id": "u1", "name": "John Doe", "handle": "jdoe"}])


@pytest.fixture
def commit(repo):
    """`git commit` running in tmux with atpad (github format) as its editor."""
    opened = []

    def start():
        path, _, people = repo
        editor = " ".join(shlex.quote(a) for a in [atpad_binary(), "-f", "github", "-d", people])
        s = Session("git commit", env={**IDENTITY, "GIT_EDITOR": editor}, cwd=str(path))
        opened.append(s)
        s.wait_for("COMMIT_EDITMSG")
        return s

    yield start
    for s in opened:
        s.close()


def test_save_and_quit_commits_the_message(repo, commit):
    _, git, _ = repo
    s = commit()
    s.type("Fix for @jo")
    s.wait_for("John Doe")
    s.keys("Enter")
    # The message file starts with a newline, so the pick adds no space of its own.
    s.type(" thanks")
    s.keys("C-s")
    s.wait_for("Saved")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert git("log", "-1", "--format=%B").stdout.startswith("Fix for @jdoe thanks")


def test_save_then_quit_giving_up_later_changes_commits_the_saved_message(repo, commit):
    """As vim's `:w` then `:q!`: the file holds what was saved, so git goes on with it."""
    path, git, _ = repo
    s = commit()
    s.type("Saved message")
    s.keys("C-s")
    s.wait_for("Saved COMMIT_EDITMSG")
    s.type(" and words given up")
    s.wait_for("Saved message and words given up")
    s.keys("C-q")
    s.wait_for("Save changes")
    s.keys("n")
    assert s.exit_status() == 0
    on_disk = (path / ".git" / "COMMIT_EDITMSG").read_bytes()
    assert on_disk.startswith(b"Saved message\n#"), on_disk
    assert b"given up" not in on_disk
    assert git("log", "-1", "--format=%B").stdout.strip() == "Saved message"


def test_quit_without_saving_aborts_the_commit(repo, commit):
    _, git, _ = repo
    s = commit()
    s.type("never mind")
    s.keys("C-q")
    s.wait_for("Save changes")
    s.keys("n")
    assert s.exit_status() != 0
    assert git("log", "-1").returncode != 0, "no commit was made"


def test_quit_on_an_unchanged_message_lets_amend_go_on(repo):
    """Ctrl-Q with nothing unsaved exits 0 (as vim, nano and micro do), so `git commit
    --amend` keeps the message and makes the new commit instead of aborting."""
    path, git, people = repo
    assert git("commit", "-q", "-m", "first message").returncode == 0
    (path / "b.txt").write_text("b\n")
    git("add", "b.txt")
    editor = " ".join(shlex.quote(a) for a in [atpad_binary(), "-f", "github", "-d", people])
    s = Session("git commit --amend", env={**IDENTITY, "GIT_EDITOR": editor}, cwd=str(path))
    try:
        s.wait_for("COMMIT_EDITMSG")
        s.wait_for("first message")
        s.keys("C-q")
        assert s.exit_status() == 0
    finally:
        s.close()
    assert git("log", "--format=%s").stdout.split("\n")[0] == "first message"
    assert git("rev-list", "--count", "HEAD").stdout.strip() == "1", "amended, not a second commit"
    assert "b.txt" in git("show", "--name-only", "--format=", "HEAD").stdout
