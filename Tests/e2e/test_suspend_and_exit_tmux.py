"""Suspending and leaving (docs/editor.md): Alt-Z and an outside SIGTSTP give the terminal back
to the shell as an exit does, `fg` brings atpad back with the text as it was, and leaving
a terminal without an alternate screen leaves none of atpad's rows behind."""
import json
import os
import shlex
import signal

import pytest

from conftest import atpad_binary
from tmux import Session

PROMPT = "shell$ "
# As the pane shows it (capture-pane drops trailing spaces).
SHOWN_PROMPT = PROMPT.rstrip()


@pytest.fixture
def directory(tmp_path):
    path = tmp_path / "people.json"
    path.write_text(json.dumps([{"id": "u1", "name": "John Doe", "handle": "jdoe"}]))
    return str(path)


@pytest.fixture
def shell():
    """An interactive bash with job control in a tmux pane (atpad is started from it)."""
    opened = []

    def start(width=80, height=24):
        s = Session("bash --norc --noprofile -i", width=width, height=height,
                    env={"PS1": PROMPT, "HISTFILE": "/dev/null"})
        opened.append(s)
        s.wait_for(SHOWN_PROMPT, what="the shell's prompt")
        return s

    yield start
    for s in opened:
        s.close()


def flags(s):
    """The pane's terminal modes as tmux sees them."""
    names = ["alternate_on", "mouse_any_flag", "mouse_sgr_flag", "keypad_cursor_flag", "cursor_flag"]
    out = s._tmux("display", "-p", "-t", s.target, " ".join(f"#{{{n}}}" for n in names)).stdout.split()
    return dict(zip(names, (int(v) for v in out)))


def start_atpad(s, path, directory):
    s.type(" ".join(shlex.quote(a) for a in [atpad_binary(), str(path), "-d", directory]))
    s.keys("Enter")
    s.wait_for(lambda sc: sc.startswith("atpad") and path.name in sc, what="atpad's first frame")


def atpad_pid(s):
    """atpad's pid: a descendant of the pane's process (sh, then bash, then atpad)."""
    pending = [s.pid()]
    while pending:
        pid = pending.pop()
        try:
            if open(f"/proc/{pid}/comm").read().strip() == "atpad":
                return pid
            for task in os.listdir(f"/proc/{pid}/task"):
                pending += [int(c) for c in open(f"/proc/{pid}/task/{task}/children").read().split()]
        except FileNotFoundError:
            continue
    raise AssertionError("atpad is not running")


def expect_given_back(s):
    """The shell has the terminal: job stopped, modes off, and it echoes what is typed."""
    s.wait_for(lambda sc: "Stopped" in sc and not sc.startswith("atpad"), what="the job to stop")
    assert flags(s) == {"alternate_on": 0, "mouse_any_flag": 0, "mouse_sgr_flag": 0, "keypad_cursor_flag": 0,
                        "cursor_flag": 1}
    s.type("echo given-$((40+2))")
    s.keys("Enter")
    s.wait_for("given-42", what="the shell to run a command")


def expect_back(s, text):
    s.type("fg")
    s.keys("Enter")
    s.wait_for(lambda sc: sc.startswith("atpad") and text in sc, what="atpad redrawn with the text")
    assert flags(s)["alternate_on"] == 1
    # Keys reach atpad again, and nothing the shell was given went into the document.
    s.type("!")
    screen = s.wait_for(text + "!", what="typing after fg")
    assert screen.split("\n")[1] == text + "!"
    assert "given" not in screen and "fg" not in screen


def quit_without_saving(s):
    s.keys("C-q")
    s.wait_for("Save changes")
    s.type("n")
    s.wait_for(lambda sc: sc.rstrip().endswith(SHOWN_PROMPT) and not sc.startswith("atpad"),
               what="the shell's prompt after atpad")


def test_alt_z_suspends_and_fg_redraws_with_the_text(shell, directory, tmp_path):
    s = shell()
    path = tmp_path / "c.md"
    start_atpad(s, path, directory)
    assert flags(s)["alternate_on"] == 1 and flags(s)["mouse_sgr_flag"] == 1
    s.type("hello suspend")
    s.wait_for("hello suspend")
    s.keys("M-z")
    expect_given_back(s)
    expect_back(s, "hello suspend")
    # Ctrl-Z is still Undo (of the word typed last), never a suspension.
    s.keys("C-z")
    s.wait_for(lambda sc: sc.startswith("atpad") and sc.split("\n")[1].rstrip() == "hello", what="undo")
    quit_without_saving(s)


def test_outside_sigtstp_suspends_and_fg_brings_it_back(shell, directory, tmp_path):
    s = shell()
    path = tmp_path / "c.md"
    start_atpad(s, path, directory)
    s.type("typed before the signal")
    s.wait_for("typed before the signal")
    os.kill(atpad_pid(s), signal.SIGTSTP)
    expect_given_back(s)
    expect_back(s, "typed before the signal")
    quit_without_saving(s)


def test_a_resize_while_suspended_is_laid_out_on_fg(shell, directory, tmp_path):
    s = shell()
    path = tmp_path / "c.md"
    start_atpad(s, path, directory)
    s.type("words")
    s.keys("M-z")
    s.wait_for("Stopped")
    s.resize(50, 12)
    s.type("fg")
    s.keys("Enter")
    screen = s.wait_for(lambda sc: sc.startswith("atpad") and len(sc.split("\n")[0].rstrip()) <= 50
                        and "Ln 1, Col 6" in sc.split("\n")[0] and "^Q Quit" in sc.split("\n")[11],
                        what="the frame laid out at 50x12")
    assert screen.split("\n")[1].rstrip() == "words"


@pytest.mark.parametrize("term", ["vt100", "linux"])
def test_exit_without_an_alternate_screen_leaves_no_rows(term, directory, tmp_path):
    path = tmp_path / "c.md"
    command = " ".join(shlex.quote(a) for a in [atpad_binary(), str(path), "-d", directory])
    s = Session(command, term=term)
    try:
        s.wait_for(lambda sc: sc.startswith("atpad"), what="the first frame")
        s.type("some text")
        s.keys("C-q")
        s.wait_for("Save changes before quitting?")
        s.type("n")
        assert s.exit_status() == 1
        lines = [line for line in s.lines() if line.strip()]
        assert lines == ["[exit 1]"], s.screen()
    finally:
        s.close()


def test_a_stop_from_outside_is_redrawn_on_fg(shell, directory, tmp_path):
    # SIGSTOP cannot be caught: the shell writes over the frame, and the continue (SIGCONT)
    # makes atpad take the terminal again and draw it whole.
    s = shell()
    path = tmp_path / "c.md"
    start_atpad(s, path, directory)
    s.type("stopped hard")
    s.wait_for("stopped hard")
    os.kill(atpad_pid(s), signal.SIGSTOP)
    s.wait_for("Stopped")
    s.type("fg")
    s.keys("Enter")
    screen = s.wait_for(lambda sc: sc.startswith("atpad") and "Stopped" not in sc and "stopped hard" in sc,
                        what="a whole frame after fg")
    assert screen.split("\n")[1] == "stopped hard"
    s.type("!")
    s.wait_for("stopped hard!")
    quit_without_saving(s)


def test_alt_z_without_job_control_goes_on_editing(directory, tmp_path):
    # Started by `sh -c` (no job control: nothing could continue it), atpad is not stopped.
    path = tmp_path / "c.md"
    command = " ".join(shlex.quote(a) for a in [atpad_binary(), str(path), "-d", directory])
    s = Session(command)
    try:
        s.wait_for(lambda sc: sc.startswith("atpad"), what="the first frame")
        s.type("one")
        s.keys("M-z")
        s.type(" two")
        s.wait_for(lambda sc: sc.split("\n")[1] == "one two", what="typing after Alt-Z")
        s.keys("C-q")
        s.wait_for("Save changes")
        s.type("n")
        assert s.exit_status() == 1
    finally:
        s.close()
