"""The frame in a real terminal (tmux): the cursor after a line exactly as wide as the
window is where the next character appears, and `[terminal] graphemes` decides how an
emoji cluster is sent."""
import time

import pytest


# Every editor here starts small, without drafts, and is ready once the status line shows.
SMALL = {"width": 40, "height": 10, "env": {"ATPAD_DRAFTS": "off"}, "ready": lambda sc: "Ln 1, Col 1" in sc}


def wait_for_cursor(s, expected, timeout=10.0):
    """Waits until the terminal's cursor is at `expected` (row, column)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if s.cursor() == expected:
            return
        time.sleep(0.02)
    raise AssertionError(f"the cursor is at {s.cursor()}, not {expected}; screen:\n{s.screen()}")


# A line that ends in a blank, and one with no blank to break at (a URL): either way the
# next character typed at its end wraps to the start of the row below. (After a full row
# that ends in a word, a letter typed there takes the word down with it, as soft wrap
# always does: the letter then lands after the word.)
FULL_LINES = [
    "the quick brown fox jumps over the lazy ",
    "https://example.com/a/very/long/path/ok/",
]


@pytest.mark.parametrize("graphemes", ["first", "whole"])
@pytest.mark.parametrize("full", FULL_LINES)
def test_end_on_a_full_width_line_then_typing_shows_the_character_at_the_cursor(sessions, tmp_path, graphemes, full):
    assert len(full) == 40  # as wide as the window
    path = tmp_path / "full.txt"
    path.write_text(full + "\nsecond line\n")
    config = tmp_path / "config.toml"
    config.write_text(f'[terminal]\ngraphemes = "{graphemes}"\n')
    s = sessions([str(path), "--config", str(config)], **SMALL)
    s.keys("End")
    s.wait_for("Col 41", what="the title's Col at the line's end")
    # The next character goes at the start of the row below: the cursor is there, and
    # the line shows that row, empty. (capture-pane drops trailing blanks.)
    wait_for_cursor(s, (2, 0))
    lines = s.lines()
    assert lines[1] == full.rstrip() and lines[2] == "" and lines[3] == "second line"
    s.type("x")
    s.wait_for("Col 42", what="the typed character")
    lines = s.lines()
    assert lines[1] == full.rstrip() and lines[2] == "x" and lines[3] == "second line"
    wait_for_cursor(s, (2, 1))


def wait_for_bytes(path, predicate, what, timeout=10.0):
    """Waits until the bytes recorded in `path` satisfy `predicate`; returns them."""
    deadline = time.monotonic() + timeout
    data = b""
    while time.monotonic() < deadline:
        data = path.read_bytes() if path.exists() else b""
        if predicate(data):
            return data
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}; the terminal was sent {data!r}")


THUMB, TONE = "👍".encode(), "🏽".encode()


@pytest.mark.parametrize("graphemes", ["first", "whole"])
def test_graphemes_decides_how_a_cluster_is_sent(sessions, tmp_path, graphemes):
    path = tmp_path / "emoji.txt"
    path.write_text("a👍🏽b\n")
    config = tmp_path / "config.toml"
    config.write_text(f'[terminal]\ngraphemes = "{graphemes}"\n')
    s = sessions([str(path), "--config", str(config)], **SMALL)
    log = tmp_path / "output.log"
    s.record_output(log)
    # A character typed before the cluster moves it: its cells are sent again.
    s.type("x")
    sent = wait_for_bytes(log, lambda b: b"xa" in b and THUMB in b, "the row sent again")
    if graphemes == "whole":
        assert b"xa  " in sent and THUMB + TONE in sent
    else:
        assert TONE not in sent
    # Either way the cluster takes two columns: the cursor after `b` is at column 5.
    s.keys("End")
    s.wait_for("Col 5", what="the title's Col at the line's end")
    wait_for_cursor(s, (1, 5))
