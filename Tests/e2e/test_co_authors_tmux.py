"""Co-authors (docs/people.md, "Credit co-authors in a commit message"): in a real
`git commit` with atpad as GIT_EDITOR, typing `Co-authored-by: @jo` and Enter inserts
`Name <email>`, and the commit carries the trailer. A person without an email is shown with
the reason and cannot be picked."""
import os
import shlex
import subprocess

from conftest import IDENTITY, atpad_binary
from test_git_editor import make_repo
from tmux import Session

PEOPLE = [
    {"id": "u1", "name": "John Doe", "handle": "jdoe", "email": "john@example.com"},
    {"id": "u2", "name": "Joan Noemail", "handle": "joan"},
]


def start_commit(tmp_path):
    path, git, people = make_repo(tmp_path, PEOPLE)
    editor = " ".join(shlex.quote(a) for a in [atpad_binary(), "-d", people])
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


def test_with_the_github_preset_the_trailer_carries_the_no_reply_address(tmp_path):
    """The github preset's cached list gives everyone GitHub's `ID+login@users.noreply.github.com`."""
    from test_cli_presets import USERS_LINES, calls, stand_in, teams_list_call, users_list_call
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    users = users_list_call("octo", "hello-world")
    stand_in(bin_dir, "gh", [[users, USERS_LINES], [teams_list_call("octo"), ""]])
    path = tmp_path / "repo"
    path.mkdir()
    env = {**os.environ, **IDENTITY}
    subprocess.run(["git", "init", "-q"], cwd=path, check=True, env=env)
    (path / "a.txt").write_text("a\n")
    subprocess.run(["git", "add", "a.txt"], cwd=path, check=True, env=env)
    editor = " ".join(shlex.quote(a) for a in [atpad_binary(), "--preset", "github"])
    s = Session("git commit", env={**IDENTITY, "GIT_EDITOR": editor, "ATPAD_GITHUB_REPO": "octo/hello-world",
                                   "PATH": f"{bin_dir}:{os.environ['PATH']}",
                                   "XDG_CACHE_HOME": str(tmp_path / "cache")}, cwd=str(path))
    try:
        s.wait_for("COMMIT_EDITMSG")
        s.type("Pair on the parser")
        s.keys("Enter")
        s.keys("Enter")
        s.type("Co-authored-by: @octoc")
        s.wait_for("The Octocat  @octocat · 583231+octocat@users.noreply.gi")
        s.keys("Enter")
        s.wait_for("Co-authored-by: The Octocat <583231+octocat@users.noreply.github.com>")
        s.keys("C-s")
        s.wait_for("Saved")
        s.keys("C-q")
        assert s.exit_status() == 0
    finally:
        s.close()
    trailers = subprocess.run(["git", "log", "-1", "--format=%(trailers:key=Co-authored-by)"], cwd=path,
                              capture_output=True, text=True, env=env).stdout
    assert trailers.strip() == "Co-authored-by: The Octocat <583231+octocat@users.noreply.github.com>"
    # (The preset also asks gh for the branch's pull request, whose people rank first.)
    assert [c for c in calls(bin_dir, "gh") if c[:2] != ["pr", "view"]][0] == users


def test_every_person_trailer_and_alt_o_signs_off_as_git_commit_s(tmp_path):
    """docs/git.md: `Reviewed-by: @jo` and a trailer of the config's own inserts
    `Name <email>`; Alt-O adds git's `Signed-off-by:` after them, once; `git log` reads
    each trailer."""
    path, git, people = make_repo(tmp_path, PEOPLE)
    config = tmp_path / "config.toml"
    config.write_text('[git]\nperson_trailers = ["Mentored-by"]\n')
    editor = " ".join(shlex.quote(a) for a in [atpad_binary(), "-d", people, "--config", str(config)])
    s = Session("git commit", env={**IDENTITY, "GIT_EDITOR": editor}, cwd=str(path))
    try:
        s.wait_for("COMMIT_EDITMSG")
        s.type("Fix the parser")
        s.keys("Enter")
        s.keys("Enter")
        s.type("Reviewed-by: @jo")
        s.wait_for("john@example.com")
        s.keys("Enter")
        s.wait_for("Reviewed-by: John Doe <john@example.com>")
        s.keys("Enter")
        s.type("Mentored-by: @jo")
        s.wait_for("john@example.com")
        s.keys("Enter")
        s.wait_for("Mentored-by: John Doe <john@example.com>")
        s.keys("M-o")
        committer = f"{IDENTITY['GIT_COMMITTER_NAME']} <{IDENTITY['GIT_COMMITTER_EMAIL']}>"
        s.wait_for(f"Signed-off-by: {committer}")
        s.keys("M-o")
        s.wait_for("Already signed off")
        s.keys("C-s")
        s.wait_for("Saved")
        s.keys("C-q")
        assert s.exit_status() == 0
    finally:
        s.close()
    log = git("log", "-1", "--format=%B")
    assert log.stdout.startswith("Fix the parser\n\nReviewed-by: John Doe <john@example.com>\n"
                                 "Mentored-by: John Doe <john@example.com>\n"
                                 f"Signed-off-by: {committer}\n"), log.stdout
    trailers = git("log", "-1", "--format=%(trailers:key=Signed-off-by,valueonly)")
    assert trailers.stdout.strip() == committer
    reviewed = git("log", "-1", "--format=%(trailers:key=Reviewed-by,valueonly)")
    assert reviewed.stdout.strip() == "John Doe <john@example.com>"
