"""URL sources against the documented shapes of real services
(docs/directories.md, "Connect your directory"), served on 127.0.0.1: Slack users.list
(cursor paging, deleted users, bots, cached), Jira's user picker, Microsoft Graph (value +
@odata.nextLink), a POST API; the method, body and headers each request carries are checked,
secrets never come out, proxies are honoured."""
import base64
import json
import os
import socket
import stat
import threading
import time
from pathlib import Path

import pytest


TOKEN = "xoxb-not-a-real-token-31337"


def config(tmp_path, text):
    path = tmp_path / "atpad.toml"
    path.write_text(text)
    return str(path)


# MARK: - Slack

SLACK_PAGE_1 = {
    "ok": True,
    "members": [
        {"id": "U01", "name": "ann", "deleted": False, "is_bot": False, "real_name": "Ann Lee",
         "profile": {"real_name": "Ann Lee", "title": "Designer"}},
        {"id": "U02", "name": "gone", "deleted": True, "profile": {"real_name": "Joan Gone"}},
        {"id": "B01", "name": "jobot", "deleted": False, "is_bot": True, "profile": {"real_name": "Jo Bot"}},
    ],
    "response_metadata": {"next_cursor": "dXNlcjpVMDYx"},
}
SLACK_PAGE_2 = {
    "ok": True,
    "members": [
        {"id": "U03", "name": "jsmith", "deleted": False, "is_bot": False,
         "profile": {"real_name": "John Smith", "title": "iOS engineer"}},
        {"id": "U04", "name": "jo", "profile": {"real_name": "", "title": ""}, "real_name": "Jo Ní"},
    ],
    "response_metadata": {"next_cursor": ""},
}


def slack_route(request):
    assert request.method == "GET"
    assert request.headers["authorization"] == "Bearer " + TOKEN
    assert request.headers["accept"] == "application/json"
    if "cursor=dXNlcjpVMDYx" in request.target:
        return 200, SLACK_PAGE_2
    assert "cursor=" not in request.target
    return 200, SLACK_PAGE_1


@pytest.fixture
def slack(services, tmp_path):
    services.routes["/api/users.list"] = slack_route
    env = {"SLACK_TOKEN": TOKEN, "ATPAD_SLACK_API": services.base + "/api"}
    return services, env


def cache_files(tmp_path):
    folder = tmp_path / "xdg-cache" / "atpad" / "lists"
    return sorted(folder.glob("*.json")) if folder.exists() else []


def test_slack_preset_follows_cursors_skips_deleted_users_and_bots_and_ranks_locally(atpad, slack, tmp_path):
    services, env = slack
    proc = atpad("search", "--preset", "slack", "jo", env=env, check_exit=0)
    assert proc.stdout.splitlines() == ["U04\tJo Ní\tjo", "U03\tJohn Smith\tjsmith"]
    assert [r.target for r in services.requests] == [
        "/api/users.list?limit=200", "/api/users.list?limit=200&cursor=dXNlcjpVMDYx"]
    # The token appears nowhere: not in what atpad prints, not in its cache.
    assert TOKEN not in proc.stdout + proc.stderr
    [cached] = cache_files(tmp_path)
    assert TOKEN not in cached.read_text()
    assert stat.S_IMODE(cached.stat().st_mode) == 0o600
    assert stat.S_IMODE(cached.parent.stat().st_mode) == 0o700


def test_slack_cache_second_use_is_local_stale_refreshes_failing_refresh_keeps_the_list(atpad, slack, tmp_path):
    services, env = slack
    atpad("search", "--preset", "slack", "ann", env=env, check_exit=0)
    assert len(services.requests) == 2
    # Second use: nothing reaches the server.
    out = atpad("search", "--preset", "slack", "ann", env=env, check_exit=0).stdout
    assert out == "U01\tAnn Lee\tann\n"
    assert len(services.requests) == 2

    # Stale (older than the preset's hour): refreshed before search answers.
    [cached] = cache_files(tmp_path)
    old = time.time() - 2 * 3600
    os.utime(cached, (old, old))
    SLACK_PAGE_2_NEW = json.loads(json.dumps(SLACK_PAGE_2))
    SLACK_PAGE_2_NEW["members"].append({"id": "U05", "name": "annie", "profile": {"real_name": "Annie New"}})
    services.routes["/api/users.list"] = lambda r: (200, SLACK_PAGE_2_NEW if "cursor=" in r.target else SLACK_PAGE_1)
    out = atpad("search", "--preset", "slack", "ann", env=env, check_exit=0).stdout
    assert "U05\tAnnie New\tannie" in out
    assert len(services.requests) == 4

    # Stale again and the service fails: the last good list answers, and it says so.
    os.utime(cached, (old, old))
    services.routes["/api/users.list"] = lambda r: (500, {"ok": False})
    proc = atpad("search", "--preset", "slack", "ann", env=env, check_exit=0)
    assert "U05\tAnnie New\tannie" in proc.stdout
    assert proc.stderr.count("could not refresh the cached list") == 1
    assert "HTTP 500" in proc.stderr


def test_slack_first_fetch_failing_is_an_answer_error(atpad, slack):
    services, env = slack
    services.routes["/api/users.list"] = lambda r: (200, b"{not json")
    proc = atpad("search", "--preset", "slack", "jo", env=env)
    assert proc.returncode == 1
    assert "malformed answer, malformed JSON, line 1" in proc.stderr


def test_slack_preset_without_its_token_names_the_variable(atpad):
    env = {k: v for k, v in os.environ.items() if k != "SLACK_TOKEN"}
    env["SLACK_TOKEN"] = ""
    proc = atpad("search", "--preset", "slack", "jo", env=env)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "atpad: the slack preset needs SLACK_TOKEN, which is not set"


def test_slack_preset_also_serves_hash_with_channels(atpad, slack):
    services, env = slack
    services.routes["/api/conversations.list"] = lambda r: (200, {
        "ok": True, "channels": [
            {"id": "C1", "name": "general", "purpose": {"value": "Everyone"}},
            {"id": "C2", "name": "old-genesis", "is_archived": True}],
        "response_metadata": {"next_cursor": ""}})
    out = atpad("search", "--preset", "slack", "--trigger-char", "#", "gen", env=env, check_exit=0).stdout
    assert out == "C1\tgeneral\tgeneral\n"


# MARK: - Jira

def test_jira_preset_asks_the_user_picker_with_basic_auth(atpad, services):
    def picker(request):
        assert request.method == "GET"
        assert request.target == "/jira/rest/api/3/user/picker?query=ann%20l&maxResults=50"
        expected = base64.b64encode(b"me@example.com:jira-secret").decode()
        assert request.headers["authorization"] == "Basic " + expected
        return 200, {"users": [
            {"accountId": "5b10a2844c20165700ede21g", "accountType": "atlassian", "html": "<strong>Ann</strong> L",
             "displayName": "Ann Lee"},
            {"accountId": "5b10ac8d82e05b22cc7d4ef5", "displayName": "Ann Lindqvist"}], "total": 2, "header": "x"}
    services.routes["/jira/rest/api/3/user/picker"] = picker
    env = {"JIRA_URL": services.base + "/jira/", "JIRA_USER": "me@example.com", "JIRA_TOKEN": "jira-secret"}
    proc = atpad("search", "--preset", "jira", "ann l", env=env, check_exit=0)
    assert proc.stdout == "5b10a2844c20165700ede21g\tAnn Lee\t\n5b10ac8d82e05b22cc7d4ef5\tAnn Lindqvist\t\n"
    assert len(services.requests) == 1
    assert "jira-secret" not in proc.stdout + proc.stderr


# MARK: - Microsoft Graph

def test_graph_value_and_odata_next_link_headers_only_to_the_same_origin(atpad, services, tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPH_TOKEN", "graph-secret")
    other = f"http://localhost:{services.port}"

    def users(request):
        if "skiptoken" not in request.target:
            assert request.headers["authorization"] == "Bearer graph-secret"
            assert request.headers["consistencylevel"] == "eventual"
            return 200, {"@odata.context": "x", "value": [
                {"id": "g1", "displayName": "Jo Graph", "userPrincipalName": "jo@contoso.com", "jobTitle": "PM"}],
                "@odata.nextLink": services.base + "/v1.0/users?$skiptoken=page2"}
        if "page2" in request.target:
            assert request.headers["authorization"] == "Bearer graph-secret"
            return 200, {"value": [{"id": "g2", "displayName": "Joe Second", "userPrincipalName": "joe@contoso.com"}],
                         "@odata.nextLink": other + "/v1.0/users?$skiptoken=page3"}
        # Another host: the token is not sent there.
        assert "authorization" not in request.headers
        return 200, {"value": [{"id": "g3", "displayName": "Joy Elsewhere"}]}

    services.routes["/v1.0/users"] = users
    path = config(tmp_path, f'''
[triggers."@"]
url = "{services.base}/v1.0/users?$search=%22displayName:{{query}}%22"
items = "value"
next = "@odata.nextLink"
headers = {{ Authorization = "Bearer ${{GRAPH_TOKEN}}", ConsistencyLevel = "eventual" }}
map = {{ id = "id", name = "displayName", handle = "userPrincipalName", detail = "jobTitle" }}
''')
    proc = atpad("search", "jo", "--config", path, check_exit=0)
    assert proc.stdout.splitlines() == ["g1\tJo Graph\tjo@contoso.com", "g2\tJoe Second\tjoe@contoso.com",
                                        "g3\tJoy Elsewhere\t"]
    assert len(services.requests) == 3


def test_max_pages_stops_paging(atpad, services, tmp_path):
    counter = iter(range(100))
    services.routes["/list"] = lambda r: (200, {"data": [{"id": f"p{next(counter)}", "name": "Pat"}],
                                               "next": "more"})
    path = config(tmp_path, f'''
[triggers."@"]
url = "{services.base}/list?q={{query}}"
items = "data"
next = "next"
max_pages = 3
''')
    out = atpad("search", "pat", "--config", path, check_exit=0).stdout
    assert out.splitlines() == ["p0\tPat\t", "p1\tPat\t", "p2\tPat\t"]
    assert [r.target for r in services.requests] == ["/list?q=pat", "/list?q=pat&cursor=more", "/list?q=pat&cursor=more"]


# MARK: - POST, body and headers

def test_post_body_template_headers_and_a_cursor_in_the_body(atpad, services, tmp_path, monkeypatch):
    monkeypatch.setenv("API_KEY", "k-123")

    def search(request):
        assert request.method == "POST"
        assert request.headers["content-type"] == "application/json; charset=utf-8"
        assert request.headers["x-api-key"] == "k-123"
        body = request.json
        assert body["query"] == 'Jo "quoted" \\ é'
        assert body["limit"] == 5
        if "after" not in body:
            return 200, {"result": {"people": [{"uid": 7, "full": "Jo Quote", "active": True}]}, "page": {"next": "c2"}}
        assert body["after"] == "c2"
        return 200, {"result": {"people": [{"uid": 8, "full": "Jo Two", "suspended": True},
                                           {"uid": 9, "full": "Jo Nine"}]}, "page": {}}

    services.routes["/search"] = search
    path = config(tmp_path, f'''
[triggers."@"]
url = "{services.base}/search"
method = "POST"
body = '{{"query": "{{query}}", "limit": 5}}'
headers = {{ X-Api-Key = "${{API_KEY}}" }}
items = "result.people"
next = "page.next"
cursor_param = "after"
exclude = ["suspended"]
map = {{ id = "uid", name = "full", detail = "active: {{active}}" }}
''')
    proc = atpad("search", 'Jo "quoted" \\ é', "--json", "--config", path, check_exit=0)
    results = json.loads(proc.stdout)["results"]
    assert [r["id"] for r in results] == ["7", "9"]
    assert len(services.requests) == 2


def test_an_unset_header_variable_is_a_setup_error_naming_it(atpad, services, tmp_path):
    path = config(tmp_path, f'''
[triggers."@"]
url = "{services.base}/x?q={{query}}"
headers = {{ Authorization = "Bearer ${{ATPAD_TEST_UNSET_TOKEN}}" }}
''')
    proc = atpad("search", "jo", "--config", path)
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("atpad: header Authorization needs the environment variable "
                                   "ATPAD_TEST_UNSET_TOKEN, which is not set")
    assert services.requests == []


# MARK: - Bad answers

@pytest.mark.parametrize("answer,items,expected", [
    (b"{\"members\": [", "members", "malformed JSON, line 1"),
    ({"ok": True}, "members", 'items "members" is not in the answer'),
    ({"members": {"id": "1"}}, "members", 'items "members" is an object, not an array'),
    ({"members": [{"id": "1", "name": {"first": "A"}}]}, "members",
     'map name = "name": item 1 has an object there, not a value'),
])
def test_bad_answers_are_one_clear_line(atpad, services, answer, items, expected):
    services.routes["/p"] = lambda r: (200, answer)
    proc = atpad("search", "a", "--directory-url", services.base + "/p?q={query}", "--items", items)
    assert proc.returncode == 1
    line = proc.stderr.strip()
    assert "\n" not in line and expected in line, line


def test_a_50_mb_answer_is_refused(atpad, services):
    big = b'{"members": [' + b'{"id": "x", "name": "' + b"a" * (50 << 20) + b'"}]}'
    services.routes["/big"] = lambda r: (200, big)
    proc = atpad("search", "a", "--directory-url", services.base + "/big", "--items", "members")
    assert proc.returncode == 1
    assert "the answer is larger than 16 MB" in proc.stderr


def test_a_server_that_never_answers_times_out(atpad, services):
    services.routes["/slow"] = lambda r: (200, "hang")
    start = time.monotonic()
    proc = atpad("search", "a", "--directory-url", services.base + "/slow?q={query}", "--items", "",
                 "--command-timeout", "0.5")
    assert proc.returncode == 1
    assert "timed out after 0.5 s" in proc.stderr
    assert time.monotonic() - start < 5


def test_items_skipped_without_id_or_name_are_counted_once(atpad, services):
    services.routes["/m"] = lambda r: (200, {"data": [{"login": "a", "name": "Ann"}, {"name": "No Login"},
                                                      {"login": "b"}]})
    proc = atpad("search", "", "--directory-url", services.base + "/m", "--items", "data",
                 "--map", "id=login,name=name//login", check_exit=0)
    assert proc.stdout.splitlines() == ["a\tAnn\t", "b\tb\t"]
    assert "atpad: 1 item without id or name skipped" in proc.stderr


# MARK: - Proxies

class Proxy:
    """A plain HTTP proxy that answers absolute-form GETs itself and records CONNECTs."""

    def __init__(self):
        self.lines = []
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def stop(self):
        # shutdown() wakes the accept() under way; close() alone would leave it holding the
        # listening socket, which then took the connections of later tests' servers.
        self.sock.shutdown(socket.SHUT_RDWR)
        self.thread.join(timeout=10)
        self.sock.close()
        assert not self.thread.is_alive(), "the proxy still accepts"

    def serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                head = b""
                while b"\r\n\r\n" not in head:
                    chunk = conn.recv(4096)
                    if not chunk:
                        break
                    head += chunk
                first = head.split(b"\r\n", 1)[0].decode()
                self.lines.append(first)
                if first.startswith("GET "):
                    body = json.dumps([{"id": "px", "name": "Proxied Person"}]).encode()
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)
                else:
                    conn.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


@pytest.fixture
def proxy():
    running = Proxy()
    yield running
    running.stop()


def test_http_proxy_and_https_proxy_are_honoured(atpad, proxy):
    env = {"http_proxy": f"http://127.0.0.1:{proxy.port}", "https_proxy": f"http://127.0.0.1:{proxy.port}",
           "no_proxy": ""}
    out = atpad("search", "pro", "--directory-url", "http://people.invalid/find?q={query}", env=env, check_exit=0).stdout
    assert out == "px\tProxied Person\t\n"
    assert proxy.lines[0] == "GET http://people.invalid/find?q=pro HTTP/1.1"
    proc = atpad("search", "pro", "--directory-url", "https://people.invalid/find?q={query}", env=env)
    assert proc.returncode == 1
    assert proxy.lines[1].startswith("CONNECT people.invalid:443 ")
