"""`atpad post` and `--dry-run` (docs/posting.md) against a local server in the shapes of Slack,
Jira, Zulip and Matrix, and stand-in `gh` and `glab` that check their exact argument lists
and stdin: the request each target sends (method, path, headers, exact body), the result
on stdout, and every kind of failure — ok:false, 401, 429 with Retry-After, 500, a hang, a
dropped connection — with its exit status and its one line."""
import base64
import json
import os
import stat
import textwrap
import time
from urllib.parse import parse_qs

import pytest


PEOPLE = [
    {"id": "U01", "name": "John Doe", "handle": "jdoe"},
    {"id": "5b10a2844c20165700ede21g", "name": "Ann Lee", "handle": "ann"},
]
SECRETS = ["xoxb-secret-31337", "jira-secret-31337", "zulip-secret-31337", "syt-secret-31337"]


@pytest.fixture
def directory(tmp_path):
    path = tmp_path / "people.json"
    path.write_text(json.dumps(PEOPLE))
    return str(path)


@pytest.fixture
def comment(tmp_path):
    """A saved comment in atpad markup: two mentions, text that each format escapes, two paragraphs."""
    path = tmp_path / "c.atpad"
    path.write_text("Hi @[John Doe](U01) & <team>,\nsee @[Ann Lee](5b10a2844c20165700ede21g) 🚀\n\nThanks")
    return str(path)


def env_for(services):
    base = services.base
    return {
        "ATPAD_SLACK_API": base + "/api", "SLACK_TOKEN": SECRETS[0],
        "JIRA_URL": base + "/jira", "JIRA_USER": "me@acme.io", "JIRA_TOKEN": SECRETS[1],
        "ZULIP_SITE": base + "/zulip", "ZULIP_EMAIL": "bot@acme.io", "ZULIP_API_KEY": SECRETS[2],
        "MATRIX_HOMESERVER": base + "/matrix", "MATRIX_TOKEN": SECRETS[3],
    }


def basic(user, secret):
    return "Basic " + base64.b64encode(f"{user}:{secret}".encode()).decode()


def no_secret_in(*texts):
    for text in texts:
        for secret in SECRETS:
            assert secret not in text


# MARK: - The four HTTP services, success

def test_slack_posts_json_with_the_token_and_prints_channel_and_ts(atpad, services, comment, directory):
    services.routes["/api/chat.postMessage"] = lambda r: (200, {"ok": True, "channel": "C0123", "ts": "1700000000.000200"})
    proc = atpad("post", "slack:C0123/1700000000.000100", comment, "-d", directory, env=env_for(services))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "C0123 1700000000.000200\n"
    [request] = services.requests
    assert request.method == "POST"
    assert request.headers["authorization"] == "Bearer " + SECRETS[0]
    assert request.headers["content-type"] == "application/json; charset=utf-8"
    assert request.body == ('{"channel": "C0123", "text": "Hi <@U01> &amp; &lt;team&gt;,\\nsee <@5b10a2844c20165700ede21g> 🚀\\n\\nThanks", '
                            '"thread_ts": "1700000000.000100"}').encode()
    no_secret_in(proc.stdout, proc.stderr)


def test_jira_posts_an_adf_document_with_mention_nodes(atpad, services, comment, directory):
    services.routes["/jira/rest/api/3/issue/KEY-123/comment"] = lambda r: (201, {"id": "10042", "self": "x"})
    proc = atpad("post", "jira:KEY-123", comment, "-d", directory, env=env_for(services))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == services.base + "/jira/browse/KEY-123?focusedCommentId=10042\n"
    [request] = services.requests
    assert request.method == "POST"
    assert request.headers["authorization"] == basic("me@acme.io", SECRETS[1])
    assert json.loads(request.body) == {"body": {"type": "doc", "version": 1, "content": [
        {"type": "paragraph", "content": [
            {"type": "text", "text": "Hi "},
            {"type": "mention", "attrs": {"id": "U01", "text": "@John Doe"}},
            {"type": "text", "text": " & <team>,"},
            {"type": "hardBreak"},
            {"type": "text", "text": "see "},
            {"type": "mention", "attrs": {"id": "5b10a2844c20165700ede21g", "text": "@Ann Lee"}},
            {"type": "text", "text": " 🚀"},
        ]},
        {"type": "paragraph", "content": [{"type": "text", "text": "Thanks"}]},
    ]}}
    # render --format adf writes the same document.
    rendered = atpad("render", comment, "--format", "adf", check_exit=0)
    assert json.loads(rendered.stdout) == json.loads(request.body)["body"]


def test_zulip_posts_a_form(atpad, services, comment, directory):
    services.routes["/zulip/api/v1/messages"] = lambda r: (200, {"result": "success", "msg": "", "id": 4242})
    proc = atpad("post", "zulip:dev team/release 1.0", comment, "-d", directory, env=env_for(services))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "4242\n"
    [request] = services.requests
    assert request.method == "POST"
    assert request.headers["authorization"] == basic("bot@acme.io", SECRETS[2])
    assert request.headers["content-type"] == "application/x-www-form-urlencoded"
    assert parse_qs(request.body.decode(), strict_parsing=True) == {
        "type": ["stream"], "to": ["dev team"], "topic": ["release 1.0"],
        "content": ["Hi @**John Doe|U01** & <team>,\nsee @**Ann Lee|5b10a2844c20165700ede21g** 🚀\n\nThanks"]}


def test_matrix_puts_the_event_with_a_fresh_transaction_each_time(atpad, services, comment, directory):
    seen = []

    def route(r):
        seen.append(r)
        return 200, {"event_id": f"$ev{len(seen)}"}
    room = "/matrix/_matrix/client/v3/rooms/%21room%3Aacme.io/send/m.room.message/"
    # The transaction id is the last part of the path: route every request to `route`.
    services.routes = RoutePrefix(room, route)
    for n in (1, 2):
        proc = atpad("post", "matrix:!room:acme.io", comment, "-d", directory, env=env_for(services))
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == f"$ev{n}\n"
    assert [r.method for r in seen] == ["PUT", "PUT"]
    txns = [r.path[len(room):] for r in seen]
    assert all(txns) and txns[0] != txns[1]
    assert seen[0].headers["authorization"] == "Bearer " + SECRETS[3]
    event = json.loads(seen[0].body)
    assert event["msgtype"] == "m.text"
    assert event["m.mentions"] == {"user_ids": ["U01", "5b10a2844c20165700ede21g"]}
    assert event["body"] == "Hi @John Doe & <team>,\nsee @Ann Lee 🚀\n\nThanks"


class RoutePrefix(dict):
    """A routes table that sends every path under `prefix` to one route."""
    def __init__(self, prefix, route):
        super().__init__()
        self.prefix, self.route = prefix, route

    def get(self, path, default=None):
        return self.route if path.startswith(self.prefix) else default


def test_a_slack_channel_name_is_looked_up_page_by_page(atpad, services, comment, directory):
    def route(r):
        if r.path.startswith("/api/conversations.list"):
            if "cursor=page2" not in r.target:
                return 200, {"ok": True, "channels": [{"id": "C1", "name": "general"}], "response_metadata": {"next_cursor": "page2"}}
            return 200, {"ok": True, "channels": [{"id": "C0DEV", "name": "dev"}], "response_metadata": {"next_cursor": ""}}
        return 200, {"ok": True, "channel": "C0DEV", "ts": "1.2"}
    services.routes = RoutePrefix("/api/", route)
    proc = atpad("post", "slack:#dev", comment, "-d", directory, env=env_for(services))
    assert (proc.returncode, proc.stdout) == (0, "C0DEV 1.2\n"), proc.stderr
    lists, post = services.requests[:2], services.requests[2]
    assert [r.method for r in lists] == ["GET", "GET"] and post.path == "/api/chat.postMessage"
    assert json.loads(post.body)["channel"] == "C0DEV"
    # A name no channel has: one line, nothing posted.
    services.requests.clear()
    proc = atpad("post", "slack:#nowhere", comment, "-d", directory, env=env_for(services))
    assert proc.returncode == 1
    assert proc.stderr == "atpad: Not posted to slack:#nowhere: Slack has no channel #nowhere that SLACK_TOKEN can see; give its id (slack:C0123)\n"
    assert not any(r.path == "/api/chat.postMessage" for r in services.requests)


# MARK: - Failures: one line, the right exit status, nothing retried

def slack(services, answer):
    services.routes["/api/chat.postMessage"] = lambda r: answer


@pytest.mark.parametrize("answer,line", [
    ((200, {"ok": False, "error": "channel_not_found"}), "atpad: Not posted to slack:C1: Slack says channel_not_found\n"),
    ((200, {"ok": False, "error": "invalid_auth"}), "atpad: Not posted to slack:C1: Slack says invalid_auth; check SLACK_TOKEN\n"),
    ((401, {"ok": False, "error": "not_authed"}), "atpad: Not posted to slack:C1: HTTP 401 not_authed; check SLACK_TOKEN\n"),
    ((429, {"ok": False, "error": "ratelimited"}, {"Retry-After": "30"}),
     "atpad: Not posted to slack:C1: HTTP 429 ratelimited; Slack asks to wait 30 s (Retry-After)\n"),
    ((500, b"upstream broke"), "atpad: Not posted to slack:C1: HTTP 500 upstream broke\n"),
])
def test_a_failed_post_is_one_line_and_exit_1(atpad, services, comment, directory, answer, line):
    slack(services, answer)
    proc = atpad("post", "slack:C1", comment, "-d", directory, env=env_for(services))
    assert (proc.returncode, proc.stdout, proc.stderr) == (1, "", line)
    assert len(services.requests) == 1  # never retried


def test_jira_and_matrix_errors_name_their_variables(atpad, services, comment, directory):
    services.routes["/jira/rest/api/3/issue/K-1/comment"] = lambda r: (403, {"errorMessages": ["You cannot comment"], "errors": {}})
    proc = atpad("post", "jira:K-1", comment, "-d", directory, env=env_for(services))
    assert (proc.returncode, proc.stderr) == (1, "atpad: Not posted to jira:K-1: HTTP 403 You cannot comment; check JIRA_USER and JIRA_TOKEN\n")
    services.routes = RoutePrefix("/matrix/", lambda r: (401, {"errcode": "M_UNKNOWN_TOKEN", "error": "Unknown token"}))
    proc = atpad("post", "matrix:!r:acme.io", comment, "-d", directory, env=env_for(services))
    assert (proc.returncode, proc.stderr) == (1, "atpad: Not posted to matrix:!r:acme.io: HTTP 401 M_UNKNOWN_TOKEN: Unknown token; check MATRIX_TOKEN\n")
    services.routes = {"/zulip/api/v1/messages": lambda r: (400, {"result": "error", "msg": "Stream 'x' does not exist", "code": "STREAM_DOES_NOT_EXIST"})}
    proc = atpad("post", "zulip:x/y", comment, "-d", directory, env=env_for(services))
    assert (proc.returncode, proc.stderr) == (1, "atpad: Not posted to zulip:x/y: HTTP 400 Stream 'x' does not exist\n")


@pytest.mark.parametrize("answer", ["hang", "drop"])
def test_no_answer_may_or_may_not_have_been_posted(atpad, services, comment, directory, answer):
    slack(services, (200, answer))
    started = time.monotonic()
    proc = atpad("post", "slack:C1", comment, "-d", directory, "--command-timeout", "1", env=env_for(services))
    assert proc.returncode == 1
    assert time.monotonic() - started < 10
    assert "may or may not have been posted to slack:C1" in proc.stderr
    assert proc.stderr.count("\n") == 1
    assert len(services.requests) == 1  # never silently retried


def test_the_configs_command_timeout_bounds_a_post(atpad, services, comment, directory, tmp_path):
    slack(services, (200, "hang"))
    config = tmp_path / "atpad.toml"
    config.write_text("command_timeout = 1\n")
    started = time.monotonic()
    proc = atpad("post", "slack:C1", comment, "-d", directory, "--config", str(config), env=env_for(services))
    assert proc.returncode == 1
    assert time.monotonic() - started < 8, "the config's 1 s, not the default 10 s"
    assert "timed out after 1 s" in proc.stderr and "may or may not have been posted" in proc.stderr
    # --command-timeout still wins over the config.
    config.write_text("command_timeout = 30\n")
    started = time.monotonic()
    proc = atpad("post", "slack:C1", comment, "-d", directory, "--config", str(config), "--command-timeout", "1",
                 env=env_for(services))
    assert proc.returncode == 1 and time.monotonic() - started < 8
    assert "timed out after 1 s" in proc.stderr


def test_nothing_listening_is_not_posted(atpad, comment, directory, services):
    env = env_for(services)
    services.stop()
    proc = atpad("post", "slack:C1", comment, "-d", directory, env=env)
    assert proc.returncode == 1
    assert proc.stderr.startswith("atpad: Not posted to slack:C1: ")
    assert "may or may not" not in proc.stderr


# MARK: - Usage problems: exit 2, nothing sent

@pytest.mark.parametrize("target,variable", [
    ("slack:C1", "SLACK_TOKEN"), ("jira:K-1", "JIRA_TOKEN"), ("zulip:s/t", "ZULIP_API_KEY"), ("matrix:!r:h", "MATRIX_TOKEN"),
])
def test_a_missing_variable_is_named_exit_2(atpad, services, comment, target, variable):
    env = env_for(services)
    env[variable] = ""
    proc = atpad("post", target, comment, env=env)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"atpad: {variable} is not set") and proc.stderr.count("\n") == 1
    assert services.requests == []


def test_bad_target_and_missing_tool_exit_2(atpad, comment, tmp_path):
    proc = atpad("post", "github:octo", comment)
    assert (proc.returncode, proc.stderr) == (2, 'atpad: bad target "github:octo": expected github:OWNER/REPO#N\n')
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    proc = atpad("post", "github:o/r#1", comment, env={"PATH": str(empty)})
    assert (proc.returncode, proc.stderr) == (2, "atpad: gh is not installed (or not in PATH); it posts to GitHub\n")
    proc = atpad("post", "slack:C1", str(tmp_path / "missing.md"), env={"SLACK_TOKEN": "x"})
    assert proc.returncode == 2 and "missing.md" in proc.stderr


def test_an_empty_comment_is_not_posted(atpad, services, tmp_path):
    empty = tmp_path / "empty.md"
    empty.write_text("\n  \n")
    proc = atpad("post", "slack:C1", str(empty), env=env_for(services))
    assert (proc.returncode, proc.stderr) == (1, "atpad: Not posted to slack:C1: the comment is empty\n")
    assert services.requests == []


# MARK: - gh and glab

def stand_in(tmp_path, name, expected_args, answer, status=0, stderr=""):
    """A stand-in for `name` that fails unless called with exactly `expected_args`; it
    saves its stdin and answers `answer` (JSON) on stdout."""
    folder = tmp_path / "bin"
    folder.mkdir(exist_ok=True)
    script = folder / name
    script.write_text(textwrap.dedent(f"""\
        #!/usr/bin/env python3
        import json, sys
        expected = {expected_args!r}
        if sys.argv[1:] != expected:
            sys.stderr.write("{name}: unexpected arguments " + json.dumps(sys.argv[1:]) + "\\n")
            sys.exit(64)
        data = sys.stdin.buffer.read()
        open({str(tmp_path / (name + '.stdin'))!r}, "wb").write(data)
        sys.stdout.write({json.dumps(answer)!r})
        sys.stderr.write({stderr!r})
        sys.exit({status})
        """))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return {"PATH": f"{folder}:{os.environ['PATH']}"}


def test_github_runs_gh_with_the_body_on_stdin(atpad, comment, directory, tmp_path):
    env = stand_in(tmp_path, "gh", ["api", "--method", "POST", "repos/octo/atpad/issues/12/comments", "-F", "body=@-"],
                   {"id": 1, "html_url": "https://github.com/octo/atpad/issues/12#issuecomment-1"})
    proc = atpad("post", "github:octo/atpad#12", comment, "-d", directory, env=env)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "https://github.com/octo/atpad/issues/12#issuecomment-1\n", "")
    assert (tmp_path / "gh.stdin").read_text() == "Hi @jdoe & <team>,\nsee @ann 🚀\n\nThanks"


def test_a_long_body_never_goes_on_the_command_line(atpad, directory, tmp_path):
    long = tmp_path / "long.md"
    long.write_text("x" * 300_000 + "\n@jdoe")
    env = stand_in(tmp_path, "gh", ["api", "--method", "POST", "repos/o/r/issues/1/comments", "-F", "body=@-"],
                   {"html_url": "https://github.com/o/r/issues/1#issuecomment-2"})
    proc = atpad("post", "github:o/r#1", str(long), "-d", directory, env=env)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "gh.stdin").read_text() == long.read_text()


def test_gh_failing_is_one_line_exit_1(atpad, comment, directory, tmp_path):
    env = stand_in(tmp_path, "gh", ["api", "--method", "POST", "repos/o/r/issues/1/comments", "-F", "body=@-"],
                   {"message": "Bad credentials"}, status=1, stderr="gh: Bad credentials (HTTP 401)\n")
    proc = atpad("post", "github:o/r#1", comment, "-d", directory, env=env)
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr == ("atpad: Not posted to github:o/r#1: gh: Bad credentials (HTTP 401) (gh exited with status 1); "
                           "check gh's login (gh auth status; GH_TOKEN)\n")


@pytest.mark.parametrize("target,path", [
    ("gitlab:grp/sub/proj#3", "projects/grp%2Fsub%2Fproj/issues/3/notes"),
    ("gitlab:grp/proj!9", "projects/grp%2Fproj/merge_requests/9/notes"),
])
def test_gitlab_runs_glab_on_the_project_path(atpad, comment, directory, tmp_path, target, path):
    env = stand_in(tmp_path, "glab", ["api", "--method", "POST", path, "-F", "body=@-"], {"id": 777, "body": "…"})
    proc = atpad("post", target, comment, "-d", directory, env=env)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "777\n", "")
    assert (tmp_path / "glab.stdin").read_text() == "Hi @jdoe & <team>,\nsee @ann 🚀\n\nThanks"


# MARK: - stdin and --dry-run

def test_stdin_is_read_as_a_file_without_an_extension(atpad, services, directory):
    slack(services, (200, {"ok": True, "channel": "C1", "ts": "1.2"}))
    proc = atpad("post", "slack:C1", "-", "-d", directory, input="hi @jdoe", env=env_for(services))
    assert (proc.returncode, proc.stdout) == (0, "C1 1.2\n"), proc.stderr
    assert json.loads(services.requests[0].body)["text"] == "hi <@U01>"


@pytest.mark.parametrize("target", ["slack:C1", "jira:K-1", "zulip:s/t", "matrix:!r:h"])
def test_dry_run_prints_the_request_hides_secrets_and_sends_nothing(atpad, services, comment, directory, target):
    proc = atpad("post", "--dry-run", target, comment, "-d", directory, env=env_for(services))
    assert proc.returncode == 0, proc.stderr
    head, body = proc.stdout.split("\n\n", 1)
    lines = head.split("\n")
    method, url = lines[0].split(" ", 1)
    assert method in ("POST", "PUT") and url.startswith(services.base)
    assert any(line.startswith("Authorization: ") and line.endswith(" ***") for line in lines)
    no_secret_in(proc.stdout, proc.stderr)
    for secret in SECRETS:
        assert base64.b64encode(f"me@acme.io:{secret}".encode()).decode() not in proc.stdout
        assert base64.b64encode(f"bot@acme.io:{secret}".encode()).decode() not in proc.stdout
    assert services.requests == []
    assert body.endswith("\n")


@pytest.mark.parametrize("target, first", [
    ("slack:C1", "POST https://slack.com/api/chat.postMessage"),
    ("jira:K-1", "POST ${JIRA_URL}/rest/api/3/issue/K-1/comment"),
    ("zulip:s/t", "POST ${ZULIP_SITE}/api/v1/messages"),
    ("matrix:!r", "PUT ${MATRIX_HOMESERVER}/_matrix/client/v3/rooms/%21r/send/m.room.message/"),
    ("gitlab:g/p#1", "glab api --method POST projects/g%2Fp/issues/1/notes -F body=@-"),
])
def test_dry_run_needs_no_token_no_tool_and_no_network(atpad, comment, directory, target, first):
    # No service variable, and a PATH without gh or glab: what would be sent is still shown.
    env = {"PATH": "/nonexistent", "HOME": os.environ.get("HOME", "/tmp")}
    proc = atpad("post", "--dry-run", target, comment, "-d", directory, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(first), proc.stdout


def test_post_names_who_will_not_be_notified(atpad, services, directory, tmp_path, people):
    path = tmp_path / "c.md"
    path.write_text("Thanks @ann-gh and @jdoe\n")
    people_file = people([
        {"id": "p1", "name": "John Doe", "handle": "jdoe", "accounts": {"slack": "U01", "jira": "5b10"}},
        {"id": "p2", "name": "Ann Lee", "handle": "annl", "accounts": {"github": "ann-gh", "slack": "U02"}},
    ])
    for args in (["--dry-run"], []):
        services.routes["/jira/rest/api/3/issue/K-1/comment"] = lambda r: (201, {"id": "7"})
        proc = atpad("post", *args, "jira:K-1", str(path), "-d", people_file, env=env_for(services))
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr == f"atpad: {path}: 1 mention has no jira account and will not be notified: @Ann Lee\n"
    body = json.loads(services.requests[-1].body)["body"]
    # Ann is her name, without an @ that would read as someone else; John is a mention node.
    nodes = body["content"][0]["content"]
    assert "".join(n.get("text", "") for n in nodes if n["type"] == "text") == "Thanks Ann Lee and "
    assert nodes[-1] == {"type": "mention", "attrs": {"id": "5b10", "text": "@John Doe"}}


def test_dry_run_of_github_prints_the_arguments_and_the_body(atpad, comment, directory, tmp_path):
    env = stand_in(tmp_path, "gh", [], {})
    proc = atpad("post", "--dry-run", "github:octo/atpad#12", comment, "-d", directory, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ("gh api --method POST repos/octo/atpad/issues/12/comments -F body=@-\n\n"
                           "Hi @jdoe & <team>,\nsee @ann 🚀\n\nThanks\n")
    assert not (tmp_path / "gh.stdin").exists()


def test_the_config_post_table_fills_unset_variables(atpad, services, comment, directory, tmp_path):
    slack(services, (200, {"ok": True, "channel": "C1", "ts": "3.4"}))
    config = tmp_path / "atpad.toml"
    config.write_text(f'[post]\nslack_api = "{services.base}/api"\nslack_token = "${{MY_SLACK}}"\n')
    env = {"SLACK_TOKEN": "", "ATPAD_SLACK_API": "", "MY_SLACK": SECRETS[0]}
    proc = atpad("post", "slack:C1", comment, "-d", directory, "--config", str(config), env=env)
    assert (proc.returncode, proc.stdout) == (0, "C1 3.4\n"), proc.stderr
    assert services.requests[0].headers["authorization"] == "Bearer " + SECRETS[0]
    proc = atpad("post", "--dry-run", "slack:C1", comment, "-d", directory, "--config", str(config), env=env)
    no_secret_in(proc.stdout, proc.stderr)
    # An unset ${NAME}: the variable the post needs is named.
    proc = atpad("post", "slack:C1", comment, "--config", str(config), env={"SLACK_TOKEN": "", "MY_SLACK": ""})
    assert (proc.returncode, proc.stderr) == (2, "atpad: SLACK_TOKEN is not set (needed to post to Slack)\n")
