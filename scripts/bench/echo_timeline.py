#!/usr/bin/env python3
"""Where a keystroke's echo time goes: the harness's write of the key -> the program
waking up -> its frame written -> the harness reading it.

Types 150 keys the way ../shared/tools/tui_latency.py does (its Session: a pty and a pyte
screen), records when each key was written and when its echo was seen, and lines that up
with the program's own trace of absolute CLOCK_MONOTONIC times (ATPAD_TRACE_FILE: atpad's
columns 6 and 7 are its wake-up and its drawn frame, in microseconds).

    swift build -c release --static-swift-stdlib --product atpad --scratch-path .build-static
    python3 scripts/bench/echo_timeline.py .build-static/release/atpad
"""
import gc
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "tools"))
import tui_latency  # noqa: E402

# ECHO_FILE_BYTES=1048576 starts from a generated file of that size (tui_latency's
# gen:1MB) instead of an empty one.
# What is typed; ECHO_TEXT replaces it (names from the sample directory make the implicit
# search answer on every key).
TEXT = os.environ.get("ECHO_TEXT", "the quick brown fox jumps over the lazy dog ")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    home = tempfile.mkdtemp()
    trace = os.path.join(home, "trace.tsv")
    comment = os.path.join(home, "comment.txt")
    size = int(os.environ.get("ECHO_FILE_BYTES", "0"))
    if size:
        tui_latency.make_text_file(comment, size)
    else:
        open(comment, "w").close()
    env = dict(os.environ, TERM="xterm-256color", HOME=home, XDG_STATE_HOME=home + "/state",
               XDG_CONFIG_HOME=home + "/config", LC_ALL="C.UTF-8", ATPAD_TRACE_FILE=trace)
    s = tui_latency.Session([os.path.abspath(sys.argv[1])] + sys.argv[2:] + [comment], 40, 120, env, home)
    s.pump(3, quiet=0.5)
    keys = []
    gc.disable()
    for k in range(160):
        if k % 16 == 0:
            gc.collect()
        if k % 30 == 29:
            s.write(b"\r")
            s.pump(2, quiet=0.05)
            continue
        ch = TEXT[k % len(TEXT)]
        cx, cy = s.cursor()
        same = s.cell(cx, cy) == ch

        def seen():
            return s.cell(cx, cy) == ch and (not same or s.cursor() != (cx, cy))

        written = s.write(ch.encode())
        why, echoed = s.pump(2, cond=seen)
        s.pump(0.3, quiet=0.05)
        if why == "cond" and k >= 10:
            keys.append((written * 1e6, echoed * 1e6))
    s.close()
    frames = [list(map(int, line.split())) for line in open(trace)]
    frames = [f for f in frames if f[0] == 1 and len(f) >= 7]
    parts = []
    for written, echoed in keys:
        woke = [f for f in frames if written - 5 <= f[5] < echoed]
        if woke:
            f = woke[0]
            # atpad's own columns: reading the key, then the keys' updates + layout +
            # backend; the floor writes zeros there.
            parts.append((f[5] - written, f[6] - f[5], echoed - f[6], echoed - written, f[4], f[1] - f[2] - f[3], f[2], f[3]))
    names = ["key -> wake-up", "wake-up -> frame", "frame -> seen", "key -> seen", "  read the key", "  update",
             "  layout", "  backend"]
    for i, name in enumerate(names):
        v = sorted(p[i] for p in parts)
        print(f"{name:18s} p10 {v[len(v) // 10]:6.0f}  p50 {v[len(v) // 2]:6.0f}  p90 {v[int(len(v) * 0.9)]:6.0f} µs"
              f"  ({len(v)} keys)")


if __name__ == "__main__":
    main()
