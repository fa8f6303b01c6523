#!/usr/bin/env python3
"""Instant presets benchmark (issue 25): the cost of a keystroke with the github preset at
10,000 people, answered from the cached list, against the per-keystroke `gh` call it
replaced, with a stand-in `gh` that takes 300 ms to answer a query as the real one takes a
round trip.

    swift build -c release --product atpad
    python3 scripts/bench/bench_presets.py [--people 10000] [--repeat 5] [--binary .build/release/atpad]

The stand-in `gh` checks its exact arguments: the list call (`gh api graphql --paginate`,
the preset's list query and jq) prints every person at once, as gh prints every page; a
query call sleeps 300 ms and prints the first 50 people whose login or name contains the
query. `atpad search --preset github --type --timing --json QUERY` types QUERY one
character at a time and times each keystroke (what the editor's keystroke waits for).

- cached: a first run fetches the list into the cache (timed apart, as "first fetch");
  then each query runs `--repeat` times, each a new atpad whose first keystroke reads the
  cached list through its index (shown apart: the editor reads it behind its first
  screen), and the keystroke times are pooled for p50/p99.
- per keystroke: the same queries with `list_limit = 1` in a config, so the preset asks
  `gh` at each keystroke, as it did before the cache (one run each: 300 ms a keystroke).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# ../shared beside the main checkout; a worktree under wt/ has it one folder further up.
GEN = next((p / "shared" / "tools" / "gen_people.py" for p in ROOT.parents
            if (p / "shared" / "tools" / "gen_people.py").exists()), ROOT.parent / "shared" / "tools" / "gen_people.py")
QUERIES = ["travis b", "jo", "mull", "alex", "wang"]
REPO = "octo/big"

LIST_QUERY = ("query($owner: String!, $name: String!, $endCursor: String) { repository(owner: $owner, name: $name) "
              "{ mentionableUsers(first: 100, after: $endCursor) { nodes { login name databaseId } "
              "pageInfo { hasNextPage endCursor } } } }")
QUERY = ("query($owner: String!, $name: String!, $q: String!) { repository(owner: $owner, name: $name) "
         "{ mentionableUsers(query: $q, first: 50) { nodes { login name databaseId } } } }")
USERS_JQ = ('.data.repository.mentionableUsers.nodes[] | . + '
            '{email: "\\(.databaseId)+\\(.login)@users.noreply.github.com"}')

STAND_IN = r'''#!/usr/bin/env python3
import json, sys, time
people_file, log_file = PEOPLE, LOG
list_query, query, users_jq = LIST_QUERY, QUERY, USERS_JQ
args = sys.argv[1:]
open(log_file, "a").write(json.dumps(args) + "\n")
owner, name = "octo", "big"
if args == ["api", "graphql", "--paginate", "-f", "owner=" + owner, "-f", "name=" + name, "-f", "query=" + list_query,
            "--jq", users_jq]:
    sys.stdout.write(open(people_file, encoding="utf-8").read())
    sys.exit(0)
if len(args) == 12 and args[:6] == ["api", "graphql", "-f", "owner=" + owner, "-f", "name=" + name] \
        and args[6] == "-f" and args[7].startswith("q=") and args[8:] == ["-f", "query=" + query, "--jq", users_jq]:
    q = args[7][2:].lower()
    time.sleep(0.3)
    found = 0
    for line in open(people_file, encoding="utf-8"):
        person = json.loads(line)
        if q in person["login"].lower() or q in person["name"].lower():
            sys.stdout.write(line)
            found += 1
            if found == 50:
                break
    sys.exit(0)
if args[:2] == ["api", "graphql"] and any("teams" in a for a in args):
    sys.exit(1)  # a personal repository: no teams
sys.stderr.write("unexpected arguments: " + json.dumps(args) + "\n")
sys.exit(9)
'''


def percentile(values, p):
    values = sorted(values)
    if not values:
        return float("nan")
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def people_lines(count, folder):
    text = folder / "people.txt"
    subprocess.run([sys.executable, str(GEN), str(count), str(text)], check=True)
    lines = []
    for i, line in enumerate(text.read_text(encoding="utf-8").splitlines()):
        name, handle = line.rsplit(" @", 1)
        login = handle.replace(".", "-")
        lines.append(json.dumps({"login": login, "name": name, "databaseId": 1000 + i,
                                 "email": f"{1000 + i}+{login}@users.noreply.github.com"}, ensure_ascii=False))
    path = folder / "people.ndjson"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run_search(binary, query, env, config=None):
    args = [binary, "search", "--preset", "github", "--type", "--timing", "--json", "--no-frecency", query]
    if config:
        args[2:4] = ["--config", str(config)]
    proc = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600)
    if proc.returncode != 0:
        raise SystemExit(f"atpad search failed ({proc.returncode}): {proc.stderr}")
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    return [line["ms"] for line in lines[1:]]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--people", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "atpad"))
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="atpad-bench-presets-"))
    try:
        people = people_lines(args.people, folder)
        bin_dir = folder / "bin"
        bin_dir.mkdir()
        gh = bin_dir / "gh"
        script = STAND_IN.replace("PEOPLE", repr(str(people))).replace("LOG", repr(str(folder / "gh.log")))
        script = script.replace("LIST_QUERY, QUERY, USERS_JQ", ", ".join(map(repr, [LIST_QUERY, QUERY, USERS_JQ])))
        gh.write_text(script)
        gh.chmod(0o755)
        env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "ATPAD_GITHUB_REPO": REPO,
               "XDG_CACHE_HOME": str(folder / "cache"), "XDG_CONFIG_HOME": str(folder / "config"),
               "XDG_STATE_HOME": str(folder / "state")}

        start = time.monotonic()
        first = run_search(args.binary, "a", env)
        fetch_s = time.monotonic() - start
        cached, firsts, in_memory = [], [], []
        for query in QUERIES:
            for _ in range(args.repeat):
                times = run_search(args.binary, query, env)
                firsts.append(times[0])
                in_memory += times[1:]
                cached += times
        calls_after_fetch = len((folder / "gh.log").read_text().splitlines())

        config = folder / "per-query.toml"
        config.write_text('[triggers."@"]\npreset = "github"\nlist_limit = 1\n')
        run_search(args.binary, "a", env, config)  # finds the list too long, and remembers it
        per_key = []
        for query in QUERIES:
            per_key += run_search(args.binary, query, env, config)

        print(f"people: {args.people}; first fetch of the list (one `atpad search`, first keystroke "
              f"{first[0]:.1f} ms): {fetch_s * 1000:.0f} ms wall; gh calls for all cached runs: {calls_after_fetch}")
        print("| | keystrokes | p50 ms | p99 ms | max ms |")
        print("|---|---|---|---|---|")
        print(f"| cached list in memory (the editor, which reads it at start) | {len(in_memory)} | "
              f"{percentile(in_memory, 50):.3f} | {percentile(in_memory, 99):.3f} | {max(in_memory):.3f} |")
        print(f"| cached list, every keystroke of `atpad search` | {len(cached)} | {percentile(cached, 50):.3f} | "
              f"{percentile(cached, 99):.3f} | {max(cached):.3f} |")
        print(f"| cached list, a new atpad's first keystroke | {len(firsts)} | {percentile(firsts, 50):.3f} | "
              f"{percentile(firsts, 99):.3f} | {max(firsts):.3f} |")
        print(f"| gh at each keystroke (300 ms stand-in) | {len(per_key)} | {percentile(per_key, 50):.1f} | "
              f"{percentile(per_key, 99):.1f} | {max(per_key):.1f} |")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
