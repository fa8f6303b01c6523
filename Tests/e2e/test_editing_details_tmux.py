"""Issue 22's editing details with the real binary in tmux: Go to line with any number,
recovered drafts keep the cursor, emphasis before a trigger, the soft space after a pick,
re-targeting with the name selected."""


def title(s):
    return s.lines()[0]


def test_go_to_line_past_the_end_with_any_number_of_digits(sessions, tmp_path):
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


def atpad_pid(s):
    pane = int(s._tmux("display", "-p", "-t", s.target, "#{pane_pid}").stdout)
    return int(open(f"/proc/{pane}/task/{pane}/children").read().split()[0])


def test_a_recovered_draft_puts_the_cursor_back(sessions, tmp_path):
    import os
    import signal
    path = tmp_path / "c.txt"
    path.write_text("first line\nsecond line\n")
    s = sessions([str(path), "--implicit", "0"])
    s.wait_for("second line")
    s.keys("Down", "End")
    s.type(" typed")
    s.keys("Left", "Left")
    s.wait_for(lambda sc: "Ln 2, Col 16" in sc.splitlines()[0], what="the cursor in line 2")
    os.kill(atpad_pid(s), signal.SIGTERM)  # writes the draft
    assert s.exit_status() == 143
    again = sessions([str(path), "--implicit", "0"])
    again.wait_for("Recover unsaved draft?")
    again.keys("r")
    again.wait_for("Draft recovered")
    assert "second line typed" in again.screen()
    assert "Ln 2, Col 16" in title(again), title(again)
    again.type("X")
    again.wait_for("second line typXed")


def test_emphasis_before_a_trigger_opens_the_chooser(sessions, directory, tmp_path):
    path = tmp_path / "c.md"
    s = sessions([str(path), "-d", directory, "--implicit", "0"])
    for marks in ["**", "_", "~~"]:
        s.type(f"{marks}@jo")
        s.wait_for(lambda sc: "┌" in sc and "John Doe" in sc, what=f"the chooser after {marks}")
        s.keys("Enter")
        s.wait_for(lambda sc: "┌" not in sc, what="the pick")
        s.type(marks[::-1] + " ")
    s.keys("C-s")
    s.wait_for("Saved c.md (3 mentions)")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert path.read_text() == "**@jdoe** _@jdoe_ ~~@jdoe~~ "


def test_a_pick_in_a_commit_message_never_glues_to_the_next_word(repo, git_session):
    """git's template follows line 1: the pick still adds its space, so `for the fix`
    typed next is a word of its own; Enter right after a pick leaves no trailing space."""
    path, git, _ = repo
    (path / "a.txt").write_text("a\n")
    git("add", "a.txt")
    s = git_session("git commit")
    s.wait_for("COMMIT_EDITMSG")
    s.type("Thanks @jo")
    s.wait_for("John Doe")
    s.keys("Enter")
    s.wait_for(lambda sc: "Thanks @jdoe" in sc and "┌" not in sc, what="the pick")
    s.type("for the fix, cc @ba")
    s.wait_for("Baz Q")
    s.keys("Enter")
    s.wait_for(lambda sc: "cc @baz" in sc and "┌" not in sc, what="the second pick")
    s.keys("Enter")
    s.type("Second line.")
    s.keys("C-s")
    s.wait_for("Saved COMMIT_EDITMSG")
    s.keys("C-q")
    assert s.exit_status() == 0
    message = git("log", "-1", "--format=%B").stdout.decode()
    assert message == "Thanks @jdoe for the fix, cc @baz\nSecond line.\n\n", repr(message)


def test_retargeting_types_over_the_selected_name(sessions, tmp_path):
    path = tmp_path / "retarget.atpad"
    path.write_text("hi @[John Doe](u1) there")
    s = sessions([str(path)])
    s.wait_for("hi @John Doe there")
    s.keys("End")
    for _ in range(6):
        s.keys("Left")
    s.keys("BSpace")  # selects the mention
    s.keys("C-Space")
    s.wait_for(lambda sc: "│ @John Doe" in sc, what="the name pre-filled")
    s.type("jane")  # the first character replaces the name: no Backspaces first
    s.wait_for(lambda sc: "│ @jane" in sc and "Jane Doe" in sc, what="the typed query")
    s.keys("Enter")
    s.wait_for(lambda sc: "hi @Jane Doe there" in sc and "┌" not in sc, what="the re-targeted mention")
    s.keys("C-s")
    s.wait_for("Saved")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert path.read_text() == "hi @[Jane Doe](u2) there"
