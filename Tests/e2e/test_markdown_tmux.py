"""Markdown drawn in roles in the real editor (issue 23): in a Markdown file a code span
is drawn in `markup.code` and a heading in `markup.heading`, with the default theme's
styles, and `@` typed in code opens no chooser while in prose it does."""
import re

import pytest


@pytest.fixture
def session(sessions):
    return lambda args, **kw: sessions(args, width=60, height=12, **kw)


def test_code_span_and_heading_are_drawn_in_their_roles(session, tmp_path):
    path = tmp_path / "comment.md"
    path.write_bytes(b"# Release notes\n\nrun `make check` before\n")
    s = session([str(path)])
    s.wait_for("run `make check` before", what="the file")
    # markup.heading: yellow and bold in the default theme.
    params = s.style_at("# Release notes")
    assert "1" in params and "33" in params, params
    # markup.code: magenta and dim; the prose before it is plain.
    params = s.style_at("`make check`")
    assert "35" in params and "2" in params, params
    assert "35" not in s.style_at("run ", within="make check") and "35" not in s.style_at(" before"), s.screen(True)
    s.keys("C-q")
    assert s.exit_status() == 0


def test_no_color_keeps_the_attributes(session, tmp_path):
    path = tmp_path / "comment.md"
    path.write_bytes(b"# Title\n\nsee `code` here\n")
    s = session([str(path)], env={"NO_COLOR": "1"})
    s.wait_for("see `code` here", what="the file")
    assert "1" in s.style_at("# Title")
    assert "2" in s.style_at("`code`")
    s.keys("C-q")
    assert s.exit_status() == 0


def test_at_in_a_fence_opens_no_chooser_and_in_prose_does(session, directory, tmp_path):
    path = tmp_path / "comment.md"
    s = session([str(path), "-d", directory])
    s.wait_for(lambda sc: "comment.md" in sc, what="the editor")
    s.type("~~~")
    s.keys("Enter")
    s.type("@jo")
    s.wait_for("@jo", what="the typing")
    # The chooser would list John Doe from the sample directory.
    assert "John" not in s.screen()
    s.keys("Enter")
    s.type("~~~")
    s.keys("Enter")
    s.type("@jo")
    s.wait_for("John", what="the chooser in prose")
    s.keys("Escape")


def test_a_nul_byte_hides_no_mention_of_its_line(session, directory, tmp_path):
    # Issue 32: cmark-gfm reads NUL as U+FFFD; the mention after it on the line is read.
    path = tmp_path / "comment.md"
    original = b"hi @jdoe\x00 x\n\x00 and @jroe\n"
    path.write_bytes(original)
    s = session([str(path), "-d", directory])
    s.wait_for(lambda sc: "2 mentions" in sc.splitlines()[0], what="both mentions read")
    assert "hi @jdoe^@ x" in s.screen()
    # Typing on a line with a NUL searches as anywhere.
    s.keys("End")
    s.type(" @jo")
    s.wait_for("Johanna", what="the chooser")
    s.keys("Escape")
    s.wait_for(lambda sc: "Johanna" not in sc, what="the chooser to close")
    s.keys("BSpace", "BSpace", "BSpace", "BSpace")
    s.wait_for(lambda sc: sc.splitlines()[1].rstrip() == "hi @jdoe^@ x", what="the typing taken back")
    s.keys("C-s")
    s.wait_for("Saved comment.md")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert path.read_bytes() == original


def test_an_unclosed_comment_or_tag_opens_no_chooser(session, directory, tmp_path):
    path = tmp_path / "comment.md"
    s = session([str(path), "-d", directory])
    s.wait_for(lambda sc: "comment.md" in sc, what="the editor")
    # Inline (at a line's start `<!--` would open an HTML block, which cmark-gfm reads
    # as HTML already).
    for typed in ["see <!-- @jo", 'see <a href="@jo', 'see <img alt="a @jo']:
        s.type(typed)
        s.wait_for(typed, what="the typing")
        assert "John" not in s.screen(), typed
        s.keys("Enter")
    # A `<` that starts no tag leaves the search alone.
    s.type("x < y @jo")
    s.wait_for("John", what="the chooser in prose")
    s.keys("Escape")
    s.keys("C-q")
    s.wait_for("Save changes")
    s.type("n")
    assert s.exit_status() == 1


def test_hash_in_a_headings_text_opens_the_channel_chooser(session, directory, tmp_path):
    channels = tmp_path / "channels.json"
    channels.write_text('[{"id": "C1", "name": "general"}, {"id": "C2", "name": "random"}]')
    path = tmp_path / "comment.md"
    s = session([str(path), "-d", directory, "-t", f"#={channels}"])
    s.wait_for(lambda sc: "comment.md" in sc, what="the editor")
    # At the start of a line `#` is the heading's marker: no chooser.
    s.type("#gen")
    s.wait_for("#gen", what="the typing")
    assert "general" not in s.screen()
    s.keys("C-u")
    s.type("## Notes for #gen")
    s.wait_for("general", what="the chooser in the heading's text")
    s.keys("Enter")
    s.keys("C-s")
    s.wait_for("Saved comment.md")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert path.read_text() == "## Notes for #general"


@pytest.mark.parametrize("how", [{"env": {"NO_COLOR": "1"}}, {"args": ["--no-color"]}, {"args": ["--theme", "mono"]}])
def test_without_colour_a_mention_in_a_heading_is_bold_and_underlined(session, directory, tmp_path, how):
    # Issue 32: the heading is bold; the mention in it is bold and underlined.
    path = tmp_path / "comment.md"
    path.write_bytes(b"# Ask @jdoe now\n\nplain text\n")
    s = session([str(path), "-d", directory, *how.get("args", [])], env=how.get("env"))
    s.wait_for("# Ask @jdoe now", what="the file")
    heading = s.style_at("# Ask")
    mention = s.style_at("@jdoe", within="# Ask @jdoe now")
    assert "1" in heading and "4" not in heading, s.screen(True)
    assert "1" in mention and "4" in mention, s.screen(True)
    assert not re.search(r"\x1b\[[0-9;]*(3[0-7]|9[0-7]|38;5;\d+)m", s.screen(attributes=True))
    s.keys("C-q")
    assert s.exit_status() == 0
