"""`atpad check` (issue 36, docs/spelling.md): misspelt words of prose only, as
FILE:LINE:COL: WORD (suggestions) or JSON, exit 1 / 0 / 2; and the documented commit-msg
hook refusing a real `git commit` with a typo, then accepting it once fixed."""
import json
import os
import re
import subprocess

import pytest

from conftest import IDENTITY, ROOT, atpad_binary


@pytest.fixture
def check(atpad, home):
    def run(*args, input=None, cwd=None):
        env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"), "LANG": "en_US.UTF-8"}
        return atpad("check", *args, input=input, env=env, cwd=cwd)
    return run


COMMENT = """\
# Release notse

Thanks to John Doe for teh review: see `recieve()` and https://exmaple.com/pth.

```python
def wierd(): pass
```

Send mail to jdoe@exmaple.org, read src/mian.swift, ping @someonne :tada: 👍🏽 fooBar HTTPS v2.
👍🏽 👩‍👩‍👧 occured.
"""


def test_prints_each_misspelling_with_its_place_and_suggestions(check, tmp_path):
    path = tmp_path / "notes.md"
    path.write_text(COMMENT)
    proc = check(str(path))
    assert proc.returncode == 1, proc.stderr
    # `@someonne` is no one in the directory: not checked, and not a spelling matter (render
    # would say it was left as text).
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert [re.sub(r" \(.*\)$", "", line) for line in lines] == [
        f"{path}:1:11: notse",
        f"{path}:3:24: teh",
        f"{path}:10:5: occured",
    ]
    assert "the" in lines[1] and "occurred" in lines[2]


def test_suggestions_named_misspellings_and_one_edit_first(check, tmp_path):
    """docs/spelling.md, "Suggestions": the dictionary's REP lines first (`alot` → `a lot`),
    then the words one edit away in their order (swapped, missing, too many, wrong), a
    capital kept; Hunspell's own only when no letter's edit finds a word (`misteak`)."""
    path = tmp_path / "mail.md"
    path.write_text("We recieve alot of mail. Recieved it, untill then a misteak.\n")
    proc = check("--json", str(path))
    assert proc.returncode == 1, proc.stderr
    found = {o["word"]: o["suggestions"] for o in map(json.loads, proc.stdout.splitlines())}
    assert found["recieve"] == ["receive", "relieve"]
    assert found["alot"][0] == "a lot"
    assert found["Recieved"] == ["Received", "Relieved"]
    assert found["untill"][0] == "until"
    assert all("-" not in s and not s.endswith(".") for s in found["untill"])
    assert "mistake" in found["misteak"]


def test_link_text_is_checked_and_slack_and_jira_code_is_not(check, tmp_path):
    """docs/spelling.md, "What is checked": a link's text is prose (its destination is
    not); Slack's and Jira's comments keep their code in markup of their own."""
    md = tmp_path / "links.md"
    md.write_text("See [teh docs](https://exmaple.com/pth) and ![an imgae](pic.png).\n")
    proc = check(str(md))
    assert proc.returncode == 1, proc.stderr
    assert [re.sub(r" \(.*\)$", "", line) for line in proc.stdout.splitlines()] == [f"{md}:1:6: teh"]

    slack = tmp_path / "reply.txt"
    slack.write_text("Run `mispeled` then:\n```\nlet wrng = 1\n```\nthnaks\n")
    proc = check("--from", "slack", str(slack))
    assert proc.returncode == 1, proc.stderr
    assert [re.sub(r" \(.*\)$", "", line) for line in proc.stdout.splitlines()] == [f"{slack}:5:1: thnaks"]

    jira = tmp_path / "ticket.txt"
    jira.write_text("{code:swift}\nlet wrng = 1\n{code}\nSee {{mispeled}} and {noformat}nof ormat{noformat}.\n")
    proc = check("--from", "jira", str(jira))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == ""


def test_json_is_one_object_a_line(check, tmp_path):
    path = tmp_path / "notes.md"
    path.write_text(COMMENT)
    proc = check("--json", str(path))
    assert proc.returncode == 1
    objects = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [(o["file"], o["line"], o["column"], o["word"]) for o in objects] == [
        (str(path), 1, 11, "notse"), (str(path), 3, 24, "teh"), (str(path), 10, 5, "occured")]
    assert "occurred" in objects[2]["suggestions"]


def test_a_clean_file_exits_0_and_stdin_is_read(check, tmp_path):
    path = tmp_path / "ok.md"
    path.write_text("A perfectly fine comment with `cdoe` in it.\n")
    proc = check(str(path))
    assert (proc.returncode, proc.stdout) == (0, "")
    proc = check("-", input="A wrnog word from stdin.\n")
    assert (proc.returncode, proc.stdout.split(" (")[0]) == (1, "-:1:3: wrnog")


def test_usage_errors_exit_2(check, tmp_path):
    proc = check(str(tmp_path / "missing.md"))
    assert proc.returncode == 2 and proc.stdout == "" and "no such file" in proc.stderr
    assert check("--spell", "../etc", "-", input="x\n").returncode == 2
    assert check("--from", "nosuch", "-", input="x\n").returncode == 2


def test_the_personal_list_and_directory_names_are_known(check, home, tmp_path, people):
    path = tmp_path / "n.md"
    path.write_text("Ask Okonkwo about atpad.\n")
    assert [l.split(" (")[0] for l in check(str(path)).stdout.splitlines()] == [
        f"{path}:1:5: Okonkwo", f"{path}:1:19: atpad"]
    (home / ".config" / "atpad" / "words").write_text("atpad\n")
    directory = people([{"id": "1", "name": "Chidi Okonkwo", "handle": "chidi"}])
    proc = check(str(path), "-d", directory)
    assert (proc.returncode, proc.stdout) == (0, "")


def test_a_missing_dictionary_is_said_once_and_checking_goes_on(check, tmp_path):
    path = tmp_path / "n.md"
    path.write_text("A wrnog word.\n")
    proc = check("--spell", "xx_XX", "--spell", "en_US", str(path))
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        "atpad: no Hunspell dictionary for xx_XX (install hunspell-xx-xx, or see docs/spelling.md); checking in en_US"]
    proc = check("--spell", "xx_XX", str(path))
    assert (proc.returncode, proc.stdout, len(proc.stderr.splitlines())) == (0, "", 1)


def documented_hook():
    """The commit-msg hook as docs/spelling.md gives it."""
    text = (ROOT / "docs" / "spelling.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    hooks = [b for b in blocks if "commit-msg" in b]
    assert len(hooks) == 1, blocks
    return hooks[0]


def test_the_documented_hook_refuses_a_typo_then_accepts_the_fix(tmp_path, home):
    hook = documented_hook()
    assert hook.splitlines() == [
        "#!/bin/sh", "# .git/hooks/commit-msg: refuse a commit message with a misspelt word", 'exec atpad check "$1"']
    repo = tmp_path / "repo"
    repo.mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "atpad").symlink_to(os.path.abspath(atpad_binary()))
    env = {**os.environ, **IDENTITY, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "LANG": "en_US.UTF-8", "PATH": f"{bin_dir}:{os.environ['PATH']}"}

    def git(*args):
        return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, env=env, timeout=60)
    assert git("init", "-q").returncode == 0
    (repo / "a.txt").write_text("a\n")
    git("add", "a.txt")
    hook_path = repo / ".git" / "hooks" / "commit-msg"
    hook_path.write_text(hook)
    hook_path.chmod(0o755)

    message = tmp_path / "message"
    message.write_text("Fix the parsre\n\nIt read `recieve` wrong.\n")
    refused = git("commit", "-F", str(message))
    assert refused.returncode != 0
    assert re.search(r"COMMIT_EDITMSG:1:9: parsre \(.*parse.*\)", refused.stdout + refused.stderr), refused
    assert git("rev-parse", "--verify", "-q", "HEAD").returncode != 0

    message.write_text("Fix the parser\n\nIt read `recieve` wrong.\n")
    accepted = git("commit", "-F", str(message))
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert git("log", "-1", "--format=%s").stdout.strip() == "Fix the parser"

    # git's own comment lines are not checked: -m with a commented line and cleanup.
    (repo / "a.txt").write_text("b\n")
    git("add", "a.txt")
    accepted = git("commit", "--cleanup=strip", "-m", "Second change\n\n# a commnet git stirps")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
