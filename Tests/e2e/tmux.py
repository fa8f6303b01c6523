"""A small harness that runs the real atpad binary in a detached tmux session.

Each Session has its own tmux server socket (so tests never share state), waits for the
effect of the last key with a predicate on the screen (never a fixed sleep), and reads
the exit status from a line the wrapper prints after atpad exits.
"""
import os
import re
import shlex
import subprocess
import time
import uuid

# An SGR escape in `capture-pane -e` output, its parameters captured (`4:3`, a curly
# underline, is one parameter with its sub-parameter).
SGR = r"\x1b\[([0-9;:]*)m"


class Session:
    def __init__(self, command, width=80, height=24, env=None, cwd=None, term=None):
        self.socket = f"atpad-test-{uuid.uuid4().hex[:10]}"
        self.target = "t"
        full = dict(env or {})
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in full.items())
        wrapper = f"{exports} {command}; echo \"[exit $?]\"; sleep 600"
        if term:
            wrapper = f"TERM={term} " + wrapper
        self._tmux("-f", "/dev/null", "new-session", "-d", "-s", self.target, "-x", str(width), "-y", str(height),
                   "-c", cwd or os.getcwd(), "sh", "-c", wrapper)
        self._tmux("set-option", "-t", self.target, "status", "off")

    def _tmux(self, *args, check=True):
        # LINES/COLUMNS from the test runner must not leak into the pane.
        env = {k: v for k, v in os.environ.items() if k not in ("LINES", "COLUMNS")}
        # A tmux that stops answering fails the test instead of holding the run.
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=check, env=env,
                              timeout=60)

    # Input
    def keys(self, *names):
        """Sends tmux key names (Enter, Escape, BSpace, C-s, Down, ...)."""
        self._tmux("send-keys", "-t", self.target, *names)

    def type(self, text):
        """Sends text literally, character by character as typed."""
        self._tmux("send-keys", "-t", self.target, "-l", text)

    def paste(self, text):
        """A bracketed paste of `text` (tmux wraps it in ESC[200~ … ESC[201~)."""
        self._tmux("set-buffer", "-b", "p", "--", text) if len(text) < 4000 else self._load(text)
        self._tmux("paste-buffer", "-p", "-b", "p", "-t", self.target)

    def _load(self, text):
        path = f"/tmp/{self.socket}.paste"
        with open(path, "w") as f:
            f.write(text)
        self._tmux("load-buffer", "-b", "p", path)
        os.unlink(path)

    def resize(self, width, height):
        self._tmux("resize-window", "-t", self.target, "-x", str(width), "-y", str(height))

    # Output
    def screen(self, attributes=False):
        args = ["capture-pane", "-p", "-t", self.target]
        if attributes:
            args.insert(2, "-e")
        return self._tmux(*args).stdout

    def lines(self):
        return self.screen().split("\n")

    def style_at(self, text, within=None):
        """The SGR parameters in force where `text` starts on the screen, on the first line
        holding `within` (or `text`); an int `text` is a column of that line. tmux's capture
        carries a style on from line to line, so everything before counts."""
        lines = self.screen(attributes=True).split("\n")
        k = next(i for i, l in enumerate(lines) if (within or text) in re.sub(SGR, "", l))
        line = lines[k]
        target = text if isinstance(text, int) else re.sub(SGR, "", line).index(text)
        # Where `target` (a visible column) is in the line with its escapes.
        seen, cut, i = 0, len(line), 0
        while i < len(line):
            m = re.match(SGR, line[i:])
            if m:
                i += m.end()
                continue
            if seen == target:
                cut = i
                break
            seen += 1
            i += 1
        params = []
        for code in re.findall(SGR, "\n".join(lines[:k] + [line[:cut]])):
            parts = code.split(";")
            params = parts[1:] if parts[0] in ("", "0") else params + parts
        return params

    def cursor(self):
        out = self._tmux("display", "-p", "-t", self.target, "#{cursor_y} #{cursor_x}").stdout.split()
        return int(out[0]), int(out[1])

    def wait_for(self, predicate, timeout=10.0, what="the screen to match"):
        """Waits until predicate(screen text) is true; fails with the last screen."""
        if isinstance(predicate, str):
            text = predicate
            predicate = lambda s: text in s
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if predicate(screen):
                return screen
            time.sleep(0.02)
        raise AssertionError(f"timed out waiting for {what}; screen was:\n{screen}")

    def exit_status(self, timeout=10.0):
        screen = self.wait_for(lambda s: "[exit " in s, timeout=timeout, what="atpad to exit")
        for line in screen.splitlines():
            if line.startswith("[exit "):
                return int(line[len("[exit "):-1])
        raise AssertionError(screen)

    def record_output(self, path):
        """From now on, appends everything the program writes to the terminal to `path`."""
        self._tmux("pipe-pane", "-o", "-t", self.target, f"cat >> {shlex.quote(str(path))}")

    def pid(self):
        return int(self._tmux("display", "-p", "-t", self.target, "#{pane_pid}").stdout.strip())

    def close(self):
        self._tmux("kill-server", check=False)
