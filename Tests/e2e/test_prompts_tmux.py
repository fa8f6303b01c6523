"""The prompts and basics (docs/keys.md) in the real editor under tmux: Save as without a
FILE, Find and next, Replace all with one undo (and Ctrl-Q right after a large one), Go
to line, the F2 preview, and Ctrl-Q at the draft question."""
import os
import signal

from test_drafts import PROMPT, atpad_pid


def title(s):
    return s.lines()[0]


def test_save_as_without_a_file_writes_it(sessions, directory, tmp_path):
    s = sessions(["-d", directory, "--implicit", "0"], cwd=str(tmp_path))
    s.wait_for("[new comment]")
    s.type("hi @jo")
    s.wait_for("John Doe")
    s.keys("Enter")
    s.type("bye")
    s.keys("C-s")
    s.wait_for("Save as:")
    s.type("out.md")
    s.keys("Enter")
    s.wait_for("Saved out.md (1 mention)")
    assert "out.md" in title(s)
    s.keys("C-q")
    assert s.exit_status() == 0
    assert (tmp_path / "out.md").read_bytes() == b"hi @jdoe bye"  # .md is github


def test_find_and_next(sessions, directory, tmp_path):
    path = tmp_path / "f.txt"
    path.write_text("alpha\nbeta gamma\nalpha again\n")
    s = sessions([str(path), "-d", directory, "--implicit", "0"])
    s.wait_for("alpha again")
    s.keys("C-f")
    s.wait_for("Find:")
    s.type("ALPHA".lower())
    s.wait_for("Match 1 of 2")
    s.keys("C-f")
    s.wait_for("Match 2 of 2")
    s.keys("Enter")
    s.wait_for(lambda sc: "Find:" not in sc, what="the prompt to close")
    assert s.cursor() == (3, 0)
    assert "Ln 3, Col 1" in title(s)
    s.keys("C-n")
    s.wait_for("Ln 1, Col 1")
    assert s.cursor() == (1, 0)


def test_replace_all_then_one_undo(sessions, directory, tmp_path):
    path = tmp_path / "r.txt"
    path.write_text("cat and cat and cat")
    s = sessions([str(path), "-d", directory, "--implicit", "0"])
    s.wait_for("cat and cat")
    s.keys("M-r")
    s.wait_for("Replace:")
    s.type("cat")
    s.keys("Enter")
    s.wait_for("With:")
    s.type("dog")
    s.keys("Enter")
    s.wait_for("Replace? (y)es (n)o (a)ll")
    s.type("a")
    s.wait_for("dog and dog and dog")
    s.wait_for("Replaced 3 occurrences")
    s.keys("C-z")
    s.wait_for("cat and cat and cat")
    # Back at the text as saved: nothing is unsaved, so Ctrl-Q quits at once.
    assert "[+]" not in title(s)
    s.keys("C-q")
    assert s.exit_status() == 0
    assert path.read_text() == "cat and cat and cat"


def test_ctrl_q_right_after_replace_all_of_many_matches(sessions, directory, tmp_path):
    # 100,000 matches in a 1.5 MB file: replaced as one change, so the Ctrl-Q typed right
    # after (a) is answered at once (replacing them one by one took many minutes).
    path = tmp_path / "many.txt"
    line = "the cat sat on the mat with the hat and a bat near the vat\n"
    path.write_text(line * 25000)
    s = sessions([str(path), "-d", directory, "--implicit", "0"])
    s.wait_for("the cat sat")
    s.keys("M-r")
    s.wait_for("Replace:")
    s.type("the")
    s.keys("Enter")
    s.wait_for("With:")
    s.type("a")
    s.keys("Enter")
    s.wait_for("Replace? (y)es (n)o (a)ll")
    s.type("a")
    s.keys("C-q")
    s.wait_for("Save changes before quitting?", timeout=20)
    s.keys("n")
    assert s.exit_status() == 1
    assert path.read_text() == line * 25000


def test_go_to_line(sessions, directory, tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("\n".join(f"line {i}" for i in range(1, 101)))
    s = sessions([str(path), "-d", directory, "--implicit", "0"])
    s.wait_for("line 1")
    s.keys("C-l")
    s.wait_for("Go to line:")
    s.type("60:3")
    s.keys("Enter")
    s.wait_for("Ln 60, Col 3")
    row, column = s.cursor()
    assert s.lines()[row].startswith("line 60")
    assert column == 2


def test_f2_previews_the_saved_form(sessions, directory, tmp_path):
    path = tmp_path / "p.txt"
    s = sessions([str(path), "-d", directory, "-f", "slack", "--implicit", "0"])
    s.type("a < b @jo")
    s.wait_for("John Doe")
    s.keys("Enter")
    s.keys("F2")
    s.wait_for("a &lt; b <@u1>")
    s.type("x")
    s.wait_for(lambda sc: "&lt;" not in sc, what="the preview to close")
    assert "a < b @John Doe" in s.screen()
    assert "x" not in s.lines()[1], "the key that closed the preview did nothing else"


def test_ctrl_q_at_the_draft_question_quits_and_keeps_the_draft(sessions, directory, tmp_path):
    path = tmp_path / "d.txt"
    path.write_text("saved")
    s = sessions([str(path), "-d", directory, "--implicit", "0"])
    s.keys("C-End")
    s.type(" unsaved words")
    s.wait_for("saved unsaved words")
    os.kill(atpad_pid(s), signal.SIGTERM)
    assert s.exit_status() == 143

    again = sessions([str(path), "-d", directory])
    again.wait_for(PROMPT)
    again.keys("C-q")
    assert again.exit_status() == 0
    third = sessions([str(path), "-d", directory])
    third.wait_for(PROMPT)
    third.keys("r")
    third.wait_for("saved unsaved words")
