"""Issue 22's editing details with the real binary in tmux: Go to line with any number,
recovered drafts keep the cursor, emphasis before a trigger, the soft space after a pick,
re-targeting with the name selected."""
import json
import shlex

import pytest

from conftest import atpad_binary
from test_editor_tmux import sessions  # noqa: F401  (fixture)


def title(s):
    return s.lines()[0]


def test_go_to_line_past_the_end_with_any_number_of_digits(sessions, tmp_path):  # noqa: F811
    path = tmp_path / "lines.txt"
    path.write_text("one\ntwo\nthree\n")
    s = sessions([str(path), "--implicit", "0"])
    s.wait_for("three")
    s.keys("C-l")
    s.type("99999999999999999999")
    s.keys("Enter")
    s.wait_for(lambda sc: "Ln 4, Col 1" in sc.splitlines()[0], what="the last line")
    assert "Type a line number" not in s.screen()
    s.keys("C-l")
    s.type("2:99999999999999999999")
    s.keys("Enter")
    s.wait_for(lambda sc: "Ln 2, Col 4" in sc.splitlines()[0], what="the end of line 2")
    s.keys("C-q")
    assert s.exit_status() == 0
