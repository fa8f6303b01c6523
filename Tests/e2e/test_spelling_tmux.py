"""Spelling in the real editor (issue 36, docs/spelling.md, "In the editor"): a typo drawn
with a curly underline where the terminal has one (a plain one elsewhere), F7's chooser of
Hunspell's suggestions whose pick replaces the word in one undo step, and "Add WORD to my
words" writing the personal list. The commit-msg hook is test_check.py's."""
import json

import pytest

from conftest import wait_until


@pytest.fixture
def env(home):
    return {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"), "LANG": "en_US.UTF-8"}


@pytest.fixture
def session(sessions, env):
    return lambda args, **kw: sessions(args, width=60, height=14, env=env, **kw)


def underlined(params):
    """Whether SGR parameters (tmux's capture) underline: `4`, or `4:N` for a style of one."""
    return any(p == "4" or p.startswith("4:") for p in params)


def test_a_typo_is_underlined_curly_where_the_terminal_has_a_curl(sessions, env, tmp_path):
    path = tmp_path / "comment.md"
    path.write_text("Thanks for teh review\n")
    # tmux-256color has `Smulx`: the curl itself.
    s = sessions([str(path)], width=60, height=14, env=env, term="tmux-256color")
    s.wait_for("teh review", what="the file")
    assert wait_until(lambda: "4:3" in s.style_at("teh")), s.screen(True)
    assert not underlined(s.style_at("Thanks")), s.screen(True)
    s.keys("C-q")
    assert s.exit_status() == 0


def test_without_a_curl_a_plain_underline_and_dim_without_colour(session, tmp_path):
    path = tmp_path / "comment.md"
    path.write_text("Thanks for teh review\n")
    s = session([str(path), "--no-color"])
    s.wait_for("teh review", what="the file")
    assert wait_until(lambda: underlined(s.style_at("teh"))), s.screen(True)
    params = s.style_at("teh")
    assert "2" in params, params
    assert not underlined(s.style_at("review")), s.screen(True)
    s.keys("C-q")
    assert s.exit_status() == 0


def test_the_word_being_typed_is_marked_once_the_cursor_leaves_it(session, tmp_path):
    s = session([str(tmp_path / "new.md")])
    s.type("see wrongg")
    s.wait_for("see wrongg", what="the typing")
    # Nothing marks it while the cursor is at its end, however long the check has had.
    s.type(" ")
    assert wait_until(lambda: underlined(s.style_at("wrongg"))), s.screen(True)
    s.keys("C-q", "n")


def test_no_spell_marks_nothing(session, tmp_path):
    path = tmp_path / "comment.md"
    path.write_text("Thanks for teh review\n")
    s = session([str(path), "--no-spell"])
    s.wait_for("teh review", what="the file")
    s.keys("F7")
    s.wait_for("Spelling is off", what="F7's answer")
    assert not underlined(s.style_at("teh"))
    s.keys("C-q")
    assert s.exit_status() == 0


def typo_comment(tmp_path, atpad, env):
    """A comment whose one typo is "teh", and the first correction `atpad check` offers."""
    path = tmp_path / "comment.md"
    path.write_text("Thanks for teh review\n")
    best = json.loads(atpad("check", "--json", str(path), env=env).stdout.splitlines()[0])["suggestions"][0]
    return path, best


def shown_marked(s, word):
    """Waits for the file, then for `word` to be marked."""
    s.wait_for(word, what="the file")
    assert wait_until(lambda: underlined(s.style_at(word))), s.screen(True)


def test_f7_picks_a_suggestion_in_one_undo_step(session, atpad, env, tmp_path):
    path, best = typo_comment(tmp_path, atpad, env)
    s = session([str(path)])
    shown_marked(s, "teh")
    s.keys("F7")
    s.wait_for("Add teh to my words", what="the chooser of corrections")
    assert "Ignore teh in this document" in s.screen()
    s.keys("Enter")
    s.wait_for(f"Thanks for {best} review", what="the pick")
    s.keys("C-z")
    s.wait_for("Thanks for teh review", what="the undo")
    s.keys("C-y")
    s.wait_for(f"Thanks for {best} review", what="the redo")
    s.keys("C-s")
    s.wait_for("Saved", what="the save")
    assert path.read_text() == f"Thanks for {best} review\n"
    s.keys("C-q")
    assert s.exit_status() == 0


def test_a_word_added_to_my_words_is_written_and_no_longer_marked(session, home, tmp_path):
    path = tmp_path / "comment.md"
    path.write_text("Ship the zorptastic build\n")
    words = home / ".config" / "atpad" / "words"
    words.write_text("atpad\n")
    s = session([str(path)])
    shown_marked(s, "zorptastic")
    s.keys("F7")
    s.wait_for("Add zorptastic to my words", what="the chooser")
    # The last rows: Ignore, and Add just above it.
    s.keys("NPage", "Up", "Enter")
    assert wait_until(lambda: words.exists() and words.read_text() == "atpad\nzorptastic\n"), words.read_text()
    assert wait_until(lambda: not underlined(s.style_at("zorptastic"))), s.screen(True)
    assert "Ship the zorptastic build" in s.screen()
    s.keys("C-q")
    assert s.exit_status() == 0


def test_a_short_terminals_one_line_picker_offers_the_corrections(sessions, env, atpad, tmp_path):
    path, best = typo_comment(tmp_path, atpad, env)
    s = sessions([str(path)], width=60, height=4, env=env)
    shown_marked(s, "teh")
    s.keys("F7")
    s.wait_for(lambda sc: f"teh: {best} │" in sc, what="the one-line picker")
    s.keys("Enter")
    s.wait_for(f"Thanks for {best} review", what="the pick")
    s.keys("C-q", "n")


def test_the_sample_directorys_surnames_are_known_once_it_has_loaded(session, tmp_path):
    # No -d: the bundled sample directory serves @, read in the background after start.
    # Adeyemi is one of its people and no word of the dictionary: once the directory has
    # loaded the name is known, and the text is checked again.
    path = tmp_path / "comment.md"
    path.write_text("Thanks Adeyemi for teh review\n")
    s = session([str(path)])
    shown_marked(s, "teh")
    assert wait_until(lambda: not underlined(s.style_at("Adeyemi"))), s.screen(True)
    assert underlined(s.style_at("teh"))
    s.keys("C-q")
    assert s.exit_status() == 0
