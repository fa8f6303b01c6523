"""`atpad render` and `atpad mentions` end to end (docs/formats.md, docs/commands.md).

The golden files are the ones the core's FormatGoldenTests use
(Tests/AtpadCoreTests/Golden/formats): the same bytes must come out of the command line.
"""
import json
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, atpad_binary

GOLDEN = ROOT / "Tests" / "AtpadCoreTests" / "Golden" / "formats"
FORMATS = ["atpad", "github", "gitlab", "mattermost", "slack", "discord", "jira", "zulip", "matrix", "adf",
           "markdown", "plain", "json"]
DIRECTORY = ["-d", str(GOLDEN / "people.json"), "-t", f"#={GOLDEN / 'channels.json'}"]


def run(*args):
    """Runs atpad with bytes in and out (no newline translation), returning the process."""
    return subprocess.run([atpad_binary(), *args], capture_output=True, timeout=60)


@pytest.mark.parametrize("fmt", FORMATS)
def test_render_matches_golden_file(fmt):
    proc = run("render", str(GOLDEN / "input.atpad"), "--format", fmt, *DIRECTORY)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (GOLDEN / f"render.{fmt}").read_bytes()
    assert proc.stderr == b""


def test_short_format_option():
    proc = run("render", str(GOLDEN / "input.atpad"), "-f", "slack", *DIRECTORY)
    assert proc.stdout == (GOLDEN / "render.slack").read_bytes()


def test_from_json_back_to_atpad():
    proc = run("render", str(GOLDEN / "render.json"), "--from", "json", "--format", "atpad")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (GOLDEN / "input.atpad").read_bytes()


def test_json_file_is_read_as_json_by_default(tmp_path):
    path = tmp_path / "comment.json"
    path.write_bytes((GOLDEN / "render.json").read_bytes())
    proc = run("render", str(path), "--format", "atpad")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (GOLDEN / "input.atpad").read_bytes()


def test_atpad_files_are_markup_and_other_files_github_by_default(tmp_path):
    path = tmp_path / "comment.atpad"
    path.write_text("hi @[John Doe](u1)", encoding="utf-8")
    assert run("render", str(path), "--format", "slack").stdout == b"hi <@u1>"
    # Not markup: `@[John Doe](u1)` is text, and `\\` two backslashes.
    other = tmp_path / "comment.md"
    other.write_text("hi @[John Doe](u1) \\\\", encoding="utf-8")
    assert run("render", str(other), "--format", "plain").stdout == b"hi @[John Doe](u1) \\\\"
    assert run("render", str(other), "--format", "github").stdout == b"hi @[John Doe](u1) \\\\"


def test_from_a_chat_format_uses_the_directory(tmp_path, people):
    directory = people([{"id": "U1", "name": "John Doe", "handle": "jdoe"}])
    path = tmp_path / "comment.txt"
    path.write_text("hi <@U1> &amp; <@U999>\n", encoding="utf-8")
    proc = run("render", str(path), "--from", "slack", "--format", "atpad", "-d", directory)
    assert proc.returncode == 0
    assert proc.stdout == "hi @[John Doe](U1) & <@U999>\n".encode()
    # Notes go to stderr, as one line.
    assert proc.stderr.decode() == (
        f"atpad: {path}: 1 mention not in the directory was left as text: <@U999>\n")


def test_github_round_trip_through_the_directory(tmp_path, people):
    directory = people([{"id": "u1", "name": "John Doe", "handle": "jdoe"}])
    path = tmp_path / "c.atpad"
    path.write_text("thanks @[John Doe](u1)!", encoding="utf-8")
    github = run("render", str(path), "--format", "github", "-d", directory)
    assert github.stdout == b"thanks @jdoe!"
    back = tmp_path / "c.md"
    back.write_bytes(github.stdout)
    proc = run("render", str(back), "--from", "github", "--format", "atpad", "-d", directory)
    assert proc.stdout == b"thanks @[John Doe](u1)!"


def test_no_newline_is_added(tmp_path):
    path = tmp_path / "c.atpad"
    path.write_text("hi @[John Doe](u1)", encoding="utf-8")
    for fmt in FORMATS:
        out = run("render", str(path), "--format", fmt).stdout
        assert not out.endswith(b"\n"), fmt


def test_a_final_newline_is_kept(tmp_path):
    path = tmp_path / "c.atpad"
    path.write_text("hi @[John Doe](u1)\n", encoding="utf-8")
    for fmt in ["atpad", "github", "slack", "discord", "markdown", "plain"]:
        out = run("render", str(path), "--format", fmt).stdout
        assert out.endswith(b"\n") and not out.endswith(b"\n\n"), fmt
    assert json.loads(run("render", str(path), "--format", "json").stdout)["text"] == "hi @John Doe\n"


def test_a_json_files_final_newline_or_its_absence_comes_back(tmp_path):
    # Issue 32: rendering a json comment as json gives its bytes back, final newline or not.
    body = b'{"text": "hi @John Doe", "mentions": [{"trigger": "@", "id": "u1", "name": "John Doe", "start": 3, ' \
           b'"end": 12, "utf16": [3, 12], "utf8": [3, 12]}]}'
    for ending in [b"", b"\n", b"\r\n"]:
        path = tmp_path / "c.json"
        path.write_bytes(body + ending)
        proc = run("render", str(path), "--from", "json", "--format", "json")
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == body + ending, ending
        # Another format writes the comment's text only: the object's ending is not text.
        assert run("render", str(path), "--format", "plain").stdout == b"hi @John Doe"


def test_mentions_prints_the_json_mention_objects():
    proc = run("mentions", str(GOLDEN / "input.atpad"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.endswith(b"\n")
    expected = json.loads((GOLDEN / "render.json").read_bytes())["mentions"]
    assert json.loads(proc.stdout) == expected
    assert expected[0] == {"trigger": "@", "id": "u1", "name": "John Doe", "start": 11, "end": 20,
                           "utf16": [11, 20], "utf8": [11, 20]}


def test_mentions_takes_from(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("[@Ann](mention:a1) and [#ops](mention:c%201)", encoding="utf-8")
    out = json.loads(run("mentions", str(path), "--from", "markdown").stdout)
    assert [(m["trigger"], m["id"], m["name"], m["start"]) for m in out] == [("@", "a1", "Ann", 0), ("#", "c 1", "ops", 9)]


def test_mentions_of_a_document_without_any():
    proc = run("mentions", str(GOLDEN / "people.json"), "--from", "plain")
    assert proc.returncode == 0 and proc.stdout == b"[]\n"


def test_missing_file_is_a_usage_error(tmp_path):
    for command in (["render", str(tmp_path / "nope.atpad"), "--format", "plain"], ["mentions", str(tmp_path / "nope")]):
        proc = run(*command)
        assert proc.returncode == 2
        assert proc.stderr.decode() == f"atpad: {tmp_path / 'nope' if command[0] == 'mentions' else tmp_path / 'nope.atpad'}: no such file\n"
        assert proc.stdout == b""


def test_folder_is_a_usage_error(tmp_path):
    proc = run("render", str(tmp_path), "--format", "plain")
    assert proc.returncode == 2
    assert b"is a folder" in proc.stderr


def test_unknown_format_lists_the_formats(tmp_path):
    path = tmp_path / "c.atpad"
    path.write_text("hi", encoding="utf-8")
    proc = run("render", str(path), "--format", "html")
    assert proc.returncode == 2
    assert proc.stderr.decode() == (
        "atpad: --format: unknown format 'html'; the formats are "
        "atpad, github, gitlab, mattermost, slack, discord, jira, zulip, matrix, adf, markdown, "
        "plain, text, json\n")
    proc = run("mentions", str(path), "--from", "rtf")
    assert proc.returncode == 2
    assert proc.stderr.decode().startswith("atpad: --from: unknown format 'rtf'")


def test_format_is_required(tmp_path):
    path = tmp_path / "c.atpad"
    path.write_text("hi", encoding="utf-8")
    proc = run("render", str(path))
    assert proc.returncode == 2
    assert b"--format" in proc.stderr


def test_bytes_that_are_not_utf8_are_written_as_they_were(tmp_path):
    """Issue 22: any bytes. A format that cannot carry them (json, matrix, adf) says so, exit 1."""
    path = tmp_path / "c.atpad"
    path.write_bytes(b"caf\xe9 @[Ann](a) \xff")
    note = f"atpad: {path}: 2 bytes that are not UTF-8 kept as they were (shown as \\xNN)"
    for fmt, expected in [("plain", b"caf\xe9 @Ann \xff"), ("atpad", b"caf\xe9 @[Ann](a) \xff"),
                          ("slack", b"caf\xe9 <@a> \xff")]:
        proc = run("render", str(path), "--format", fmt)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == expected
        assert proc.stderr.decode().splitlines() == [note]
    proc = run("mentions", str(path))
    assert proc.returncode == 0 and json.loads(proc.stdout)[0]["id"] == "a"
    for fmt in ["json", "matrix", "adf"]:
        proc = run("render", str(path), "--format", fmt)
        assert proc.returncode == 1, fmt
        assert proc.stdout == b""
        assert proc.stderr.decode().splitlines()[-1] == (
            f"atpad: {path}: the {fmt} format cannot carry bytes that are not UTF-8 (shown as \\xNN)")
    # A json file must be UTF-8.
    bad = tmp_path / "c.json"
    bad.write_bytes(b'{"text": "caf\xe9", "mentions": []}')
    proc = run("render", str(bad), "--format", "plain")
    assert proc.returncode == 2
    assert "not valid UTF-8 (byte 14 of 32)" in proc.stderr.decode()


def test_malformed_json_is_a_usage_error_naming_the_line(tmp_path):
    path = tmp_path / "c.json"
    path.write_text('{"text": "hi",\n "mentions": [}\n', encoding="utf-8")
    # Named json (a .json file that is not a comment object would be read as text).
    proc = run("render", str(path), "--from", "json", "--format", "plain")
    assert proc.returncode == 2
    assert proc.stderr.decode().startswith(f"atpad: {path}: not in the json format: line 2: ")


def test_invalid_json_mentions_are_dropped_with_a_note(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"text": "hi @Ann", "mentions": [
        {"trigger": "@", "id": "a", "name": "Ann", "start": 3, "end": 7},
        {"trigger": "@", "id": "b", "name": "Bob", "start": 3, "end": 7}]}), encoding="utf-8")
    proc = run("render", str(path), "--format", "atpad")
    assert proc.returncode == 0
    assert proc.stdout == b"hi @[Ann](a)"
    assert proc.stderr.decode().count("\n") == 1
    assert "mention 2 (b): range 3..<7" in proc.stderr.decode()


def test_directory_is_loaded_only_when_a_format_needs_it(tmp_path):
    path = tmp_path / "c.atpad"
    path.write_text("hi @[Ann](a)", encoding="utf-8")
    broken = ["-d", str(tmp_path / "missing-directory.json")]
    for fmt in ["atpad", "discord", "plain", "json"]:
        assert run("render", str(path), "--format", fmt, *broken).returncode == 0, fmt
    assert run("mentions", str(path), *broken).returncode == 0
    # Slack, Jira, Zulip and Matrix write a person's account on their service (docs/people.md).
    for fmt in ["github", "gitlab", "mattermost", "markdown", "slack", "jira", "zulip", "matrix"]:
        proc = run("render", str(path), "--format", fmt, *broken)
        assert proc.returncode == 2, fmt
        assert b"missing-directory.json" in proc.stderr


NEW_PEOPLE = [
    {"id": "u1", "name": "John Doe", "handle": "jdoe"},
    {"id": "557058:ab-cd", "name": "Zoë <Ørsted> & co"},
    {"id": "@ann:example.org", "name": "Ann \"A\" O'Neil"},
]
NEW_INPUT = "Hi @[John Doe](u1) & @[Zoë <Ørsted> & co](557058:ab-cd),\nsee <b> @[Ann \"A\" O'Neil](@ann:example.org) @[John Doe](u1)"


@pytest.mark.parametrize("fmt, expected", [
    ("gitlab", "Hi @jdoe & @Zoë <Ørsted> & co,\nsee <b> @Ann \"A\" O'Neil @jdoe"),
    ("mattermost", "Hi @jdoe & @Zoë <Ørsted> & co,\nsee <b> @Ann \"A\" O'Neil @jdoe"),
    ("jira", "Hi [~accountid:u1] & [~accountid:557058:ab-cd],\nsee <b> [~accountid:@ann:example.org] "
             "[~accountid:u1]"),
    ("zulip", "Hi @**John Doe|u1** & @**Zoë <Ørsted> & co|557058:ab-cd**,\nsee <b> "
              "@**Ann \"A\" O'Neil|@ann:example.org** @**John Doe|u1**"),
])
def test_render_new_formats(tmp_path, people, fmt, expected):
    directory = people(NEW_PEOPLE)
    path = tmp_path / "x"
    path.write_text(NEW_INPUT, encoding="utf-8")
    proc = run("render", str(path), "--from", "atpad", "--format", fmt, "-d", directory)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode() == expected
    assert proc.stderr == b""
    # Read back: the same document, and the same bytes again.
    back = tmp_path / f"x.{fmt}"
    back.write_bytes(proc.stdout)
    atpad = run("render", str(back), "--from", fmt, "--format", "atpad", "-d", directory)
    assert atpad.returncode == 0, atpad.stderr
    assert atpad.stdout.decode() == NEW_INPUT
    same = run("render", str(back), "--from", fmt, "--format", fmt, "-d", directory)
    assert same.stdout == proc.stdout


def test_render_matrix_event(tmp_path, people):
    path = tmp_path / "x.atpad"
    path.write_text(NEW_INPUT, encoding="utf-8")
    proc = run("render", str(path), "--format", "matrix")
    assert proc.returncode == 0, proc.stderr
    event = json.loads(proc.stdout)
    assert list(event) == ["msgtype", "body", "format", "formatted_body", "m.mentions"]
    assert event["msgtype"] == "m.text"
    assert event["format"] == "org.matrix.custom.html"
    assert event["body"] == "Hi @John Doe & @Zoë <Ørsted> & co,\nsee <b> @Ann \"A\" O'Neil @John Doe"
    assert event["formatted_body"] == (
        'Hi <a href="https://matrix.to/#/u1">John Doe</a> &amp; '
        '<a href="https://matrix.to/#/557058:ab-cd">Zoë &lt;Ørsted&gt; &amp; co</a>,<br />\nsee &lt;b&gt; '
        '<a href="https://matrix.to/#/@ann:example.org">Ann &quot;A&quot; O&#39;Neil</a> '
        '<a href="https://matrix.to/#/u1">John Doe</a>')
    assert event["m.mentions"] == {"user_ids": ["u1", "557058:ab-cd", "@ann:example.org"]}
    # One line, no newline added, the key layout of the other JSON output.
    assert proc.stdout.startswith(b'{"msgtype": "m.text", "body": "Hi @John Doe')
    assert not proc.stdout.endswith(b"\n")


def test_zulip_keeps_unknown_ids_and_other_forms(tmp_path):
    path = tmp_path / "c.zulip"
    path.write_bytes(b"@**Ghost|g9** @**John Doe** @_**x|u1** `@**a|b**`\n")
    atpad = run("render", str(path), "--from", "zulip", "--format", "atpad")
    assert atpad.returncode == 0, atpad.stderr
    assert atpad.stdout == b"@[Ghost](g9) @**John Doe** @_**x|u1** `@**a|b**`\n"
    assert run("render", str(path), "--from", "zulip", "--format", "zulip").stdout == path.read_bytes()


def test_jira_unknown_ids_stay_text_with_a_note(tmp_path, people):
    directory = people(NEW_PEOPLE)
    path = tmp_path / "c.jira"
    path.write_bytes(b"h1. Title\n[~accountid:u1] [~accountid:zz] [~jdoe] {code}x{code}\r\n")
    proc = run("render", str(path), "--from", "jira", "--format", "jira", "-d", directory)
    assert proc.returncode == 0
    assert proc.stdout == path.read_bytes()
    assert proc.stderr.decode() == (
        f"atpad: {path}: 1 mention not in the directory was left as text: [~accountid:zz]\n")
    mentions = run("mentions", str(path), "--from", "jira", "-d", directory)
    assert [m["id"] for m in json.loads(mentions.stdout)] == ["u1"]


def test_gitlab_keeps_the_case_of_a_handle(tmp_path, people):
    directory = people(NEW_PEOPLE)
    path = tmp_path / "c.md"
    path.write_bytes(b"thanks @JDoe and @jdoe, cc @ghost")
    for fmt in ["gitlab", "mattermost", "github"]:
        proc = run("render", str(path), "--from", fmt, "--format", fmt, "-d", directory)
        assert proc.stdout == path.read_bytes(), fmt
        mentions = run("mentions", str(path), "--from", fmt, "-d", directory)
        assert [m["id"] for m in json.loads(mentions.stdout)] == ["u1", "u1"], fmt


def test_matrix_cannot_be_read(tmp_path):
    path = tmp_path / "c.json"
    path.write_text('{"msgtype": "m.text", "body": "hi"}', encoding="utf-8")
    expected = "atpad: --from: the matrix format is output only; a file cannot be read in it\n"
    for command in (["render", str(path), "--from", "matrix", "--format", "plain"],
                    ["mentions", str(path), "--from", "matrix"]):
        proc = run(*command)
        assert proc.returncode == 2, command
        assert proc.stderr.decode() == expected
        assert proc.stdout == b""


@pytest.mark.parametrize("args", [["-f", "matrix"], ["--format", "MATRIX"], ["--print", "-f", "matrix"]])
def test_editor_refuses_a_file_in_matrix(tmp_path, args):
    path = tmp_path / "c.txt"
    path.write_text("hi", encoding="utf-8")
    proc = subprocess.run([atpad_binary(), str(path), *args], capture_output=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 2
    lines = proc.stderr.decode().splitlines()
    assert lines == [f"atpad: --format: the matrix format is output only; it cannot open {path} "
                     "(use it with --print and no FILE, or atpad render)"]
    assert path.read_text() == "hi"


def test_editor_refuses_matrix_from_the_config(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("hi", encoding="utf-8")
    config = tmp_path / "config.toml"
    config.write_text('format = "matrix"\n', encoding="utf-8")
    proc = subprocess.run([atpad_binary(), str(path), "--config", str(config)], capture_output=True,
                          timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2
    assert b"matrix format is output only" in proc.stderr


def test_discord_keeps_a_converted_comments_code_byte_for_byte(tmp_path):
    # Discord shows code as written: `<@1>` in a code span or a fence stays as it is, and
    # is escaped elsewhere (an indented block is no code in Discord). A discord file of its
    # own escapes it in code too (its bytes never depend on where a backtick is).
    comment = tmp_path / "c.md"
    comment.write_bytes(b"see `<@1>` and <@2>\n\n```\nx <#3>\n```\n\n    <@4>\n")
    proc = run("render", str(comment), "--format", "discord")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == b"see `<@1>` and \\<@2>\n\n```\nx <#3>\n```\n\n    \\<@4>\n"
    own = tmp_path / "c.txt"
    own.write_bytes(proc.stdout)
    again = run("render", str(own), "--from", "discord", "--format", "discord")
    assert again.stdout == proc.stdout
    typed = run("render", str(comment), "--from", "atpad", "--format", "discord")
    assert typed.stdout == proc.stdout
