"""Posting to a real Matrix homeserver: Synapse on 127.0.0.1 (the `synapse` fixture,
matrix_homeserver.py), in a room alice made with the server's defaults (room version 12
today: its id is `!…` with no `:server`), bob and carol joined. atpad posts as alice, with
`atpad post` and from the editor; the event is read back as the others read it: the mention
a matrix.to pill and an `m.mentions` entry for the directory's Matrix account, the Markdown
as Element's HTML, and the mentioned person — only them — notified with a highlight by the
server's own push rules. Failures are one line on stderr. Everything waits on conditions."""
import re

import pyte
import pytest

from conftest import wait_until
from matrix_homeserver import quoted

# The directory: Bob and Carol with their Matrix accounts (docs/people.md, "One person,
# many accounts"); their handles are what a GitHub-style comment writes.
PEOPLE = [
    {"id": "p-bob", "name": "Bob Baker", "handle": "bob", "accounts": {"matrix": "@bob:localhost"}},
    {"id": "p-carol", "name": "Carol Chen", "handle": "carol", "accounts": {"matrix": "@carol:localhost"}},
]

# Generous: Synapse and atpad share two busy cores with builds and fuzzers.
SERVER_WAIT = 60.0
# atpad's own limit for the post's answer (10 s by default).
POST_TIMEOUT = "60"


def token(synapse, name):
    return synapse.users[name][1]


def matrix_env(synapse, name="alice", token_value=None):
    return {"MATRIX_HOMESERVER": synapse.base, "MATRIX_TOKEN": token_value or token(synapse, name)}


def make_room(synapse, owner, members):
    """A room `owner` creates with the server's defaults (no room version, no preset),
    `members` invited and joined; returns its id once all are joined."""
    room = synapse.call("POST", "/_matrix/client/v3/createRoom", token=token(synapse, owner), body={})["room_id"]
    for name in members:
        user_id = synapse.users[name][0]
        synapse.call("POST", f"/_matrix/client/v3/rooms/{quoted(room)}/invite", token=token(synapse, owner),
                     body={"user_id": user_id})
        synapse.call("POST", f"/_matrix/client/v3/rooms/{quoted(room)}/join", token=token(synapse, name), body={})
    expected = {synapse.users[name][0] for name in [owner, *members]}
    joined = wait_until(lambda: set(synapse.call("GET", f"/_matrix/client/v3/rooms/{quoted(room)}/joined_members",
                                                 token=token(synapse, owner))["joined"]) == expected, timeout=SERVER_WAIT)
    assert joined, f"{sorted(expected)} never all joined {room}"
    return room


@pytest.fixture(scope="module")
def room(synapse):
    return make_room(synapse, "alice", ["bob", "carol"])


@pytest.fixture
def directory(people):
    return people(PEOPLE)


def read_event(synapse, room, event_id, reader):
    """The event as `reader` gets it from the server."""
    return synapse.call("GET", f"/_matrix/client/v3/rooms/{quoted(room)}/event/{quoted(event_id)}",
                        token=token(synapse, reader))


def highlighted(actions):
    return any(isinstance(a, dict) and a.get("set_tweak") == "highlight" and a.get("value", True) is not False
               for a in actions)


def notification(synapse, reader, event_id, only_highlights=False):
    """`reader`'s notification of `event_id` (GET /notifications), or None."""
    query = "?only=highlight" if only_highlights else ""
    answer = synapse.call("GET", "/_matrix/client/v3/notifications" + query, token=token(synapse, reader))
    return next((n for n in answer["notifications"] if n["event"]["event_id"] == event_id), None)


def assert_only_mentioned_is_highlighted(synapse, event_id, mentioned, other):
    """`mentioned` gets a highlighted notification of the event (the server's push rule for
    a user listed in m.mentions); `other`, in the same room, gets none highlighted."""
    got = wait_until(lambda: notification(synapse, mentioned, event_id), timeout=SERVER_WAIT)
    assert got, f"{mentioned} was not notified of {event_id}"
    assert highlighted(got["actions"]), got
    assert notification(synapse, mentioned, event_id, only_highlights=True) is not None
    # Push actions are computed for every member when the event is stored: by now
    # `other`'s are there too.
    seen = notification(synapse, other, event_id)
    assert seen is None or not highlighted(seen["actions"]), seen
    assert notification(synapse, other, event_id, only_highlights=True) is None


def assert_mentions(content, user_id, name):
    assert content["msgtype"] == "m.text"
    assert content["format"] == "org.matrix.custom.html"
    assert f'<a href="https://matrix.to/#/{user_id}">{name}</a>' in content["formatted_body"], content
    assert content["m.mentions"]["user_ids"] == [user_id], content
    assert name in content["body"], content


# MARK: - Posting

def post_file(atpad, synapse, directory, tmp_path, target, text, name="comment.md"):
    """`atpad post TARGET FILE` of a comment holding `text`, as alice; returns the process."""
    comment = tmp_path / name
    comment.write_text(text)
    return atpad("post", target, str(comment), "-d", directory, "--command-timeout", POST_TIMEOUT,
                 env=matrix_env(synapse))

def test_atpad_post_mentions_bob_with_a_pill_and_only_bob_is_highlighted(atpad, synapse, room, directory, tmp_path):
    proc = post_file(atpad, synapse, directory, tmp_path, f"matrix:{room}", "Thanks @bob for **this**\n")
    assert proc.returncode == 0, proc.stderr
    event_id = proc.stdout.rstrip("\n")
    assert proc.stdout == event_id + "\n" and event_id.startswith("$"), proc.stdout
    assert proc.stderr == ""

    event = read_event(synapse, room, event_id, "bob")
    assert event["type"] == "m.room.message"
    assert event["sender"] == synapse.users["alice"][0]
    assert_mentions(event["content"], "@bob:localhost", "Bob Baker")
    assert_only_mentioned_is_highlighted(synapse, event_id, "bob", "carol")


def shown_lines(recording, width, height):
    """Every screen line the terminal showed at some moment, replaying what atpad wrote
    (Session.record_output) through a terminal emulator, pyte: a line that was shown
    only for an instant, before atpad ended, is there too."""
    screen = pyte.Screen(width, height)
    stream = pyte.Stream(screen)
    shown = set()
    for piece in re.split(r"(?=\x1b)", recording.read_text(errors="replace") if recording.exists() else ""):
        stream.feed(piece)
        shown.update(screen.display)
    return shown


def posting_question(screen):
    return "Post to matrix:" in screen and "(y)es (n)o" in screen


def test_the_editor_posts_a_mention_of_carol_picked_in_the_chooser(sessions, synapse, room, directory, tmp_path):
    path = tmp_path / "new.md"
    s = sessions(["--to", f"matrix:{room}", "-d", directory, "--command-timeout", POST_TIMEOUT, str(path)],
                 width=120, env=matrix_env(synapse), cwd=str(tmp_path), redirect=" > out.txt")
    s.record_output(tmp_path / "terminal.out")
    s.type("Over to @car")
    s.wait_for("Carol Chen", timeout=SERVER_WAIT, what="Carol in the chooser")
    s.keys("Enter")
    s.wait_for(lambda sc: "Carol Chen" in sc and "┌" not in sc, what="the pick")
    s.type(" for the review")
    s.wait_for("for the review")
    s.keys("C-s")
    screen = s.wait_for(posting_question, timeout=SERVER_WAIT, what="the question")
    assert f"Post to matrix:{room}? (y)es (n)o" in screen
    assert "Notifies @Carol Chen" in screen
    s.keys("y")
    assert s.exit_status(timeout=SERVER_WAIT + 30) == 0
    event_id = (tmp_path / "out.txt").read_text().rstrip("\n")
    assert event_id.startswith("$") and "\n" not in event_id
    # The success line was on the screen before atpad ended (it is gone now).
    success = f"Posted: {event_id}"
    assert wait_until(lambda: any(success in line for line in shown_lines(tmp_path / "terminal.out", 120, 24)),
                      timeout=SERVER_WAIT), f"{success} was never on the screen"
    assert path.exists(), "the file stays, as saved"

    event = read_event(synapse, room, event_id, "carol")
    assert event["sender"] == synapse.users["alice"][0]
    assert_mentions(event["content"], "@carol:localhost", "Carol Chen")
    assert "for the review" in event["content"]["body"]
    assert_only_mentioned_is_highlighted(synapse, event_id, "carol", "bob")


def test_markdown_reaches_the_room_as_elements_html(atpad, synapse, room, directory, tmp_path):
    proc = post_file(atpad, synapse, directory, tmp_path, f"matrix:{room}",
                     "Some **bold**, the [docs](https://example.org) and `make test`.\n", name="notes.md")
    assert proc.returncode == 0, proc.stderr
    event_id = proc.stdout.rstrip("\n")
    html = read_event(synapse, room, event_id, "bob")["content"]["formatted_body"]
    assert "<strong>bold</strong>" in html, html
    assert '<a href="https://example.org">docs</a>' in html, html
    assert "<code>" in html and "make test" in html, html
    assert not html.rstrip().endswith(("<br>", "<br />", "<br/>")), html


def test_a_room_alias_is_looked_up_in_the_homeservers_directory(atpad, synapse, room, directory, tmp_path):
    synapse.call("PUT", "/_matrix/client/v3/directory/room/" + quoted("#review:localhost"), token=token(synapse, "alice"),
                 body={"room_id": room})
    comment = tmp_path / "alias.md"
    comment.write_text("By alias, @bob\n")
    proc = atpad("post", "matrix:#review:localhost", str(comment), "-d", directory, "--command-timeout", POST_TIMEOUT,
                 env=matrix_env(synapse))
    assert proc.returncode == 0, proc.stderr
    event = read_event(synapse, room, proc.stdout.rstrip("\n"), "bob")
    assert event["content"]["m.mentions"]["user_ids"] == ["@bob:localhost"]
    # An alias no room has: nothing is posted, one line says so.
    proc = atpad("post", "matrix:#nowhere:localhost", str(comment), "-d", directory, "--command-timeout", POST_TIMEOUT,
                 env=matrix_env(synapse))
    assert proc.returncode == 1
    assert proc.stderr.startswith("atpad: Not posted to matrix:#nowhere:localhost: the homeserver found no room for "
                                  "#nowhere:localhost (HTTP 404 M_NOT_FOUND"), proc.stderr
    assert proc.stderr.count("\n") == 1


# MARK: - Failures: one line, nothing lost

def assert_one_line(proc):
    assert proc.stdout == ""
    assert proc.stderr.endswith("\n") and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("atpad: "), proc.stderr


def messages_of(synapse, room, reader):
    answer = synapse.call("GET", f"/_matrix/client/v3/rooms/{quoted(room)}/messages?dir=b&limit=100",
                          token=token(synapse, reader))
    return [e for e in answer["chunk"] if e["type"] == "m.room.message"]


def test_a_wrong_token_is_one_line_naming_matrix_token(atpad, synapse, room, directory, tmp_path):
    comment = tmp_path / "comment.md"
    text = "Wrong token, @bob, nothing sent\n"
    comment.write_text(text)
    wrong = "syt_not_a_token_31337"
    proc = atpad("post", f"matrix:{room}", str(comment), "-d", directory, "--command-timeout", POST_TIMEOUT,
                 env=matrix_env(synapse, token_value=wrong))
    print("wrong token:", proc.stderr, end="")
    assert proc.returncode == 1, proc.stderr
    assert_one_line(proc)
    line = proc.stderr
    assert line.startswith(f"atpad: Not posted to matrix:{room}: HTTP 401 M_UNKNOWN_TOKEN"), line
    assert "MATRIX_TOKEN" in line and wrong not in line
    assert comment.read_text() == text, "the comment is kept"
    assert not any("nothing sent" in e["content"].get("body", "") for e in messages_of(synapse, room, "bob"))


def test_a_room_alice_is_not_in_is_one_line(atpad, synapse, directory, tmp_path):
    elsewhere = make_room(synapse, "carol", ["bob"])
    comment = tmp_path / "comment.md"
    text = "Not my room, @bob\n"
    comment.write_text(text)
    proc = atpad("post", f"matrix:{elsewhere}", str(comment), "-d", directory, "--command-timeout", POST_TIMEOUT,
                 env=matrix_env(synapse))
    print("not in the room:", proc.stderr, end="")
    assert proc.returncode == 1, proc.stderr
    assert_one_line(proc)
    line = proc.stderr
    assert line.startswith(f"atpad: Not posted to matrix:{elsewhere}: HTTP 403 M_FORBIDDEN"), line
    # The server's words tell which refusal it is: not the token, the membership.
    assert line.endswith("; the account of MATRIX_TOKEN is not in the room: join it first\n"), line
    assert token(synapse, "alice") not in line
    assert comment.read_text() == text, "the comment is kept"
    assert messages_of(synapse, elsewhere, "carol") == []
