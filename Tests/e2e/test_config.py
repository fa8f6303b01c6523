"""The config file (SPEC §8): read by search, render, mentions and the editor, never by
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
