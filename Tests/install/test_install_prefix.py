"""`scripts/install --prefix` (docs/install.md), a moved prefix, uninstall, missing resources."""
import os
import re
import shutil
import subprocess

from conftest import ROOT, VERSION_LINE, clean_env, run
from tmux import Session


def tree(folder):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_the_install_has_everything_in_its_usual_place(install):
    prefix = install()
    for rel in ["bin/atpad", "share/atpad/people.json", "share/atpad/themes/default.toml",
                "share/atpad/themes/mono.toml", "share/man/man1/atpad.1", "share/man/man5/atpad.toml.5",
                "share/bash-completion/completions/atpad", "share/zsh/site-functions/_atpad",
                "share/fish/vendor_completions.d/atpad.fish"]:
        assert (prefix / rel).is_file(), rel
    # Every file of Resources/ is installed by name (a new resource needs no script change).
    for path in (ROOT / "Resources").rglob("*"):
        if path.is_file():
            assert (prefix / "share/atpad" / path.relative_to(ROOT / "Resources")).is_file(), path
    assert os.access(prefix / "bin/atpad", os.X_OK)
    # The Swift runtime is linked in: no libswift*.so, nothing from the toolchain.
    linked = run(["ldd", str(prefix / "bin/atpad")]).stdout
    assert "libswift" not in linked and "libFoundation" not in linked and "not found" not in linked, linked


def test_a_moved_prefix_still_works_from_any_folder(install, elsewhere, tmp_path):
    prefix = install("first")
    env = clean_env(tmp_path)
    version = run([str(prefix / "bin/atpad"), "--version"], cwd=elsewhere, env=env)
    assert version.returncode == 0 and re.match(VERSION_LINE, version.stdout.strip()), version

    moved = tmp_path / "somewhere" / "else"
    moved.parent.mkdir()
    shutil.move(str(prefix), str(moved))
    binary = str(moved / "bin/atpad")
    search = run([binary, "search", "jo"], cwd=elsewhere, env=env)
    assert search.returncode == 0, search.stderr
    assert search.stdout.splitlines()[0] == "u273\tJo Ng\tjng"
    assert search.stderr == ""

    # A symlink to the installed binary (~/bin/atpad → PREFIX/bin/atpad) finds the prefix too.
    link = elsewhere / "atpad"
    link.symlink_to(binary)
    assert run([str(link), "search", "john"], cwd=elsewhere, env=env).stdout.startswith("u1\tJohn Doe")

    comment = elsewhere / "c.atpad"
    comment.write_text("hi @[John Doe](u1)")
    render = run([binary, "render", str(comment), "--format", "github"], cwd=elsewhere, env=env)
    assert (render.returncode, render.stdout) == (0, "hi @jdoe"), render


def test_uninstall_removes_exactly_what_was_installed(install, tmp_path):
    prefix = tmp_path / "shared"
    (prefix / "share/man/man1").mkdir(parents=True)
    (prefix / "share/man/man1/other.1").write_text(".TH OTHER 1\n")
    (prefix / "bin").mkdir()
    before = tree(prefix)
    install("shared")
    install("shared")  # installing twice keeps one record of what to remove
    proc = run([str(ROOT / "scripts/install"), "--uninstall", "--prefix", str(prefix)])
    assert proc.returncode == 0, proc.stderr
    assert tree(prefix) == before
    again = run([str(ROOT / "scripts/install"), "--uninstall", "--prefix", str(prefix)])
    assert again.returncode == 2 and "no atpad installed" in again.stderr


def test_missing_resources_are_a_message_and_editing_works(install, elsewhere, tmp_path):
    prefix = install()
    shutil.rmtree(prefix / "share/atpad")
    binary = str(prefix / "bin/atpad")
    env = clean_env(tmp_path)

    search = run([binary, "search", "jo"], cwd=elsewhere, env=env)
    assert search.returncode == 2
    assert search.stderr.count("\n") == 1 and "sample directory is missing" in search.stderr, search.stderr
    assert "Fatal error" not in search.stderr

    given = run([binary, "search", "jo", "-d", str(ROOT / "Resources/people.json")], cwd=elsewhere, env=env)
    assert given.returncode == 0 and given.stdout.startswith("u273") and given.stderr == ""

    replay = run([binary, "replay", "--keys", "hi @jo"], cwd=elsewhere, env=env)
    assert replay.returncode == 0 and '"text": "hi @jo"' in replay.stdout and '"chooser": null' in replay.stdout
    assert replay.stderr.count("\n") == 1 and "sample directory is missing" in replay.stderr

    # The default theme is built in; a theme only the missing folder had is an error naming it.
    assert run([binary, "--theme", "mono", "x.md"], cwd=elsewhere, env=env).stderr.strip() == \
        'atpad: --theme: no theme named "mono" (themes: default)'

    path = elsewhere / "note.md"
    s = Session(f"{binary} {path}", env=env, cwd=str(elsewhere))
    try:
        s.wait_for("sample directory is missing", what="the one message")
        s.type("hello @jo")
        s.keys("C-s")
        s.wait_for(lambda sc: "[+]" not in sc and "note.md" in sc, what="the save")
        s.keys("C-q")
        assert s.exit_status() == 0
    finally:
        s.close()
    assert path.read_text() == "hello @jo"


def test_no_code_reaches_for_bundle_module():
    # SwiftPM's Bundle.module traps when the bundle is not beside the build; every
    # resource goes through BundledResources instead.
    hits = [f"{path}:{number}" for path in (ROOT / "Sources").rglob("*.swift")
            for number, line in enumerate(path.read_text().splitlines(), 1)
            if "Bundle.module" in line.split("//")[0]]
    assert hits == []


def test_the_man_page_renders_and_lists_every_option_of_help(install, tmp_path):
    prefix = install()
    env = clean_env(tmp_path, MANWIDTH="100")
    page = run(["man", "-l", str(prefix / "share/man/man1/atpad.1")], env=env)
    assert page.returncode == 0, page.stderr
    assert page.stderr == "", page.stderr
    text = re.sub(r".\x08", "", page.stdout).replace("\u2010\n", "").replace("-\n", "-")
    binary = str(prefix / "bin/atpad")
    for command in ["edit", "replay", "search", "render", "mentions", "post", "drafts"]:
        assert f"atpad {command}" in text, command
        help_text = run([binary, "help", command], env=env).stdout
        for option in set(re.findall(r"--[a-z][a-z-]+", help_text)) - {"--help", "--version"}:
            assert option in text, (command, option)


def test_the_config_man_page_renders_and_lists_every_config_key(install, tmp_path):
    prefix = install()
    env = clean_env(tmp_path, MANWIDTH="100")
    page = run(["man", "-l", str(prefix / "share/man/man5/atpad.toml.5")], env=env)
    assert page.returncode == 0 and page.stderr == "", page.stderr
    text = re.sub(r".\x08", "", page.stdout)
    assert text.startswith("ATPAD.TOML(5)"), text[:80]
    table = run([str(prefix / "bin/atpad"), "keys", "--config-keys"], env=env).stdout.splitlines()[2:]
    assert len(table) > 20
    for row in table:
        name = row.split(" | ")[0].strip("| ").split("`")[-2]
        assert re.search(r"^ {7}" + re.escape(name) + r"(?!\w)", text, re.M), name


def test_completion_scripts_load_in_their_shells(install, tmp_path):
    prefix = install()
    bash = prefix / "share/bash-completion/completions/atpad"
    # bash: the script loads, registers _atpad, and completes options of a subcommand.
    # (ArgumentParser completes the root's own options and the subcommand names after a
    # bare `atpad`; the editor's options after `atpad edit`.)
    def bash_complete(line):
        script = f"""
            source {bash}
            complete -p atpad
            COMP_LINE='{line}'; read -ra COMP_WORDS <<< "$COMP_LINE"
            COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); COMP_POINT=${{#COMP_LINE}}
            _atpad atpad "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
            printf '%s\\n' "${{COMPREPLY[@]}}"
        """
        proc = run(["bash", "-c", script])
        assert proc.returncode == 0, proc.stderr
        assert "complete -o filenames -F _atpad atpad" in proc.stdout, proc.stdout
        return proc.stdout.splitlines()[1:]

    assert bash_complete("atpad edit --the") == ["--theme"]
    assert bash_complete("atpad search --li") == ["--limit"]
    assert "search" in bash_complete("atpad s")

    if shutil.which("zsh"):
        zsh = prefix / "share/zsh/site-functions"
        proc = run(["zsh", "-f", "-c",
                    f"fpath=({zsh} $fpath); autoload -Uz compinit; compinit -u -D; "
                    "autoload -Uz _atpad && whence -w _atpad && echo ${_comps[atpad]}"])
        assert proc.returncode == 0 and "_atpad" in proc.stdout, (proc.stdout, proc.stderr)
        assert run(["zsh", "-n", str(zsh / "_atpad")]).returncode == 0

    if shutil.which("fish"):
        fish = prefix / "share/fish/vendor_completions.d/atpad.fish"
        proc = run(["fish", "--no-config", "-c", f"source {fish}; complete -C 'atpad edit --the'"])
        assert proc.returncode == 0, proc.stderr
        assert "--theme" in proc.stdout, proc.stdout
