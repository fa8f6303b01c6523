#!/usr/bin/env python3
"""Replace all, timed in the real editor: a file of N lines, each holding the word
`needle` once (about 77 bytes a line: 60,000 lines make 4.6 MB), opened in tmux;
Alt-R, `needle`, Enter, `pin`, Enter, then `a`. The time runs from sending `a` until
the message line says `Replaced N occurrences` (the pane is polled every 10 ms, so a
figure is at most that much late).

    python3 scripts/bench/bench_replace_all.py [--matches 2000,8000,60000] [--timeout 120] \
        BINARY [BINARY ...]

Each binary is run on each size in turn (interleaved), once. A run still going after
--timeout seconds is reported as "> T s" and killed.
"""
import argparse
import os
import shutil
import subprocess
import tempfile
import time
import uuid


def make_file(folder, matches):
    path = os.path.join(folder, f"replace-{matches}.txt")
    filler = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod"
    with open(path, "w") as f:
        for n in range(matches):
            f.write(f"{n:06d} {filler[: 60]} needle\n")
    return path


def tmux(socket, *args):
    return subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True)


def wait(socket, text, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = tmux(socket, "capture-pane", "-p", "-t", "b").stdout
        if text in screen:
            return time.monotonic()
        time.sleep(0.01)
    return None


def run_once(binary, path, matches, timeout):
    socket = f"atpad-bench-{uuid.uuid4().hex[:8]}"
    home = tempfile.mkdtemp()
    env = f"HOME={home} XDG_STATE_HOME={home}/s XDG_CONFIG_HOME={home}/c XDG_CACHE_HOME={home}/k"
    tmux(socket, "-f", "/dev/null", "new-session", "-d", "-s", "b", "-x", "120", "-y", "40",
         "sh", "-c", f"{env} {binary} {path}; sleep 600")
    try:
        if wait(socket, "000000", 30) is None:
            return "did not start"
        tmux(socket, "send-keys", "-t", "b", "M-r")
        wait(socket, "Replace:", 10)
        tmux(socket, "send-keys", "-t", "b", "-l", "needle")
        tmux(socket, "send-keys", "-t", "b", "Enter")
        wait(socket, "With:", 10)
        tmux(socket, "send-keys", "-t", "b", "-l", "pin")
        tmux(socket, "send-keys", "-t", "b", "Enter")
        if wait(socket, "(a)ll", 30) is None:
            return "no question"
        start = time.monotonic()
        tmux(socket, "send-keys", "-t", "b", "a")
        end = wait(socket, f"Replaced {matches} occurrences", timeout)
        if end is None:
            return f"> {timeout:.0f} s"
        return f"{(end - start) * 1000:.0f} ms"
    finally:
        tmux(socket, "kill-server")
        shutil.rmtree(home, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", default="2000,8000,60000")
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("binaries", nargs="+")
    args = parser.parse_args()
    sizes = [int(s) for s in args.matches.split(",")]
    folder = tempfile.mkdtemp()
    try:
        print("| binary | " + " | ".join(f"{m:,} matches ({os.path.getsize(make_file(folder, m)) / 1e6:.1f} MB)"
                                        for m in sizes) + " |")
        print("|---|" + "---|" * len(sizes))
        rows = {b: [] for b in args.binaries}
        for m in sizes:
            path = os.path.join(folder, f"replace-{m}.txt")
            for b in args.binaries:
                rows[b].append(run_once(b, path, m, args.timeout))
        for b, cells in rows.items():
            print(f"| {b} | " + " | ".join(cells) + " |")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
