"""Kept constructs in the real editor
(docs/formats.md, "Files come back as they were (kept constructs)"): Slack and Discord
markup atpad does not turn into mentions comes back byte for byte after an edit, is drawn in
its own role, and stays out of `atpad mentions`."""
import json
import re
import subprocess

import pytest

from conftest import atpad_binary

SLACK = b"<!here> deploy done <@u1> see <https://example.com|docs> and <#C999|ops>"
DISCORD = b"hey <@123456> and <#C01> <@!1> <@&2> <:party:4> <t:1700000000:R>"


@pytest.fixture
def session(sessions):
    return lambda args: sessions(args, width=100, height=12)


@pytest.mark.parametrize("fmt,original", [("slack", SLACK), ("discord", DISCORD)])
def test_typing_one_character_changes_only_that_place(session, tmp_path, fmt, original):
    path = tmp_path / "m.txt"
    path.write_bytes(original)
    s = session(["-f", fmt, str(path)])
    screen = s.wait_for("deploy done" if fmt == "slack" else "hey", what="the file's text")
    # The title counts mentions, not kept constructs (the sample directory knows u1 only).
    assert ("· 1 mention " if fmt == "slack" else "· 0 mentions ") in screen, screen.splitlines()[0]
    # One character at the end, one at the start: both typed as text, nothing else moves.
    s.keys("C-End")
    s.type("!")
    s.keys("C-Home")
    s.type("Z")
    s.keys("C-s")
    s.wait_for("Saved m.txt")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert path.read_bytes() == b"Z" + original + b"!"


def test_typed_text_is_escaped_and_kept_text_is_not(session, tmp_path):
    path = tmp_path / "m.txt"
    path.write_bytes(b"<!here> a &amp; b")
    s = session(["-f", "slack", str(path)])
    s.wait_for("a & b", what="the escape read as its character")
    s.keys("C-End")
    s.type(" <x> & y")
    s.keys("C-s")
    s.wait_for("Saved m.txt")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert path.read_bytes() == b"<!here> a &amp; b &lt;x&gt; &amp; y"


def test_a_kept_construct_is_one_unit_and_drawn_apart_from_text(session, tmp_path):
    path = tmp_path / "m.txt"
    path.write_bytes(b"x <!here> y")
    s = session(["-f", "slack", str(path)])
    s.wait_for("<!here>", what="the construct as written")
    line = next(l for l in s.screen(attributes=True).splitlines() if "here" in l)
    # The construct is drawn in its own role: a style starts right before it and ends
    # right after it (the default theme colours it; the text around it is plain).
    assert re.search(r"x \x1b\[[0-9;]+m<!here>\x1b\[[0-9;]+m y", line), repr(line)
    # Right from after "x " steps over the whole construct; Backspace then selects it and
    # a second Backspace deletes it whole.
    s.keys("C-Home", "Right", "Right", "Right")
    s.type("|")
    s.wait_for("x <!here>| y", what="the cursor after the construct")
    s.keys("BSpace", "BSpace", "BSpace")
    s.wait_for(lambda sc: "x  y" in sc and "here" not in sc, what="the construct deleted whole")
    s.keys("C-s")
    s.wait_for("Saved m.txt")
    s.keys("C-q")
    assert path.read_bytes() == b"x  y"


def test_kept_constructs_are_not_mentions(tmp_path):
    path = tmp_path / "m.txt"
    path.write_bytes(SLACK)
    out = subprocess.run([atpad_binary(), "mentions", str(path), "--from", "slack"],
                         capture_output=True, check=True)
    mentions = json.loads(out.stdout)
    assert [m["id"] for m in mentions] == ["u1"]
    # In another format a kept construct is its text.
    rendered = subprocess.run([atpad_binary(), "render", str(path), "--from", "slack", "--format", "github"],
                              capture_output=True, check=True).stdout
    assert rendered == b"<!here> deploy done @jdoe see <https://example.com|docs> and <#C999|ops>"
    same = subprocess.run([atpad_binary(), "render", str(path), "--from", "slack", "--format", "slack"],
                          capture_output=True, check=True).stdout
    assert same == SLACK
