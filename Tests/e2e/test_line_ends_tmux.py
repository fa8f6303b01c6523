"""CR LF files in the real editor (docs/editor.md): edited as lines, each break
keeps its ending, new breaks take the first line's, a lone CR shows as ^M and stays."""

import pytest



@pytest.fixture
def session(sessions):
    # No implicit search: its chooser could open on a typed word and take the Enter.
    return lambda args: sessions([*args, "--implicit", "0"], width=60, height=12)


def test_crlf_file_edits_as_lines_and_keeps_its_endings(session, tmp_path):
    path = tmp_path / "crlf.txt"
    path.write_bytes(b"one\r\ntwo\nthree\r\n")
    s = session([str(path)])
    screen = s.wait_for("three", what="the file's text")
    assert "^M" not in screen
    # End stays on the first line; Enter there makes a CR LF break like the first line's.
    s.keys("End")
    s.type("A")
    s.keys("Enter")
    s.type("B")
    screen = s.wait_for("oneA", what="the typed text")
    lines = [line.rstrip() for line in s.lines()]
    assert "oneA" in lines and "B" in lines and "two" in lines, lines
    assert lines.index("B") == lines.index("oneA") + 1
    assert "^M" not in screen
    s.keys("C-s")
    s.wait_for("Saved crlf.txt")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert path.read_bytes() == b"oneA\r\nB\r\ntwo\nthree\r\n"


def test_lone_cr_shows_as_caret_m_and_is_kept(session, tmp_path):
    path = tmp_path / "cr.txt"
    path.write_bytes(b"a\r\nb\rc\r\n")
    s = session([str(path)])
    screen = s.wait_for("b^Mc", what="the lone CR as ^M")
    assert screen.count("^M") == 1
    s.keys("C-End")
    s.type("d")
    s.keys("C-s")
    s.wait_for("Saved cr.txt")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert path.read_bytes() == b"a\r\nb\rc\r\nd"
