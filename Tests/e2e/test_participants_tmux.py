"""The conversation's people first in the editor's chooser, in tmux: with `--to`, `@` lists
the participants first, marked `●` with their roles; people who arrive after the chooser
opened replace its rows; a failed call is said once on the message line and typing goes
on with the usual ranking; with the github preset the checkout's pull request (`gh pr
view`) is the conversation."""
import json
import threading

import pytest

from test_cli_presets import TEAMS_LINES, USERS_LINES, stand_in, teams_list_call, users_list_call
from test_participants import GITHUB_QUERY, PEOPLE

TOKEN = "xoxb-tmux-participants"


@pytest.fixture
def directory(tmp_path):
    path = tmp_path / "people.json"
    path.write_text(json.dumps(PEOPLE))
    return str(path)


def slack_env(services):
    return {"ATPAD_SLACK_API": services.base + "/api", "SLACK_TOKEN": TOKEN}


def chooser_rows(screen):
    """The chooser's result rows, without the box's edges."""
    return [line.strip().strip("│").strip() for line in screen.splitlines()
            if line.strip().startswith("│") and line.strip().endswith("│")]


def thread_answer(request):
    return 200, {"ok": True, "messages": [{"user": "U04", "ts": "1700000000.000100"},
                                          {"user": "U03", "ts": "1700000001.000100"}]}


def test_at_lists_the_participants_first_with_the_mark_and_role(sessions, services, directory, tmp_path):
    services.routes["/api/conversations.replies"] = thread_answer
    s = sessions(["--to", "slack:C0123/1700000000.000100", "-d", directory], env=slack_env(services), cwd=str(tmp_path))
    s.wait_for(lambda sc: services.requests, what="the participants call")
    s.type("@")
    screen = s.wait_for(lambda sc: len(chooser_rows(sc)) >= 4 and "● " in sc, what="the chooser with participants")
    rows = chooser_rows(screen)
    assert rows[0].startswith("● Ada Lovelace") and rows[0].endswith("author · @ada"), rows
    assert rows[1].startswith("● Jo Bloggs") and rows[1].endswith("replier · @jbloggs"), rows
    assert rows[2].startswith("John Doe") and rows[2].endswith("@jdoe"), rows
    assert rows[3].startswith("Joan Smith"), rows
    # A query: the participant that matches first, then the others.
    s.type("jo")
    screen = s.wait_for(lambda sc: chooser_rows(sc) and chooser_rows(sc)[0].startswith("● Jo Bloggs")
                        and len(chooser_rows(sc)) == 3, what="the participant first for jo")
    assert [r.split("  ")[0] for r in chooser_rows(screen)] == ["● Jo Bloggs", "John Doe", "Joan Smith"]
    s.keys("Enter")
    s.wait_for(lambda sc: "@Jo Bloggs" in sc and "● " not in sc, what="the pick")


def test_participants_that_arrive_late_replace_the_rows(sessions, services, directory, tmp_path):
    # The participants are held back until the chooser has shown the directory's answer
    # (10 s at most, so that the server never waits for a test that failed).
    chooser_shown = threading.Event()

    def late(request):
        chooser_shown.wait(10)
        return thread_answer(request)
    services.routes["/api/conversations.replies"] = late
    s = sessions(["--to", "slack:C0123/1700000000.000100", "-d", directory], env=slack_env(services), cwd=str(tmp_path))
    s.type("@")
    # The directory answers at once, without marks…
    first = s.wait_for(lambda sc: len(chooser_rows(sc)) >= 4, what="the chooser")
    chooser_shown.set()
    if "● " not in first:
        assert chooser_rows(first)[0].startswith("John Doe")
    # …and the participants, when they come, go first without another key.
    screen = s.wait_for(lambda sc: chooser_rows(sc) and chooser_rows(sc)[0].startswith("● Ada Lovelace"),
                        timeout=15, what="the participants")
    assert chooser_rows(screen)[1].startswith("● Jo Bloggs")


def test_a_failed_call_is_said_once_and_typing_goes_on(sessions, services, directory, tmp_path):
    services.routes["/api/conversations.members"] = lambda r: (200, {"ok": False, "error": "not_in_channel"})
    s = sessions(["--to", "slack:C0123", "-d", directory], env=slack_env(services), cwd=str(tmp_path))
    s.wait_for(lambda sc: "participants of slack:C0123 not loaded: Slack says not_in_channel; ranking" in " ".join(sc.split()),
               what="the message")
    s.type("hi @jo")
    screen = s.wait_for(lambda sc: len(chooser_rows(sc)) == 3, what="the ordinary chooser")
    assert "● " not in screen
    assert chooser_rows(screen)[0].startswith("Jo Bloggs") or chooser_rows(screen)[0].startswith("John Doe")
    assert TOKEN not in screen


def test_the_github_presets_pull_request_is_the_conversation(sessions, tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    conversation = {"data": {"repository": {"issueOrPullRequest": {
        "author": {"login": "octo-dev", "name": None},
        "assignees": {"nodes": []}, "reviewRequests": {"nodes": [{"requestedReviewer": {"login": "ghost", "name": "Gus Host"}}]},
        "reviews": {"nodes": []}, "comments": {"nodes": []}}}}}
    participants_call = ["api", "graphql", "-f", "owner=octo", "-f", "name=atpad", "-F", "number=7", "-f", "query=" + GITHUB_QUERY]
    stand_in(bin_dir, "gh", [
        [["pr", "view", "--json", "number,url"], json.dumps({"number": 7, "url": "https://github.com/octo/atpad/pull/7"})],
        [participants_call, json.dumps(conversation)],
        [users_list_call("octo", "atpad"), USERS_LINES],
        [teams_list_call("octo"), TEAMS_LINES],
    ])
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "ATPAD_GITHUB_REPO": "octo/atpad"}
    s = sessions(["--preset", "github"], env=env, cwd=str(tmp_path))
    s.wait_for(lambda sc: (bin_dir / "gh.log").exists() and len((bin_dir / "gh.log").read_text().splitlines()) >= 2,
               what="the pull request and its participants asked")
    s.type("@")
    screen = s.wait_for(lambda sc: len(chooser_rows(sc)) >= 3 and "● " in sc, what="the chooser")
    rows = chooser_rows(screen)
    assert rows[0].startswith("● octo-dev") and rows[0].endswith("author · @octo-dev"), rows
    assert rows[1].startswith("● Gus Host") and rows[1].endswith("reviewer · @ghost"), rows
    assert [r for r in rows[2:] if r.startswith("The Octocat")], rows
    logged = [json.loads(line) for line in (bin_dir / "gh.log").read_text().splitlines()]
    assert logged[:2] == [["pr", "view", "--json", "number,url"], participants_call]


def test_slack_participants_are_one_person_each_by_name_and_post_their_accounts(sessions, services, tmp_path):
    """docs/people.md, "One person on every service": Ann's Slack id is her `accounts.slack`,
    so she is listed once, as the directory names her; a replier the directory lacks is
    named by users.info; no row and no question shows a bare id; the post carries each
    person's Slack account."""
    from test_participants import ACCOUNTS
    directory = tmp_path / "accounts.json"
    directory.write_text(json.dumps(ACCOUNTS))
    services.routes["/api/conversations.replies"] = lambda r: (200, {"ok": True, "messages": [
        {"user": "U0999", "ts": "1700000000.000100"}, {"user": "U0555", "ts": "1700000001.000100"}]})
    services.routes["/api/users.info"] = lambda r: (200, {"ok": True, "user": {
        "id": "U0555", "name": "una", "real_name": "Una Known"}})
    services.routes["/api/chat.postMessage"] = lambda r: (200, {"ok": True, "channel": "C0123", "ts": "1700000000.000900"})
    s = sessions(["--to", "slack:C0123/1700000000.000100", "-d", str(directory)], env=slack_env(services),
                 cwd=str(tmp_path), redirect=" > out.txt")
    s.wait_for(lambda sc: any("users.info" in r.target for r in services.requests), what="the naming call")
    s.type("@")
    screen = s.wait_for(lambda sc: "● Una Known" in sc, what="the named participant")
    rows = chooser_rows(screen)
    assert rows[0].startswith("● Ann Lee") and "author" in rows[0], rows
    assert rows[1].startswith("● Una Known") and "replier" in rows[1], rows
    assert sum("Ann Lee" in r for r in rows) == 1, rows
    assert not any("U0" in r for r in rows), rows
    s.keys("Enter")
    s.type("and @una")
    s.wait_for(lambda sc: chooser_rows(sc) and chooser_rows(sc)[0].startswith("● Una Known"), what="una")
    s.keys("Enter")
    s.wait_for(lambda sc: "@Ann Lee and @Una Known" in sc and "┌" not in sc, what="both picks")
    s.keys("C-s")
    screen = s.wait_for("Post to slack:C0123/1700000000.000100? (y)es (n)o", what="the question")
    assert "Notifies @Ann Lee and @Una Known" in screen
    assert "U0" not in screen
    s.keys("y")
    assert s.exit_status() == 0
    [post] = [r for r in services.requests if r.path == "/api/chat.postMessage"]
    assert json.loads(post.body)["text"] == "<@U0999> and <@U0555>"  # the soft space after a pick is not sent
