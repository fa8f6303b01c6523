"""The real editor in tmux (docs/keys.md, docs/editor.md, docs/config.md): typing, the
chooser, picking, saving, quitting, resizing, colours, pastes and bad input."""
import json
import os
import re
import shlex
import signal
import time

from conftest import popup_open, wait_until


def test_type_pick_save_exact_content(sessions, directory, tmp_path):
    path = tmp_path / "c.txt"
    s = sessions([str(path), "-d", directory])
    s.wait_for("c.txt")
    s.type("hi @jo")
    s.wait_for("John Doe")
    s.keys("Enter")
    # A .txt comment is GitHub's: the mention shows what GitHub shows.
    s.wait_for(lambda sc: not popup_open(sc) and "hi @jdoe" in sc, what="the pick")
    s.type("thanks")
    s.keys("C-s")
    s.wait_for("Saved c.txt")
    s.keys("C-q")
    assert s.exit_status() == 0
    # A .txt file is github text (issue 22): the mention is written as its handle.
    assert path.read_text() == "hi @jdoe thanks"


def test_esc_closes_popup_and_keeps_text(sessions, directory):
    s = sessions(["-d", directory])
    s.type("@jo")
    s.wait_for(popup_open, what="the popup")
    s.keys("Escape")
    screen = s.wait_for(lambda sc: not popup_open(sc), what="the popup to close")
    assert "@jo" in screen


def test_backspace_selects_then_deletes(sessions, directory, tmp_path):
    path = tmp_path / "m.atpad"
    path.write_text("hi @[John Doe](u1)")
    s = sessions([str(path), "-d", directory])
    s.wait_for("hi @John Doe")
    s.keys("C-End")
    drawn = s.screen(attributes=True)
    s.keys("BSpace")
    # Until the Backspace is drawn (the mention selected, in other colours; or, wrongly, gone).
    wait_until(lambda: s.screen(attributes=True) != drawn)
    assert "hi @John Doe" in s.screen(), "the first Backspace only selects"
    s.keys("BSpace")
    s.wait_for(lambda sc: "John" not in sc, what="the mention to go")
    s.keys("C-s")
    s.wait_for("Saved")
    assert path.read_text() == "hi "


def popup_column(screen):
    for line in screen.splitlines():
        if "┌" in line:
            # Columns, not characters: wide characters take two.
            prefix = line[: line.index("┌")]
            return sum(2 if re.match(r"[\u3000-\u9fff\uff00-\uffef]", ch) else 1 for ch in prefix)
    raise AssertionError(screen)


def test_popup_column_follows_cjk_width(sessions, directory):
    ascii_session = sessions(["-d", directory])
    ascii_session.type("ab @jo")
    base = popup_column(ascii_session.wait_for(popup_open, what="the popup"))
    cjk = sessions(["-d", directory])
    cjk.type("你好 @jo")
    column = popup_column(cjk.wait_for(popup_open, what="the popup"))
    # "你好 " is 5 columns wide, "ab " 3: the popup moves right by 2 columns.
    assert column == base + 2


def test_resize_while_popup_open(sessions, directory):
    s = sessions(["-d", directory], width=80, height=24)
    s.type("@jo")
    s.wait_for(popup_open, what="the popup")
    s.resize(40, 12)
    screen = s.wait_for(lambda sc: popup_open(sc) and len(sc.splitlines()[0]) <= 40, what="a redraw at 40 columns")
    assert all(len(line) <= 40 for line in screen.splitlines())
    s.resize(100, 30)
    s.wait_for(lambda sc: "John Doe" in sc and popup_open(sc), what="a redraw at 100 columns")


def test_five_row_terminal_uses_one_line_picker(sessions, directory):
    s = sessions(["-d", directory], width=60, height=5)
    s.type("@jo")
    screen = s.wait_for(lambda sc: "John Doe" in sc, what="the picker")
    assert not popup_open(screen)
    assert "John Doe" in screen.splitlines()[-1] or "John Doe" in screen.splitlines()[-2]
    s.keys("Enter")
    s.wait_for("@jdoe")


def test_no_color_keeps_mentions_distinguishable(sessions, directory):
    s = sessions(["-d", directory], env={"NO_COLOR": "1"})
    s.type("x @jo")
    s.wait_for("John Doe", what="the results")
    s.keys("Enter")
    s.wait_for(lambda sc: "x @jdoe" in sc and not popup_open(sc), what="the pick")
    styled = s.screen(attributes=True)
    line = next(l for l in styled.splitlines() if "@jdoe" in l)
    # No colour at all (no 30–37/90–97/38;5 foregrounds), but an attribute on the mention.
    assert not re.search(r"\x1b\[[0-9;]*(3[0-7]|9[0-7]|38;5;\d+)m", styled)
    before_mention = line[: line.index("@jdoe")]
    assert re.search(r"\x1b\[[0-9;]*[1-7]m", before_mention), repr(line)


def test_quit_without_saving_leaves_file_and_exits_1(sessions, directory, tmp_path):
    path = tmp_path / "keep.txt"
    path.write_text("original\n")
    s = sessions([str(path), "-d", directory])
    s.wait_for("original")
    s.type("more")
    s.keys("C-q")
    s.wait_for("Save changes")
    s.type("n")
    assert s.exit_status() == 1
    assert path.read_text() == "original\n"


def test_quit_prompt_esc_cancels(sessions, directory, tmp_path):
    s = sessions([str(tmp_path / "x.txt"), "-d", directory])
    s.type("abc")
    s.keys("C-q")
    s.wait_for("Save changes")
    s.keys("Escape")
    s.wait_for(lambda sc: "Save changes" not in sc, what="the prompt to close")
    s.keys("C-q")
    s.wait_for("Save changes")
    s.type("y")
    assert s.exit_status() == 0
    assert (tmp_path / "x.txt").read_text() == "abc"


def test_print_with_stdout_redirected(sessions, directory, tmp_path):
    out = tmp_path / "out.txt"
    s = sessions(["--print", "-d", directory], redirect=f" > {shlex.quote(str(out))}")
    s.wait_for("atpad")
    s.type("hi @jo")
    s.wait_for("John Doe")
    s.keys("Enter")
    s.keys("C-s")
    assert s.exit_status() == 0
    # A new comment is github without -f; the pick's soft space, last on its line, is not printed.
    assert out.read_text() == "hi @jdoe"


def test_print_matrix_without_a_file(sessions, directory, tmp_path):
    out = tmp_path / "out.json"
    s = sessions(["--print", "-f", "matrix", "-d", directory], redirect=f" > {shlex.quote(str(out))}")
    s.wait_for("atpad")
    s.type("hi @jo")
    s.wait_for("John Doe")
    s.keys("Enter")
    s.type("& <b>")
    s.keys("C-s")
    assert s.exit_status() == 0
    event = json.loads(out.read_text())
    assert event["body"] == "hi @John Doe & <b>"
    assert event["formatted_body"] == 'hi <a href="https://matrix.to/#/u1">John Doe</a> &amp; &lt;b&gt;'
    assert event["m.mentions"] == {"user_ids": ["u1"]}


def test_print_quit_without_confirming_prints_nothing(sessions, directory, tmp_path):
    out = tmp_path / "out.txt"
    s = sessions(["--print", "-d", directory], redirect=f" > {shlex.quote(str(out))}")
    s.wait_for("atpad")
    s.type("draft")
    s.keys("C-q")
    s.wait_for("Save changes")
    s.type("n")
    assert s.exit_status() == 1
    assert out.read_text() == ""


def test_100kb_bracketed_paste(sessions, directory, tmp_path):
    path = tmp_path / "paste.txt"
    line = "pasted text @not-a-trigger with words and more words 0123456789\n"
    text = (line * (100_000 // len(line) + 1))[:100_000]
    s = sessions([str(path), "-d", directory])
    s.wait_for("paste.txt")
    start = time.monotonic()
    s.paste(text)
    s.wait_for("[+]", what="the paste to land")
    s.keys("C-s")
    s.wait_for("Saved", timeout=20)
    elapsed = time.monotonic() - start
    assert path.read_text() == text
    assert elapsed < 10


def test_terminal_too_small_keeps_document(sessions, directory, tmp_path):
    path = tmp_path / "small.txt"
    path.write_text("keep me")
    s = sessions([str(path), "-d", directory], width=15, height=3)
    s.wait_for(lambda sc: "small" in sc.lower(), what="the too-small notice")
    s.resize(60, 10)
    s.wait_for("keep me")


def test_escape_sequences_in_names_are_drawn_visibly(sessions, tmp_path):
    evil = tmp_path / "evil.json"
    evil.write_text(json.dumps([{"id": "e1", "name": "Evil\u001b]2;PWNED\u0007Name", "detail": "\u001b[31mred"}]))
    s = sessions(["-d", str(evil)])
    s.type("@ev")
    screen = s.wait_for("Evil", what="the evil row")
    assert "^[" in screen
    title = s._tmux("display", "-p", "-t", s.target, "#{pane_title}").stdout
    assert "PWNED" not in title


def test_failed_save_shows_reason_and_keeps_document(sessions, directory, tmp_path):
    # A missing folder (the tests run as root, so permissions cannot make a save fail).
    path = tmp_path / "gone" / "c.txt"
    s = sessions([str(path), "-d", directory])
    s.type("keep this")
    s.keys("C-s")
    screen = s.wait_for(lambda sc: "cannot save" in sc, what="the save error")
    assert "keep this" in screen
    assert not path.exists()
    # Editing goes on, and a later save to a folder that now exists works.
    path.parent.mkdir()
    s.keys("C-s")
    s.wait_for("Saved c.txt")
    assert path.read_text() == "keep this"


def test_sigterm_restores_terminal(sessions, directory):
    s = sessions(["-d", directory])
    s.wait_for("atpad")
    pid = int(s._tmux("display", "-p", "-t", s.target, "#{pane_pid}").stdout)
    # The pane runs sh, which runs atpad: signal atpad (sh's child).
    children = open(f"/proc/{pid}/task/{pid}/children").read().split()
    os.kill(int(children[0]), signal.SIGTERM)
    assert s.exit_status() == 143


def test_unknown_term_is_refused(sessions, directory, tmp_path):
    s = sessions(["-d", directory], env={"TERM": "no-such-terminal-xyz"}, ready=False)
    assert s.exit_status() == 2
    assert "terminal" in s.screen().lower()


def test_control_characters_in_file_are_drawn_visibly(sessions, directory, tmp_path):
    path = tmp_path / "ctl.txt"
    path.write_text("before\u001b]2;HACKED\u0007after \u001b[31mred")
    s = sessions([str(path), "-d", directory])
    screen = s.wait_for("before", what="the file")
    assert "^[" in screen and "^G" in screen
    title = s._tmux("display", "-p", "-t", s.target, "#{pane_title}").stdout
    assert "HACKED" not in title
    # The colour escape was not obeyed: nothing on screen is red.
    assert "\x1b[31m" not in s.screen(attributes=True)


def test_unset_term_is_refused(sessions, directory):
    s = sessions(["-d", directory], env={"TERM": ""}, ready=False)
    assert s.exit_status() == 2


def test_f1_lists_every_key_and_any_key_closes(sessions, directory):
    s = sessions(["-d", directory], width=100, height=30)
    s.keys("F1")
    needles = ("Ctrl-Space", "Save", "Quit", "Undo", "Redo", "Copy", "Cut", "Paste", "word")
    # The whole list: tmux may show a frame it has only partly read.
    s.wait_for(lambda sc: all(n in sc for n in needles), what="the key list")
    s.keys("Escape")
    s.wait_for(lambda sc: "Ctrl-Space" not in sc, what="the key list to close")


def test_save_keeps_permissions(sessions, directory, tmp_path):
    path = tmp_path / "perm.txt"
    path.write_text("x")
    os.chmod(path, 0o640)
    s = sessions([str(path), "-d", directory])
    s.type("y")
    s.keys("C-s")
    s.wait_for("Saved")
    assert oct(os.stat(path).st_mode & 0o777) == oct(0o640)
    assert path.read_text() == "yx", "the editor opens with the cursor at the start"


def test_mouse_click_places_cursor(sessions, directory, tmp_path):
    path = tmp_path / "click.txt"
    path.write_text("hello world")
    s = sessions([str(path), "-d", directory])
    s.wait_for("hello world")
    # An SGR mouse press and release at row 2, column 7 (1-based): the text's "w".
    s.type("\x1b[<0;7;2M\x1b[<0;7;2m")
    s.type("X")
    s.wait_for("hello Xworld")


def test_bad_theme_file_is_refused_naming_file_and_line(atpad, tmp_path):
    theme = tmp_path / "mine.toml"
    theme.write_text('[mention]\nforeground = "cyna"\n')
    proc = atpad(str(tmp_path / "c.txt"), "--theme", str(theme), check_exit=2)
    assert "mine.toml:2" in proc.stderr and "cyna" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_unknown_theme_name_is_refused(atpad, tmp_path):
    proc = atpad(str(tmp_path / "c.txt"), "--theme", "no-such-theme", check_exit=2)
    assert "no-such-theme" in proc.stderr


def test_format_option_opens_and_saves_in_that_format(sessions, directory, tmp_path):
    path = tmp_path / "pr.md"
    path.write_text("thanks @jdoe and @ghost\n")
    s = sessions([str(path), "-d", directory, "-f", "github"])
    # The handle the directory knows is a mention again; the unknown one is noted.
    s.wait_for(lambda sc: "thanks @jdoe and @ghost" in sc and "ghost" in sc.splitlines()[-2], what="the note")
    s.keys("C-End")
    s.type(" cc @bru")
    s.wait_for("Bruce Wayne")
    s.keys("Enter")
    s.keys("C-s")
    s.wait_for("Saved")
    s.keys("C-q")
    assert s.exit_status() == 0
    # The final newline is kept where it was; the new mention is written as its handle
    # (the pick's soft space, last on its line, is not).
    assert path.read_text() == "thanks @jdoe and @ghost\n cc @batman"


def test_unknown_format_is_a_usage_error(atpad, tmp_path):
    proc = atpad(str(tmp_path / "x.txt"), "-f", "rtf")
    assert proc.returncode == 2 and "rtf" in proc.stderr.splitlines()[0] and "github" in proc.stderr


def test_a_picks_space_at_the_end_of_a_line_is_not_saved(sessions, directory, tmp_path):
    # Issue 32: the soft space a pick adds stays on screen (the next word goes after it)
    # but is not written while it is last on its line.
    path = tmp_path / "c.md"
    path.write_text("first\n")
    s = sessions([str(path), "-d", directory])
    s.wait_for("first")
    s.keys("End")
    s.type(" cc @jo")
    s.wait_for("John Doe")
    s.keys("Enter")
    s.wait_for(lambda sc: "first cc @jdoe" in sc and not popup_open(sc), what="the pick")
    s.keys("Down")  # moving away keeps it
    s.keys("C-s")
    s.wait_for("Saved c.md")
    assert path.read_text() == "first cc @jdoe\n"
    assert "[+]" not in s.screen().splitlines()[0]
    s.keys("Up", "End")
    s.wait_for(lambda sc: "Ln 1, Col 16" in sc, what="the cursor after the space")
    s.type("thanks")
    s.wait_for("@jdoe thanks")
    s.keys("C-s")
    s.wait_for(lambda sc: "[+]" not in sc.splitlines()[0], what="the second save")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert path.read_text() == "first cc @jdoe thanks\n"


def test_a_byte_that_is_not_utf8_is_one_column(sessions, tmp_path):
    # Issue 32: `\xE9` is drawn as four cells but is one character in the title's Col.
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"caf\xe9 ok")
    s = sessions([str(path)])
    s.wait_for("caf\\xE9 ok")
    s.keys("End")
    s.wait_for("Ln 1, Col 8", what="the column at the end")
    s.keys("Left", "Left", "Left")
    s.wait_for("Ln 1, Col 5", what="the column after the byte")
    s.keys("C-q")
    assert s.exit_status() == 0
