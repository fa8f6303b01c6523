#!/usr/bin/env python3
"""Directory search benchmark (issue 4): atpad's load time, memory and per-keystroke
ranking cost on 10k, 100k and 1M generated people, side by side with fzf in one run.

    swift build -c release --product atpad
    python3 scripts/bench/bench_directory.py [--sizes 10000,100000,1000000] [--repeat 5]

atpad: `atpad search --type --timing --json --no-frecency -d FILE QUERY`, which loads the
directory once (load_ms) and ranks every prefix of QUERY as typed (ms per keystroke);
each query is run `--repeat` times and the keystroke times are pooled for p50/p99.
Memory is the maximum resident set (GNU time) of loading and ranking "travis".

fzf: `fzf --filter PREFIX` per prefix, best of `--repeat`, less fzf's own load time
(`fzf --filter` of a query no line matches, which reads and scans the input once). So
the fzf column is its filtering cost per keystroke without reading the input, the same
thing atpad's column measures.
"""
import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "bench-out" / "directories"
GEN = ROOT.parent / "shared" / "tools" / "gen_people.py"
QUERIES = ["travis b", "a", "mull", "王"]
NO_MATCH = "~~~~~~~~"


def generate(count):
    OUT.mkdir(parents=True, exist_ok=True)
    text = OUT / f"people-{count}.txt"
    if not text.exists():
        subprocess.run([sys.executable, str(GEN), str(count), str(text)], check=True)
    path = OUT / f"people-{count}.json"
    if not path.exists():
        people = []
        for i, line in enumerate(text.read_text(encoding="utf-8").splitlines()):
            name, handle = line.rsplit(" @", 1)
            people.append({"id": f"u{i}", "name": name, "handle": handle})
        path.write_text(json.dumps(people, ensure_ascii=False), encoding="utf-8")
    return text, path


def prefixes(query):
    return [query[: i + 1] for i in range(len(query))]


def percentile(values, p):
    values = sorted(values)
    if not values:
        return float("nan")
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def atpad_runs(binary, path, query, repeat):
    loads, steps = [], {}
    for _ in range(repeat):
        out = subprocess.run([binary, "search", "--type", "--timing", "--json", "--no-frecency", "-d", str(path), query],
                             capture_output=True, text=True, check=True).stdout.splitlines()
        loads.append(json.loads(out[0])["load_ms"])
        for line in out[1:]:
            step = json.loads(line)
            steps.setdefault(step["query"], []).append(step["ms"])
    return loads, steps


def atpad_rss(binary, path):
    proc = subprocess.run(["/usr/bin/time", "-f", "%M", binary, "search", "--no-frecency", "-d", str(path), "travis"],
                          capture_output=True, text=True, check=True)
    return int(proc.stderr.strip().splitlines()[-1]) / 1024


def fzf_time(text, query, repeat):
    best = float("inf")
    for _ in range(repeat):
        with open(text, "rb") as f:
            start = time.perf_counter()
            subprocess.run(["fzf", "--filter", query], stdin=f, stdout=subprocess.DEVNULL, check=False)
            best = min(best, time.perf_counter() - start)
    return best * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--atpad", default=str(ROOT / ".build" / "release" / "atpad"))
    a = ap.parse_args()

    print(f"atpad {a.atpad}; fzf {subprocess.run(['fzf', '--version'], capture_output=True, text=True).stdout.strip()}")
    print(f"{os.cpu_count()} cores, repeat {a.repeat}\n")
    for count in [int(s) for s in a.sizes.split(",")]:
        text, path = generate(count)
        rss = atpad_rss(a.atpad, path)
        fzf_load = fzf_time(text, NO_MATCH, a.repeat)
        all_steps, loads = [], []
        rows = []
        for query in QUERIES:
            load, steps = atpad_runs(a.atpad, path, query, a.repeat)
            loads += load
            for prefix in prefixes(query):
                times = steps[prefix]
                all_steps += times
                fzf = max(fzf_time(text, prefix, a.repeat) - fzf_load, 0.0)
                rows.append((prefix, percentile(times, 50), percentile(times, 99), fzf))
        print(f"### {count:,} people ({path.stat().st_size / 1e6:.0f} MB JSON)\n")
        print(f"atpad load {percentile(loads, 50):.0f} ms median ({min(loads):.0f}–{max(loads):.0f}), "
              f"max RSS {rss:.0f} MB; fzf load (a query nothing matches) {fzf_load:.0f} ms; "
              f"atpad keystrokes p50 {percentile(all_steps, 50):.3f} ms, p99 {percentile(all_steps, 99):.3f} ms\n")
        print("| keystroke | atpad p50 ms | atpad p99 ms | fzf --filter less load, ms | fzf ÷ atpad p50 |")
        print("|---|---|---|---|---|")
        for prefix, p50, p99, fzf in rows:
            ratio = fzf / p50 if p50 > 0 else float("inf")
            print(f"| `{prefix}` | {p50:.3f} | {p99:.3f} | {fzf:.1f} | {ratio:.0f}× |")
        print()


if __name__ == "__main__":
    main()
