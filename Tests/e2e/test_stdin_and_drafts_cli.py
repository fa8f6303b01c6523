"""The command line (docs/editor.md) around the terminal and the drafts: keys from /dev/tty
when stdin is not a terminal, `atpad -` reading the comment from stdin, `atpad: no
terminal`, the `atpad drafts` subcommand, and the unnamed draft named on the message line at
start (typing goes on at once; Alt-D recovers it)."""
import datetime
import os
import re
import shlex
import signal
import subprocess
import time

from conftest import atpad_binary
from test_drafts import atpad_pid, drafts_folder
from tmux import Session


def test_a_file_with_stdin_from_dev_null_takes_keys_from_the_terminal(sessions, directory, tmp_path):
    path = tmp_path / "n.md"
    s = sessions([str(path), "-d", directory, "--implicit", "0"], redirect=" < /dev/null")
    s.type("typed on the tty")
    s.wait_for("typed on the tty")
    s.keys("C-s")
    s.wait_for("Saved")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert path.read_bytes() == b"typed on the tty"


def test_print_with_a_pipe_on_stdin_and_stdout_captured(directory, tmp_path):
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


def test_dash_reads_the_comment_from_stdin_and_saving_asks_a_name(directory, tmp_path):
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


def kill_editing(sessions, args, text):
    """Starts atpad with `args`, types `text`, waits for its draft and kills it with SIGKILL."""
    s = sessions([*args, "--implicit", "0"])
    s.type(text)
    s.wait_for(text)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not any(text in p.read_text() for p in drafts_folder().glob("*.draft")):
        time.sleep(0.05)
    os.kill(atpad_pid(s), signal.SIGKILL)
    s.wait_for("[exit", what="the kill")


def test_drafts_list_show_delete(atpad, sessions, directory, tmp_path):
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


def test_a_running_atpads_draft_is_not_deleted(atpad, sessions, directory, tmp_path):
    s = sessions([str(tmp_path / "live.md"), "-d", directory, "--implicit", "0"])
    s.type("still typing")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not list(drafts_folder().glob("*.draft")):
        time.sleep(0.05)
    name = atpad("drafts", check_exit=0).stdout.split("\t")[0]
    refused = atpad("drafts", "delete", name, check_exit=1)
    assert "running atpad" in refused.stderr and refused.stderr.count("\n") == 1
    assert (drafts_folder() / name).exists()


NOTICE = re.compile(r"1 unsaved draft from (\d\d:\d\d) — Alt-D recovers it")


def written_at_local(draft):
    """The draft's `written` header line as local hh:mm (what the notice says)."""
    for line in draft.read_text().splitlines():
        if line.startswith("written "):
            stamp = datetime.datetime.strptime(line[len("written "):], "%Y-%m-%dT%H:%M:%S.%fZ")
            return stamp.replace(tzinfo=datetime.timezone.utc).astimezone().strftime("%H:%M")
    raise AssertionError(draft.read_text())


def test_unnamed_draft_named_on_the_message_line_and_typing_goes_on(atpad, sessions, directory):
    kill_editing(sessions, ["-d", directory], "an unnamed comment")
    [left] = list(drafts_folder().glob("unnamed-*.draft"))
    assert "(unnamed)" in atpad("drafts", check_exit=0).stdout

    # Typed at once, before or after the first frame: nothing is asked, nothing is lost.
    s = sessions(["-d", directory, "--implicit", "0"], ready=False)
    s.type("@johnny")
    screen = s.wait_for(lambda sc: len(sc.split("\n")) > 1 and sc.split("\n")[1].startswith("@johnny")
                        and NOTICE.search(sc), what="the typed text and the notice")
    assert "Recover unsaved draft?" not in screen
    assert NOTICE.search(screen).group(1) == written_at_local(left)
    # The notice is on the message line, above the help bar.
    rows = screen.rstrip("\n").split("\n")
    assert NOTICE.search(rows[-2]), rows
    s.keys("Escape")  # dismisses the search; the notice stays
    # (Waited for: Esc and a space sent together read as Alt-Space.)
    s.wait_for(lambda sc: "┌" not in sc, what="the chooser to close")
    s.type(" and more")
    s.wait_for("@johnny and more")
    assert NOTICE.search(s.screen())

    # Alt-D recovers it, as one undo step over what was typed.
    s.keys("M-d")
    s.wait_for("Draft recovered")
    screen = s.screen()
    assert screen.split("\n")[1].startswith("an unnamed comment") and "@johnny" not in screen
    assert not left.exists(), "the recovered draft is this session's now"
    s.keys("C-z")
    s.wait_for(lambda sc: sc.split("\n")[1].startswith("@johnny and more"), what="undo to the typed text")
    s.keys("C-y")
    s.wait_for(lambda sc: sc.split("\n")[1].startswith("an unnamed comment"), what="redo to the draft")
    s.keys("C-q")
    s.wait_for("Save changes")
    s.keys("n")
    assert s.exit_status() == 1
    # Recovered then given up: nothing is left to name.
    assert atpad("drafts", check_exit=0).stdout == ""


def test_print_capture_names_the_draft_and_keeps_what_is_typed(atpad, sessions, directory, tmp_path):
    kill_editing(sessions, ["-d", directory], "an older comment")
    out = tmp_path / "body"
    gate = tmp_path / "go"
    # atpad starts only once the keys are in the terminal: they are typed ahead for sure.
    command = (f"until [ -e {shlex.quote(str(gate))} ]; do sleep 0.01; done; "
               f"body=$({shlex.quote(atpad_binary())} --print -d {shlex.quote(directory)} --implicit 0)"
               f" && printf %s \"$body\" > {shlex.quote(str(out))}")
    s = Session(command)
    try:
        s.type("@johnny")
        s.wait_for("@johnny", what="the terminal to echo the keys before atpad runs")
        gate.touch()
        s.wait_for(lambda sc: len(sc.split("\n")) > 1 and sc.split("\n")[1].startswith("@johnny")
                   and NOTICE.search(sc), what="the typed text and the notice")
        assert "Recover unsaved draft?" not in s.screen()
        s.keys("Escape")
        s.wait_for(lambda sc: "┌" not in sc, what="the chooser to close")
        s.type(" thanks")
        s.wait_for("@johnny thanks")
        s.keys("C-s")
        assert s.exit_status() == 0
        assert out.read_bytes() == b"@johnny thanks"
    finally:
        s.close()
    # Not recovered: still there for next time, and for `atpad drafts`.
    assert "an older comment" in atpad("drafts", check_exit=0).stdout


def test_a_draft_not_recovered_is_left_and_a_file_is_named_none(atpad, sessions, directory, tmp_path):
    kill_editing(sessions, ["-d", directory], "left for later")
    s = sessions(["-d", directory])
    s.wait_for(NOTICE.search, what="the notice")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert "left for later" in atpad("drafts", check_exit=0).stdout

    # A FILE is named no unnamed draft; `atpad -` neither.
    named = sessions([str(tmp_path / "other.md"), "-d", directory])
    named.type("xq7")
    screen = named.wait_for("xq7")
    assert "unsaved draft" not in screen and "Recover" not in screen
    named.keys("C-q")
    named.wait_for("Save changes")
    named.keys("n")
    assert named.exit_status() == 1
    stdin = Session(f"printf 'from stdin' | {shlex.quote(atpad_binary())} - -d {shlex.quote(directory)}")
    try:
        screen = stdin.wait_for("from stdin")
        assert "unsaved draft" not in screen
        stdin.keys("C-q")
        assert stdin.exit_status() == 0
    finally:
        stdin.close()

    # `atpad drafts delete` gives it up: nothing is named any more.
    name = atpad("drafts", check_exit=0).stdout.split("\t")[0]
    atpad("drafts", "delete", name, check_exit=0)
    again = sessions(["-d", directory])
    again.type("yz9")
    screen = again.wait_for(lambda sc: sc.split("\n")[1].startswith("yz9"), what="typing")
    assert "unsaved draft" not in screen
