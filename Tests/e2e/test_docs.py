"""The man pages and docs/ describe what the code defines: every key of the keymap, every
option of every command, every config key, every format and every environment variable
the code reads. Each list comes from the binary (or the sources) itself, so a new key,
option, config key or format without its documentation fails here."""
import json
import re
import subprocess
import sys

import pytest

from conftest import ROOT, atpad_binary

DOCS = ROOT / "docs"


def manpage(*arguments):
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "manpage.py"), *arguments, atpad_binary()],
                          capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def page():
    return manpage()


@pytest.fixture(scope="module")
def config_page():
    return manpage("--config")


def plain(roff):
    """The page's text without roff's escapes, enough to find names in it."""
    return roff.replace("\\-", "-").replace("\\e", "\\").replace("\\fB", "").replace("\\fI", "").replace("\\fR", "")


def section(roff, name):
    start = roff.index(".SH " + name + "\n")
    end = roff.find("\n.SH ", start + 1)
    return roff[start:end if end >= 0 else len(roff)]


def docs_text():
    return "\n".join(path.read_text() for path in sorted(DOCS.glob("*.md")))


def dump_help():
    out = subprocess.run([atpad_binary(), "--experimental-dump-help"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["command"]


def commands(command, path=("atpad",)):
    """Every visible command with its path, the editor's included."""
    for sub in command.get("subcommands", []):
        if sub.get("shouldDisplay", True) and sub["commandName"] != "help":
            yield path + (sub["commandName"],), sub
            yield from commands(sub, path + (sub["commandName"],))


def options(command):
    """The options a person can give a command, as written on a command line."""
    for argument in command.get("arguments", []):
        if argument["kind"] == "positional" or not argument.get("shouldDisplay", True):
            continue
        names = [("-" if n["kind"] == "short" else "--") + n["name"] for n in argument.get("names", [])]
        if set(names) & {"--help", "-h", "--version"}:
            continue
        yield names


def test_the_man_page_has_every_section(page):
    for name in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "KEYS", "FORMATS", "FILES",
                 "ENVIRONMENT", "EXIT STATUS", "EXAMPLES", "SEE ALSO"]:
        assert ".SH " + name + "\n" in page, name


def test_the_man_page_lists_every_row_of_atpad_keys(atpad, page):
    table = atpad("keys", check_exit=0).stdout.splitlines()
    assert table[:2] == ["| key | action |", "|---|---|"]
    listed = re.findall(r"\.TP\n\\fB(.*)\\fR\n", section(page, "KEYS"))
    expected = [line.strip("|").split(" | ")[0].strip().replace("-", "\\-") for line in table[2:]]
    assert listed == expected


def test_every_key_of_the_keymap_is_in_docs_keys(atpad):
    """(docs/keys.md holds the very table: AtpadAppTests' KeysDocumentationTests.)"""
    keys = (DOCS / "keys.md").read_text()
    for line in atpad("keys", check_exit=0).stdout.splitlines()[2:]:
        assert line in keys, line


def test_every_option_of_every_command_is_in_the_man_page_and_the_docs(page):
    text, docs = plain(page), docs_text()
    missing_page, missing_docs = [], []
    for path, command in commands(dump_help()):
        for names in options(command):
            if not any(re.search(re.escape(name) + r"\b", text) for name in names):
                missing_page.append((" ".join(path), names))
            if not any(re.search(r"`[^`\n]*" + re.escape(name) + r"\b", docs) for name in names):
                missing_docs.append((" ".join(path), names))
    assert missing_page == []
    assert missing_docs == []


def test_every_config_key_is_in_atpad_toml_5_and_docs_config(atpad, config_page):
    rows = atpad("keys", "--config-keys", check_exit=0).stdout.splitlines()[2:]
    assert len(rows) >= 25
    listed = re.findall(r"\.TP\n\\fB(.*)\\fR\n", config_page)
    docs = (DOCS / "config.md").read_text()
    for row in rows:
        name = row.split(" | ")[0].strip("| ").split("`")[-2]
        assert plain(name) in [plain(n) for n in listed], name
        assert row in docs, row
    assert config_page.startswith(".\\\"") and ".TH ATPAD.TOML 5" in config_page
    for name in ["NAME", "SYNOPSIS", "DESCRIPTION", "KEYS", "EXAMPLE", "SEE ALSO"]:
        assert ".SH " + name + "\n" in config_page, name


def test_atpad_1_atpad_toml_5_and_docs_config_give_the_same_defaults(atpad, page, config_page):
    """A default is declared once in the code; the options' help (and so atpad(1)), the
    table of keys (and so atpad.toml(5) and docs/config.md) all show that one value."""
    rows = {row.split(" | ")[0].strip("| ").split("`")[-2]: row.split(" | ")[2].strip("`")
            for row in atpad("keys", "--config-keys", check_exit=0).stdout.splitlines()[2:]}
    man, docs = plain(page), (DOCS / "config.md").read_text()
    for key, phrase in [("implicit", "(0 = off; default {})"), ("command_timeout", "answer (default {})"),
                        ("limit", "(default {}, or the config's limit)")]:
        default = rows[key]
        assert default and default.isdigit(), key
        assert phrase.format(default) in " ".join(man.split()), key
        assert f"`{key}` |" in docs and f"| `{default}` |" in docs.split(f"`{key}` |")[1].split("\n")[0], key
        entry = config_page.split(f"\\fB{key}\\fR\n", 1)[1].split("\n.TP", 1)[0]
        assert f"Default: {default}." in plain(entry), key


def test_the_docs_show_the_shipped_config_example_as_it_is():
    example = (ROOT / "Resources" / "config.example.toml").read_text()
    assert "```toml\n" + example + "```\n" in (DOCS / "config.md").read_text()


def test_every_format_is_in_the_man_page_with_what_it_writes_and_in_docs_formats(atpad, page):
    names = [line.split()[0] for line in atpad("keys", "--formats", check_exit=0).stdout.splitlines()]
    assert "github" in names and "slack" in names
    formats = section(page, "FORMATS")
    docs = (DOCS / "formats.md").read_text()
    for name in names:
        entry = re.search(r"\.TP\n\\fB" + re.escape(name) + r"\\fR\n(.*)\n", formats)
        assert entry and entry.group(1).strip(), name  # a one-line summary, not a blank
        assert re.search(r"`" + re.escape(name) + r"`", docs), name
    # What a format writes comes from `atpad render` itself.
    assert "Thanks @jdoe, see #general & <docs>" in formats
    assert "Thanks <@u1>, see <#C01> &amp; &lt;docs&gt;" in formats


def environment_variables():
    """The variables the sources read: `environment["X"]`, `getenv("X")`, and those a
    preset requires; not the ones atpad only sets for its own commands."""
    names = set()
    for path in (ROOT / "Sources").rglob("*.swift"):
        text = path.read_text()
        names.update(re.findall(r'environment\["([A-Z_a-z]+)"\]', text))
        names.update(re.findall(r'getenv\("([A-Z_a-z]+)"\)', text))
        for group in re.findall(r"requireVariables\(\[([^\]]*)\]", text):
            names.update(re.findall(r'"([A-Z_]+)"', group))
        names.update(re.findall(r'\$\{?(ATPAD_[A-Z_]+|LDAP_[A-Z_]+)', text))
    own = {"PATH", "ATPAD_GITHUB_QUERY", "ATPAD_GITHUB_TEAMS", "ATPAD_GITHUB_ISSUES", "ATPAD_GITHUB_LIST",
           "ATPAD_GITHUB_TEAMS_LIST", "ATPAD_GITHUB_TEAM_JQ", "ATPAD_GITHUB_USER_JQ"}
    return sorted(names - own)


def test_every_environment_variable_the_code_reads_is_in_the_man_page(page):
    variables = environment_variables()
    assert {"NO_COLOR", "ATPAD_DRAFTS", "SLACK_TOKEN", "JIRA_TOKEN", "LDAP_URI"} <= set(variables)
    listed = plain(section(page, "ENVIRONMENT"))
    assert [name for name in variables if not re.search(r"\b" + name + r"\b", listed)] == []


def test_every_exit_status_is_in_the_man_page_and_the_docs(page):
    statuses = plain(section(page, "EXIT STATUS"))
    docs = (DOCS / "exit-status.md").read_text()
    for status in ["0", "1", "2", "129, 130, 131, 143"]:
        assert "\n" + status + "\n" in statuses, status
        assert "| " + status + " |" in docs, status


def test_the_readme_is_short_and_task_first():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 200
    assert "§" not in readme and "SPEC" not in readme
    # The order the README promises: what, install, the two commands, the tour, recipes, links.
    headings = re.findall(r"^## (.*)$", readme, re.M)
    assert headings == ["Install", "The two commands", "A one-minute tour", "Recipes", "Read on"]
    # CI runs the README's test command (.ci/run), and the fresh-machine command is there.
    assert "\n./scripts/test\n" in readme and "\n./scripts/run\n" in readme
    assert "./scripts/test" in (ROOT / ".ci" / "run").read_text()
    # Nothing to install by hand first: both commands and CI install through the one script.
    two_commands = readme[readme.index("## The two commands"):readme.index("## A one-minute tour")]
    assert "apt-get" not in two_commands and "pip install" not in two_commands
    def commands(path):
        return [line for line in path.read_text().splitlines() if not line.lstrip().startswith("#")]
    assert any("scripts/setup --tests" in line for line in commands(ROOT / ".ci" / "run"))
    assert not any("apt-get" in line or "pip install" in line for line in commands(ROOT / ".ci" / "run"))
    assert any("scripts/setup" in line for line in commands(ROOT / "scripts" / "run"))
    assert any("scripts/setup --tests" in line for line in commands(ROOT / "scripts" / "test"))
    for recipe in ["core.editor", "GH_EDITOR", "--body-file", "glab", "slack:", "jira:", "atpad post"]:
        assert recipe in readme, recipe
    picture = re.search(r"!\[[^\]]+\]\((docs/images/[^)]+\.png)\)", readme).group(1)
    assert (ROOT / picture).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_no_doc_speaks_in_spec_section_numbers():
    for path in [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *DOCS.glob("*.md")]:
        assert not re.search(r"SPEC\s*§|§\s*\d", path.read_text()), path.name


def screenshot_script():
    import importlib.util
    spec = importlib.util.spec_from_file_location("screenshot", ROOT / "scripts" / "screenshot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # needs no Pillow: only drawing the PNG does
    return module


def test_the_screenshot_script_reads_colours_and_attributes_from_escape_sequences():
    shot = screenshot_script()
    rows = shot.cells("a\x1b[1;38;5;81mb\x1b[0m\x1b[7mc\x1b[27m\x1b[4;31m文\x1b[m")
    a, b, c, wide = rows[0][:4]
    assert (a[0], a[1], a[2]) == ("a", shot.DEFAULT_FG, shot.DEFAULT_BG)
    assert (b[0], b[1], b[3]) == ("b", shot.xterm256(81), True)
    assert (c[0], c[1], c[2]) == ("c", shot.DEFAULT_BG, shot.DEFAULT_FG)  # reversed
    assert (wide[0], wide[1], wide[4], wide[5]) == ("文", shot.PALETTE16[1], True, 2)
    assert sum(cell[5] for cell in rows[0]) == shot.WIDTH  # padded to the screen's width


def test_the_readme_picture_comes_from_a_real_run_with_the_chooser_open():
    shot = screenshot_script()
    captured, cursor = shot.capture(atpad_binary())
    rows = ["".join(cell[0] for cell in row) for row in shot.cells(captured)]
    assert rows[0].startswith("atpad — review.md")
    # review.md is GitHub's: the mention shows what GitHub shows.
    assert rows[1].startswith("Thanks @jdoe for the review!")
    assert rows[4].rstrip().endswith("Could @jo") and cursor == (4, len("so nothing downstream changes. Could @jo"))
    chooser = "\n".join(rows[5:])
    assert "Jo Ng" in chooser and "John Doe" in chooser and "Jon Snow" in chooser
    # The mention and the chooser's selected row are drawn in colours of their own.
    mention = shot.cells(captured)[1][len("Thanks @")]
    assert mention[0] == "j" and mention[1] != shot.DEFAULT_FG
