"""The command line of SPEC §8 around the terminal and the drafts: keys from /dev/tty
when stdin is not a terminal, `atpad -` reading the comment from stdin, `atpad: no
terminal`, the `atpad drafts` subcommand, and the unnamed draft offered at start."""
import os
import shlex
import signal
import subprocess
import time

from conftest import atpad_binary
from test_drafts import atpad_pid, drafts_folder
from test_editor_tmux import directory, sessions  # noqa: F401  (fixtures)
from tmux import Session


def test_a_file_with_stdin_from_dev_null_takes_keys_from_the_terminal(sessions, directory, tmp_path):  # noqa: F811
    path = tmp_path / "n.md"
    s = sessions([str(path), "-d", directory, "--implicit", "0"], redirect=" < /dev/null")
    s.type("typed on the tty")
    s.wait_for("typed on the tty")
    s.keys("C-s")
    s.wait_for("Saved")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert path.read_bytes() == b"typed on the tty"


def test_print_with_a_pipe_on_stdin_and_stdout_captured(directory, tmp_path):  # noqa: F811
    # `echo hi | atpad --print > out`: neither standard stream is the terminal.
    out = tmp_path / "out"
    command = (f"echo ignored | {shlex.quote(atpad_binary())} --print -d {shlex.quote(directory)}"
               f" --implicit 0 > {shlex.quote(str(out))}")
    s = Session(command)
    try:
        s.wait_for("atpad", what="the first frame")
        s.type("to stdout")
        s.wait_for("to stdout")
        s.keys("C-s")
        assert s.exit_status() == 0
        assert out.read_bytes() == b"to stdout"
    finally:
        s.close()


def test_dash_reads_the_comment_from_stdin_and_saving_asks_a_name(directory, tmp_path):  # noqa: F811
    command = f"printf 'from stdin @[Jo](u1)' | {shlex.quote(atpad_binary())} - -d {shlex.quote(directory)}"
    s = Session(command, cwd=str(tmp_path))
    try:
        screen = s.wait_for("from stdin", what="the comment from stdin")
        assert "[stdin]" in screen.splitlines()[0]
        s.keys("C-s")
        s.wait_for("Save as:")
        s.type("out.md")
        s.keys("Enter")
        s.wait_for("Saved")
        s.keys("C-q")
        assert s.exit_status() == 0
        assert (tmp_path / "out.md").read_bytes() == b"from stdin @[Jo](u1)"
    finally:
        s.close()


def test_dash_with_bytes_that_are_not_utf8_keeps_them(tmp_path):
    """Issue 22: stdin follows the rule of files: any bytes open and come back as they were."""
    out = tmp_path / "out"
    s = Session(f"printf 'ok \\377 \\351t\\351' | {shlex.quote(atpad_binary())} - --print > {shlex.quote(str(out))}")
    try:
        s.wait_for("ok \\xFF \\xE9t\\xE9")
        s.wait_for("3 bytes that are not UTF-8 kept as they were")
        s.keys("End")
        s.type("!")
        s.wait_for("t\\xE9!")
        s.keys("C-s")
        assert s.exit_status() == 0
        assert out.read_bytes() == b"ok \xff \xe9t\xe9!"
    finally:
        s.close()


def test_no_terminal_at_all(tmp_path):
    for args in ([str(tmp_path / "x.md")], ["--print"], ["-"]):
        proc = subprocess.run([atpad_binary(), *args], stdin=subprocess.DEVNULL, capture_output=True,
                              start_new_session=True, timeout=30)
        assert (proc.returncode, proc.stderr, proc.stdout) == (2, b"atpad: no terminal\n", b""), args
    assert not (tmp_path / "x.md").exists()


def kill_editing(sessions, args, text):  # noqa: F811
    """Starts atpad with `args`, types `text`, waits for its draft and kills it with SIGKILL."""
    s = sessions([*args, "--implicit", "0"])
    s.type(text)
    s.wait_for(text)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not any(text in p.read_text() for p in drafts_folder().glob("*.draft")):
        time.sleep(0.05)
    os.kill(atpad_pid(s), signal.SIGKILL)
    s.wait_for("[exit", what="the kill")


def test_drafts_list_show_delete(atpad, sessions, directory, tmp_path):  # noqa: F811
    path = tmp_path / "pr.md"
    kill_editing(sessions, [str(path), "-d", directory], "first line")
    listing = atpad("drafts", check_exit=0).stdout
    lines = listing.splitlines()
    assert len(lines) == 1
    name, belongs, when, size, first = lines[0].split("\t")
    assert belongs == str(path)
    assert when.endswith(" UTC") and size.endswith(" bytes")
    assert first == "first line"

    assert atpad("drafts", "show", name, check_exit=0).stdout == "first line"

    missing = atpad("drafts", "show", "nope.draft", check_exit=2)
    assert missing.stderr.startswith("atpad: no draft named nope.draft") and missing.stderr.count("\n") == 1
    atpad("drafts", "delete", "../pr.md", check_exit=2)

    atpad("drafts", "delete", name, check_exit=0)
    assert atpad("drafts", check_exit=0).stdout == ""
    assert not path.exists()


def test_a_running_atpads_draft_is_not_deleted(atpad, sessions, directory, tmp_path):  # noqa: F811
    s = sessions([str(tmp_path / "live.md"), "-d", directory, "--implicit", "0"])
    s.type("still typing")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not list(drafts_folder().glob("*.draft")):
        time.sleep(0.05)
    name = atpad("drafts", check_exit=0).stdout.split("\t")[0]
    refused = atpad("drafts", "delete", name, check_exit=1)
    assert "running atpad" in refused.stderr and refused.stderr.count("\n") == 1
    assert (drafts_folder() / name).exists()


def test_unnamed_draft_offered_at_start(atpad, sessions, directory, tmp_path):  # noqa: F811
    kill_editing(sessions, ["-d", directory], "an unnamed comment")
    assert "(unnamed)" in atpad("drafts", check_exit=0).stdout

    # Esc leaves it for later.
    later = sessions(["-d", directory])
    screen = later.wait_for("Recover unsaved draft? (r)ecover (d)iscard")
    assert "(k)eep both" not in screen
    later.keys("Escape")
    later.wait_for("left for later")
    later.keys("C-q")
    assert later.exit_status() == 0
    assert "an unnamed comment" in atpad("drafts", check_exit=0).stdout

    # A FILE is offered no unnamed draft; `atpad -` neither.
    named = sessions([str(tmp_path / "other.md"), "-d", directory])
    time.sleep(0.3)
    assert "Recover" not in named.screen()
    named.keys("C-q")
    assert named.exit_status() == 0

    again = sessions(["-d", directory])
    again.wait_for("Recover unsaved draft?")
    again.keys("r")
    again.wait_for("Draft recovered")
    assert "an unnamed comment" in again.screen()
    again.keys("C-q")
    again.wait_for("Save changes")
    again.keys("n")
    assert again.exit_status() == 1
    # Recovered then quit without saving: given up, so nothing is offered again.
    assert atpad("drafts", check_exit=0).stdout == ""


def test_unnamed_draft_discarded(atpad, sessions, directory):  # noqa: F811
    kill_editing(sessions, ["-d", directory], "throw me away")
    s = sessions(["-d", directory])
    s.wait_for("Recover unsaved draft?")
    s.keys("d")
    s.wait_for("Draft discarded")
    assert "throw me away" not in s.screen()
    s.keys("C-q")
    assert s.exit_status() == 0
    assert atpad("drafts", check_exit=0).stdout == ""
