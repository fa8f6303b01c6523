"""Posting from the editor (`atpad --to TARGET`, docs/posting.md, "From the editor") in
tmux, against a local server in Slack's shape: compose with a mention, Ctrl-S asks
`Post to TARGET?` naming who it notifies, `y` posts, the result goes to stdout and the draft
goes; a failing server keeps the text and the draft and Ctrl-S tries again; keys wait while
posting, and Ctrl-Q then quits keeping the draft."""
import json
import os
from pathlib import Path

import pytest

from conftest import atpad_binary

PEOPLE = [{"id": "U01", "name": "John Doe", "handle": "jdoe"}, {"id": "U02", "name": "Jane Roe", "handle": "jroe"}]
TOKEN = "xoxb-tmux-secret"


@pytest.fixture
def directory(tmp_path):
    path = tmp_path / "people.json"
    path.write_text(json.dumps(PEOPLE))
    return str(path)


def drafts():
    return list((Path(os.environ["XDG_STATE_HOME"]) / "atpad" / "drafts").glob("*.draft"))


def posts(services):
    """The posts received (with --to, atpad also asks for the conversation's participants)."""
    return [r for r in services.requests if r.path == "/api/chat.postMessage"]


def slack_env(services):
    return {"ATPAD_SLACK_API": services.base + "/api", "SLACK_TOKEN": TOKEN}


def compose(s, shown="@John Doe"):
    """Picks John Doe, shown as the target's readers see him (a name in Slack, the handle
    on GitHub)."""
    s.type("hi @jo")
    s.wait_for("John Doe")
    s.keys("Enter")
    s.wait_for(lambda sc: f"hi {shown}" in sc and "┌" not in sc, what="the pick")
    s.type(" and @ghost")


def test_post_from_the_editor_prints_the_result_and_removes_the_draft(sessions, services, directory, tmp_path):
    services.routes["/api/chat.postMessage"] = lambda r: (200, {"ok": True, "channel": "C0123", "ts": "1700000000.000300"})
    s = sessions(["--to", "slack:C0123", "-d", directory], env=slack_env(services), cwd=str(tmp_path), redirect=" > out.txt")
    compose(s)
    s.wait_for(lambda sc: drafts() != [], timeout=10, what="the draft")
    s.keys("C-s")
    screen = s.wait_for("Post to slack:C0123? (y)es (n)o", what="the question")
    assert "Notifies @John Doe; @ghost is not a mention" in screen
    s.keys("y")
    assert s.exit_status() == 0
    assert (tmp_path / "out.txt").read_text() == "C0123 1700000000.000300\n"
    [request] = posts(services)
    assert request.headers["authorization"] == "Bearer " + TOKEN
    assert json.loads(request.body) == {"channel": "C0123", "text": "hi <@U01> and @ghost"}
    assert drafts() == []


def test_a_failed_post_keeps_everything_and_ctrl_s_tries_again(sessions, services, directory, tmp_path):
    answers = [(500, {"ok": False, "error": "fatal_error"}),
               (429, {"ok": False, "error": "ratelimited"}, {"Retry-After": "7"}),
               (200, {"ok": True, "channel": "C1", "ts": "1.5"})]
    services.routes["/api/chat.postMessage"] = lambda r: answers[len(posts(services)) - 1]
    s = sessions(["--to", "slack:C1", "-d", directory], env=slack_env(services), cwd=str(tmp_path), redirect=" > out.txt")
    # The participants call (no route here: a 404) is said first, so that its line, late on a
    # loaded machine, cannot replace the post's.
    s.wait_for("ranking without them", what="the participants' failure")
    compose(s)
    s.keys("C-s")
    s.wait_for("Post to slack:C1?")
    s.keys("y")
    screen = s.wait_for("Not posted to slack:C1: HTTP 500 fatal_error", what="the failure")
    assert "hi @John Doe and @ghost" in screen
    assert len(drafts()) == 1, "the draft is kept"
    assert "@[John Doe](U01)" in drafts()[0].read_text(), "with its mention"
    # Editing goes on; the next Ctrl-S asks again.
    s.type("!")
    s.keys("C-s")
    s.wait_for("Post to slack:C1?")
    s.keys("y")
    s.wait_for(lambda sc: "HTTP 429 ratelimited; Slack asks to wait 7 s" in sc and "(Retry-After)" in sc, what="the 429")
    s.keys("C-s")
    s.wait_for("Post to slack:C1?")
    s.keys("y")
    assert s.exit_status() == 0
    assert (tmp_path / "out.txt").read_text() == "C1 1.5\n"
    assert [json.loads(r.body)["text"] for r in posts(services)] == [
        "hi <@U01> and @ghost", "hi <@U01> and @ghost!", "hi <@U01> and @ghost!"]
    assert drafts() == []


def test_with_a_file_ctrl_s_saves_first_and_n_goes_back(sessions, services, directory, tmp_path):
    services.routes["/api/chat.postMessage"] = lambda r: (200, {"ok": True, "channel": "C1", "ts": "9.9"})
    path = tmp_path / "comment.atpad"
    s = sessions(["--to", "slack:C1", str(path), "-d", directory], env=slack_env(services), cwd=str(tmp_path), redirect=" > out.txt")
    compose(s)
    s.keys("C-s")
    s.wait_for("Post to slack:C1?")
    assert path.read_text() == "hi @[John Doe](U01) and @ghost", "saved before the question"
    s.keys("n")
    s.wait_for("Not posted")
    assert posts(services) == []
    s.keys("C-s")
    s.wait_for("Post to slack:C1?")
    s.keys("y")
    assert s.exit_status() == 0
    assert (tmp_path / "out.txt").read_text() == "C1 9.9\n"
    assert path.read_text() == "hi @[John Doe](U01) and @ghost", "the file stays"


def test_keys_wait_while_posting_and_ctrl_q_quits_keeping_the_draft(sessions, services, directory, tmp_path):
    services.routes["/api/chat.postMessage"] = lambda r: (200, "hang")
    s = sessions(["--to", "slack:C1", "-d", directory], env=slack_env(services), cwd=str(tmp_path),
                 redirect=" > out.txt 2> err.txt")
    compose(s)
    s.keys("C-s")
    s.wait_for("Post to slack:C1?")
    s.keys("y")
    s.wait_for("Posting to slack:C1", what="the posting state")
    s.type("zz")
    s.keys("BSpace", "C-s")
    screen = s.wait_for("Posting to slack:C1")
    assert "hi @John Doe and @ghost" in screen and "zz" not in screen
    s.keys("C-q")
    assert s.exit_status() == 1
    assert (tmp_path / "out.txt").read_text() == ""
    assert "may still arrive" in (tmp_path / "err.txt").read_text()
    assert len(drafts()) == 1
    assert TOKEN not in drafts()[0].read_text()


def test_a_timeout_may_or_may_not_have_been_posted(sessions, services, directory, tmp_path):
    services.routes["/api/chat.postMessage"] = lambda r: (200, "hang")
    s = sessions(["--to", "slack:C1", "--command-timeout", "1", "-d", directory], env=slack_env(services), cwd=str(tmp_path))
    compose(s)
    s.keys("C-s")
    s.wait_for("Post to slack:C1?")
    s.keys("y")
    screen = s.wait_for(lambda sc: "No answer from Slack (timed out after 1 s): the comment may or may not have been" in sc
                        and "posted to slack:C1; check there before posting again" in sc, what="the timeout", timeout=15)
    assert "hi @John Doe and @ghost" in screen
    assert len(posts(services)) == 1


def test_a_missing_token_is_said_before_the_screen(tmp_path, directory):
    import subprocess
    proc = subprocess.run([atpad_binary(), "--to", "slack:C1", "-d", directory], capture_output=True, text=True,
                          env={k: v for k, v in os.environ.items() if k != "SLACK_TOKEN"}, timeout=30)
    assert (proc.returncode, proc.stderr) == (2, "atpad: SLACK_TOKEN is not set (needed to post to Slack)\n")
    proc = subprocess.run([atpad_binary(), "--to", "slack:general"], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and proc.stderr.startswith('atpad: bad target "slack:general"')


def test_post_to_github_prints_the_comments_url(sessions, directory, tmp_path):
    from test_post import stand_in
    env = stand_in(tmp_path, "gh", ["api", "--method", "POST", "repos/octo/atpad/issues/7/comments", "-F", "body=@-"],
                   {"id": 9, "html_url": "https://github.com/octo/atpad/issues/7#issuecomment-9"})
    s = sessions(["--to", "github:octo/atpad#7", "-d", directory], env=env, cwd=str(tmp_path), redirect=" > out.txt")
    compose(s, shown="@jdoe")
    s.type(" cc @octo/reviewers")
    s.keys("C-s")
    screen = s.wait_for("Post to github:octo/atpad#7? (y)es (n)o", what="the question")
    assert "Notifies @John Doe and the team @octo/reviewers; @ghost is not a mention" in screen
    s.keys("y")
    assert s.exit_status() == 0
    assert (tmp_path / "out.txt").read_text() == "https://github.com/octo/atpad/issues/7#issuecomment-9\n"
    assert (tmp_path / "gh.stdin").read_text() == "hi @jdoe and @ghost cc @octo/reviewers"
    assert drafts() == []
