"""The config file (docs/config.md): read by search, render, mentions and the editor, never by
replay; options override it; its errors name the file, line and key (exit 2)."""
import json
import os


def write_config(tmp_path, text):
    folder = tmp_path / "xdg-config" / "atpad"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "config.toml"
    path.write_text(text)
    return path


def test_search_reads_limit_and_directory_and_options_override(atpad, people, tmp_path):
    path = people([{"id": f"u{i}", "name": f"Ann {i}"} for i in range(10)])
    write_config(tmp_path, f'limit = 2\n[triggers."@"]\ndirectory = "{path}"\n')
    assert atpad("search", "ann", check_exit=0).stdout.splitlines() == ["u0\tAnn 0\t", "u1\tAnn 1\t"]
    assert len(atpad("search", "ann", "--limit", "4", check_exit=0).stdout.splitlines()) == 4
    other = people([{"id": "x1", "name": "Ann Other"}], name="other.json")
    assert atpad("search", "ann", "-d", other, check_exit=0).stdout.splitlines() == ["x1\tAnn Other\t"]


def test_relative_directory_paths_start_at_the_config_folder(atpad, tmp_path):
    config = write_config(tmp_path, '[triggers."#"]\ndirectory = "channels.json"\n')
    (config.parent / "channels.json").write_text(json.dumps([{"id": "C1", "name": "general"}]))
    assert atpad("search", "gen", "--trigger-char", "#", check_exit=0).stdout == "C1\tgeneral\t\n"


def test_explicit_config_path(atpad, people, tmp_path):
    path = people([{"id": "z1", "name": "Zed"}])
    other = tmp_path / "mine.toml"
    other.write_text(f'[triggers."@"]\ndirectory = ["{path}"]\n')
    assert atpad("search", "zed", "--config", str(other), check_exit=0).stdout == "z1\tZed\t\n"
    missing = atpad("search", "zed", "--config", str(tmp_path / "none.toml"))
    assert missing.returncode == 2 and "none.toml" in missing.stderr.splitlines()[0]


def test_errors_name_file_line_and_key(atpad, tmp_path):
    write_config(tmp_path, "limit = 5\nimplict = 3\n")
    proc = atpad("search", "a")
    assert proc.returncode == 2
    first = proc.stderr.splitlines()[0]
    assert "config.toml:2:" in first and '"implict"' in first
    write_config(tmp_path, 'limit = "many"\n')
    proc = atpad("search", "a")
    assert proc.returncode == 2 and "config.toml:1:" in proc.stderr and "limit" in proc.stderr
    write_config(tmp_path, "limit = [\n")
    proc = atpad("search", "a")
    assert proc.returncode == 2 and "config.toml" in proc.stderr.splitlines()[0]
    # The editor stops too, before drawing anything.
    proc = atpad("notes.txt", input="")
    assert proc.returncode == 2 and "config.toml" in proc.stderr.splitlines()[0]


def test_replay_reads_no_config(atpad, people, tmp_path):
    path = people([{"id": "only", "name": "Jo Only"}])
    write_config(tmp_path, f'implicit = 0\n[triggers."@"]\ndirectory = "{path}"\n')
    out = json.loads(atpad("replay", "--keys", "@jo", check_exit=0).stdout)
    assert "only" not in out["chooser"]["items"] and len(out["chooser"]["items"]) > 1


def test_a_bad_value_from_the_config_is_the_configs(atpad, tmp_path):
    # Found only when used (a theme is loaded, a format opens FILE), yet named by its line.
    write_config(tmp_path, 'limit = 3\ntheme = "nope"\n')
    proc = atpad(str(tmp_path / "notes.txt"), input="")
    assert proc.returncode == 2
    first = proc.stderr.splitlines()[0]
    assert "config.toml:2:" in first and '"theme"' in first and "nope" in first, first
    write_config(tmp_path, 'format = "matrix"\n')
    proc = atpad(str(tmp_path / "notes.txt"), input="")
    assert proc.returncode == 2
    first = proc.stderr.splitlines()[0]
    assert "config.toml:1:" in first and "output only" in first and "--format" not in first, first


def test_a_bad_value_from_the_command_line_is_the_options(atpad, tmp_path):
    write_config(tmp_path, 'theme = "mono"\n')
    proc = atpad(str(tmp_path / "notes.txt"), "--theme", "nope", input="")
    assert proc.returncode == 2
    assert proc.stderr.startswith("atpad: --theme: no theme named \"nope\""), proc.stderr
    proc = atpad(str(tmp_path / "notes.txt"), "-f", "matrix", input="")
    assert proc.returncode == 2 and proc.stderr.startswith("atpad: --format: the matrix format is output only")


def copy_the_example(tmp_path):
    """Resources/config.example.toml copied as it is to the person's config, as the
    README and its own first lines say to."""
    from conftest import ROOT
    return write_config(tmp_path, (ROOT / "Resources" / "config.example.toml").read_text())


def test_the_example_copied_as_the_users_config_works(atpad, tmp_path):
    copy_the_example(tmp_path)
    env = {"HOME": str(tmp_path)}  # `~` in the example's (commented-out) paths is not the runner's
    proc = atpad("search", "jo", env=env, check_exit=0)
    assert proc.stderr == "" and "John Doe" in proc.stdout  # the bundled sample directory answers @
    (tmp_path / "notes.md").write_text("Thanks @jdoe\n")
    proc = atpad("render", str(tmp_path / "notes.md"), "--format", "plain", env=env, check_exit=0)
    assert proc.stdout.startswith("Thanks ") and proc.stderr == ""
    atpad("mentions", str(tmp_path / "notes.md"), env=env, check_exit=0)


def test_the_editor_starts_with_the_example_as_the_users_config(tmp_path):
    from conftest import atpad_binary
    from tmux import Session
    config = copy_the_example(tmp_path)
    notes = tmp_path / "notes.md"
    s = Session(f"{atpad_binary()} {notes}", env={"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(config.parent.parent),
                                                   "XDG_STATE_HOME": str(tmp_path / "xdg-state"),
                                                   "XDG_CACHE_HOME": str(tmp_path / "xdg-cache")})
    try:
        s.wait_for("Ln 1, Col 1", what="the editor to start")
        s.type("hi")
        s.wait_for("Ln 1, Col 3")
        s.keys("C-s")
        s.wait_for("Saved")
        s.keys("C-q")
        assert s.exit_status() == 0
        assert notes.read_text() == "hi"
    finally:
        s.close()


def test_a_missing_directory_file_from_the_config_names_its_line(atpad, people, tmp_path):
    # The example's old `@` table, uncommented, without the files it names.
    write_config(tmp_path, 'limit = 3\n\n[triggers."@"]\ndirectory = ["~/.config/atpad/people.json"]\n')
    env = {"HOME": str(tmp_path)}
    for args in (("search", "jo"), ("render", str(tmp_path / "n.md"), "--format", "github"),
                 (str(tmp_path / "notes.md"),)):
        (tmp_path / "n.md").write_text("hi @jo\n")
        proc = atpad(*args, env=env, input="")
        assert proc.returncode == 2, (args, proc.stderr)
        first = proc.stderr.splitlines()[0]
        assert 'config.toml:4: "directory" in [triggers."@"]:' in first and "people.json" in first, first
    # The same trigger given on the command line is the command line's, and reads only it.
    proc = atpad("search", "jo", "-d", str(tmp_path / "none.json"), env=env)
    assert proc.returncode == 2 and "config.toml" not in proc.stderr and "none.json" in proc.stderr
    path = people([{"id": "j1", "name": "Jo One"}])
    assert atpad("search", "jo", "-d", path, env=env, check_exit=0).stdout == "j1\tJo One\t\n"
