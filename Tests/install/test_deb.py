"""`scripts/package-deb` (docs/install.md) makes a package that apt installs to /usr, whose
`/usr/bin/atpad` works from any folder with no build directory in sight, and that
removes cleanly.

It installs a system package, so it runs only when asked: `ATPAD_TEST_DEB=1` (CI sets
it through scripts/test-install), as root, with atpad not installed already.
"""
import os
import re
import shutil
import subprocess

import pytest

from conftest import ROOT, VERSION_LINE, clean_env, run
from tmux import Session

pytestmark = pytest.mark.skipif(os.environ.get("ATPAD_TEST_DEB") != "1",
                                reason="installs a system package: set ATPAD_TEST_DEB=1 (CI does)")


@pytest.fixture(scope="module")
def deb(tmp_path_factory):
    assert os.geteuid() == 0, "installing the package needs root"
    assert run(["dpkg", "-s", "atpad"]).returncode != 0, "atpad is installed already; remove it first"
    out = tmp_path_factory.mktemp("deb")
    proc = run([str(ROOT / "scripts/package-deb"), "--no-build"], cwd=out)
    assert proc.returncode == 0, proc.stderr
    path = proc.stdout.strip().splitlines()[-1]
    arch = run(["dpkg", "--print-architecture"]).stdout.strip()
    assert re.fullmatch(rf"{re.escape(str(out))}/atpad_\d+\.\d+\.\d+_{arch}\.deb", path), path
    return path


def field(deb, name):
    return run(["dpkg-deb", "-f", deb, name]).stdout.strip()


def test_the_package_depends_only_on_debian_packages(deb):
    depends = [d.split()[0] for d in field(deb, "Depends").split(", ")]
    assert "libncursesw6" in depends and "libc6" in depends, depends
    assert "libcurl4" in depends, depends  # opened with dlopen for URL sources
    assert not [d for d in depends if "swift" in d], depends
    for name in depends:
        assert run(["apt-cache", "show", name]).returncode == 0, name
    files = run(["dpkg-deb", "-c", deb]).stdout
    for path in ["./usr/bin/atpad", "./usr/share/atpad/people.json", "./usr/share/man/man1/atpad.1.gz",
                 "./usr/share/man/man5/atpad.toml.5.gz",
                 "./usr/share/bash-completion/completions/atpad", "./usr/share/zsh/site-functions/_atpad",
                 "./usr/share/fish/vendor_completions.d/atpad.fish"]:
        assert path in files, path
    assert "install-manifest" not in files


def test_apt_installs_it_and_the_installed_atpad_works_then_it_is_removed(deb, tmp_path):
    proc = run(["apt-get", "install", "-y", "-qq", deb], env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    try:
        smoke_test(tmp_path)
    finally:
        removed = run(["dpkg", "--purge", "atpad"])
    assert removed.returncode == 0, removed.stderr
    assert not os.path.exists("/usr/bin/atpad") and not os.path.exists("/usr/share/atpad")


def smoke_test(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    env = clean_env(tmp_path)
    env["PATH"] = "/usr/bin:/bin"  # no toolchain, no build folder on the way
    assert shutil.which("atpad", path=env["PATH"]) == "/usr/bin/atpad"

    version = run(["atpad", "--version"], cwd=work, env=env)
    assert re.match(VERSION_LINE, version.stdout.strip()), version

    search = run(["atpad", "search", "jo"], cwd=work, env=env)
    assert search.returncode == 0 and search.stdout.splitlines()[0] == "u273\tJo Ng\tjng", search

    comment = work / "c.atpad"
    comment.write_text("thanks @[Jo Ng](u273)")
    render = run(["atpad", "render", "c.atpad", "--format", "slack"], cwd=work, env=env)
    assert (render.returncode, render.stdout) == (0, "thanks <@u273>"), render

    # A dpkg configured to leave out man pages (path-exclude, as slim images do) is not
    # atpad's to judge; anywhere else `man atpad` finds the page.
    if os.path.exists("/usr/share/man/man1/atpad.1.gz"):
        page = run(["man", "atpad"], env=dict(env, MANWIDTH="80", MANPAGER="cat", PAGER="cat"))
        assert page.returncode == 0 and "atpad search" in re.sub(r".\x08", "", page.stdout), page
    else:
        assert "path-exclude" in run(["sh", "-c", "cat /etc/dpkg/dpkg.cfg.d/* 2>/dev/null"]).stdout

    exports = {k: env[k] for k in ("HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "LC_ALL", "PATH")}
    s = Session("atpad note.atpad", env=exports, cwd=str(work))
    try:
        s.wait_for("note.atpad", what="the first frame")
        s.type("hi @jo")
        s.wait_for("Jo Ng", what="the chooser")
        s.keys("Enter")
        s.wait_for("hi @Jo Ng", what="the pick")
        s.keys("C-s")
        s.wait_for(lambda sc: "[+]" not in sc, what="the save")
        s.keys("C-q")
        assert s.exit_status() == 0
    finally:
        s.close()
    # The space the pick added, last on its line, is not written (docs/editor.md).
    assert (work / "note.atpad").read_text() == "hi @[Jo Ng](u273)"
