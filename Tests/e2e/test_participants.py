"""The conversation's people ranked first (`--to TARGET`), through `atpad search --to`:
stand-in `gh` and `glab` that check their exact argument lists, and a local server in the
shapes of Slack (thread and channel, pages), Jira, Zulip and Matrix. Participants come
before everyone else, with their roles in a fourth column; one the directory lacks is
listed as the service describes them; a failed call is said once on stderr and the
ranking is as without --to."""
import json
import os
import stat
import textwrap

import pytest


PEOPLE = [
    {"id": "U01", "name": "John Doe", "handle": "jdoe"},
    {"id": "U02", "name": "Joan Smith", "handle": "jsmith"},
    {"id": "U03", "name": "Jo Bloggs", "handle": "jbloggs"},
    {"id": "U04", "name": "Ada Lovelace", "handle": "ada"},
]
TOKEN = "xoxb-participants-secret"

# The GraphQL query atpad sends for a GitHub conversation (ParticipantsRequest.githubQuery).
GITHUB_QUERY = (
    "query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { "
    "issueOrPullRequest(number: $number) { "
    "... on Issue { author { login ... on User { name } } assignees(first: 100) { nodes { login name } } "
    "comments(last: 100) { nodes { author { login ... on User { name } } } } } "
    "... on PullRequest { author { login ... on User { name } } assignees(first: 100) { nodes { login name } } "
    "reviewRequests(first: 100) { nodes { requestedReviewer { ... on User { login name } ... on Team { combinedSlug name } } } } "
    "reviews(last: 100) { nodes { author { login ... on User { name } } } } "
    "comments(last: 100) { nodes { author { login ... on User { name } } } } } } } }"
)


@pytest.fixture
def directory(people):
    return people(PEOPLE)


def stand_in(tmp_path, name, expected_args, answer, status=0, stderr=""):
    """A stand-in for `name` that fails unless called with exactly `expected_args`, logs
    each call, and answers `answer` (JSON) on stdout."""
    folder = tmp_path / "bin"
    folder.mkdir(exist_ok=True)
    script = folder / name
    script.write_text(textwrap.dedent(f"""\
        #!/usr/bin/env python3
        import json, sys
        open({str(tmp_path / (name + '.log'))!r}, "a").write(json.dumps(sys.argv[1:]) + "\\n")
        if sys.argv[1:] != {expected_args!r}:
            sys.stderr.write("{name}: unexpected arguments " + json.dumps(sys.argv[1:]) + "\\n")
            sys.exit(64)
        sys.stdout.write({json.dumps(answer)!r})
        sys.stderr.write({stderr!r})
        sys.exit({status})
        """))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return {"PATH": f"{folder}:{os.environ['PATH']}"}


def calls(tmp_path, name):
    log = tmp_path / (name + ".log")
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def rows(proc):
    return [line.split("\t") for line in proc.stdout.splitlines()]


def slack_env(services):
    return {"ATPAD_SLACK_API": services.base + "/api", "SLACK_TOKEN": TOKEN}


# MARK: - GitHub and GitLab through their CLIs

def test_github_pull_request_people_come_first_with_their_roles(atpad, directory, tmp_path):
    answer = {"data": {"repository": {"issueOrPullRequest": {
        "author": {"login": "jsmith", "name": "Joan Smith"},
        "assignees": {"nodes": []},
        "reviewRequests": {"nodes": [{"requestedReviewer": {"login": "ghost", "name": "Gus Host"}}]},
        "reviews": {"nodes": [{"author": {"login": "jbloggs", "name": "Jo Bloggs"}}]},
        "comments": {"nodes": [{"author": {"login": "jsmith", "name": "Joan Smith"}}]},
    }}}}
    args = ["api", "graphql", "-f", "owner=octo", "-f", "name=atpad", "-F", "number=12", "-f", "query=" + GITHUB_QUERY]
    env = stand_in(tmp_path, "gh", args, answer)
    # The directory's ids are not GitHub logins: participants are found by handle.
    proc = atpad("search", "--to", "github:octo/atpad#12", "-d", directory, "", env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert rows(proc) == [
        ["U02", "Joan Smith", "jsmith", "author, commenter"],
        ["ghost", "Gus Host", "ghost", "reviewer"],  # unknown to the directory: as GitHub says
        ["U03", "Jo Bloggs", "jbloggs", "reviewer"],
        ["U01", "John Doe", "jdoe", ""],
        ["U04", "Ada Lovelace", "ada", ""],
    ]
    assert calls(tmp_path, "gh") == [args]
    # A query: the matching participants first, then the others that match.
    jo = atpad("search", "--to", "github:octo/atpad#12", "-d", directory, "jo", env=env)
    assert {r[0] for r in rows(jo)[:2]} == {"U02", "U03"}
    assert [r[0] for r in rows(jo)[2:]] == ["U01"]


def test_github_failure_is_said_once_and_ranking_is_as_usual(atpad, directory, tmp_path):
    env = stand_in(tmp_path, "gh", [], {}, status=1, stderr="HTTP 401: Bad credentials (https://api.github.com/graphql)\n")
    proc = atpad("search", "--to", "github:octo/atpad#12", "-d", directory, "jo", env=env)
    assert proc.returncode == 0
    plain = atpad("search", "-d", directory, "jo")
    assert [r[:3] for r in rows(proc)] == rows(plain)
    assert all(r[3] == "" for r in rows(proc))
    [line] = proc.stderr.splitlines()
    assert line.startswith("atpad: participants of github:octo/atpad#12 not loaded: gh: unexpected arguments ")
    assert line.endswith("; ranking without them") and len(line) < 400


def test_github_bad_credentials_name_gh_login(atpad, directory, tmp_path):
    args = ["api", "graphql", "-f", "owner=octo", "-f", "name=atpad", "-F", "number=12", "-f", "query=" + GITHUB_QUERY]
    env = stand_in(tmp_path, "gh", args, {}, status=1, stderr="HTTP 401: Bad credentials (https://api.github.com/graphql)\n")
    proc = atpad("search", "--to", "github:octo/atpad#12", "-d", directory, "jo", env=env)
    assert proc.returncode == 0
    assert proc.stderr == ("atpad: participants of github:octo/atpad#12 not loaded: HTTP 401: Bad credentials "
                           "(https://api.github.com/graphql); check gh's login "
                           "(gh auth status; GH_TOKEN); ranking without them\n")


def test_gitlab_merge_request_participants(atpad, directory, tmp_path):
    args = ["api", "projects/acme%2Fbackend/merge_requests/42/participants?per_page=100"]
    env = stand_in(tmp_path, "glab", args, [
        {"id": 9, "username": "ada", "name": "Ada Lovelace", "web_url": "https://gitlab.com/ada"},
        {"id": 77, "username": "newbie", "name": "New Bee", "web_url": "https://gitlab.com/newbie"},
    ])
    proc = atpad("search", "--to", "gitlab:acme/backend!42", "-d", directory, "", "--json", env=env)
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)["results"]
    assert [(r["id"], r.get("role")) for r in results] == [
        ("U04", "participant"), ("77", "participant"), ("U01", None), ("U02", None), ("U03", None)]
    assert results[1]["url"] == "https://gitlab.com/newbie"
    assert calls(tmp_path, "glab") == [args]


# MARK: - Slack, Jira, Zulip, Matrix through the local server

def test_slack_thread_repliers_first(atpad, services, directory):
    services.routes["/api/conversations.replies"] = lambda r: (200, {
        "ok": True, "messages": [{"user": "U04", "ts": "1700000000.000100"}, {"user": "U03", "ts": "1700000001.000100"},
                                 {"bot_id": "B1", "ts": "1700000002.000100"}]})
    proc = atpad("search", "--to", "slack:C0123/1700000000.000100", "-d", directory, "", env=slack_env(services))
    assert proc.returncode == 0, proc.stderr
    assert rows(proc)[:3] == [["U04", "Ada Lovelace", "ada", "author"], ["U03", "Jo Bloggs", "jbloggs", "replier"],
                              ["U01", "John Doe", "jdoe", ""]]
    [request] = services.requests
    assert (request.method, request.target) == ("GET", "/api/conversations.replies?channel=C0123&limit=200&ts=1700000000.000100")
    assert request.headers["authorization"] == "Bearer " + TOKEN
    assert TOKEN not in proc.stdout + proc.stderr


def test_slack_channel_members_over_pages(atpad, services, directory):
    def members(request):
        if "cursor=page2" in request.target:
            return 200, {"ok": True, "members": ["U02", "U99"], "response_metadata": {"next_cursor": ""}}
        return 200, {"ok": True, "members": ["U03"], "response_metadata": {"next_cursor": "page2"}}
    services.routes["/api/conversations.members"] = members
    services.routes["/api/users.info"] = lambda r: (200, {"ok": True, "user": {
        "id": "U99", "name": "una", "real_name": "Una Known", "profile": {"display_name": "una"}}})
    proc = atpad("search", "--to", "slack:C0123", "-d", directory, "", env=slack_env(services))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    # U99 is not in the directory, and Slack gives members as ids: users.info names them.
    assert rows(proc) == [["U03", "Jo Bloggs", "jbloggs", "member"], ["U02", "Joan Smith", "jsmith", "member"],
                          ["U99", "Una Known", "una", "member"], ["U01", "John Doe", "jdoe", ""], ["U04", "Ada Lovelace", "ada", ""]]
    assert [r.target for r in services.requests] == ["/api/conversations.members?channel=C0123&limit=200",
                                                     "/api/conversations.members?channel=C0123&limit=200&cursor=page2",
                                                     "/api/users.info?user=U99"]
    assert all(r.headers["authorization"] == "Bearer " + TOKEN for r in services.requests)


def test_slack_members_that_cannot_be_named_are_left_out_and_said_once(atpad, services, directory):
    services.routes["/api/conversations.members"] = lambda r: (
        200, {"ok": True, "members": ["U03", "U98"], "response_metadata": {"next_cursor": ""}})
    services.routes["/api/users.info"] = lambda r: (200, {"ok": False, "error": "missing_scope"})
    proc = atpad("search", "--to", "slack:C0123", "-d", directory, "", env=slack_env(services))
    assert proc.returncode == 0
    # Never a bare id: U98 has no name, so the chooser does not offer them.
    assert [r[0] for r in rows(proc)] == ["U03", "U01", "U02", "U04"]
    assert proc.stderr == ("atpad: participants of slack:C0123 not named: Slack says missing_scope; "
                           "ranking without them\n")


# MARK: - One person on every service

ACCOUNTS = [
    {"id": "p1", "name": "John Doe", "handle": "jdoe", "accounts": {
        "github": "jdoe-gh", "gitlab": "jdoe-gl", "slack": "U0111", "jira": "5b1", "zulip": "11", "matrix": "@john:m.org"}},
    {"id": "p3", "name": "Ann Lee", "handle": "ann", "accounts": {
        "github": "AnnL", "gitlab": "ann-gl", "slack": "U0999", "jira": "5b3", "zulip": "33", "matrix": "@ann:m.org"}},
    {"id": "p4", "name": "Zed Other"},
]


def test_participants_are_the_directorys_people_through_their_accounts(atpad, services, people, tmp_path):
    """Each service's participant is the directory's person whose `accounts` entry it is:
    listed once, by name, with the role — never beside themselves as the service's id."""
    directory = people(ACCOUNTS)
    once = [["p3", "Ann Lee", "ann"], ["p1", "John Doe", "jdoe"], ["p4", "Zed Other", ""]]

    services.routes["/api/conversations.replies"] = lambda r: (200, {"ok": True, "messages": [
        {"user": "U0999", "ts": "1700000000.000100"}, {"user": "U0111", "ts": "1700000001.000100"}]})
    slack = atpad("search", "--to", "slack:C0123/1700000000.000100", "-d", directory, "", env=slack_env(services))
    assert rows(slack) == [r + [role] for r, role in zip(once, ["author", "replier", ""])], slack.stderr
    assert not any("users.info" in r.target for r in services.requests)  # both known: no naming

    gh = stand_in(tmp_path, "gh", ["api", "graphql", "-f", "owner=octo", "-f", "name=atpad", "-F", "number=12",
                                   "-f", "query=" + GITHUB_QUERY], {"data": {"repository": {"issueOrPullRequest": {
        "author": {"login": "annl", "name": "Ann L."}, "assignees": {"nodes": []},
        "reviewRequests": {"nodes": [{"requestedReviewer": {"login": "jdoe-gh", "name": "John"}}]},
        "reviews": {"nodes": []}, "comments": {"nodes": []}}}}})
    github = atpad("search", "--to", "github:octo/atpad#12", "-d", directory, "", env=gh)
    assert rows(github) == [r + [role] for r, role in zip(once, ["author", "reviewer", ""])], github.stderr

    glab = stand_in(tmp_path, "glab", ["api", "projects/acme%2Fbackend/issues/5/participants?per_page=100"], [
        {"id": 7, "username": "ann-gl", "name": "Ann"}, {"id": 8, "username": "jdoe-gl", "name": "John"}])
    gitlab = atpad("search", "--to", "gitlab:acme/backend#5", "-d", directory, "", env=glab)
    assert rows(gitlab) == [r + ["participant" if r[0] != "p4" else ""] for r in once], gitlab.stderr

    services.routes["/jira/rest/api/3/issue/KEY-7"] = lambda r: (200, {"fields": {
        "reporter": {"accountId": "5b3", "displayName": "Ann"}, "assignee": {"accountId": "5b1", "displayName": "John"},
        "comment": {"comments": []}}})
    services.routes["/jira/rest/api/3/issue/KEY-7/watchers"] = lambda r: (200, {"watchers": []})
    jira = atpad("search", "--to", "jira:KEY-7", "-d", directory, "",
                 env={"JIRA_URL": services.base + "/jira", "JIRA_USER": "u", "JIRA_TOKEN": "t"})
    assert rows(jira) == [r + [role] for r, role in zip(once, ["reporter", "assignee", ""])], jira.stderr

    services.routes["/zulip/api/v1/messages"] = lambda r: (200, {"result": "success", "messages": [
        {"sender_id": 11, "sender_full_name": "John"}, {"sender_id": 33, "sender_full_name": "Ann"}]})
    zulip = atpad("search", "--to", "zulip:backend/topic", "-d", directory, "",
                  env={"ZULIP_SITE": services.base + "/zulip", "ZULIP_EMAIL": "e", "ZULIP_API_KEY": "k"})
    assert rows(zulip) == [r + [role] for r, role in zip(once, ["sender", "sender", ""])], zulip.stderr

    services.routes["/matrix/_matrix/client/v3/rooms/%21room%3Am.org/joined_members"] = lambda r: (
        200, {"joined": {"@ann:m.org": {"display_name": "Ann"}, "@john:m.org": {"display_name": "John"}}})
    matrix = atpad("search", "--to", "matrix:!room:m.org", "-d", directory, "",
                   env={"MATRIX_HOMESERVER": services.base + "/matrix", "MATRIX_TOKEN": "mt"})
    assert rows(matrix) == [r + ["member" if r[0] != "p4" else ""] for r in once], matrix.stderr


@pytest.mark.parametrize("answer,said", [
    ((500, b"<html>oops</html>"), "HTTP 500"),
    ((200, {"ok": False, "error": "channel_not_found"}), "Slack says channel_not_found"),
    ((200, "drop"), None),
])
def test_slack_failures_leave_ordinary_ranking(atpad, services, directory, answer, said):
    services.routes["/api/conversations.members"] = lambda r: answer
    proc = atpad("search", "--to", "slack:C0123", "-d", directory, "jo", env=slack_env(services))
    assert proc.returncode == 0
    assert [r[:3] for r in rows(proc)] == rows(atpad("search", "-d", directory, "jo"))
    [line] = proc.stderr.splitlines()
    assert line.startswith("atpad: participants of slack:C0123 not loaded: ") and line.endswith("; ranking without them")
    if said:
        assert said in line
    assert TOKEN not in proc.stderr


def test_a_hanging_service_is_given_up_after_the_command_timeout(atpad, services, directory):
    services.routes["/api/conversations.members"] = lambda r: (200, "hang")
    proc = atpad("search", "--to", "slack:C0123", "--command-timeout", "0.5", "-d", directory, "jo", env=slack_env(services))
    assert proc.returncode == 0
    assert proc.stderr == "atpad: participants of slack:C0123 not loaded: timed out after 0.5 s; ranking without them\n"
    assert len(rows(proc)) == 3


def test_jira_reporter_assignee_commenters_and_watchers(atpad, services, tmp_path):
    directory = tmp_path / "jira.json"
    directory.write_text(json.dumps([{"id": "5b1", "name": "Rita Reporter"}, {"id": "5b2", "name": "Carl Commenter"},
                                     {"id": "5b9", "name": "Rick Other"}]))
    services.routes["/jira/rest/api/3/issue/KEY-7"] = lambda r: (200, {"fields": {
        "reporter": {"accountId": "5b1", "displayName": "Rita Reporter"}, "assignee": {"accountId": "5b4", "displayName": "Ann Assignee"},
        "comment": {"comments": [{"author": {"accountId": "5b2", "displayName": "Carl Commenter"}}]}}})
    services.routes["/jira/rest/api/3/issue/KEY-7/watchers"] = lambda r: (200, {"watchers": [
        {"accountId": "5b1", "displayName": "Rita Reporter"}, {"accountId": "5b5", "displayName": "Wes Watcher"}]})
    env = {"JIRA_URL": services.base + "/jira", "JIRA_USER": "me@acme.io", "JIRA_TOKEN": "jira-secret"}
    proc = atpad("search", "--to", "jira:KEY-7", "-d", str(directory), "", env=env)
    assert proc.returncode == 0, proc.stderr
    assert rows(proc) == [["5b1", "Rita Reporter", "", "reporter, watcher"], ["5b4", "Ann Assignee", "", "assignee"],
                          ["5b2", "Carl Commenter", "", "commenter"], ["5b5", "Wes Watcher", "", "watcher"],
                          ["5b9", "Rick Other", "", ""]]
    assert "jira-secret" not in proc.stdout + proc.stderr
    assert [r.target for r in services.requests] == ["/jira/rest/api/3/issue/KEY-7?fields=reporter,assignee,comment",
                                                     "/jira/rest/api/3/issue/KEY-7/watchers"]


def test_zulip_topic_senders(atpad, services, people):
    directory = people([{"id": "8", "name": "Old Timer"}, {"id": "9", "name": "Newer Person"}, {"id": "10", "name": "Nobody Yet"}])
    services.routes["/zulip/api/v1/messages"] = lambda r: (200, {"result": "success", "messages": [
        {"sender_id": 8, "sender_full_name": "Old Timer"}, {"sender_id": 9, "sender_full_name": "Newer Person"}]})
    env = {"ZULIP_SITE": services.base + "/zulip", "ZULIP_EMAIL": "bot@acme.io", "ZULIP_API_KEY": "zk"}
    proc = atpad("search", "--to", "zulip:backend/release 2.0", "-d", directory, "", env=env)
    assert proc.returncode == 0, proc.stderr
    assert [r[0] for r in rows(proc)] == ["9", "8", "10"]
    [request] = services.requests
    assert "narrow=" in request.target and "release%202.0" in request.target


def test_matrix_joined_members(atpad, services, people):
    directory = people([{"id": "@zed:m.org", "name": "Zed"}, {"id": "@ann:m.org", "name": "Ann"}])
    services.routes["/matrix/_matrix/client/v3/rooms/%21room%3Am.org/joined_members"] = lambda r: (
        200, {"joined": {"@ann:m.org": {"display_name": "Ann"}, "@bob:m.org": {"display_name": "Bob"}}})
    env = {"MATRIX_HOMESERVER": services.base + "/matrix", "MATRIX_TOKEN": "mt"}
    proc = atpad("search", "--to", "matrix:!room:m.org", "-d", directory, "", env=env)
    assert proc.returncode == 0, proc.stderr
    assert rows(proc) == [["@ann:m.org", "Ann", "", "member"], ["@bob:m.org", "Bob", "", "member"], ["@zed:m.org", "Zed", "", ""]]


def test_a_bad_target_is_a_usage_error(atpad, directory):
    proc = atpad("search", "--to", "slack:", "-d", directory, "jo")
    assert proc.returncode == 2
    assert proc.stderr.startswith("atpad: bad target \"slack:\"")


def test_the_slack_presets_list_names_the_members_slack_gives_as_ids(atpad, services):
    """Slack names members by id alone; the slack preset's (cached) users.list has their names."""
    services.routes["/api/users.list"] = lambda r: (200, {"ok": True, "members": [
        {"id": "U01", "name": "jdoe", "profile": {"real_name": "John Doe"}},
        {"id": "U02", "name": "jsmith", "profile": {"real_name": "Joan Smith"}},
        {"id": "U03", "name": "jbloggs", "profile": {"real_name": "Jo Bloggs"}},
    ], "response_metadata": {"next_cursor": ""}})
    services.routes["/api/conversations.members"] = lambda r: (
        200, {"ok": True, "members": ["U03", "U77"], "response_metadata": {"next_cursor": ""}})
    # A member the list lacks (a guest, one who joined since) is named by users.info.
    services.routes["/api/users.info"] = lambda r: (200, {"ok": True, "user": {"id": "U77", "name": "gus", "real_name": "Gus Guest"}}
                                                    if r.target.endswith("user=U77") else {"ok": False, "error": "user_not_found"})
    for query, expected in [("jo", [["U03", "Jo Bloggs", "jbloggs", "member"], ["U01", "John Doe", "jdoe", ""],
                                    ["U02", "Joan Smith", "jsmith", ""]]),
                            ("", [["U03", "Jo Bloggs", "jbloggs", "member"], ["U77", "Gus Guest", "gus", "member"],
                                  ["U01", "John Doe", "jdoe", ""], ["U02", "Joan Smith", "jsmith", ""]])]:
        proc = atpad("search", "--preset", "slack", "--to", "slack:C0123", query, env=slack_env(services))
        assert proc.returncode == 0, proc.stderr
        assert rows(proc) == expected, query
