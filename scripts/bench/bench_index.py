#!/usr/bin/env python3
"""Directory index benchmark (issue 16, docs/directories.md): loading a directory of 10k,
100k and 1M people with no index (as before indexes), while building its index (the first
start), and from the mapped index (every later start), side by side with `fzf --filter` reading
the same people, in one run; per-keystroke cost and peak memory with the index mapped.

    swift build -c release --product atpad
    python3 scripts/bench/bench_index.py [--sizes 10000,100000,1000000] [--repeat 5]

atpad: `atpad search --type --timing --json --no-frecency -d FILE QUERY` with its own
XDG_CACHE_HOME: `load_ms` is the time to set up the directory (the first line of the
output), `index` says whether the index was used. "no index" runs with ATPAD_INDEX=off;
"first start" removes the index before each run (the index is written after load_ms is
taken, as in the editor, where a thread of its own writes it); "warm index" finds it in
the page cache. "whole run" is the wall time of the whole `atpad search` process with a
warm index (start-up, load, one query, exit).

fzf: `fzf --filter` of a query no line matches on the same people (`Name @handle` per
line), wall time of the whole process: what fzf needs to read and scan the file once.

Peak RSS (GNU time's maximum resident set) counts the pages of the mapped index the
search touched; they are the page cache's, shared and clean, not memory of atpad's own.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_directory import OUT, generate, percentile, prefixes  # noqa: E402

QUERIES = ["travis b", "a", "mull", "王"]
NO_MATCH = "~~~~~~~~"


def run_search(binary, path, query, env):
    out = subprocess.run([binary, "search", "--type", "--timing", "--json", "--no-frecency", "-d", str(path), query],
                         capture_output=True, text=True, check=True, env=env).stdout.splitlines()
    head = json.loads(out[0])
    return head, [json.loads(line)["ms"] for line in out[1:]]


def peak_rss(binary, path, query, env):
    proc = subprocess.run(["/usr/bin/time", "-f", "%M", binary, "search", "--type", "--no-frecency", "-d", str(path), query],
                          capture_output=True, text=True, check=True, env=env)
    return int(proc.stderr.strip().splitlines()[-1]) / 1024


def wall(command, stdin=None, env=None):
    start = time.perf_counter()
    subprocess.run(command, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return (time.perf_counter() - start) * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--atpad", default=str(Path(__file__).resolve().parents[2] / ".build" / "release" / "atpad"))
    a = ap.parse_args()

    fzf_version = subprocess.run(["fzf", "--version"], capture_output=True, text=True).stdout.strip()
    print(f"atpad {a.atpad}; fzf {fzf_version}; {os.cpu_count()} cores, repeat {a.repeat}; "
          f"load average {os.getloadavg()[0]:.1f} at the start\n")
    cache = OUT / "index-cache"
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    off = dict(env, ATPAD_INDEX="off")
    rows = []
    for count in [int(s) for s in a.sizes.split(",")]:
        text, path = generate(count)
        shutil.rmtree(cache, ignore_errors=True)
        none, first, warm, whole, fzf = [], [], [], [], []
        steps_mapped, steps_parsed = [], []
        statuses = set()
        for _ in range(a.repeat):
            # Interleaved, so that the machine's load weighs on every column alike.
            head, steps = run_search(a.atpad, path, QUERIES[0], off)
            none.append(head["load_ms"])
            steps_parsed += steps
            shutil.rmtree(cache, ignore_errors=True)
            head, _ = run_search(a.atpad, path, QUERIES[0], env)
            first.append(head["load_ms"])
            statuses.add(head["index"])
            for query in QUERIES:
                head, steps = run_search(a.atpad, path, query, env)
                assert head["index"] == "used", head
                warm.append(head["load_ms"])
                steps_mapped += steps
            whole.append(wall([a.atpad, "search", "--no-frecency", "-d", str(path), "tr"], env=env))
            with open(text, "rb") as f:
                fzf.append(wall(["fzf", "--filter", NO_MATCH], stdin=f))
        for query in QUERIES[1:]:
            _, steps = run_search(a.atpad, path, query, off)
            steps_parsed += steps
        rss_by_query = {q: peak_rss(a.atpad, path, q, env) for q in QUERIES}
        rss_mapped = max(rss_by_query.values())
        rss_parsed = max(peak_rss(a.atpad, path, q, off) for q in QUERIES)
        print(f"{count:,} people, peak RSS with the index mapped, by query typed: "
              + ", ".join(f"`{q}` {mb:.0f} MB" for q, mb in rss_by_query.items()))
        rows.append((count, path.stat().st_size / 1e6, none, first, warm, whole, fzf, steps_mapped, steps_parsed,
                     rss_mapped, rss_parsed, statuses))

    print()
    print("| people | file | no index: load | first start: load (index written after) | warm index: load | "
          "warm index: whole run | fzf --filter (no match) | warm ÷ fzf | keystroke p50 / p99, mapped | "
          "keystroke p50 / p99, parsed | peak RSS mapped / parsed |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for (count, mb, none, first, warm, whole, fzf, sm, sp, rm, rp, statuses) in rows:
        med = lambda v: percentile(v, 50)  # noqa: E731
        print(f"| {count:,} | {mb:.0f} MB JSON | {med(none):.0f} ms ({min(none):.0f}–{max(none):.0f}) "
              f"| {med(first):.0f} ms ({min(first):.0f}–{max(first):.0f}) "
              f"| {med(warm):.1f} ms ({min(warm):.1f}–{max(warm):.1f}) "
              f"| {med(whole):.0f} ms | {med(fzf):.0f} ms ({min(fzf):.0f}–{max(fzf):.0f}) "
              f"| 1/{med(fzf) / med(warm):.0f} "
              f"| {percentile(sm, 50):.3f} / {percentile(sm, 99):.3f} ms | {percentile(sp, 50):.3f} / {percentile(sp, 99):.3f} ms "
              f"| {rm:.0f} / {rp:.0f} MB |")
    index_sizes = {p.name: p.stat().st_size for p in (cache / "atpad" / "index").glob("*.idx")} if cache.exists() else {}
    print(f"\nfirst-start index status: {sorted(set().union(*[r[-1] for r in rows]))}; "
          f"last index file: {sum(index_sizes.values()) / 1e6:.0f} MB")


if __name__ == "__main__":
    main()
