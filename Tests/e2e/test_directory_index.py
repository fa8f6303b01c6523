"""The on-disk index of big directories
(docs/directories.md, "Big directories: the index cache"), end to end:
`atpad search --timing` says whether the index was used; a changed file, a damaged index or
a cache folder that cannot be written never changes the results; two atpads building one
index at once leave one good file."""
import json
import os
import subprocess

from conftest import atpad_binary, wait_until


def big_directory(tmp_path, count=6000, name="people.ndjson"):
    """An NDJSON directory over the size atpad indexes (256 KB)."""
    path = tmp_path / name
    with open(path, "w", encoding="utf-8") as f:
        for i in range(count):
            person = {"id": f"u{i}", "name": f"Person {i:05d} Travis Müller", "handle": f"p{i}",
                      "detail": "x" * 20}
            f.write(json.dumps(person, ensure_ascii=False) + "\n")
    assert path.stat().st_size > 256 * 1024
    return str(path)


def timing(atpad, path, query="00042 trav", env=None):
    lines = atpad("search", query, "--timing", "--json", "--no-frecency", "-d", path,
                  check_exit=0, env=env).stdout.splitlines()
    return json.loads(lines[0]), json.loads(lines[1])


def results(atpad, path, query="travis 0004"):
    return atpad("search", query, "--json", "--no-frecency", "-d", path, check_exit=0).stdout


def index_files(tmp_path):
    folder = tmp_path / "xdg-cache" / "atpad" / "index"
    return sorted(os.listdir(folder)) if folder.exists() else []


def test_timing_reports_whether_the_index_was_used(atpad, tmp_path):
    path = big_directory(tmp_path)
    first, _ = timing(atpad, path)
    assert first["index"] == "written" and "none yet" in first["index_note"]
    files = index_files(tmp_path)
    assert len(files) == 1 and files[0].endswith(".idx")
    index = tmp_path / "xdg-cache" / "atpad" / "index" / files[0]
    assert index.stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "xdg-cache" / "atpad" / "index").stat().st_mode & 0o777 == 0o700
    second, step = timing(atpad, path)
    assert second["index"] == "used" and second["entries"] == 6000
    assert step["results"][:1] == ["u42"]
    tsv = atpad("search", "tr", "--timing", "--no-frecency", "-d", path, check_exit=0).stdout.splitlines()[0]
    assert tsv.endswith("\tindex used")


def test_a_changed_file_is_searched_as_it_is_now(atpad, tmp_path):
    path = big_directory(tmp_path)
    timing(atpad, path)
    before = os.stat(path)
    # Rewritten in place with the same size, the modification time put back.
    text = open(path, encoding="utf-8").read().replace("Person 00042 Travis", "Person 00042 Trevor")
    with open(path, "r+", encoding="utf-8") as f:
        f.write(text)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(path).st_size == before.st_size
    info, step = timing(atpad, path)
    assert info["index"] == "written" and "stale" in info["index_note"]
    assert step["results"] == []
    info, step = timing(atpad, path, "trevor")
    assert info["index"] == "used" and step["results"][:1] == ["u42"]


def test_a_damaged_index_is_rebuilt_and_results_do_not_change(atpad, tmp_path):
    path = big_directory(tmp_path)
    expected = results(atpad, path)
    index = tmp_path / "xdg-cache" / "atpad" / "index" / index_files(tmp_path)[0]
    data = bytearray(index.read_bytes())
    data[len(data) // 2] ^= 0xFF
    index.write_bytes(bytes(data))
    info, _ = timing(atpad, path)
    assert info["index"] == "written" and "checksum" in info["index_note"]
    assert results(atpad, path) == expected
    # Cut short.
    with open(index, "r+b") as f:
        f.truncate(len(data) - 100)
    info, _ = timing(atpad, path)
    assert info["index"] == "written" and "cut short" in info["index_note"]
    assert results(atpad, path) == expected


def test_a_cache_folder_that_cannot_be_written_means_no_index(atpad, tmp_path):
    path = big_directory(tmp_path)
    # A file where the cache folder should be (root writes through permission bits).
    blocked = tmp_path / "blocked"
    blocked.write_text("in the way")
    env = {"XDG_CACHE_HOME": str(blocked)}
    proc = atpad("search", "00042 trav", "--timing", "--json", "--no-frecency", "-d", path,
                 check_exit=0, env=env)
    info = json.loads(proc.stdout.splitlines()[0])
    assert info["index"] == "none" and "cannot create the folder" in info["index_note"]
    # One message, in --timing only: a plain search says nothing about it.
    plain = atpad("search", "00042 trav", "--no-frecency", "-d", path, check_exit=0, env=env)
    assert plain.stderr == "" and plain.stdout.startswith("u42\t")


def test_two_atpads_building_one_index_leave_one_good_file(atpad, tmp_path):
    path = big_directory(tmp_path, count=20000)
    env = dict(os.environ)
    command = [atpad_binary(), "search", "00042 trav", "--timing", "--json", "--no-frecency", "-d", path]
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env) for _ in range(2)]
    outputs = [run.communicate(timeout=120)[0] for run in runs]
    assert all(run.returncode == 0 for run in runs)
    assert [json.loads(out.splitlines()[1])["results"][:1] for out in outputs] == [["u42"], ["u42"]]
    assert len(index_files(tmp_path)) == 1  # no temporary file left beside it
    info, step = timing(atpad, path)
    assert info["index"] == "used" and step["results"][:1] == ["u42"]


def test_the_editor_writes_the_index_and_the_next_start_maps_it(tmp_path):
    import shlex
    import time

    from tmux import Session

    # Over 4 MB: the editor loads it on a thread of its own, then writes the index on another.
    path = big_directory(tmp_path, count=45000)
    folder = tmp_path / "xdg-cache" / "atpad" / "index"
    for start in range(2):
        # A comment of its own each time: the first one's recovery draft is not offered.
        comment = str(tmp_path / f"c{start}.txt")
        command = " ".join(shlex.quote(a) for a in [atpad_binary(), comment, "-d", path])
        s = Session(command, width=80, height=24)
        try:
            s.wait_for(lambda sc: "atpad" in sc, what="the first frame")
            s.type("@00042 tra")
            s.wait_for("Person 00042 Travis", timeout=30, what="the result")
            if start == 0:
                deadline = time.monotonic() + 30
                # Until the index is renamed into place (its temporary file may show first).
                while not (index_files(tmp_path) and all(f.endswith(".idx") for f in index_files(tmp_path))) \
                        and time.monotonic() < deadline:
                    time.sleep(0.1)
                files = index_files(tmp_path)
                assert len(files) == 1, files
                written = os.stat(folder / files[0]).st_mtime_ns
            else:
                # Mapped, not written again (a rewrite would come within a second: the
                # first start's took well under one); nothing about it on the screen.
                def rewritten():
                    try:
                        return index_files(tmp_path) != files or os.stat(folder / files[0]).st_mtime_ns != written
                    except FileNotFoundError:
                        return True
                wait_until(rewritten, timeout=1.0)
                assert index_files(tmp_path) == files
                assert os.stat(folder / files[0]).st_mtime_ns == written
                assert "index" not in s.screen()
        finally:
            s.close()
