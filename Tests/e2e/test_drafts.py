"""Recovery drafts (docs/drafts.md, issue 5): written within 2 s of the last change, kept
through SIGKILL, SIGTERM and SIGHUP, offered as "(r)ecover (d)iscard (k)eep both" when
the file is opened again (keys typed meanwhile are held and applied after the answer),
removed by a clean save or quit."""
import os
import shlex
import signal
from pathlib import Path

from conftest import atpad_binary, wait_until
from tmux import Session


PROMPT = "Recover unsaved draft?"


def atpad_pid(s):
    pane = int(s._tmux("display", "-p", "-t", s.target, "#{pane_pid}").stdout)
    # The pane runs sh, which runs atpad.
    return int(open(f"/proc/{pane}/task/{pane}/children").read().split()[0])


def drafts_folder():
    return Path(os.environ["XDG_STATE_HOME"]) / "atpad" / "drafts"


def draft_holds(text):
    """Whether a draft on disk holds `text` (a draft replaced meanwhile is read next time)."""
    for path in drafts_folder().glob("*.draft"):
        try:
            if text in path.read_text(errors="replace"):
                return True
        except FileNotFoundError:
            pass
    return False


def test_sigkill_loses_at_most_the_last_two_seconds(sessions, directory, tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("start ")
    s = sessions([str(path), "-d", directory, "--implicit", "0"])
    s.wait_for("start")
    s.keys("C-End")
    s.type("typed well before the kill")
    # Until its draft holds it (within the 2 s a draft may lag behind), and no longer.
    wait_until(lambda: draft_holds("typed well before the kill"), timeout=2.2)
    s.type(" and just before")
    os.kill(atpad_pid(s), signal.SIGKILL)
    s.wait_for("[exit", what="the kill")
    assert path.read_text() == "start ", "the file itself is untouched"

    again = sessions([str(path), "-d", directory])
    again.wait_for(PROMPT)
    again.keys("r")
    again.wait_for("Draft recovered")
    assert "start typed well before the kill" in again.screen()
    again.keys("C-s")
    again.wait_for("Saved")
    again.keys("C-q")
    assert again.exit_status() == 0
    assert path.read_text().startswith("start typed well before the kill")
    assert list(drafts_folder().glob("*.draft")) == [], "a clean save removes the draft"


def test_sigterm_and_sighup_write_the_draft_and_exit(sessions, directory, tmp_path):
    for sig, status in ((signal.SIGTERM, 143), (signal.SIGHUP, 129)):
        path = tmp_path / f"{sig.name}.txt"
        s = sessions([str(path), "-d", directory, "--implicit", "0"])
        s.type(f"unsaved {sig.name} words")
        s.wait_for(f"unsaved {sig.name} words")
        os.kill(atpad_pid(s), sig)
        assert s.exit_status() == status
        assert not path.exists()
        again = sessions([str(path), "-d", directory])
        again.wait_for(PROMPT)
        again.keys("r")
        again.wait_for(f"unsaved {sig.name} words")


def test_discard_and_keep_both(sessions, directory, tmp_path):
    path = tmp_path / "d.txt"
    path.write_text("saved text")
    s = sessions([str(path), "-d", directory, "--implicit", "0"])
    s.keys("C-End")
    s.type(" draft text")
    # Keys still in the terminal's queue when the signal lands are not the editor's yet.
    s.wait_for("saved text draft text")
    os.kill(atpad_pid(s), signal.SIGTERM)
    assert s.exit_status() == 143

    keep = sessions([str(path), "-d", directory])
    keep.wait_for(PROMPT)
    keep.keys("k")
    keep.wait_for("Draft kept as")
    assert "saved text" in keep.screen() and "draft text" not in keep.screen()
    kept = list(drafts_folder().glob("*kept*"))
    assert len(kept) == 1 and "saved text draft text" in kept[0].read_text()
    keep.keys("C-q")
    assert keep.exit_status() == 0

    # Another draft, discarded this time.
    s = sessions([str(path), "-d", directory, "--implicit", "0"])
    s.keys("C-End")
    s.type(" second")
    s.wait_for("saved text second")
    os.kill(atpad_pid(s), signal.SIGTERM)
    assert s.exit_status() == 143
    gone = sessions([str(path), "-d", directory])
    gone.wait_for(PROMPT)
    gone.keys("d")
    gone.wait_for("Draft discarded")
    gone.keys("C-q")
    assert gone.exit_status() == 0
    assert [p for p in drafts_folder().glob("*.draft") if "kept" not in p.name] == []
    assert path.read_text() == "saved text"


def test_quit_without_saving_removes_the_draft(sessions, directory, tmp_path):
    path = tmp_path / "q.txt"
    s = sessions([str(path), "-d", directory, "--implicit", "0"])
    s.type("soon gone")
    wait_until(lambda: list(drafts_folder().glob("*.draft")), timeout=1.5)
    assert list(drafts_folder().glob("*.draft")), "a draft is written within 2 s"
    s.keys("C-q")
    s.wait_for("Save changes")
    s.keys("n")
    assert s.exit_status() == 1
    assert list(drafts_folder().glob("*.draft")) == []


def test_a_corrupt_draft_is_offered_as_plain_text(sessions, directory, tmp_path):
    path = tmp_path / "x.txt"
    s = sessions([str(path), "-d", directory, "--implicit", "0"])
    s.type("hello @[Jo](u1) there")
    s.wait_for("hello @[Jo](u1) there")
    os.kill(atpad_pid(s), signal.SIGTERM)
    assert s.exit_status() == 143
    draft = next(drafts_folder().glob("*.draft"))
    data = draft.read_bytes()
    draft.write_bytes(data[: len(data) - 4])  # cut short, as by a full disk
    again = sessions([str(path), "-d", directory])
    again.wait_for(PROMPT)
    again.keys("r")
    again.wait_for("plain text")
    assert "hello" in again.screen()


def test_an_unwritable_state_folder_is_a_warning(sessions, directory, tmp_path):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the state folder should be")
    path = tmp_path / "w.txt"
    s = sessions([str(path), "-d", directory, "--implicit", "0"], env={"XDG_STATE_HOME": str(blocked)})
    s.type("still editing")
    s.wait_for(lambda sc: "draft" in sc.lower() or "cannot" in sc.lower(), what="the warning", timeout=5)
    s.type(" fine")
    s.keys("C-s")
    s.wait_for("Saved")
    assert path.read_text() == "still editing fine"


def leave_a_draft(sessions, directory, path):
    """`path` holds "saved text"; a session typed " draft text" at its end and was stopped
    with SIGTERM, so its draft is newer than the file."""
    path.write_text("saved text")
    s = sessions([str(path), "-d", directory, "--implicit", "0"])
    s.keys("C-End")
    s.type(" draft text")
    s.wait_for("saved text draft text")
    os.kill(atpad_pid(s), signal.SIGTERM)
    assert s.exit_status() == 143


def test_keys_typed_at_the_question_are_applied_after_the_answer(sessions, directory, tmp_path):
    path = tmp_path / "h.txt"
    leave_a_draft(sessions, directory, path)
    s = sessions([str(path), "-d", directory, "--implicit", "0"])
    s.wait_for(PROMPT)
    s.type("xyz ")  # no r, d or k: those answer
    screen = s.wait_for("4 keys typed meanwhile")
    assert screen.split("\n")[1].startswith("saved text") and "xyz" not in screen
    s.keys("k")
    s.wait_for("Draft kept as")
    assert s.screen().split("\n")[1].startswith("xyz saved text")
    s.keys("C-s")
    s.wait_for("Saved")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert path.read_bytes() == b"xyz saved text"


def test_keys_typed_before_the_question_was_drawn_never_answer_it(directory, tmp_path):
    """Keys typed while atpad starts (here: before it starts at all, held by the cooked
    terminal until a file appears) are held, `d`, `r` and `k` included."""
    path = tmp_path / "t.txt"
    opened = []

    def start(args, **_):
        s = Session(" ".join(shlex.quote(a) for a in [atpad_binary(), *args]))
        opened.append(s)
        s.wait_for(lambda sc: "atpad" in sc, what="the first frame")
        return s
    try:
        leave_a_draft(start, directory, path)
        [draft] = [p for p in drafts_folder().glob("*.draft")]
        gate = tmp_path / "go"
        s = Session(f"until [ -e {shlex.quote(str(gate))} ]; do sleep 0.01; done; "
                    + " ".join(shlex.quote(a) for a in [atpad_binary(), str(path), "-d", directory, "--implicit", "0"]))
        opened.append(s)
        s.type("dark")
        s.wait_for("dark", what="the terminal to echo the keys before atpad runs")
        gate.touch()
        screen = s.wait_for(lambda sc: PROMPT in sc and "4 keys typed meanwhile" in sc, what="the question")
        assert screen.split("\n")[1].startswith("saved text")
        assert draft.exists() and list(drafts_folder().glob("*kept*")) == [], "not discarded, not kept aside"
        s.keys("r")
        s.wait_for("Draft recovered")
        assert s.screen().split("\n")[1].startswith("saved text draft textdark")
        s.keys("C-q")
        s.wait_for("Save changes")
        s.keys("n")
        assert s.exit_status() == 1, "nothing saved: the file is as it was"
        assert path.read_bytes() == b"saved text"
    finally:
        for s in opened:
            s.close()
