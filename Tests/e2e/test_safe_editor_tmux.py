"""A safe $EDITOR for any file (issue 22), with the real binary in tmux and the bytes on
disk checked: no byte changes that the person did not make, whatever the file holds."""
import os
import shlex
import subprocess

import pytest

from conftest import IDENTITY, atpad_binary


def shows(screen, text):
    """Whether `text` is on the screen, whatever rows it wraps over."""
    return "".join(text.split()) in "".join(screen.split())


def commit(path, message):
    """Commits what is staged in `path` with `message` exactly as given (no editor)."""
    subprocess.run(["git", "commit", "-q", "-F", "-"], input=message.encode(), cwd=path,
                   env={**os.environ, **IDENTITY}, check=True)


def test_git_add_p_edit_keeps_every_backslash(repo, git_session):
    """`git add -p`, `e` on a hunk adding `const char *s = "a\\n";`, delete an unrelated
    line, save: the staged line is the working tree's, byte for byte."""
    path, git, _ = repo
    (path / "a.c").write_text("int x;\n")
    git("add", "a.c")
    git("commit", "-q", "-m", "first")
    line = 'const char *s = "a\\\\n"; /* C:\\\\Users\\\\me foo@[bar](baz) @jdoe */'
    (path / "a.c").write_text(f"int x;\n{line}\nint unrelated = 1;\n")
    s = git_session("git add -p")
    s.wait_for("Stage this hunk")
    s.type("e")
    s.keys("Enter")
    s.wait_for("addp-hunk-edit.diff")
    s.wait_for("int unrelated")
    s.keys("C-f")
    s.type("int unrelated")
    s.keys("Enter")
    s.wait_for(lambda sc: "Find:" not in sc, what="the find to close")
    s.keys("Home")
    s.keys("C-k")  # the line's text
    s.keys("C-k")  # its line break
    s.wait_for(lambda sc: "int unrelated" not in sc, what="the line to go")
    s.keys("C-s")
    s.wait_for("Saved addp-hunk-edit.diff")
    s.keys("C-q")
    assert s.exit_status() == 0
    staged = git("diff", "--cached").stdout.decode()
    assert f"+{line}\n" in staged, staged
    assert "unrelated" not in staged
    assert git("show", ":a.c").stdout.decode() == f"int x;\n{line}\n"


def test_a_commit_message_with_backslashes_keeps_them(repo, git_session):
    """A squash or amend message holding backslashes and markup-looking text: one word
    typed elsewhere changes only that word."""
    path, git, _ = repo
    (path / "a.txt").write_text("a\n")
    git("add", "a.txt")
    message = 'Fix "C:\\\\Users\\\\me" and /\\\\d+/ in foo@[bar](baz)\n\nSee \\@[x] and \\\\ too.\n'
    commit(path, message)
    s = git_session("git commit --amend")
    s.wait_for("COMMIT_EDITMSG")
    s.wait_for("Fix")
    s.keys("End")
    s.type(" now")
    s.keys("C-s")
    s.wait_for("Saved COMMIT_EDITMSG")
    s.keys("C-q")
    assert s.exit_status() == 0
    got = git("log", "-1", "--format=%B").stdout.decode()
    assert got.rstrip("\n") == message.replace("baz)\n", "baz) now\n", 1).rstrip("\n")


def test_a_markdown_code_block_keeps_its_backslashes(sessions, tmp_path):
    path = tmp_path / "notes.md"
    original = ('# Paths\n\nSome text here.\n\n```js\nconst p = "C:\\\\Users\\\\me";\nconst r = /\\\\d+/;\n'
                'a\\\\b foo@[bar](baz) \\@[ \\\\@[x](y)\n```\n')
    path.write_bytes(original.encode())
    s = sessions([str(path), "--implicit", "0"])
    s.wait_for("Some text here.")
    s.keys("Down", "Down", "End")
    s.type(" More")
    s.wait_for("here. More")
    s.keys("C-s")
    s.wait_for("Saved notes.md")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert path.read_bytes() == original.replace("here.", "here. More", 1).encode()


def test_formats_come_from_the_name_and_the_config(sessions, tmp_path, people):
    directory = people([{"id": "U1", "name": "Ana Lima", "handle": "ana"}])
    config = tmp_path / "xdg-config" / "atpad"
    config.mkdir(parents=True)
    (config / "config.toml").write_text('[formats]\n"*.slack" = "slack"\n')
    chat = tmp_path / "standup.slack"
    chat.write_bytes(b"hi <@U1> &amp; <!here>")
    markup = tmp_path / "c.atpad"
    markup.write_bytes(b"hi @[Ana Lima](U1)")
    for path, expected in [(chat, b"hi <@U1> &amp; <!here> ok"), (markup, b"hi @[Ana Lima](U1) ok")]:
        s = sessions([str(path), "-d", directory, "--implicit", "0"])
        s.wait_for("1 mention")  # read as a mention in both formats
        s.keys("C-End")
        s.type(" ok")
        s.keys("C-s")
        s.wait_for("Saved")
        s.keys("C-q")
        assert s.exit_status() == 0
        assert path.read_bytes() == expected


def test_a_file_that_is_not_utf8_opens_and_keeps_its_bytes(sessions, tmp_path):
    path = tmp_path / "latin.txt"
    original = b"caf\xe9 au lait\nna\xefve \xff\xfe end\n"
    path.write_bytes(original)
    s = sessions([str(path), "--implicit", "0"])
    screen = s.wait_for("caf\\xE9 au lait")
    assert "na\\xEFve \\xFF\\xFE end" in screen
    s.wait_for("4 bytes that are not UTF-8 kept as they were (shown as \\xNN)")
    # The escape is one character to the cursor: Right from the start crosses it at once.
    for _ in range(4):
        s.keys("Right")
    s.type("!")
    s.wait_for("caf\\xE9! au lait")
    s.keys("C-s")
    s.wait_for("Saved latin.txt")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert path.read_bytes() == original.replace(b"\xe9 au", b"\xe9! au")


def test_git_commit_v_with_a_latin1_diff(repo, git_session):
    """`git commit -v` shows the diff of a Latin-1 file below the message: atpad opens
    it, and the message is exactly what was typed."""
    path, git, _ = repo
    (path / "latin.txt").write_bytes(b"caf\xe9\n")
    git("add", "latin.txt")
    s = git_session("git commit -v")
    s.wait_for("COMMIT_EDITMSG")
    s.wait_for("caf\\xE9")
    s.type("Add the caf\u00e9 file")
    s.keys("C-s")
    s.wait_for("Saved COMMIT_EDITMSG")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert git("log", "-1", "--format=%B").stdout == "Add the café file\n\n".encode()
    assert git("show", "HEAD:latin.txt").stdout == b"caf\xe9\n"


def refused_before_the_screen(atpad, path):
    """atpad on `path` exits 2 with one line, at once (a FIFO must not block)."""
    proc = subprocess.run([atpad_binary(), str(path)], capture_output=True, timeout=20,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 2, proc
    lines = proc.stderr.decode().splitlines()
    assert len(lines) == 1 and "not a regular file: atpad edits only regular files" in lines[0], lines
    assert proc.stdout == b""


def test_a_fifo_a_device_and_a_socket_are_refused(atpad, tmp_path):
    import socket
    import stat
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    refused_before_the_screen(atpad, fifo)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    sock_path = tmp_path / "s"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(sock_path))
    try:
        refused_before_the_screen(atpad, sock_path)
    finally:
        sock.close()
    refused_before_the_screen(atpad, "/dev/null")
    if os.geteuid() == 0:
        fake = tmp_path / "fakenull"
        subprocess.run(["mknod", str(fake), "c", "1", "3"], check=True)
        refused_before_the_screen(atpad, fake)
        assert stat.S_ISCHR(os.stat(fake).st_mode), "still the device"


def test_a_fifo_in_a_terminal_does_not_block(sessions, tmp_path):
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    s = sessions([str(fifo)], ready=False)
    assert s.exit_status() == 2
    assert shows(s.screen(), "is a FIFO, not a regular file: atpad edits only regular files")


def test_a_file_that_becomes_a_device_or_fifo_while_open_is_not_replaced(sessions, tmp_path):
    import stat
    kinds = [("fifo", lambda p: os.mkfifo(p), stat.S_ISFIFO, "a FIFO")]
    if os.geteuid() == 0:
        kinds.append(("device", lambda p: subprocess.run(["mknod", str(p), "c", "1", "3"], check=True), stat.S_ISCHR,
                      "a device"))
    for name, make, check, shown in kinds:
        path = tmp_path / f"{name}.md"
        path.write_text("text\n")
        s = sessions([str(path), "--implicit", "0"])
        s.wait_for("text")
        s.type("x")
        path.unlink()
        make(path)
        s.keys("C-s")
        s.wait_for(lambda sc: shows(sc, f"{name}.md is {shown}, not a regular file: atpad replaces only regular files; "
                                        "not saved"), what="the refusal")
        assert check(os.stat(path).st_mode), f"{name} replaced"
        # The text is still there, unsaved: Save as puts it elsewhere.
        s.keys("M-s")
        s.wait_for("Save as:")
        s.keys("C-u")
        s.type(str(tmp_path / f"{name}-copy.md"))
        s.keys("Enter")
        s.wait_for(f"Saved {name}-copy.md")
        s.keys("C-q")
        assert s.exit_status() == 0
        assert (tmp_path / f"{name}-copy.md").read_text() == "xtext\n"
        assert check(os.stat(path).st_mode)


def test_a_file_deleted_while_open(sessions, tmp_path):
    """The question says it was deleted; r reloads nothing; k keeps the text, and Ctrl-Q
    still asks about it; s writes the file again."""
    for answer in ["k", "s"]:
        path = tmp_path / f"{answer}.md"
        path.write_text("keep me\n")
        s = sessions([str(path), "--implicit", "0"])
        s.wait_for("keep me")
        s.type("x")
        path.unlink()
        s.keys("C-s")
        s.wait_for(f"{answer}.md was deleted: (s)ave it again (k)eep editing")
        s.type("r")  # not offered: nothing happens
        s.type(answer)
        if answer == "k":
            s.wait_for(lambda sc: "stays deleted" in sc and "xkeep me" in sc, what="the text kept")
            s.keys("C-q")
            s.wait_for("Save changes before quitting?")
            s.type("n")
            assert s.exit_status() == 1
            assert not path.exists()
        else:
            s.wait_for(f"Saved {answer}.md")
            s.keys("C-q")
            assert s.exit_status() == 0
            assert path.read_text() == "xkeep me\n"


@pytest.fixture
def full_state_folder(tmp_path):
    """A state folder on a small tmpfs filled to the last block, with the locks folder
    made before it filled; skipped where mounting is not permitted."""
    folder = tmp_path / "full-state"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        (folder / "atpad" / "locks").mkdir(parents=True)
        (folder / "atpad" / "drafts").mkdir(parents=True)
        subprocess.run(["dd", "if=/dev/zero", f"of={folder}/filler", "bs=4k"], capture_output=True)
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)


def test_a_lock_that_cannot_be_written_is_said_and_leaves_nothing(sessions, tmp_path, full_state_folder):
    path = tmp_path / "c.md"
    path.write_text("text\n")
    s = sessions([str(path), "--implicit", "0"], env={"XDG_STATE_HOME": str(full_state_folder)})
    # A long temporary path may cut the end of the note (three rows at most).
    s.wait_for(lambda sc: shows(sc, "The lock of") and shows(sc, "c.md could not be written (No space left on device)"),
               what="the lock's note")
    assert os.listdir(full_state_folder / "atpad" / "locks") == [], "no empty lock, no temporary file"
    s.keys("C-q")
    assert s.exit_status() == 0


def test_a_lock_that_cannot_be_read_still_warns(sessions, tmp_path):
    path = tmp_path / "c.md"
    path.write_text("text\n")
    state = tmp_path / "xdg-state"
    first = sessions([str(path), "--implicit", "0"])
    first.wait_for("text")
    locks = list((state / "atpad" / "locks").iterdir())
    assert len(locks) == 1 and locks[0].read_text().endswith("\n")
    locks[0].write_bytes(b"")  # what a full disk left before locks were written whole
    second = sessions([str(path), "--implicit", "0"])
    second.wait_for(lambda sc: shows(sc, "c.md may be open in another atpad: its lock cannot be read"),
                    what="the warning")
    assert "[read-only]" in second.screen()
    second.keys("C-q")
    assert second.exit_status() == 0
    assert locks[0].exists() and locks[0].read_bytes() == b"", "not taken over"


def test_print_with_an_unchanged_file_prints_it(sessions, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(b"notes \\\\ @[x](y) caf\xe9\n")
    out = tmp_path / "out"
    s = sessions([str(path), "--print"], redirect=f" > {shlex.quote(str(out))}")
    s.wait_for("notes")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert out.read_bytes() == path.read_bytes()
    # In -f's format.
    s = sessions([str(path), "--print", "-f", "plain"], redirect=f" > {shlex.quote(str(out))}")
    s.wait_for("notes")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert out.read_bytes() == path.read_bytes()


def test_a_rebase_squash_message_keeps_its_backslashes(repo, git_session):
    """`git rebase -i` with atpad as the editor of the todo list and of the squash message:
    `pick` becomes `squash` in the todo, one word is typed in the message, and every
    backslash of both messages is still there."""
    path, git, _ = repo
    first = 'Parse "C:\\\\Users\\\\me" paths\n\nThe pattern is /\\\\d+/ and \\@[x] stays.\n'
    second = "Fix a\\\\b in foo@[bar](baz)\n"
    for name, message in [("a.txt", "base\n"), ("b.txt", first), ("c.txt", second)]:
        (path / name).write_text(name)
        git("add", name)
        commit(path, message)
    s = git_session("git rebase -i HEAD~2")
    s.wait_for("git-rebase-todo")
    s.wait_for("Fix a")
    s.keys("Down")
    s.keys("Home")
    for _ in range(4):
        s.keys("Delete")
    s.type("squash")
    s.wait_for(lambda sc: "squash " in sc, what="the squash")
    s.keys("C-s")
    s.wait_for("Saved git-rebase-todo")
    s.keys("C-q")
    s.wait_for("COMMIT_EDITMSG")
    s.wait_for("This is a combination of 2 commits")
    s.keys("C-f")
    s.type("paths")
    s.keys("Enter")
    s.wait_for(lambda sc: "Find:" not in sc, what="the find to close")
    s.keys("End")
    s.type(" now")
    s.keys("C-s")
    s.wait_for("Saved COMMIT_EDITMSG")
    s.keys("C-q")
    assert s.exit_status() == 0
    message = git("log", "-1", "--format=%B").stdout.decode()
    assert message.startswith('Parse "C:\\\\Users\\\\me" paths now\n\nThe pattern is /\\\\d+/ and \\@[x] stays.\n'), message
    assert "Fix a\\\\b in foo@[bar](baz)" in message
    assert git("rev-list", "--count", "HEAD").stdout.strip() == b"2"
