#!/usr/bin/env python3
"""`atpad lsp` over its pipe (issue 37): `initialize` answered after start, and completion
request to response for one- to three-letter queries, with the bundled sample directory
and with generated directories (bench_directory.py's people files).

    scripts/install --prefix $PWD/bench-out/x
    python3 scripts/bench/bench_lsp.py bench-out/x/bin/atpad [--sizes 1000000] [--repeat 50]

Each query is asked `--repeat` times (the document changed before each, as typing does);
the time is from writing the request (os.write of its framed bytes, encoded before the
clock starts) to having read the last byte of its response (os.read on the raw pipe, the
response parsed after the clock stops).
`initialize` is timed from the process start; the directory loads meanwhile (from its
index after the first run), and one hover before the timed requests waits for it, timed
too (`ready`: from the start until the directory answers). Peak RSS (GNU time) of that run,
and of one that asks only `@joh`, against `atpad search` answering `joh`: a big
directory's index is mapped, and its pages count once a query has read them.
"""
import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_directory import generate, percentile  # noqa: E402

QUERIES = ["a", "j", "m", "jo", "mu", "wa", "tra", "joh", "sat"]


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def write_all(fd, data):
    while data:
        data = data[os.write(fd, data):]


class Reader:
    """The server's stdout read with os.read on its raw descriptor into one buffer: each
    message is cut out by its Content-Length and the time its last byte arrived is kept,
    so that a response is timed when it has been read whole, not after Python has parsed
    it (json.loads runs after the clock stops)."""

    def __init__(self, fd):
        self.fd, self.buffer, self.read_at = fd, bytearray(), 0.0

    def frame(self):
        """The next message's body and when its last byte was read."""
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end >= 0:
                length = int(bytes(self.buffer[:end]).split(b":")[1].split(b"\r\n")[0])
                if len(self.buffer) - end - 4 >= length:
                    # The read that brought its last byte, not when it is cut out here.
                    at = self.read_at
                    body = bytes(self.buffer[end + 4:end + 4 + length])
                    del self.buffer[:end + 4 + length]
                    return body, at
            more = os.read(self.fd, 1 << 16)
            self.read_at = time.perf_counter()
            if not more:
                raise SystemExit("the server closed its stdout")
            self.buffer += more

    def answer(self, id):
        """The response to request `id` and when it had been read whole (messages before it,
        such as publishDiagnostics, are read and passed over)."""
        while True:
            body, at = self.frame()
            message = json.loads(body)
            if message.get("id") == id:
                return message, at


def max_rss_mb(command):
    """The maximum resident set of `command` (GNU time), in MB."""
    out = subprocess.run(["/usr/bin/time", "-f", "%M", *command], capture_output=True, text=True, check=True)
    return int(out.stderr.strip().splitlines()[-1]) / 1024


def run(binary, args, repeat, rss_file=None, queries=QUERIES):
    timing = ["/usr/bin/time", "-f", "%M", "-o", rss_file] if rss_file else []
    start = time.perf_counter()
    proc = subprocess.Popen([*timing, binary, "lsp", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    reader = Reader(proc.stdout.fileno())
    send = lambda m: write_all(proc.stdin.fileno(), frame(m))
    send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}})
    _, at = reader.answer(0)
    initialize_ms = (at - start) * 1000
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": "file:///c.md", "languageId": "markdown", "version": 1, "text": "hi "}}})
    send({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": "file:///c.md"}, "position": {"line": 0, "character": 0}}})
    _, at = reader.answer(1)
    ready_ms = (at - start) * 1000
    times, counts, next_id, version = {}, {}, 2, 1
    for q in queries:
        for _ in range(repeat):
            version += 1
            send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": "file:///c.md", "version": version},
                "contentChanges": [{"text": "hi @" + q}]}})
            request = {"jsonrpc": "2.0", "id": next_id, "method": "textDocument/completion", "params": {
                "textDocument": {"uri": "file:///c.md"}, "position": {"line": 0, "character": 4 + len(q)}}}
            body = frame(request)
            t = time.perf_counter()
            write_all(proc.stdin.fileno(), body)
            answer, at = reader.answer(next_id)
            times.setdefault(q, []).append((at - t) * 1000)
            counts[q] = len(answer["result"]["items"])
            next_id += 1
    send({"jsonrpc": "2.0", "id": next_id, "method": "shutdown"})
    reader.answer(next_id)
    send({"jsonrpc": "2.0", "method": "exit"})
    proc.wait(timeout=30)
    return initialize_ms, ready_ms, times, counts


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--sizes", default="1000000")
    parser.add_argument("--repeat", type=int, default=50)
    a = parser.parse_args()
    setups = [("bundled sample", [])]
    for size in [int(s) for s in a.sizes.split(",") if s]:
        _, path = generate(size)
        setups.append((f"{size:,} people", ["-d", str(path)]))
    for name, args in setups:
        run(a.binary, args, 1)  # writes the directory's index, as a first run does
        rss_file = str(Path(a.binary).resolve().parent / "lsp-rss.txt")
        initialize_ms, ready_ms, times, counts = run(a.binary, args, a.repeat, rss_file)
        lsp_mb = int(Path(rss_file).read_text().strip().splitlines()[-1]) / 1024
        # A mapped index's pages count in the RSS once a query has read them: the server
        # is also measured answering search's one query, the same work.
        run(a.binary, args, 1, rss_file, queries=["joh"])
        lsp_joh_mb = int(Path(rss_file).read_text().strip().splitlines()[-1]) / 1024
        search_mb = max_rss_mb([a.binary, "search", "--no-frecency", *args, "joh"])
        pooled = [t for ts in times.values() for t in ts]
        print(f"{name}: initialize {initialize_ms:.1f} ms after start, ready {ready_ms:.1f} ms; completion p50 "
              f"{percentile(pooled, 50):.2f} ms, p99 {percentile(pooled, 99):.2f} ms, max {max(pooled):.2f} ms "
              f"({len(pooled)} requests); memory {lsp_mb:.0f} MB, answering 'joh' alone {lsp_joh_mb:.0f} MB "
              f"(atpad search 'joh': {search_mb:.0f} MB)")
        for q in QUERIES:
            print(f"  {q!r}: p50 {percentile(times[q], 50):.2f} ms, p99 {percentile(times[q], 99):.2f} ms, "
                  f"{counts[q]} items")


if __name__ == "__main__":
    main()
