"""git's files as git reads them (docs/git.md), in real `git commit -v`, `git commit` with
`core.commentChar = ";"` and `git rebase -i` sessions with atpad as git's editor: git's
comment lines and the diff under the scissors are drawn as comments and a diff, open no
chooser and come back byte for byte; the subject's length shows; a rebase list is drawn
in its three parts and saved unchanged."""
import shlex

from conftest import IDENTITY, atpad_binary, wait_until
from test_git_editor import make_repo
from tmux import Session

PEOPLE = [{"id": "u1", "name": "John Doe", "handle": "jdoe", "email": "john@example.com"},
          {"id": "u2", "name": "Johnny Cash", "handle": "jcash"}]
SCISSORS = "------------------------ >8 ------------------------"


def undo_until(s, done):
    """Ctrl-Z (an undo step is a word or so) until `done(screen)`."""
    for _ in range(8):
        if wait_until(lambda: done(s.screen()), timeout=1):
            return
        s.keys("C-z")
    assert done(s.screen()), s.screen()


def opens_no_chooser(s, typed, shown):
    """Types `typed` (ending in ` Zed `, a word no one is called), waits for `shown`, checks
    that no chooser opened, and undoes the typing."""
    s.type(typed)
    s.wait_for(shown)
    assert "┌" not in s.screen(), s.screen()
    undo_until(s, lambda sc: "Zed" not in sc)


def save_and_quit(s):
    """Ctrl-S, then Ctrl-Q: git goes on with what was saved."""
    s.keys("C-s")
    s.wait_for("Saved")
    s.keys("C-q")
    assert s.exit_status() == 0


def editor_command(people, *extra):
    return " ".join(shlex.quote(a) for a in [atpad_binary(), "-d", people, *extra])


def test_git_commit_v_keeps_the_diff_as_gits_and_the_message_as_github_text(tmp_path):
    path, git, people = make_repo(tmp_path, PEOPLE)
    (path / "a.c").write_text("#include <x.h>\n// ask @jdoe or John Doe\n")
    git("add", "a.c")
    s = Session("git commit -v", env={**IDENTITY, "GIT_EDITOR": editor_command(people)}, cwd=str(path),
                height=30)
    try:
        s.wait_for(SCISSORS)
        s.wait_for("ask @jdoe or John Doe")
        written = (path / ".git" / "COMMIT_EDITMSG").read_bytes()
        cut = written.index(b"# " + SCISSORS.encode())
        # git's help and the scissors in the comment role (grey), the diff as a diff.
        assert "90" in s.style_at("# Please enter the commit message")
        assert "90" in s.style_at("# " + SCISSORS)
        assert "32" in s.style_at("+#include <x.h>")
        assert "1" in s.style_at("diff --git a/a.c")
        # `@` and a name in a diff line open no chooser.
        s.keys("C-End")
        s.keys("Up")
        s.keys("Home")
        s.type("@jo ")
        s.type("johnny ")
        s.type("Zed ")
        s.wait_for("@jo johnny Zed +a")
        assert "┌" not in s.screen() and "Johnny Cash" not in s.screen(), s.screen()
        undo_until(s, lambda sc: "+a" in sc.split("\n") and "Zed" not in sc)
        # Nor on a comment line.
        s.keys("C-Home")
        s.keys("Down")
        s.keys("Down")
        s.keys("Right")
        opens_no_chooser(s, "@jo Zed ", "#@jo Zed  with")
        # The message is GitHub text with mentions.
        s.keys("C-Home")
        s.type("Thanks @jo")
        s.wait_for("┌")
        s.keys("Enter")
        s.wait_for("Thanks @jdoe")
        s.keys("C-s")
        s.wait_for("Saved")
        saved = (path / ".git" / "COMMIT_EDITMSG").read_bytes()
        assert saved[saved.index(b"# " + SCISSORS.encode()):] == written[cut:]
        s.keys("C-q")
        assert s.exit_status() == 0
    finally:
        s.close()
    assert git("log", "-1", "--format=%B").stdout.rstrip("\n") == "Thanks @jdoe"


def test_alt_o_signs_off_above_the_scissors(tmp_path):
    path, git, people = make_repo(tmp_path, PEOPLE)
    s = Session("git commit -v", env={**IDENTITY, "GIT_EDITOR": editor_command(people)}, cwd=str(path), height=30)
    try:
        s.wait_for(SCISSORS)
        s.type("Fix it")
        s.keys("M-o")
        s.wait_for("Signed-off-by: t <t@x>")
        save_and_quit(s)
    finally:
        s.close()
    assert git("log", "-1", "--format=%B").stdout.rstrip("\n") == "Fix it\n\nSigned-off-by: t <t@x>"
    assert git("log", "-1", "--format=%(trailers:key=Signed-off-by,valueonly)").stdout.strip() == "t <t@x>"


def test_core_comment_char_decides_which_lines_are_gits(tmp_path):
    path, git, people = make_repo(tmp_path, PEOPLE)
    git("config", "core.commentChar", ";")
    s = Session("git commit", env={**IDENTITY, "GIT_EDITOR": editor_command(people)}, cwd=str(path))
    try:
        s.wait_for("; Please enter the commit message")
        assert "90" in s.style_at("; Please enter")
        # A `@` on a `;` line opens no chooser…
        s.keys("Down")
        s.keys("End")
        opens_no_chooser(s, " @jo Zed ", "starting @jo Zed")
        # …and a `#` line is the message's own Markdown: a heading, where `@` searches.
        s.keys("C-Home")
        s.type("Fix")
        s.keys("Enter")
        s.keys("Enter")
        s.type("# Notes for @jo")
        s.wait_for("┌")
        s.keys("Enter")
        s.wait_for("# Notes for @jdoe")
        assert "33" in s.style_at("# Notes for")
        save_and_quit(s)
    finally:
        s.close()
    assert git("log", "-1", "--format=%B").stdout.rstrip("\n") == "Fix\n\n# Notes for @jdoe"


def test_the_subject_length_shows_and_past_the_limit_is_marked(tmp_path):
    path, git, people = make_repo(tmp_path, PEOPLE)
    s = Session("git commit", env={**IDENTITY, "GIT_EDITOR": editor_command(people, "--implicit", "0")},
                cwd=str(path))
    try:
        s.wait_for("COMMIT_EDITMSG")
        s.wait_for("0/50")
        subject = "Make the parser read every kind of heading it meets"  # 51 characters
        s.type(subject)
        s.wait_for("51/50")
        # The 51st character in commit.overflow (red); the 50th as text.
        assert "31" in s.style_at(50, within=subject) and "31" not in s.style_at(49, within=subject)
        assert "31" not in s.style_at(subject[:10])
        s.keys("Enter")
        s.type("second")
        s.wait_for("second")
        assert {"4", "33"} <= set(s.style_at("second"))
        s.keys("C-q")
        s.wait_for("(y)es")
        s.keys("n")
        assert s.exit_status() != 0
    finally:
        s.close()


def test_git_rebase_i_list_is_drawn_as_a_list_and_saved_unchanged(tmp_path):
    path, git, people = make_repo(tmp_path, PEOPLE)
    git("commit", "-q", "-m", "First")
    for name in ("b", "c"):
        (path / f"{name}.txt").write_text(name)
        git("add", f"{name}.txt")
        git("commit", "-q", "-m", f"Add {name} for @jdoe")
    head = git("rev-parse", "HEAD").stdout
    s = Session("git rebase -i HEAD~2", env={**IDENTITY, "GIT_EDITOR": editor_command(people)}, cwd=str(path))
    try:
        s.wait_for("git-rebase-todo")
        s.wait_for("Add c for @jdoe")
        todo = path / ".git" / "rebase-merge" / "git-rebase-todo"
        written = todo.read_bytes()
        short = next(l for l in s.lines() if "Add b for" in l).split()[1]
        assert {"1", "33"} <= set(s.style_at("pick " + short, within="Add b for"))
        assert "34" in s.style_at(short, within="Add b for")
        assert "1" in s.style_at("Add b for @jdoe")
        assert "90" in s.style_at("# Commands:")
        # Nothing is a mention in a rebase list.
        assert "0 mentions" in s.screen()
        s.keys("C-s")
        s.wait_for("Saved")
        assert todo.read_bytes() == written
        s.keys("C-q")
        assert s.exit_status() == 0
    finally:
        s.close()
    assert wait_until(lambda: git("rev-parse", "HEAD").stdout == head)
