"""Markdown drawn in roles in the real editor (issue 23): in a Markdown file a code span
is drawn in `markup.code` and a heading in `markup.heading`, with the default theme's
styles, and `@` typed in code opens no chooser while in prose it does."""
import re

import pytest

from test_editor_tmux import directory, sessions  # noqa: F401  (fixtures)

SGR = r"\x1b\[([0-9;]*)m"


@pytest.fixture
def session(sessions):  # noqa: F811
    return lambda args, **kw: sessions(args, width=60, height=12, **kw)


def styled_line(s, text):
    return next(l for l in s.screen(attributes=True).splitlines() if text in re.sub(SGR, "", l))


def sgr_before(line, text):
    """The SGR parameters in force where `text` starts on `line` (captured with -e)."""
    i = line.index(text)
    params = []
    for code in re.findall(SGR, line[:i]):
        parts = code.split(";")
        if parts[0] in ("", "0"):
            params = parts[1:]
        else:
            params += parts
    return params


def test_code_span_and_heading_are_drawn_in_their_roles(session, tmp_path):
    path = tmp_path / "comment.md"
    path.write_bytes(b"# Release notes\n\nrun `make check` before\n")
    s = session([str(path)])
    s.wait_for("run `make check` before", what="the file")
    heading = styled_line(s, "# Release notes")
    # markup.heading: yellow and bold in the default theme.
    params = sgr_before(heading, "# Release notes")
    assert "1" in params and "33" in params, repr(heading)
    code = styled_line(s, "make check")
    # markup.code: magenta and dim; the prose before it is plain.
    params = sgr_before(code, "`make check`")
    assert "35" in params and "2" in params, repr(code)
    assert "35" not in sgr_before(code, "run ") and "35" not in sgr_before(code, " before"), repr(code)
    s.keys("C-q")
    assert s.exit_status() == 0


def test_no_color_keeps_the_attributes(session, tmp_path):
    path = tmp_path / "comment.md"
    path.write_bytes(b"# Title\n\nsee `code` here\n")
    s = session([str(path)], env={"NO_COLOR": "1"})
    s.wait_for("see `code` here", what="the file")
    assert "1" in sgr_before(styled_line(s, "# Title"), "# Title")
    assert "2" in sgr_before(styled_line(s, "`code`"), "`code`")
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
