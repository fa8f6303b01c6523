"""Files are safe (docs/editor.md) in the real editor under tmux: a file changed on disk by
another program is not overwritten unasked; a file the person may not write opens
`[read-only]` and is saved under another name; a file whose folder is not writable is
saved in place. Root writes through permission bits, so as root the editor runs as
`nobody` (setpriv) for the permission cases, in folders made for it."""
import os
import shlex
import shutil
import stat
import tempfile

import pytest

from conftest import atpad_binary, wait_until
from tmux import Session

NOBODY = 65534


@pytest.fixture
def shared_folder():
    """A folder everyone can reach (pytest's own tmp folders are owner-only)."""
    path = tempfile.mkdtemp(prefix="atpad-safety-")
    os.chmod(path, 0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def reachable_by_others(path):
    """Whether every folder above `path` lets other users through (a checkout under a
    home folder of mode 0700 does not)."""
    folder = os.path.dirname(os.path.abspath(path))
    while True:
        if not os.stat(folder).st_mode & stat.S_IXOTH:
            return False
        parent = os.path.dirname(folder)
        if parent == folder:
            return True
        folder = parent


def binary_for_others(shared_folder):
    """The atpad binary, copied with its resource bundle into `shared_folder` when the
    build folder is out of other users' reach."""
    binary = atpad_binary()
    if os.geteuid() != 0 or reachable_by_others(binary):
        return binary
    copy = os.path.join(shared_folder, "bin")
    os.makedirs(copy)
    os.chmod(copy, 0o755)
    shutil.copy2(binary, copy)
    bundle = os.path.join(os.path.dirname(binary), "atpad_AtpadApp.resources")
    if os.path.isdir(bundle):
        shutil.copytree(bundle, os.path.join(copy, os.path.basename(bundle)))
    return os.path.join(copy, os.path.basename(binary))


@pytest.fixture
def as_person(shared_folder):
    """Starts atpad as someone who is not root (nobody, when the tests run as root)."""
    opened = []
    state = os.path.join(shared_folder, "state")
    os.makedirs(state)
    os.chmod(state, 0o777)
    binary = binary_for_others(shared_folder)

    def start(args):
        prefix = []
        if os.geteuid() == 0:
            if not shutil.which("setpriv"):
                pytest.skip("setpriv is needed to run as another user")
            prefix = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
        command = " ".join(shlex.quote(a) for a in [*prefix, binary, *args])
        env = {"HOME": state, "XDG_STATE_HOME": state, "XDG_CONFIG_HOME": state, "XDG_CACHE_HOME": state}
        s = Session(command, env=env, cwd=shared_folder)
        opened.append(s)
        s.wait_for(lambda sc: "atpad" in sc, what="the first frame")
        return s

    yield start
    for s in opened:
        s.close()


def test_changed_on_disk_overwrite_reload_cancel(sessions, directory, tmp_path):
    path = tmp_path / "c.md"
    for answer, expected in [("c", "theirs\n"), ("o", "mine!\n"), ("r", "theirs\n")]:
        path.write_text("mine\n")
        s = sessions([str(path), "-d", directory, "--implicit", "0"])
        s.wait_for("mine")
        s.keys("End")
        s.type("!")
        s.wait_for("mine!")
        path.write_text("theirs\n")
        s.keys("C-s")
        s.wait_for("c.md changed on disk: (o)verwrite (r)eload (c)ancel")
        s.type(answer)
        if answer == "r":
            s.wait_for("Reloaded c.md from disk")
            assert "theirs" in s.screen()
        elif answer == "o":
            s.wait_for("Saved c.md")
        else:
            s.wait_for("Not saved")
        s.keys("C-q")
        if answer == "c":
            s.wait_for("Save changes")
            s.type("n")
        assert path.read_text() == expected, answer
        s.close()


def test_a_read_only_file_is_saved_under_another_name(as_person, shared_folder):
    path = os.path.join(shared_folder, "ro.md")
    with open(path, "w") as f:
        f.write("locked text")
    os.chmod(path, 0o644)  # owned by the test's user, not writable by the editor's
    if os.geteuid() != 0:
        os.chmod(path, 0o444)
    s = as_person([path, "--implicit", "0"])
    s.wait_for("[read-only]")
    s.type("x")
    s.keys("C-s")
    s.wait_for("ro.md is read-only: save it under another name")
    s.wait_for("Save as:")
    s.keys("C-u")
    s.type(os.path.join(shared_folder, "state", "copy.md"))
    s.keys("Enter")
    s.wait_for("Saved copy.md")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert open(path).read() == "locked text"
    assert open(os.path.join(shared_folder, "state", "copy.md")).read() == "xlocked text"


def test_a_file_in_a_folder_that_is_not_writable_is_saved_in_place(as_person, shared_folder):
    folder = os.path.join(shared_folder, "fixed")
    os.makedirs(folder)
    os.chmod(folder, 0o755)
    path = os.path.join(folder, "w.md")
    with open(path, "w") as f:
        f.write("draft")
    if os.geteuid() == 0:
        os.chown(path, NOBODY, NOBODY)
    else:
        os.chmod(folder, 0o555)
    inode = os.stat(path).st_ino
    s = as_person([path, "--implicit", "0"])
    s.wait_for("draft")
    assert "[read-only]" not in s.screen()
    s.keys("End")
    s.type(" done")
    s.keys("C-s")
    s.wait_for("Saved w.md")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert open(path).read() == "draft done"
    assert os.stat(path).st_ino == inode, "written in place, not replaced"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o644
    assert sorted(os.listdir(folder)) == ["w.md"], "no temporary file left behind"


def test_render_mentions_and_search_show_control_characters_on_a_terminal(atpad, tmp_path, people):
    comment = tmp_path / "evil.md"
    comment.write_bytes("red \x1b[31mALERT\x1b[0m bell\x07 csi\u009b2J @[Eve \x1bPq\x07](e1)\n".encode())
    directory = people([{"id": "e1", "name": "Eve \x1b[5mblink", "handle": "eve"}])
    for args in (["render", str(comment), "--format", "plain"], ["mentions", str(comment)],
                 ["search", "eve", "-d", directory], ["search", "eve", "--json", "-d", directory]):
        command = " ".join(shlex.quote(a) for a in [atpad_binary(), *args])
        s = Session(command, cwd=str(tmp_path))
        try:
            screen = s.wait_for(lambda sc: "[exit " in sc, what="the command to finish")
            assert "[exit 0]" in screen, screen
            raw = s.screen(attributes=True)
            if "--json" not in args and "mentions" not in args:  # JSON has its own \u001b
                assert "^[" in screen, (args, screen)
            assert "\x1b[5m" not in raw and "\x1bP" not in raw, (args, raw)
        finally:
            s.close()
    # To a pipe the bytes stay as they are.
    out = atpad("render", str(comment), "--format", "plain", check_exit=0).stdout
    assert "\x1b[31mALERT" in out


def test_a_second_atpad_on_the_same_file_opens_it_read_only(sessions, directory, tmp_path):
    from test_drafts import atpad_pid, drafts_folder
    path = tmp_path / "shared.md"
    path.write_text("start")
    first = sessions(["shared.md", "-d", directory, "--implicit", "0"], cwd=str(tmp_path))
    first.wait_for("start")
    first.keys("End")
    first.type(" live words")
    wait_until(lambda: list(drafts_folder().glob("*.draft")), timeout=1.5)  # the first atpad's draft
    drafts = list(drafts_folder().glob("*.draft"))
    assert drafts, "the first atpad writes its draft"
    second = sessions(["shared.md", "-d", directory, "--implicit", "0"], cwd=str(tmp_path))
    second.wait_for(f"shared.md is open in another atpad (pid {atpad_pid(first)})")
    screen = second.screen()
    assert "[read-only]" in screen and "Recover unsaved draft" not in screen
    second.keys("C-q")
    assert second.exit_status() == 0
    assert list(drafts_folder().glob("*.draft")) == drafts, "the live draft is left alone"
    first.keys("C-s")
    first.wait_for("Saved shared.md")
    first.keys("C-q")
    assert first.exit_status() == 0
    third = sessions([str(path), "-d", directory, "--implicit", "0"])
    third.wait_for("start live words")
    assert "[read-only]" not in third.screen() and "another atpad" not in third.screen()


@pytest.mark.parametrize("shape", ["relative", "absolute", "chain"])
def test_saving_through_a_dangling_symlink_writes_its_target_and_keeps_the_link(sessions, directory, tmp_path,
                                                                                shape):
    # Issue 32: as vim does, the file the link names is created; the link stays a link.
    (tmp_path / "notes").mkdir()
    link = tmp_path / "c.md"
    target = tmp_path / "notes" / "real.md"
    if shape == "relative":
        os.symlink("notes/real.md", link)
    elif shape == "absolute":
        os.symlink(str(target), link)
    else:
        os.symlink("../notes/real.md", tmp_path / "notes" / "middle.md")
        os.symlink("notes/middle.md", link)
    s = sessions([str(link), "-d", directory, "--implicit", "0"])
    # A dangling link opens as a new file.
    s.wait_for(lambda sc: "c.md" in sc.splitlines()[0], what="the title")
    s.type("hello")
    s.wait_for("hello")
    s.keys("C-s")
    s.wait_for("Saved c.md")
    s.type(" again")
    s.keys("C-s")
    s.wait_for(lambda sc: "[+]" not in sc.splitlines()[0] and "again" in sc, what="the second save")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert os.path.islink(link)
    assert target.read_bytes() == b"hello again"
    if shape == "chain":
        assert os.path.islink(tmp_path / "notes" / "middle.md")
    assert sorted(os.listdir(tmp_path / "notes")) == (["middle.md", "real.md"] if shape == "chain" else ["real.md"])


@pytest.mark.parametrize("ending", [b"", b"\n"])
def test_a_json_comment_saved_without_edits_keeps_its_bytes(sessions, directory, tmp_path, ending):
    # Issue 32: the final newline after the object, or its absence, is kept.
    path = tmp_path / "c.json"
    body = (b'{"text": "hi @John Doe\\nbye", "mentions": [{"trigger": "@", "id": "u1", "name": "John Doe", '
            b'"start": 3, "end": 12, "utf16": [3, 12], "utf8": [3, 12]}]}')
    path.write_bytes(body + ending)
    s = sessions([str(path), "-d", directory])
    s.wait_for("hi @John Doe")
    s.keys("C-s")
    s.wait_for("Saved c.json")
    s.keys("C-q")
    assert s.exit_status() == 0
    assert path.read_bytes() == body + ending
