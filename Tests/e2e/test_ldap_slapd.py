"""The ldap preset against a real slapd (docs/directories.md, "Presets"): started on a
loopback port with a throw-away configuration and a generated tree of people — non-ASCII
names (base64 in LDIF) and values long enough to be folded — and stopped afterwards. Needs
Debian's slapd and ldap-utils (installed by .ci/run); skipped where they are missing."""
import base64
import json
import os
import shutil
import socket
import subprocess
import time

import pytest

SLAPD = shutil.which("slapd") or "/usr/sbin/slapd"
SLAPADD = shutil.which("slapadd") or "/usr/sbin/slapadd"
pytestmark = pytest.mark.skipif(
    not (os.path.exists(SLAPD) and os.path.exists(SLAPADD) and shutil.which("ldapsearch")),
    reason="slapd and ldap-utils are not installed")

BASE = "dc=example,dc=org"
ADMIN = "cn=admin," + BASE
PASSWORD = "s3cret-bind"
LONG_TITLE = "Principal engineer for directory services, identity federation and " \
             "the long tail of legacy authentication protocols (Europe, Middle East, Africa)"


def ldif_value(name, value):
    """`name: value`, or `name:: base64` when the value is not plain ASCII (RFC 2849)."""
    if value.isascii() and not value.startswith((" ", ":", "<")):
        return f"{name}: {value}"
    return f"{name}:: {base64.b64encode(value.encode()).decode()}"


def people():
    named = [("jalvarez", "José Álvarez", "Jose Alvarez"), ("mzhang", "张伟", "Zhang Wei"),
             ("bjorn", "Bjørn Ødegård", "Bjorn Odegard"), ("jreed", "Joseph Reed", "Joseph Reed")]
    generated = [(f"user{n:02d}", f"Person Number {n:02d}", f"Person Number {n:02d}") for n in range(60)]
    return named + generated


def tree_ldif():
    blocks = [f"dn: {BASE}\nobjectClass: dcObject\nobjectClass: organization\no: Example\ndc: example",
              f"dn: ou=people,{BASE}\nobjectClass: organizationalUnit\nou: people"]
    for uid, display, cn in people():
        lines = [f"dn: uid={uid},ou=people,{BASE}", "objectClass: inetOrgPerson", f"uid: {uid}",
                 ldif_value("cn", cn), f"sn: {cn.split()[-1]}", ldif_value("displayName", display),
                 f"mail: {uid}@example.org"]
        if uid == "jalvarez":
            lines.append(ldif_value("title", LONG_TITLE))
        elif uid == "mzhang":
            lines.append(ldif_value("title", "工程师"))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def slapd(tmp_path_factory):
    folder = tmp_path_factory.mktemp("slapd")
    (folder / "db").mkdir()
    conf = folder / "slapd.conf"
    conf.write_text(f"""
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
pidfile {folder}/slapd.pid
modulepath /usr/lib/ldap
moduleload back_mdb
database mdb
maxsize 10485760
suffix "{BASE}"
rootdn "{ADMIN}"
rootpw {PASSWORD}
directory {folder}/db
index uid,cn,displayName,mail eq,sub
""")
    (folder / "people.ldif").write_text(tree_ldif())
    subprocess.run([SLAPADD, "-f", str(conf), "-l", str(folder / "people.ldif")], check=True,
                   capture_output=True, timeout=60)
    port = free_port()
    uri = f"ldap://127.0.0.1:{port}/"
    server = subprocess.Popen([SLAPD, "-d", "0", "-f", str(conf), "-h", uri],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                pytest.fail("slapd did not start: " + server.stderr.read().decode(errors="replace"))
            time.sleep(0.05)
    yield uri
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def ldap_env(uri, **extra):
    return {"LDAP_URI": uri, "LDAP_BASE": BASE, "LDAP_BIND_DN": "", "LDAP_PASSWORD": ""} | extra


def search(atpad, query, env, check_exit=0):
    proc = atpad("search", "--preset", "ldap", query, "--json", env=env, check_exit=check_exit)
    return proc, (json.loads(proc.stdout)["results"] if check_exit == 0 else None)


def test_non_ascii_names_in_base64_and_folded_long_values_are_read_whole(atpad, slapd):
    _, results = search(atpad, "josé", ldap_env(slapd))
    assert [(r["id"], r["name"], r["handle"]) for r in results] == [("jalvarez", "José Álvarez", "jalvarez")]
    assert results[0]["detail"] == LONG_TITLE
    _, results = search(atpad, "张", ldap_env(slapd))
    assert [(r["id"], r["name"], r.get("detail")) for r in results] == [("mzhang", "张伟", "工程师")]


def test_cn_and_display_name_contain_uid_and_mail_start_with_the_query(atpad, slapd):
    _, results = search(atpad, "odeg", ldap_env(slapd))  # inside cn "Bjorn Odegard"
    assert [r["id"] for r in results] == ["bjorn"]
    _, results = search(atpad, "jre", ldap_env(slapd))  # start of uid
    assert [r["id"] for r in results] == ["jreed"]
    _, results = search(atpad, "org", ldap_env(slapd))  # inside mail only (…@example.org): no match
    assert results == []


def test_filter_characters_in_the_query_are_escaped(atpad, slapd):
    _, results = search(atpad, "*)(uid=*", ldap_env(slapd))
    assert results == []


def test_more_people_than_the_size_limit_is_still_an_answer(atpad, slapd):
    _, results = search(atpad, "person", ldap_env(slapd))
    assert len(results) == 50


def test_bind_with_the_password_through_a_pipe_and_a_wrong_one_fails(atpad, slapd):
    _, results = search(atpad, "jre", ldap_env(slapd, LDAP_BIND_DN=ADMIN, LDAP_PASSWORD=PASSWORD))
    assert [r["id"] for r in results] == ["jreed"]
    proc, _ = search(atpad, "jre", ldap_env(slapd, LDAP_BIND_DN=ADMIN, LDAP_PASSWORD="wrong"), check_exit=None)
    assert proc.returncode == 1
    assert "Invalid credentials" in proc.stderr
    assert "wrong" not in proc.stderr.replace("Invalid credentials", "")


def test_missing_variables_are_named(atpad):
    proc = atpad("search", "--preset", "ldap", "x", env={"LDAP_URI": "", "LDAP_BASE": ""})
    assert proc.returncode == 2
    assert proc.stderr.strip() == "atpad: the ldap preset needs LDAP_URI, LDAP_BASE, which are not set"
