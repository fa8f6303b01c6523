"""One person, many accounts (docs/people.md, "One person, many accounts"): `render` writes
each service's own id from the directory's `accounts`, reads it first, and says which
mentions it had no id for."""
import json
import subprocess

from conftest import atpad_binary

PEOPLE = [
    {"id": "p1", "name": "John Doe", "handle": "john",
     "accounts": {"github": "jdoe", "slack": "U0123", "jira": "5b10ac8d", "zulip": 42,
                  "matrix": "@jdoe:example.org"}},
    {"id": "p2", "name": "Ann Lee", "accounts": {"github": "ann-gh", "slack": "U0456"}},
]


def render(tmp_path, text, source, target, directory_name="people.json", directory=None):
    path = tmp_path / "comment.txt"
    path.write_bytes(text.encode())
    people = tmp_path / directory_name
    if directory is None:
        people.write_text(json.dumps(PEOPLE))
    else:
        people.write_text(directory)
    return subprocess.run([atpad_binary(), "render", str(path), "--from", source, "--format", target,
                           "-d", str(people)], capture_output=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")})


def test_github_to_slack_pings_the_slack_accounts(tmp_path):
    proc = render(tmp_path, "thanks @jdoe and @ann-gh", "github", "slack")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == b"thanks <@U0123> and <@U0456>"
    assert proc.stderr == b""


def test_a_mention_without_an_account_is_written_as_the_name_and_noted(tmp_path):
    proc = render(tmp_path, "thanks @jdoe and @ann-gh", "github", "jira")
    assert proc.returncode == 0, proc.stderr
    # No `@` that would notify no one, or read back as someone else.
    assert proc.stdout == b"thanks [~accountid:5b10ac8d] and Ann Lee"
    assert proc.stderr.decode().splitlines() == [
        "atpad: " + str(tmp_path / "comment.txt")
        + ": 1 mention has no jira account and will not be notified: @Ann Lee"]


def test_atpad_markup_to_adf_writes_the_jira_account(tmp_path):
    proc = render(tmp_path, "hi @[John Doe](p1) and @[Ann Lee](p2)", "atpad", "adf")
    assert proc.returncode == 0, proc.stderr
    nodes = json.loads(proc.stdout)["content"][0]["content"]
    assert {"type": "mention", "attrs": {"id": "5b10ac8d", "text": "@John Doe"}} in nodes
    # Ann has accounts, none on Jira: her name as text, not a mention node of her directory id.
    assert not any(n["type"] == "mention" and n["attrs"]["id"] == "p2" for n in nodes)
    assert "Ann Lee" in "".join(n.get("text", "") for n in nodes)


def test_slack_to_github_and_zulip_and_matrix(tmp_path):
    assert render(tmp_path, "<@U0123> <@U0456>", "slack", "github").stdout == b"@jdoe @ann-gh"
    assert render(tmp_path, "<@U0123>", "slack", "zulip").stdout == b"@**John Doe|42**"
    event = json.loads(render(tmp_path, "<@U0123>", "slack", "matrix").stdout)
    assert event["m.mentions"] == {"user_ids": ["@jdoe:example.org"]}


def test_csv_accounts_columns(tmp_path):
    csv = "id,name,accounts.slack,accounts.jira\np1,John Doe,U0123,5b10ac8d\n"
    proc = render(tmp_path, "[~accountid:5b10ac8d]", "jira", "slack", "people.csv", csv)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == b"<@U0123>"


def test_every_format_gives_its_own_bytes_back(tmp_path):
    for fmt, text in [("github", "hi @jdoe, @JDOE and @ann-gh."), ("slack", "hi <@U0123|john> &amp; <@U0456>"),
                      ("jira", "hi [~accountid:5b10ac8d] [~accountid:p2]"), ("zulip", "hi @**Johnny|42**")]:
        proc = render(tmp_path, text, fmt, fmt)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == text.encode(), fmt


def test_an_unknown_service_is_a_one_line_error(tmp_path):
    proc = render(tmp_path, "hi", "github", "slack",
                  directory=json.dumps([{"id": "a", "name": "A", "accounts": {"icq": "1"}}]))
    assert proc.returncode == 2
    lines = proc.stderr.decode().splitlines()
    assert len(lines) == 1 and '"accounts" has the unknown service "icq"' in lines[0], lines


def test_someone_github_cannot_notify_is_their_name_in_the_md_file_and_on_matrix(sessions, tmp_path):
    """The editor, the `.md` file and what Matrix gets agree: Bob has a Matrix account but
    no GitHub one, so picking him in a GitHub Markdown file writes `Bob Builder` (not
    `@Bob Builder`, which reads back as `@Bob` and ` Builder`) and says so; the saved file
    posted to Matrix is `Thanks Bob Builder`, not `@Bob Builder Builder`."""
    people = tmp_path / "people.json"
    people.write_text(json.dumps(PEOPLE + [
        {"id": "p5", "name": "Bob Builder", "handle": "bob", "accounts": {"matrix": "@bob:example.org"}}]))
    path = tmp_path / "c.md"
    s = sessions([str(path), "-d", str(people)])
    s.type("Thanks @bob")
    s.wait_for(lambda sc: "┌" in sc and "Bob Builder" in sc, what="the chooser")
    s.keys("Enter")
    screen = s.wait_for("Bob Builder has no github account: written as text, not notified")
    assert "Thanks Bob Builder" in screen and "@Bob" not in screen
    s.keys("C-s")
    s.wait_for("Saved")
    assert path.read_bytes() == b"Thanks Bob Builder"  # the soft space after a pick is not saved
    s.keys("C-q")
    assert s.exit_status() == 0
    proc = subprocess.run([atpad_binary(), "post", "--dry-run", "matrix:!room:example.org", str(path), "-d", str(people)],
                          capture_output=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert proc.returncode == 0, proc.stderr
    body = json.loads(proc.stdout.decode().split("\n\n", 1)[1])
    assert body["body"] == "Thanks Bob Builder"
    assert body["m.mentions"] == {"user_ids": []}  # no one notified
