"""Co-authors (SPEC §16): in a real `git commit` with atpad as GIT_EDITOR, typing
`Co-authored-by: @jo` and Enter inserts `Name <email>`, and the commit carries the
trailer. A person without an email is shown with the reason and cannot be picked."""
import json
import os
import shlex
import subprocess

from conftest import atpad_binary
from tmux import Session

IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@x"}
PEOPLE = [
    {"id": "u1", "name": "John Doe", "handle": "jdoe", "email": "john@example.com"},
    {"id": "u2", "name": "Joan Noemail", "handle": "joan"},
]


def start_commit(tmp_path):
    path = tmp_path / "repo"
    path.mkdir()

    def git(*args):
        return subprocess.run(["git", *args], cwd=path, capture_output=True, text=True, env={**os.environ, **IDENTITY})
    git("init", "-q")
    (path / "a.txt").write_text("a\n")
    git("add", "a.txt")
    people = tmp_path / "people.json"
    people.write_text(json.dumps(PEOPLE))
    editor = " ".join(shlex.quote(a) for a in [atpad_binary(), "-d", str(people)])
    session = Session("git commit", env={**IDENTITY, "GIT_EDITOR": editor}, cwd=str(path))
    session.wait_for("COMMIT_EDITMSG")
    return session, git


def test_co_authored_by_inserts_name_and_email_and_the_commit_carries_the_trailer(tmp_path):
    s, git = start_commit(tmp_path)
    try:
        s.type("Fix the parser")
        s.keys("Enter")
        s.keys("Enter")
        s.type("Co-authored-by: @jo")
        s.wait_for("john@example.com")
        s.wait_for("no email address")
        # Joan has no email: Enter on her changes nothing.
        s.keys("Down")
        s.keys("Enter")
        s.wait_for("Co-authored-by: @jo")
        s.keys("Up")
        s.keys("Enter")
        s.wait_for("Co-authored-by: John Doe <john@example.com>")
        s.keys("C-s")
        s.wait_for("Saved")
        s.keys("C-q")
        assert s.exit_status() == 0
    finally:
        s.close()
    log = git("log", "-1", "--format=%B")
    assert log.stdout.startswith("Fix the parser\n\nCo-authored-by: John Doe <john@example.com>\n"), log.stdout
    trailers = git("log", "-1", "--format=%(trailers:key=Co-authored-by)")
    assert trailers.stdout.strip() == "Co-authored-by: John Doe <john@example.com>"
