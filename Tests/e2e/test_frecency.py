"""Frecency (docs/directories.md, "Ranking and frecency"): a pick in the editor ranks that
person first within their class next time; `search` reads it; `replay` neither reads nor
writes it."""
import json
import os
from pathlib import Path

from conftest import popup_open


def frecency_file():
    return Path(os.environ["XDG_STATE_HOME"]) / "atpad" / "frecency.json"


def test_a_pick_in_the_editor_ranks_first_next_time(atpad, sessions, directory, tmp_path):
    before = atpad("search", "jo", "-d", directory, check_exit=0).stdout.splitlines()
    assert before[0].startswith("u1\t")
    s = sessions([str(tmp_path / "c.txt"), "-d", directory])
    s.type("@johan")
    s.wait_for("Johanna Lee")
    s.keys("Enter")
    s.wait_for(lambda sc: not popup_open(sc), what="the pick")
    s.keys("C-q")
    s.wait_for("Save changes")
    s.keys("n")
    assert s.exit_status() == 1
    stored = json.loads(frecency_file().read_text())
    assert "u3" in stored["triggers"]["@"]
    after = atpad("search", "jo", "-d", directory, check_exit=0).stdout.splitlines()
    assert after[0].startswith("u3\t"), after
    # --no-frecency ranks as if nothing had been picked.
    assert atpad("search", "jo", "-d", directory, "--no-frecency", check_exit=0).stdout.splitlines() == before
    # Replay reads none of it.
    out = json.loads(atpad("replay", "-d", directory, "--keys", "@jo", check_exit=0).stdout)
    assert out["chooser"]["items"][0] == "u1"


def test_replay_writes_no_frecency(atpad, directory):
    atpad("replay", "-d", directory, "--keys", "@jo<Enter>", check_exit=0)
    assert not frecency_file().exists()


def test_a_corrupt_frecency_file_is_a_warning(atpad, directory):
    frecency_file().parent.mkdir(parents=True, exist_ok=True)
    frecency_file().write_text("{not json")
    proc = atpad("search", "jo", "-d", directory, check_exit=0)
    assert "frecency" in proc.stderr and proc.stdout.splitlines()[0].startswith("u1\t")
