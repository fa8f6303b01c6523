"""`[terminal] graphemes = "auto"` against a terminal that answers: atpad runs in a pty
this test plays the terminal for. The first frame asks whether the terminal clusters
graphemes (DECRQM for mode 2027) and sends an emoji cluster by its first code point; the
answer decides the frames after it."""
import fcntl
import os
import pty
import select
import struct
import termios
import time

import pytest

from conftest import atpad_binary

QUERY = b"\x1b[?2027$p"
SET, RESET = b"\x1b[?2027h", b"\x1b[?2027l"
THUMB, TONE = "👍".encode(), "🏽".encode()


class Terminal:
    """atpad in a pty of 40 × 10, with everything it writes kept in `output`."""

    def __init__(self, args, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 10, 40, 0, 0))
            os.execve(atpad_binary(), [atpad_binary(), *args], env)
        self.output = b""

    def read_until(self, predicate, what, timeout=10.0):
        deadline = time.monotonic() + timeout
        while not predicate(self.output):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {what}; atpad wrote {self.output!r}")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    self.output += os.read(self.fd, 65536)
                except OSError:  # the program has gone
                    raise AssertionError(f"atpad ended before {what}; it wrote {self.output!r}")
        return self.output

    def send(self, data):
        os.write(self.fd, data)

    def quit(self, answer=b""):
        """Ctrl-Q (then `answer` to the question about unsaved changes); the exit status."""
        self.send(b"\x11" + answer)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.pid = None
                return os.waitstatus_to_exitcode(status)
            try:
                if select.select([self.fd], [], [], 0.05)[0]:
                    self.output += os.read(self.fd, 65536)
            except OSError:
                pass
        raise AssertionError(f"atpad did not quit; it wrote {self.output!r}")

    def close(self):
        if self.pid is not None:
            try:
                os.kill(self.pid, 9)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(self.fd)


@pytest.fixture
def terminal(tmp_path):
    opened = []

    def start(config=None):
        path = tmp_path / "emoji.txt"
        path.write_text("a👍🏽b\n")
        env = dict(os.environ, TERM="xterm-256color", ATPAD_DRAFTS="off")
        env.pop("LINES", None)
        env.pop("COLUMNS", None)
        args = [str(path)]
        if config:
            (tmp_path / "config.toml").write_text(config)
            args += ["--config", str(tmp_path / "config.toml")]
        t = Terminal(args, env)
        opened.append(t)
        return t

    yield start
    for t in opened:
        t.close()


@pytest.mark.parametrize("answer, sets_mode", [(b"1", False), (b"3", False), (b"2", True)])
def test_clusters_are_sent_whole_once_the_terminal_says_it_clusters_them(terminal, answer, sets_mode):
    t = terminal()
    first = t.read_until(lambda out: QUERY in out and b"Quit" in out, "the first frame")
    assert THUMB in first and TONE not in first
    t.send(b"\x1b[?2027;" + answer + b"$y")
    after = t.read_until(lambda out: THUMB + TONE in out, "the cluster sent whole")
    assert (SET in after) == sets_mode
    assert t.quit() == 0
    assert (RESET in t.output) == sets_mode


def test_a_terminal_that_does_not_cluster_keeps_the_first_code_point(terminal):
    t = terminal()
    t.read_until(lambda out: QUERY in out and b"Quit" in out, "the first frame")
    t.send(b"\x1b[?2027;0$y")
    t.send(b"x")  # the row is sent again, shifted
    t.read_until(lambda out: b"xa" in out, "the typed character")
    assert TONE not in t.output and SET not in t.output
    assert t.quit(answer=b"n") == 1  # quit without saving the x


def test_first_does_not_ask(terminal):
    t = terminal('[terminal]\ngraphemes = "first"\n')
    t.read_until(lambda out: b"Quit" in out, "the first frame")
    assert QUERY not in t.output
    assert t.quit() == 0
