#!/usr/bin/env python3
"""Writes atpad's man pages (roff, man(7) macros) from the code's own definitions.

    python3 scripts/manpage.py PATH/TO/atpad > atpad.1
    python3 scripts/manpage.py --config PATH/TO/atpad > atpad.toml.5

atpad(1): the commands, options, value names, defaults and help texts come from the binary
itself (`atpad --experimental-dump-help`, swift-argument-parser's description of its own
definitions), so the page says what `--help` says and cannot drift from it; the KEYS
section is the keymap's own table (`atpad keys`, the one docs/keys.md holds); FORMATS shows
what each format writes by running `atpad render` on one comment. atpad.toml(5): the keys
are the config's own table (`atpad keys --config-keys`, the one docs/config.md holds).
Only what no definition describes (files, environment, exit status, examples, the one-line
summary of each format) is written here; Tests/e2e/test_docs.py checks it is complete.
"""
import json
import os
import subprocess
import sys
import tempfile


def roff(text):
    """Escapes text for roff: backslashes, and a leading dot or quote on any line."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def flag_names(argument):
    names = []
    for name in argument.get("names", []):
        dashes = "-" if name["kind"] in ("short", "longWithSingleDash") else "--"
        names.append(dashes + name["name"])
    return names


def synopsis_of(argument):
    value = argument.get("valueName", "value")
    if argument["kind"] == "positional":
        text = value.upper()
    else:
        names = flag_names(argument)
        text = names[-1] if names else value
        if argument["kind"] == "option":
            text += " " + value.upper()
    if argument.get("isRepeating"):
        text += " ..."
    return "[" + text + "]" if argument.get("isOptional") else text


def describe_argument(argument, out):
    if not argument.get("shouldDisplay", True):
        return
    value = argument.get("valueName", "value").upper()
    if argument["kind"] == "positional":
        head = "\\fI" + roff(value) + "\\fR"
    else:
        names = ", ".join("\\fB" + roff(n) + "\\fR" for n in flag_names(argument))
        head = names + (" \\fI" + roff(value) + "\\fR" if argument["kind"] == "option" else "")
    out.append(".TP")
    out.append(head)
    text = argument.get("abstract", "")
    if argument.get("allValues"):
        text += " (one of: " + ", ".join(argument["allValues"]) + ")"
    if "defaultValue" in argument:
        text += " (default: " + argument["defaultValue"] + ")"
    out.append(roff(text.strip() or "(no description)"))
    if argument.get("discussion"):
        out.append(".IP")
        out.append(roff(argument["discussion"]))


def visible(arguments):
    return [a for a in arguments or [] if a.get("shouldDisplay", True)
            and not (a["kind"] == "flag" and set(flag_names(a)) & {"--help", "-h", "--version"})]


def describe_command(command, path, out):
    """One subsection per command: its synopsis, what it does, and its arguments."""
    out.append(".SS " + roff(" ".join(path)))
    arguments = visible(command.get("arguments"))
    out.append(".B " + roff(" ".join(path)))
    if command.get("subcommands"):
        out.append(roff("[" + "|".join(s["commandName"] for s in command["subcommands"]
                                      if s.get("shouldDisplay", True)) + "]"))
    out.append(roff(" ".join(synopsis_of(a) for a in arguments)))
    out.append(".PP")
    out.append(roff(command.get("abstract", "")))
    if command.get("discussion"):
        out.append(".PP")
        out.append(roff(command["discussion"]))
    for argument in arguments:
        describe_argument(argument, out)
    for sub in command.get("subcommands", []):
        if sub.get("shouldDisplay", True) and sub["commandName"] != "help":
            describe_command(sub, path + [sub["commandName"]], out)


def markdown_rows(binary, *arguments, emphasis=True):
    """The rows of one of atpad's Markdown tables (`atpad keys ...`), cells with the
    Markdown marks taken out (code marks always; `*` too where the table uses it for
    emphasis, not where it is a glob)."""
    table = subprocess.run([binary, *arguments], check=True, capture_output=True, text=True).stdout
    rows = []
    for line in table.splitlines()[2:]:
        cells = [cell.strip().replace("\\|", "|") for cell in line.strip("|").split(" | ")]
        rows.append(tuple(cell.replace("`", "").replace("*", "" if emphasis else "*") for cell in cells))
    return rows


def key_rows(binary):
    """The rows of `atpad keys`' table, as (keys, action)."""
    return markdown_rows(binary, "keys")


# One line per format: what it is for. The formats themselves (their names, and what each
# writes) come from the binary; a format missing here is a failing test, not a blank.
FORMAT_SUMMARIES = {
    "atpad": "atpad's lossless markup: @[Name](id). A .atpad file is always in it.",
    "github": "GitHub Markdown: @handle. The format of Markdown files, git's and Jujutsu's messages, and (unless the config's format says otherwise) a comment with no FILE, stdin or .txt. A mention shows its handle, as GitHub renders it.",
    "gitlab": "GitLab Markdown: @handle.",
    "mattermost": "Mattermost Markdown: @handle.",
    "slack": "Slack's API markup (mrkdwn): <@ID>, <#ID>, & < > escaped. For the API, not for pasting into the app.",
    "discord": "Discord's markup: <@ID>, <#ID>.",
    "jira": "Jira Cloud wiki markup: [~accountid:ID].",
    "zulip": "Zulip Markdown: @**Name|ID**.",
    "matrix": "Output only: one Matrix m.room.message event (JSON) with HTML links and m.mentions.",
    "markdown": "Markdown with each mention a link to the person's url (or mention:ID).",
    "plain": "Text: each mention as its name, as shown.",
    "text": "A file that is not a comment (source code, data, patches, git-rebase-todo): its bytes as they are, nothing decoded, no search started by typing (Ctrl-Space still mentions someone, written @handle).",
    "json": "Lossless JSON: the text and the mentions with their ranges. A .json file holding this object is in it; any other .json file is text.",
    "adf": "Output only: an Atlassian Document Format document with mention nodes (what posting to Jira sends).",
}

SAMPLE_PEOPLE = [
    {"id": "u1", "name": "John Doe", "handle": "jdoe", "url": "https://example.com/jdoe"},
]
SAMPLE_CHANNELS = [{"id": "C01", "name": "general"}]
SAMPLE = "Thanks @[John Doe](u1), see #[general](C01) & <docs>"


def format_examples(binary, formats):
    """What each format writes for SAMPLE, by `atpad render` itself (None where it fails)."""
    examples = {}
    with tempfile.TemporaryDirectory() as folder:
        people = os.path.join(folder, "people.json")
        channels = os.path.join(folder, "channels.json")
        comment = os.path.join(folder, "comment.atpad")
        with open(people, "w") as f:
            json.dump(SAMPLE_PEOPLE, f)
        with open(channels, "w") as f:
            json.dump(SAMPLE_CHANNELS, f)
        with open(comment, "w") as f:
            f.write(SAMPLE)
        env = dict(os.environ, XDG_CONFIG_HOME=folder, XDG_STATE_HOME=folder, XDG_CACHE_HOME=folder)
        for name in formats:
            proc = subprocess.run([binary, "render", comment, "--format", name, "-d", people,
                                   "-t", "#=" + channels], capture_output=True, text=True, env=env)
            examples[name] = proc.stdout if proc.returncode == 0 else None
    return examples


def format_names(binary):
    """The formats, from the code's own list (`atpad keys --formats`)."""
    lines = subprocess.run([binary, "keys", "--formats"], check=True, capture_output=True, text=True).stdout
    return [line.split()[0] for line in lines.splitlines() if line.strip()]


FILES = [
    ("~/.config/atpad/config.toml", "The config file ($XDG_CONFIG_HOME/atpad/config.toml); --config PATH reads "
     "another. See atpad.toml(5)."),
    ("~/.config/atpad/words", "The personal word list ($XDG_CONFIG_HOME/atpad/words): one word a line, each a "
     "known word to atpad check and the editor; the chooser's Add WORD to my words row (F7) appends to it."),
    ("~/.local/state/atpad/drafts/", "Recovery drafts ($XDG_STATE_HOME/atpad/drafts), mode 0600; atpad drafts "
     "lists them. Started without a FILE, atpad names the newest unnamed draft of the last 24 hours on the message "
     "line, and Alt-D recovers it; a FILE whose draft is newer than it asks (r)ecover (d)iscard (k)eep both."),
    ("~/.local/state/atpad/locks/", "Edit locks: a second atpad on the same file opens it read-only."),
    ("~/.local/state/atpad/frecency.json", "How often and how lately each person was picked, per trigger."),
    ("~/.cache/atpad/index/", "Indexes of big directory files ($XDG_CACHE_HOME/atpad/index); always safe to remove."),
    ("~/.cache/atpad/lists/", "Whole lists of cached sources (cache = \"1h\"); never holds a header or token."),
    ("PREFIX/share/atpad/", "The bundled sample directory (people.json), emoji and themes, found relative to the "
     "installed atpad (PREFIX/bin/atpad). Without them atpad still edits: it says the sample directory is missing, "
     "and the default theme is built in."),
]

ENVIRONMENT = [
    ("TERM", "The terminal's type; unset or unknown is refused (exit status 2)."),
    ("NO_COLOR", "When not empty, draw with attributes only."),
    ("ATPAD_DRAFTS", "off turns recovery drafts off."),
    ("ATPAD_INDEX", "off parses big directory files every time instead of using their index."),
    ("ATPAD_TRACE_FILE", "A file to which the editor writes one timing line per input batch (for profiling)."),
    ("XDG_CONFIG_HOME, XDG_STATE_HOME, XDG_CACHE_HOME", "Where the config, the state (drafts, locks, frecency) and "
     "the caches live; ~/.config, ~/.local/state and ~/.cache when unset."),
    ("HOME", "The home folder: ~ in paths."),
    ("LANG", "The language spelling checks in when the config's spell is unset (en_US.UTF-8 is en_US); en_US "
     "when unset, C or POSIX."),
    ("DICPATH, XDG_DATA_HOME", "Where Hunspell dictionaries are looked for first (DICPATH's folders, then "
     "$XDG_DATA_HOME/hunspell or ~/.local/share/hunspell), before /usr/share/hunspell and /usr/share/myspell."),
    ("ATPAD_QUERY, ATPAD_TRIGGER", "Set by atpad for a directory command: the query and the trigger character."),
    ("ATPAD_LIST_ITEMS", "Set by atpad for a cached directory command: the most people its list may hold (list_limit)."),
    ("ATPAD_GITHUB_REPO", "owner/name for the github preset (else the current checkout's repository)."),
    ("ATPAD_GITLAB_PROJECT", "group/name for the gitlab preset (else the current checkout's project)."),
    ("SLACK_TOKEN", "The slack preset's token (and posting to Slack)."),
    ("ATPAD_SLACK_API", "Replaces https://slack.com/api."),
    ("JIRA_URL, JIRA_USER, JIRA_TOKEN", "The jira preset's site, e-mail and API token (and posting to Jira)."),
    ("LDAP_URI, LDAP_BASE, LDAP_BIND_DN, LDAP_PASSWORD", "The ldap preset's server, base and optional bind."),
    ("ZULIP_SITE, ZULIP_EMAIL, ZULIP_API_KEY", "Posting to Zulip."),
    ("MATRIX_HOMESERVER, MATRIX_TOKEN", "Posting to Matrix."),
    ("http_proxy, https_proxy, all_proxy, no_proxy", "Proxies for URL sources, as libcurl reads them."),
    ("TMPDIR", "Where a program's input (a post's body for gh or glab) waits, removed at once, when the system "
     "cannot keep it in memory; /tmp when unset."),
]

EXIT_STATUS = [
    ("0", "The editor quit after a save (or a --print confirm) of this session, also when the changes made after it "
     "were given up (n to \"Save changes?\": the file holds what was saved, and git commits it), or with nothing "
     "unsaved; a subcommand succeeded."),
    ("1", "The editor quit discarding unsaved changes with nothing saved in this session (n to \"Save changes?\"; git "
     "then aborts a commit), quit --print without confirming, or lost its terminal with changes unsaved (they are in "
     "the recovery draft; 1 even after a save); atpad drafts delete of a running atpad's draft; atpad search when a "
     "command or URL failed while answering; atpad check when it found a misspelt word."),
    ("2", "A mistake in the command line, the config, a directory, a theme or an input file; TERM unset or unknown; "
     "no terminal at all; an unknown draft. One line on stderr, before any screen is drawn."),
    ("129, 130, 131, 143", "SIGHUP, SIGINT, SIGQUIT, SIGTERM (128 + the signal); the recovery draft is written "
     "first and the terminal restored."),
]

EXAMPLES = [
    ("atpad comment.md", "Write a comment: type @jo, pick with Enter, Ctrl-S saves, Ctrl-Q quits."),
    ("git config --global core.editor atpad", "atpad as git's editor for commit messages."),
    ("GH_EDITOR=atpad gh pr comment 42 --editor", "gh opens atpad for the comment's body."),
    ("atpad --print -f github | gh pr comment 42 --body-file -",
     "Write a comment and hand it to gh: Ctrl-S ends the edit and prints it; Ctrl-Q prints nothing."),
    ("SLACK_TOKEN=xoxb-... atpad --preset slack -f slack msg.slack", "Mention Slack people, in Slack's API markup."),
    ("atpad render notes.atpad --format slack", "Convert a saved comment."),
    ("atpad search --preset github jo", "Check a directory setup from the shell."),
    ("atpad check \"$1\"", "In .git/hooks/commit-msg: refuse a commit message with a misspelt word."),
    ("atpad lsp --preset github",
     "A language server for Neovim, Helix, VS Code and Zed: mentions completed in their Markdown and commit buffers."),
    ("atpad replay --text 'hi |' --keys '@jo<Enter>'", "Run the editor core on a key script; prints JSON."),
]


def section(out, title, rows, bold=True):
    out.append(".SH " + title)
    for head, text in rows:
        out += [".TP", ("\\fB" if bold else "\\fI") + roff(head) + "\\fR", roff(text)]


def atpad_page(binary, info, version):
    root = info["command"]
    default = root.get("defaultSubcommand")
    subcommands = [s for s in root.get("subcommands", []) if s.get("shouldDisplay", True)
                   and s["commandName"] != "help"]
    out = [
        '.\\" Generated by scripts/manpage.py from `atpad --experimental-dump-help`; do not edit.',
        '.TH ATPAD 1 "" "' + roff(version) + '" "User Commands"',
        ".SH NAME",
        "atpad \\- " + roff(root.get("abstract", "")),
        ".SH SYNOPSIS",
    ]
    for sub in subcommands:
        arguments = visible(sub.get("arguments"))
        words = ["atpad"] + ([] if sub["commandName"] == default else [sub["commandName"]])
        if sub.get("subcommands"):
            words.append("[" + "|".join(s["commandName"] for s in sub["subcommands"]
                                        if s.get("shouldDisplay", True)) + "]")
        out.append(".B " + roff(words[0]))
        out.append(roff(" ".join(words[1:] + [synopsis_of(a) for a in arguments])))
        out.append(".br")
    out.append(".B atpad")
    out.append("\\-\\-help | \\-\\-version | \\-\\-generate\\-completion\\-script bash|zsh|fish")
    out += [".SH DESCRIPTION", roff(root.get("abstract", ""))]
    if root.get("discussion"):
        out += [".PP", roff(root["discussion"])]
    out += [".PP", roff("Without a subcommand atpad runs `" + str(default) + "`: the full-screen editor on FILE "
                        "(a new comment when FILE is missing, stdin when it is -). Type a trigger such as @ and a few "
                        "letters of a name, pick a person from the chooser, and the mention becomes one token; the "
                        "file is saved in its format (see FORMATS). "
                        "`atpad help SUBCOMMAND` prints a subcommand's options.")]
    edit = next((s for s in subcommands if s["commandName"] == default), None)
    if edit:
        out.append(".SH OPTIONS")
        out.append(roff("The editor's (atpad [FILE] [options], also atpad " + default + "):"))
        for argument in visible(edit.get("arguments")):
            describe_argument(argument, out)
    out.append(".SH COMMANDS")
    for sub in subcommands:
        if sub["commandName"] != default:
            describe_command(sub, ["atpad", sub["commandName"]], out)
    out.append(".SH KEYS")
    out.append(roff("In the editor (F1 lists them too):"))
    for keys, action in key_rows(binary):
        out += [".TP", "\\fB" + roff(keys) + "\\fR", roff(action)]
    out.append(".SH FORMATS")
    out.append(roff("-f (the editor), render --format and --from take these. A file's format comes from -f, else "
                    "its name: .atpad is atpad, .json holding a comment is json (other JSON is text), then the config's "
                    "[formats] patterns; Markdown and git's message files are github; no FILE, stdin and .txt take the "
                    "config's format, else github; everything else (source code, data, patches) is text. What each writes for the comment \"" + SAMPLE + "\" (John Doe is u1, handle jdoe; "
                    "#general is C01):"))
    names = format_names(binary)
    examples = format_examples(binary, names)
    for name in names:
        out += [".TP", "\\fB" + roff(name) + "\\fR", roff(FORMAT_SUMMARIES.get(name, ""))]
        if examples.get(name) is not None:
            out += [".RS", ".nf", roff(examples[name]), ".fi", ".RE"]
    section(out, "FILES", FILES, bold=False)
    section(out, "ENVIRONMENT", ENVIRONMENT)
    section(out, "EXIT STATUS", EXIT_STATUS)
    out.append(".SH EXAMPLES")
    for command, text in EXAMPLES:
        out += [".TP", "\\fB" + roff(command) + "\\fR", roff(text)]
    out += [
        ".SH SEE ALSO",
        roff("atpad.toml(5), git(1), gh(1). The docs folder of atpad's source explains keys, formats, directories, "
             "config, drafts and posting task by task."),
    ]
    return out


def config_page(binary, version):
    out = [
        '.\\" Generated by scripts/manpage.py from `atpad keys --config-keys`; do not edit.',
        '.TH ATPAD.TOML 5 "" "' + roff(version) + '" "File Formats"',
        ".SH NAME",
        "atpad.toml \\- the config file of atpad",
        ".SH SYNOPSIS",
        roff("$XDG_CONFIG_HOME/atpad/config.toml (by default ~/.config/atpad/config.toml), or the file named with "
             "atpad --config PATH."),
        ".SH DESCRIPTION",
        roff("A TOML file that sets what the command-line options set; an option on the command line overrides it. "
             "Every key is optional, and having no config file is fine (a --config file that does not exist is an "
             "error). The editor, render, mentions and search read it; replay never does. A misspelt key, a value "
             "of the wrong type or out of range stops atpad with exit status 2 and one line naming the file, line "
             "and key: config.toml:3: unknown key \"implict\" (did you mean \"implicit\"?)."),
        ".PP",
        roff("In paths ~ is the home folder and a relative path starts at the config file's folder. The shipped "
             "example, PREFIX/share/atpad/config.example.toml (Resources/config.example.toml in the source), names "
             "every key and works when copied as it is to ~/.config/atpad/config.toml."),
    ]
    tables = []
    for row in markdown_rows(binary, "keys", "--config-keys", emphasis=False):
        key, value, default, option, text = row
        table, _, name = key.rpartition(" ") if key.startswith("[") else ("", "", key)
        if not tables or tables[-1][0] != table:
            tables.append((table, []))
        tables[-1][1].append((name, value, default, option, text))
    titles = {"": "KEYS"}
    for table, keys in tables:
        out.append(".SH " + roff(titles.get(table, "THE " + table.upper() + " TABLE")))
        if table.startswith("[triggers"):
            out.append(roff("One table per trigger character CHAR, one of @ # $ % + ~ : (quote it: "
                            "[triggers.\"#\"]). A table has directory, command, url or preset; not both "
                            "command and url. A trigger given a source on the command line uses only that."))
        for name, value, default, option, text in keys:
            detail = text + " Value: " + value + "."
            if default:
                detail += " Default: " + default + "."
            if option:
                detail += " Option: " + option + "."
            out += [".TP", "\\fB" + roff(name) + "\\fR", roff(detail)]
    out += [
        ".SH EXAMPLE",
        ".nf",
        roff('implicit = 3\nformat = "github"\nclipboard = "terminal"\n\n[terminal]\ngraphemes = "auto"\n\n'
             '[formats]\n"*.slack" = "slack"\n\n[triggers."@"]\ndirectory = ["~/people.json", "team.csv"]\n\n'
             '[triggers."#"]\nurl = "https://chat.example.com/api/channels?q={query}"\n'
             'headers = { Authorization = "Bearer ${CHAT_TOKEN}" }\nitems = "channels"\ncache = "1h"'),
        ".fi",
        ".SH SEE ALSO",
        roff("atpad(1)"),
    ]
    return out


def main():
    arguments = sys.argv[1:]
    config = arguments[:1] == ["--config"]
    if config:
        arguments = arguments[1:]
    if len(arguments) != 1:
        sys.exit("usage: manpage.py [--config] PATH/TO/atpad")
    binary = arguments[0]
    version = subprocess.run([binary, "--version"], check=True, capture_output=True,
                             text=True).stdout.strip()
    if config:
        out = config_page(binary, version)
    else:
        info = json.loads(subprocess.run([binary, "--experimental-dump-help"], check=True,
                                         capture_output=True, text=True).stdout)
        out = atpad_page(binary, info, version)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
