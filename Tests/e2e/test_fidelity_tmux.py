"""What you see is what the file holds and what its readers get (docs/formats.md, "Which
format a file is in" and "How a mention is shown"; docs/editor.md, "Paste" and "Find and
replace"): the real binary in tmux, checking the bytes on disk."""
import json
import shlex

from conftest import IDENTITY, atpad_binary
from test_git_editor import make_repo
from tmux import Session


def saved(s, path, what="Saved"):
    s.keys("C-s")
    s.wait_for(what)
    return path.read_bytes()


def test_a_paste_is_text_in_the_documents_format(sessions, directory, tmp_path):
    path = tmp_path / "p.md"
    s = sessions([str(path), "-d", directory])
    pasted = 'x = "a\\\\n"; see @[the docs](https://e.com/docs) and C:\\\\dir'
    s.paste(pasted)
    s.wait_for("C:\\\\dir")
    assert saved(s, path) == pasted.encode()
    s.keys("C-q")
    assert s.exit_status() == 0


def test_a_pasted_handle_is_shown_and_saved_as_pasted(sessions, directory, tmp_path):
    path = tmp_path / "h.md"
    s = sessions([str(path), "-d", directory])
    s.paste("thanks @jdoe and @JRoe!")
    s.wait_for("thanks @jdoe and @JRoe!")
    assert "John Doe" not in s.screen()
    assert saved(s, path) == b"thanks @jdoe and @JRoe!"
    s.keys("C-q")
    assert s.exit_status() == 0


def test_replace_all_never_edits_inside_a_mention(sessions, directory, tmp_path):
    path = tmp_path / "rep.md"
    path.write_text("John wrote this.\nContact @jdoe for access.\n")
    s = sessions([str(path), "-d", directory, "--implicit", "0"])
    s.wait_for("Contact @jdoe for access.")
    for query in ("John", "jdoe"):
        s.keys("M-r")
        s.wait_for("Replace:")
        s.type(query)
        s.keys("Enter")
        s.wait_for("With:")
        s.type("Jane")
        s.keys("Enter")
        if query == "John":
            s.wait_for("Replace? (y)es (n)o (a)ll")
            s.type("a")
            s.wait_for("Replaced 1 occurrence")
        else:
            s.wait_for("No matches for jdoe outside mentions (1 inside a mention skipped)")
    assert saved(s, path) == b"Jane wrote this.\nContact @jdoe for access.\n"
    s.keys("C-q")
    assert s.exit_status() == 0


def test_tab_in_a_go_file_is_a_tab(sessions, directory, tmp_path):
    path = tmp_path / "tabs.go"
    s = sessions([str(path), "-d", directory])
    s.keys("Tab")
    s.type("jonas")
    s.keys("Tab")
    s.type("string @jo")
    s.wait_for("string @jo")
    assert "John Doe" not in s.screen(), "no chooser opens by itself in a text file"
    s.keys("Tab")
    s.type("x")
    assert saved(s, path) == b"\tjonas\tstring @jo\tx"
    # Ctrl-Space still mentions someone, written @handle.
    s.keys("Enter")
    s.type("cc ")
    s.keys("C-Space")
    s.type("jd")
    s.wait_for("John Doe")
    s.keys("Enter")
    s.wait_for("cc @jdoe")
    # The soft space the pick added, last on its line, is not written.
    assert saved(s, path) == b"\tjonas\tstring @jo\tx\ncc @jdoe"
    s.keys("C-q")
    assert s.exit_status() == 0


def test_the_configs_format_leaves_git_messages_alone(tmp_path):
    path, git, people = make_repo(tmp_path, [{"id": "u1", "name": "John Doe", "handle": "jdoe"}])
    config = tmp_path / "xdg-config" / "atpad"
    config.mkdir(parents=True, exist_ok=True)
    (config / "config.toml").write_text('format = "slack"\n')
    editor = " ".join(shlex.quote(a) for a in [atpad_binary(), "-d", people])
    s = Session("git commit", env={**IDENTITY, "GIT_EDITOR": editor, "XDG_CONFIG_HOME": str(tmp_path / "xdg-config")},
                cwd=str(path))
    try:
        s.wait_for("COMMIT_EDITMSG")
        s.type("Fix a < b & c for @jdoe")
        s.wait_for("for @jdoe")
        s.keys("Escape")
        s.keys("C-s")
        s.wait_for("Saved")
        s.keys("C-q")
        assert s.exit_status() == 0
        assert git("log", "-1", "--format=%B").stdout.startswith("Fix a < b & c for @jdoe")
    finally:
        s.close()


def test_a_commit_message_shows_what_github_shows(tmp_path):
    path, git, people = make_repo(tmp_path, [{"id": "u1", "name": "John Doe", "handle": "jdoe"}])
    editor = " ".join(shlex.quote(a) for a in [atpad_binary(), "-d", people])
    s = Session("git commit", env={**IDENTITY, "GIT_EDITOR": editor}, cwd=str(path))
    try:
        s.wait_for("COMMIT_EDITMSG")
        s.type("Thanks @jo")
        s.wait_for("John Doe")
        s.keys("Enter")
        s.type(" :tada:")
        s.wait_for("Thanks @jdoe :tada:")
        assert "@John Doe" not in s.screen()
        # Find finds the shortcode: it is text, not a mention of the emoji directory.
        s.keys("C-f")
        s.wait_for("Find:")
        s.type(":tada:")
        s.keys("Enter")
        # The cursor lands at the match: `:` is the 14th character of the line.
        s.wait_for(lambda sc: "Ln 1, Col 14" in sc.split("\n")[0], what="the cursor at :tada:")
        s.keys("C-s")
        s.wait_for("Saved")
        s.keys("C-q")
        assert s.exit_status() == 0
        assert git("log", "-1", "--format=%B").stdout.startswith("Thanks @jdoe :tada:")
    finally:
        s.close()


def test_emoji_shortcodes_stay_text_in_every_format(atpad, tmp_path):
    path = tmp_path / "e.md"
    path.write_text("party :tada: now\n")
    slack = atpad("render", str(path), "--format", "slack", check_exit=0)
    assert slack.stdout == "party :tada: now\n"
    mentions = atpad("mentions", str(path), check_exit=0)
    assert json.loads(mentions.stdout) == []
    adf = atpad("render", str(path), "--format", "adf", check_exit=0)
    assert '"mention"' not in adf.stdout


def test_package_json_opens_as_text_and_saves_unchanged(sessions, directory, tmp_path):
    path = tmp_path / "package.json"
    original = b'{\n  "name": "x",\n  "author": "@jdoe <a@b.c>"\n}\n'
    path.write_bytes(original)
    s = sessions([str(path), "-d", directory])
    s.wait_for('"author": "@jdoe <a@b.c>"')
    assert saved(s, path) == original
    s.keys("Down")
    s.keys("End")
    s.type(" ")
    s.wait_for("[+]")
    s.keys("C-z")
    s.wait_for(lambda sc: "[+]" not in sc.split("\n")[0], what="the edit undone")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert path.read_bytes() == original


def test_mentions_of_a_github_file_name_the_person_at_the_handle(atpad, people, tmp_path):
    directory = people([{"id": "u1", "name": "John Doe", "handle": "jdoe"}])
    path = tmp_path / "c.md"
    path.write_text("hi @jdoe")
    out = atpad("mentions", str(path), "-d", directory, check_exit=0)
    assert [(m["name"], m["start"], m["end"]) for m in json.loads(out.stdout)] == [("John Doe", 3, 8)]
