"""Directory files end to end (`-d`; docs/directories.md, "Directory files"): every format,
merging, the duplicate warning, errors before anything runs, and frecency as `atpad search`
reads it."""
import json
import time


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def state_env(tmp_path):
    """A state folder of the test's own, so no real frecency file is read."""
    return {"XDG_STATE_HOME": str(tmp_path / "state")}


def test_formats_merge_in_order_with_one_warning(atpad, tmp_path):
    a = write(tmp_path, "a.json", json.dumps([{"id": "u1", "name": "John Doe", "handle": "jdoe"}]))
    b = write(tmp_path, "b.csv", 'id,name,handle\nu2,"Doe, Jane",jane\nu1,Other John,x\n')
    c = write(tmp_path, "c.ndjson", '{"id": "u3", "name": "Joan Doe"}\n\n{"id": "u2", "name": "Dup"}\n')
    proc = atpad("search", "doe", "-d", a, "-d", b, "-d", c, check_exit=0, env=state_env(tmp_path))
    # One class (prefix) and no frecency: shorter names first, then directory order.
    assert [line.split("\t")[0] for line in proc.stdout.splitlines()] == ["u1", "u3", "u2"]
    assert proc.stderr == f'atpad: 2 duplicate ids ignored (first: "u1" in {b}:3)\n'


def test_unknown_extension_is_sniffed(atpad, tmp_path):
    lines = write(tmp_path, "people.txt", '{"id": "u1", "name": "Travis Bickle"}\n')
    table = write(tmp_path, "people", "name,id\nTravis Barker,u2\n")
    out = atpad("search", "travis b", "-d", lines, "-d", table, check_exit=0, env=state_env(tmp_path)).stdout
    assert [line.split("\t")[0] for line in out.splitlines()] == ["u1", "u2"]


def test_bad_file_is_one_line_and_exit_2(atpad, tmp_path):
    good = write(tmp_path, "a.json", "[]")
    bad = write(tmp_path, "people.csv", "id,name\nu1,A\nu2,\n")
    proc = atpad("search", "a", "-d", good, "-d", bad, check_exit=2, env=state_env(tmp_path))
    assert proc.stdout == ""
    assert proc.stderr == f'atpad: {bad}:3: row has no "name"\n'


def test_trigger_route_accepts_csv(atpad, tmp_path):
    channels = write(tmp_path, "channels.csv", "id,name\nc1,general\nc2,random\n")
    out = atpad("search", "ra", "-t", f"#={channels}", "--trigger-char", "#", check_exit=0,
                env=state_env(tmp_path)).stdout
    assert out.splitlines() == ["c2\trandom\t", "c1\tgeneral\t"]


def test_search_ranks_with_frecency_and_never_writes_it(atpad, tmp_path):
    people = write(tmp_path, "p.csv", "id,name\nu1,John Doe\nu2,Johanna Schmidt\n")
    env = state_env(tmp_path)
    state = tmp_path / "state" / "atpad"
    state.mkdir(parents=True)
    frecency = state / "frecency.json"
    frecency.write_text(json.dumps({"version": 1, "triggers": {"@": {"u2": [3.0, time.time()]}}}))
    before = frecency.read_bytes()
    out = atpad("search", "jo", "-d", people, check_exit=0, env=env).stdout
    assert [line.split("\t")[0] for line in out.splitlines()] == ["u2", "u1"]
    plain = atpad("search", "jo", "-d", people, "--no-frecency", check_exit=0, env=env).stdout
    assert [line.split("\t")[0] for line in plain.splitlines()] == ["u1", "u2"]
    assert frecency.read_bytes() == before
    assert sorted(p.name for p in state.iterdir()) == ["frecency.json"]


def test_corrupt_frecency_file_is_a_warning(atpad, tmp_path):
    people = write(tmp_path, "p.csv", "id,name\nu1,John Doe\n")
    state = tmp_path / "state" / "atpad"
    state.mkdir(parents=True)
    (state / "frecency.json").write_text("{oops")
    proc = atpad("search", "jo", "-d", people, check_exit=0, env=state_env(tmp_path))
    assert proc.stdout.splitlines() == ["u1\tJohn Doe\t"]
    assert proc.stderr.startswith("atpad: ignoring the frecency file: ")
    assert len(proc.stderr.splitlines()) == 1


def test_replay_reads_no_frecency(atpad, replay, tmp_path):
    people = write(tmp_path, "p.csv", "id,name\nu1,John Doe\nu2,Johanna Schmidt\n")
    state = tmp_path / "state" / "atpad"
    state.mkdir(parents=True)
    (state / "frecency.json").write_text(json.dumps({"version": 1, "triggers": {"@": {"u2": [9.0, time.time()]}}}))
    proc = atpad("replay", "--keys", "@jo", "-d", people, check_exit=0, env=state_env(tmp_path))
    assert json.loads(proc.stdout)["chooser"]["items"] == ["u1", "u2"]
