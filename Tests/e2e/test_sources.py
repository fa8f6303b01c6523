"""Command and URL directories end to end (docs/directories.md): through `atpad search` and the
editor in tmux, merged after the directory files, routed with -t."""
import http.server
import json
import threading
import urllib.parse

import pytest

from conftest import popup_open


@pytest.fixture
def command(tmp_path):
    """A directory command script that answers from a fixed list, by substring."""
    script = tmp_path / "lookup.sh"
    script.write_text(
        "#!/bin/sh\n"
        "q=$(printf '%s' \"$1\" | tr 'A-Z' 'a-z')\n"
        "for who in 'c1:Carol Cmd' 'c2:Carl Cmd' 'c3:Dave Cmd'; do\n"
        "  id=${who%%:*}; name=${who#*:}\n"
        "  case $(printf '%s' \"$name\" | tr 'A-Z' 'a-z') in *\"$q\"*) printf '{\"id\": \"%s\", \"name\": \"%s\"}\\n' \"$id\" \"$name\";; esac\n"
        "done\n")
    script.chmod(0o755)
    return f'{script} "$1"'


@pytest.fixture
def server():
    """A local HTTP directory on 127.0.0.1 that answers ?q= with a JSON array."""
    seen = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query).get("q", [""])[0]
            seen.append(query)
            people = [{"id": "w1", "name": "Wendy Web"}, {"id": "w2", "name": "Walt Web"}]
            body = json.dumps([p for p in people if query.lower() in p["name"].lower()]).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/people?q={{query}}", seen
    httpd.shutdown()
    httpd.server_close()


def test_search_with_a_command(atpad, command):
    out = atpad("search", "car", "--directory-command", command, check_exit=0).stdout
    assert out.splitlines() == ["c1\tCarol Cmd\t", "c2\tCarl Cmd\t"]


def test_search_with_a_url_sends_the_query_percent_encoded(atpad, server):
    url, seen = server
    out = atpad("search", "wendy w", "--directory-url", url, check_exit=0).stdout
    assert out.splitlines() == ["w1\tWendy Web\t"]
    assert seen == ["wendy w"]


def test_files_first_then_the_command_without_repeated_ids(atpad, people, command):
    path = people([{"id": "c2", "name": "Carl File"}, {"id": "f1", "name": "Carla File"}])
    out = atpad("search", "car", "-d", path, "--directory-command", command, check_exit=0).stdout
    assert [line.split("\t")[0] for line in out.splitlines()] == ["c2", "f1", "c1"]


def test_a_failing_command_is_an_error(atpad):
    # A source that fails while answering is exit status 1 (2 is for set-up; docs/exit-status.md).
    proc = atpad("search", "x", "--directory-command", "echo oops >&2; exit 3")
    assert proc.returncode == 1 and "status 3" in proc.stderr


def test_editor_picks_from_a_command(sessions, command, tmp_path):
    path = tmp_path / "c.atpad"
    s = sessions([str(path), "--directory-command", command])
    s.type("hi @caro")
    s.wait_for("Carol Cmd")
    s.keys("Enter")
    s.wait_for(lambda sc: not popup_open(sc) and "hi @Carol Cmd" in sc, what="the pick")
    s.keys("C-s")
    s.wait_for("Saved")
    assert path.read_text() == "hi @[Carol Cmd](c1)"  # the pick's soft space at the end is not saved


def test_editor_routes_hash_to_channels_and_at_to_a_url(sessions, people, server, tmp_path):
    url, _ = server
    channels = people([{"id": "C1", "name": "general"}], name="channels.json")
    path = tmp_path / "c.atpad"
    s = sessions([str(path), "-t", f"#={channels}", "--directory-url", url])
    s.type("see #gen")
    s.wait_for("general")
    s.keys("Enter")
    s.type("and @wen")
    s.wait_for("Wendy Web")
    s.keys("Enter")
    s.wait_for(lambda sc: "@Wendy Web" in sc and not popup_open(sc), what="the second pick")
    s.keys("C-s")
    s.wait_for("Saved")
    assert path.read_text() == "see #[general](C1) and @[Wendy Web](w1)"  # no soft space at the end


def test_a_large_directory_loads_behind_the_first_screen(sessions, tmp_path):
    # About 20 MB: far over the 4 MB that load before the screen, and seconds of parsing
    # in the debug build the tests run.
    path = tmp_path / "big.json"
    people = [{"id": f"u{i}", "name": f"Person Number {i}", "handle": f"person{i}", "detail": "x" * 20}
              for i in range(250_000)]
    people.append({"id": "last", "name": "Zelda Last"})
    path.write_text(json.dumps(people))
    s = sessions(["-d", str(path)])
    s.type("@zel")
    s.wait_for("loading directory", what="the loading row")
    s.wait_for("Zelda Last", timeout=60, what="the results once loaded")
