#!/usr/bin/env python3
"""What work costs right after a keystroke wakes a program, measured the way the echo is
(../shared/tools/tui_latency.py): a small C program in raw mode reads a key, does some
work, and writes the key back. The work is one of

    raw          nothing (the floor under any echo)
    work100k     100,000 steps of arithmetic on hot code and no memory
    lines500/2000  reading 500 / 2,000 cache lines scattered over 64 MB
    code500/2000   500 / 2,000 calls into 4,096 small functions laid 64 bytes apart

so the echo's cost per cold cache line of data and of code can be read off one run
(BENCHMARKS.md, "Laying out the echo path").

    python3 scripts/cold_code_cost.py [--repeat 3]
"""
import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUNCTIONS = 4096

MAIN = r'''
int main(void) {
    long work = getenv("WORK") ? atol(getenv("WORK")) : 0;
    long lines = getenv("COLD_LINES") ? atol(getenv("COLD_LINES")) : 0;
    long calls = getenv("CALLS") ? atol(getenv("CALLS")) : 0;
    struct termios saved, raw;
    tcgetattr(0, &saved);
    raw = saved;
    cfmakeraw(&raw);
    tcsetattr(0, TCSANOW, &raw);
    size_t size = 64u << 20;
    unsigned char *data = malloc(size);
    memset(data, 1, size);
    write(1, "\x1b[2J\x1b[H", 7);
    unsigned acc = 1;
    unsigned long seed = 12345;
    for (;;) {
        struct pollfd p = {0, POLLIN, 0};
        poll(&p, 1, -1);
        char c;
        if (read(0, &c, 1) != 1 || c == 17) break;
        for (long i = 0; i < work; i++) acc = acc * 1664525u + 1013904223u;
        for (long i = 0; i < lines; i++) {
            seed = seed * 6364136223846793005ul + 1442695040888963407ul;
            acc += data[((seed >> 20) % size) & ~63ul];
        }
        for (long i = 0; i < calls; i++) acc = table[(i * 2654435761u + acc % 7) % FUNCTIONS](acc);
        char out[2] = {c, ' '};
        write(1, out, acc == 42 ? 2 : 1);
    }
    tcsetattr(0, TCSANOW, &saved);
    return 0;
}
'''


def source():
    parts = ["#include <poll.h>\n#include <stdlib.h>\n#include <string.h>\n#include <termios.h>\n#include <unistd.h>\n",
             f"#define FUNCTIONS {FUNCTIONS}\n"]
    for i in range(FUNCTIONS):
        parts.append(f"__attribute__((noinline, aligned(64))) static unsigned f{i}(unsigned x) "
                     f"{{ x = x * {2 * i + 3}u + {i}u; x ^= x >> 7; x = x * {4 * i + 5}u; x ^= x >> 11; return x + {7 * i}u; }}\n")
    parts.append("static unsigned (*table[])(unsigned) = {" + ", ".join(f"f{i}" for i in range(FUNCTIONS)) + "};\n")
    parts.append(MAIN)
    return "".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="atpad-cold-")
    c_file, binary = os.path.join(folder, "cold.c"), os.path.join(folder, "cold")
    with open(c_file, "w") as f:
        f.write(source())
    subprocess.run(["gcc", "-O2", "-o", binary, c_file], check=True)
    variants = {"raw": "", "work100k": "WORK=100000", "lines500": "COLD_LINES=500", "lines2000": "COLD_LINES=2000",
                "code500": "CALLS=500", "code2000": "CALLS=2000"}
    command = [sys.executable, os.path.join(ROOT, "..", "shared", "tools", "tui_latency.py")]
    for name, env in variants.items():
        command += ["--program", f"{name}=env {env} {binary}".replace("env  ", "")]
    command += ["--file", "empty", "--repeat", str(args.repeat), "--keys", "200", "--paste-kb", "0"]
    sys.exit(subprocess.run(command).returncode)


if __name__ == "__main__":
    main()
