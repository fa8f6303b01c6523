#!/usr/bin/env python3
"""How soon a typo typed into a long comment is marked (docs/spelling.md, "In the editor"):
atpad opens a generated 1 MB comment (tui_latency's gen:1MB prose) in tmux, the first whole
check is let finish, then a typo and a blank are typed at the start, and the time from
the last key to the typo's underline (`capture-pane -e`) is taken. Needs tmux and
Debian's hunspell-en-us.

    scripts/install --prefix $PWD/bench-out/x
    python3 scripts/bench/spell_mark_latency.py bench-out/x/bin/atpad [--runs 5]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "tools"))
import tui_latency  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--runs", type=int, default=5)
    a = parser.parse_args()
    work = tempfile.mkdtemp()
    source = os.path.join(work, "source.md")
    tui_latency.make_text_file(source, 1_000_000)
    comment = os.path.join(work, "comment.md")
    tmux = ["tmux", "-L", f"spellmark{os.getpid()}"]
    times = []
    for run in range(a.runs):
        shutil.copy(source, comment)
        # A home of its own: the last run's atpad, ended by kill-server, may still be
        # writing its draft (SIGHUP keeps what was typed), which this one would offer.
        home = os.path.join(work, f"home{run}")
        env = (f"env HOME={home} XDG_STATE_HOME={home}/state XDG_CONFIG_HOME={home}/config "
               "TERM=tmux-256color LANG=en_US.UTF-8")
        subprocess.run([*tmux, "kill-server"], capture_output=True)
        subprocess.run([*tmux, "new-session", "-d", "-x", "100", "-y", "30", f"{env} {os.path.abspath(a.binary)} {comment}"],
                       check=True)
        capture = lambda *o: subprocess.run([*tmux, "capture-pane", "-p", *o], capture_output=True, text=True).stdout
        deadline = time.monotonic() + 20
        while "comment.md" not in capture() and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(3)  # the first check of the whole comment (about 0.7 s) is over by then
        subprocess.run([*tmux, "send-keys", "-l", "Zqxwv "], check=True)
        start = time.monotonic()
        seen = None
        while time.monotonic() - start < 10:
            row = next((line for line in capture("-e").splitlines() if "Zqxwv" in line), "")
            if "4:3m" in row or "\x1b[4m" in row:
                seen = (time.monotonic() - start) * 1000
                break
            time.sleep(0.002)
        subprocess.run([*tmux, "kill-server"], capture_output=True)
        times.append(seen)
    shown = [f"{t:.0f}" if t is not None else "not seen in 10 s" for t in times]
    ok = sorted(t for t in times if t is not None)
    print(f"typo marked after the last key, ms: {' '.join(shown)}; median {ok[len(ok) // 2]:.0f}" if ok else "never marked")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
