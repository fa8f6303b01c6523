"""`atpad lsp` driven by a real language client, pytest-lsp (docs/editors.md): initialize,
incremental sync, completion at each trigger and nowhere else, hover, diagnostics,
cancellation, shutdown; and by hand for what no well-behaved client sends (malformed
frames and JSON)."""
import asyncio
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import atpad_binary

ASYNC = pytest.mark.asyncio(loop_scope="module")

PEOPLE = [
    {"id": "u1", "name": "John Doe", "handle": "jdoe", "detail": "iOS engineer", "email": "john@example.com",
     "url": "https://example.com/jdoe"},
    {"id": "u2", "name": "Jane Roe", "handle": "jroe", "email": "jane@example.com"},
    {"id": "u3", "name": "Johanna Lee", "handle": "jlee"},
    {"id": "u4", "name": "Bruce Wayne", "handle": "batman"},
]
CHANNELS = [{"id": "c1", "name": "general", "handle": "general"}, {"id": "c2", "name": "random", "handle": "random"}]


def directory_files(folder):
    os.makedirs(folder, exist_ok=True)
    people, channels = os.path.join(folder, "people.json"), os.path.join(folder, "channels.json")
    with open(people, "w") as f:
        json.dump(PEOPLE, f)
    with open(channels, "w") as f:
        json.dump(CHANNELS, f)
    return people, channels


def server_env(folder):
    # No config, frecency or index of the person running the tests.
    return {**os.environ, "HOME": folder, "XDG_CONFIG_HOME": os.path.join(folder, "config"),
            "XDG_DATA_HOME": os.path.join(folder, "data"), "XDG_CACHE_HOME": os.path.join(folder, "cache"),
            "XDG_STATE_HOME": os.path.join(folder, "state")}


# Made when the module is read: pytest-lsp's fixture takes its command then.
FOLDER = tempfile.mkdtemp(prefix="atpad-lsp-test-")
atexit.register(shutil.rmtree, FOLDER, True)
PEOPLE_FILE, CHANNELS_FILE = directory_files(FOLDER)


@pytest_lsp.fixture(
    scope="module",
    config=ClientServerConfig(server_command=[atpad_binary(), "lsp", "-d", PEOPLE_FILE, "-t", f"#={CHANNELS_FILE}"],
                              server_env=server_env(FOLDER)),
)
async def client(lsp_client: LanguageClient):
    result = await lsp_client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities()))
    lsp_client.init_result = result
    yield
    await lsp_client.shutdown_session()


def open_doc(client, name, text, language="markdown"):
    uri = f"file:///tmp/{name}"
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)))
    return uri


async def eventually(condition, timeout=10.0):
    """`wait_until` for the client's event loop: polls without blocking it, so the
    server's notifications are taken in meanwhile."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition() and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.02)
    return condition()


async def complete(client, uri, line, character):
    return await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=character)))


@ASYNC
async def test_initialize_says_what_it_serves(client):
    caps = client.init_result.capabilities
    assert caps.position_encoding == "utf-16"
    assert caps.text_document_sync.change == types.TextDocumentSyncKind.Incremental
    assert {"@", "#", ":"} <= set(caps.completion_provider.trigger_characters)
    assert caps.hover_provider


@ASYNC
async def test_completion_at_at_ranks_as_search_and_writes_the_handle(client):
    uri = open_doc(client, "a.md", "Thanks @jo")
    result = await complete(client, uri, 0, 10)
    search = subprocess.run([atpad_binary(), "search", "jo", "-d", PEOPLE_FILE, "--no-frecency"],
                            capture_output=True, text=True, env=server_env(FOLDER), check=True)
    ranked = [line.split("\t")[1] for line in search.stdout.splitlines()]
    assert [item.label for item in result.items] == ranked
    first = result.items[0]
    assert first.text_edit.new_text == "@jdoe"
    assert (first.text_edit.range.start.character, first.text_edit.range.end.character) == (7, 10)
    assert first.detail == "@jdoe"
    assert "iOS engineer" in first.documentation.value and "https://example.com/jdoe" in first.documentation.value
    # Every match, from files: complete, and the client narrows it by name and handle.
    assert not result.is_incomplete
    assert first.filter_text == "@John Doe jdoe"


@ASYNC
async def test_completion_at_hash_and_colon(client):
    uri = open_doc(client, "b.md", "see #gen and :smil")
    channels = await complete(client, uri, 0, 8)
    assert channels.items[0].text_edit.new_text == "#general"
    emoji = await complete(client, uri, 0, 18)
    search = subprocess.run([atpad_binary(), "search", "--trigger-char", ":", "smil", "--json", "--no-frecency"],
                            capture_output=True, text=True, env=server_env(FOLDER), check=True)
    inserts = [r["insert"] for r in json.loads(search.stdout)["results"]]
    assert [item.text_edit.new_text for item in emoji.items] == inserts
    assert (emoji.items[0].text_edit.range.start.character, emoji.items[0].text_edit.range.end.character) == (13, 18)
    # One character after `:` asks nothing, as in the editor.
    assert not (await complete(client, uri, 0, 15)).items


@ASYNC
async def test_no_completion_in_code_urls_or_words(client):
    uri = open_doc(client, "c.md", "`@jo` and\n```\n@jo\n```\nmail a@jo and https://x.org/@jo\n")
    for line, character in [(0, 4), (2, 3), (4, 9), (4, 30)]:
        result = await complete(client, uri, line, character)
        assert not result.items, (line, character)


@ASYNC
async def test_incremental_changes_move_the_text(client):
    uri = open_doc(client, "d.md", "héllo 👋 world\n")
    # Insert "@ja " after the emoji (2 UTF-16 units) and its space: character 9.
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=0, character=9), end=types.Position(line=0, character=9)),
            text="@ja ")]))
    result = await complete(client, uri, 0, 12)
    assert result.items[0].label == "Jane Roe"
    assert result.items[0].text_edit.range.start.character == 9


@ASYNC
async def test_gitcommit_trailer_writes_name_and_email(client):
    uri = open_doc(client, "COMMIT_EDITMSG", "Fix it\n\nCo-authored-by: @ja\n# Please enter the message\n",
                   language="gitcommit")
    result = await complete(client, uri, 2, 19)
    assert result.items[0].text_edit.new_text == "Jane Roe <jane@example.com>"
    assert not (await complete(client, uri, 3, 5)).items


@ASYNC
async def test_hover_shows_the_person(client):
    uri = open_doc(client, "e.md", "ping @jdoe please")
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=7)))
    assert "John Doe" in hover.contents.value and "iOS engineer" in hover.contents.value
    assert (hover.range.start.character, hover.range.end.character) == (5, 10)
    on_trigger = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=5)))
    assert "John Doe" in on_trigger.contents.value
    nothing = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=1)))
    assert nothing is None


@ASYNC
async def test_unknown_mention_is_a_diagnostic(client):
    uri = open_doc(client, "f.md", "cc @jdoe @nobody `@code`")
    assert await eventually(lambda: uri in client.diagnostics)
    diagnostics = client.diagnostics[uri]
    assert [(d.range.start.character, d.range.end.character) for d in diagnostics] == [(9, 16)]
    assert diagnostics[0].severity == types.DiagnosticSeverity.Information
    assert "will not notify anyone" in diagnostics[0].message


@ASYNC
async def test_out_of_range_position_is_an_error_and_the_server_goes_on(client):
    uri = open_doc(client, "g.md", "one line")
    with pytest.raises(Exception):
        await complete(client, uri, 40, 0)
    assert not (await complete(client, uri, 0, 0)).items


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body



def initialize(id=1, **params):
    """`initialize` with no capabilities but `params`' members."""
    return {"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {"capabilities": {}, **params}}


def did_open(uri, text, language="markdown"):
    return {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": language, "version": 1, "text": text}}}


def completion(id, uri, line, character):
    return {"jsonrpc": "2.0", "id": id, "method": "textDocument/completion", "params": {
        "textDocument": {"uri": uri}, "position": {"line": line, "character": character}}}

def read_frames(stdout, count):
    """Reads `count` framed messages from the server's stdout (a blocking pipe)."""
    out = []
    while len(out) < count:
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            byte = stdout.read(1)
            assert byte, f"stdout ended after {out}"
            header += byte
        length = int(header.split(b":")[1].split(b"\r\n")[0])
        out.append(json.loads(stdout.read(length)))
    return out


def start_raw(*args):
    return subprocess.Popen([atpad_binary(), "lsp", "-d", PEOPLE_FILE, *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=server_env(FOLDER))


def test_malformed_input_is_answered_and_serving_goes_on():
    proc = start_raw()
    try:
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {}}))
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {"capabilities": {}}}))
        proc.stdin.write(b"Content-Length: 5\r\n\r\n{nope")
        proc.stdin.write(b"garbage without a header\r\n\r\n")
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 3, "method": "no/such/method"}))
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 4, "method": "shutdown"}))
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
        proc.stdin.flush()
        messages = read_frames(proc.stdout, 6)
        answers = {m.get("id"): m for m in messages if "id" in m}
        assert answers[1]["error"]["code"] == -32002
        assert "capabilities" in answers[2]["result"]
        assert answers[None]["error"]["code"] == -32700
        assert answers[3]["error"]["code"] == -32601
        assert answers[4]["result"] is None
        assert any(m.get("method") == "window/logMessage" for m in messages)
        assert proc.wait(timeout=30) == 0
        # Nothing but the framed messages: the pipe is at its end.
        assert proc.stdout.read() == b""
    finally:
        proc.kill()


def test_initialize_is_answered_before_the_directories_load_and_a_bad_one_ends_the_server(tmp_path):
    # The directories load while the client starts; a directory that cannot be read is
    # said on stderr, in one line, when the first message needs it, and the server exits 2.
    bad = tmp_path / "people.json"
    bad.write_text('[{"id": "u1", "name": ')
    proc = subprocess.Popen([atpad_binary(), "lsp", "-d", str(bad)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=server_env(FOLDER))
    try:
        proc.stdin.write(frame(initialize()))
        proc.stdin.flush()
        [answer] = read_frames(proc.stdout, 1)
        assert "@" in answer["result"]["capabilities"]["completionProvider"]["triggerCharacters"]
        proc.stdin.write(frame(did_open("file:///a.md", "hi @jo")))
        proc.stdin.flush()
        assert proc.wait(timeout=30) == 2
        errors = proc.stderr.read().decode().strip().splitlines()
        assert len(errors) == 1 and str(bad) in errors[0], errors
        # Only protocol on stdout: the error also went to the client's log.
        [log] = read_frames(proc.stdout, 1)
        assert log["method"] == "window/logMessage"
        assert proc.stdout.read() == b""
    finally:
        proc.kill()


def test_end_of_input_exits():
    proc = start_raw()
    proc.stdin.close()
    assert proc.wait(timeout=30) == 1
    assert proc.stdout.read() == b""


def test_utf8_positions_when_offered():
    proc = start_raw()
    try:
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                "params": {"capabilities": {"general": {"positionEncodings": ["utf-8", "utf-16"]}}}}))
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        proc.stdin.write(frame(did_open("file:///u.md", "é @jo")))
        # "é " is 3 bytes; "@jo" ends at byte 6.
        proc.stdin.write(frame(completion(2, "file:///u.md", 0, 6)))
        proc.stdin.flush()
        messages = read_frames(proc.stdout, 3)
        answers = {m.get("id"): m for m in messages if "id" in m}
        assert answers[1]["result"]["capabilities"]["positionEncoding"] == "utf-8"
        items = answers[2]["result"]["items"]
        assert items[0]["textEdit"]["range"]["start"] == {"line": 0, "character": 3}
    finally:
        proc.kill()


def test_a_ten_megabyte_document():
    proc = start_raw()
    try:
        text = ("Some words of prose here, and more of them.\n" * 240000) + "end @jd"
        assert len(text.encode()) > 10_000_000
        proc.stdin.write(frame(initialize()))
        proc.stdin.write(frame(did_open("file:///big.md", text)))
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": "file:///big.md", "version": 2},
            "contentChanges": [{"range": {"start": {"line": 240000, "character": 7},
                                          "end": {"line": 240000, "character": 7}}, "text": "o"}]}}))
        proc.stdin.write(frame(completion(2, "file:///big.md", 240000, 8)))
        proc.stdin.flush()
        messages = read_frames(proc.stdout, 4)
        answers = {m.get("id"): m for m in messages if "id" in m}
        assert answers[2]["result"]["items"][0]["textEdit"]["newText"] == "@jdoe"
    finally:
        proc.kill()


def test_cancel_request_answers_a_slow_source_at_once():
    # A directory command that does not answer: the completion waits on it until cancelled.
    proc = subprocess.Popen([atpad_binary(), "lsp", "--directory-command", "exec sleep 60"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=server_env(FOLDER))
    try:
        proc.stdin.write(frame(initialize()))
        proc.stdin.write(frame(did_open("file:///s.md", "hi @jo")))
        proc.stdin.write(frame(completion(2, "file:///s.md", 0, 6)))
        proc.stdin.flush()
        messages = read_frames(proc.stdout, 2)
        assert {m.get("id") for m in messages} == {1, None}  # initialize and the diagnostics
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 2}}))
        proc.stdin.flush()
        [answer] = read_frames(proc.stdout, 1)
        assert answer["id"] == 2 and answer["error"]["code"] == -32800
    finally:
        proc.kill()


def test_spelling_diagnostics_and_their_code_actions(tmp_path):
    # A config folder of its own: the word added here stays out of the other tests' list.
    env = {**server_env(FOLDER), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    proc = subprocess.Popen([atpad_binary(), "lsp", "-d", PEOPLE_FILE, "--spell", "en_US"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        proc.stdin.write(frame(initialize()))
        proc.stdin.write(frame(did_open("file:///w.md", "Thanks @jdoe, the tset is `wrnog` here.\n")))
        proc.stdin.flush()
        initialized, published = read_frames(proc.stdout, 2)
        assert initialized["result"]["capabilities"]["codeActionProvider"] is True
        diagnostics = published["params"]["diagnostics"]
        assert [(d["code"], d["range"]["start"]["character"], d["range"]["end"]["character"]) for d in diagnostics] \
            == [("spelling", 18, 22)]
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/codeAction", "params": {
            "textDocument": {"uri": "file:///w.md"}, "range": diagnostics[0]["range"],
            "context": {"diagnostics": diagnostics}}}))
        proc.stdin.flush()
        [actions] = read_frames(proc.stdout, 1)
        edits = [a["edit"]["changes"]["file:///w.md"][0]["newText"] for a in actions["result"] if "edit" in a]
        assert "test" in edits
        assert all(a["kind"] == "quickfix" for a in actions["result"])
        # The last: add the word to the personal list, a command the server runs.
        add = actions["result"][-1]
        assert add["title"] == "Add 'tset' to my words"
        assert initialized["result"]["capabilities"]["executeCommandProvider"]["commands"] == [add["command"]["command"]]
        words = tmp_path / "config" / "atpad" / "words"
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 3, "method": "workspace/executeCommand",
                                "params": {"command": add["command"]["command"], "arguments": add["command"]["arguments"]}}))
        proc.stdin.flush()
        answer, again = read_frames(proc.stdout, 2)
        assert answer["id"] == 3 and answer["result"] is None
        # Known from now on: the document checked again has nothing to say.
        assert again["params"]["uri"] == "file:///w.md" and again["params"]["diagnostics"] == []
        assert words.read_text() == "tset\n"
    finally:
        proc.kill()


def test_settings_from_the_client_are_the_config_files_keys():
    # No -d: the sample directory, until the client's settings name the people file.
    proc = subprocess.Popen([atpad_binary(), "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=server_env(FOLDER))
    try:
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "capabilities": {}, "initializationOptions": {"triggers": {"@": {"directory": PEOPLE_FILE}}}}}))
        proc.stdin.write(frame(did_open("file:///o.md", "the tset @jo")))
        proc.stdin.write(frame(completion(2, "file:///o.md", 0, 12)))
        proc.stdin.flush()
        messages = read_frames(proc.stdout, 3)
        answers = {m.get("id"): m for m in messages if "id" in m}
        assert [i["label"] for i in answers[2]["result"]["items"]][:2] == ["John Doe", "Johanna Lee"]
        # Spelling turned on by the client: the open document is checked again.
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration", "params": {
            "settings": {"atpad": {"spell": "en_US", "triggers": {"@": {"directory": PEOPLE_FILE}}}}}}))
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration", "params": {
            "settings": {"atpad": {"spell": 42}}}}))
        proc.stdin.flush()
        published, log = read_frames(proc.stdout, 2)
        assert [d["code"] for d in published["params"]["diagnostics"]] == ["spelling", "unknown-person"]
        assert log["method"] == "window/logMessage" and "spell" in log["params"]["message"]
    finally:
        proc.kill()


def test_a_directory_too_big_for_a_lookup_finds_handles_by_ranking(tmp_path):
    # More people than LSPSettings.lookupLimit: hover and unknown @words rank the handle.
    big = tmp_path / "big.json"
    big.write_text(json.dumps([{"id": f"u{i}", "name": f"Person Number{i}", "handle": f"pn{i}"}
                               for i in range(100_001)]))
    proc = subprocess.Popen([atpad_binary(), "lsp", "-d", str(big)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=server_env(str(tmp_path)))
    try:
        proc.stdin.write(frame(initialize()))
        proc.stdin.write(frame(did_open("file:///b.md", "hi @pn50000 and @nobodyatall")))
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": "file:///b.md"}, "position": {"line": 0, "character": 6}}}))
        proc.stdin.flush()
        messages = read_frames(proc.stdout, 3)
        published = next(m for m in messages if m.get("method") == "textDocument/publishDiagnostics")
        assert [(d["range"]["start"]["character"], d["code"]) for d in published["params"]["diagnostics"]] \
            == [(16, "unknown-person")]
        hover = next(m for m in messages if m.get("id") == 2)
        assert "Person Number50000" in hover["result"]["contents"]["value"]
    finally:
        proc.kill()


def test_an_unknown_mention_is_checked_again_when_the_directory_changes(tmp_path):
    # The server remembers each @word's check while its settings stand: typing on keeps
    # it unknown, and a client's settings that name a directory with the person forget it.
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    first.write_text(json.dumps([{"id": "a", "name": "Ann Alder", "handle": "ann"}]))
    second.write_text(json.dumps([{"id": "b", "name": "Bea Birch", "handle": "bea"}]))
    proc = subprocess.Popen([atpad_binary(), "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=server_env(str(tmp_path)))
    try:
        proc.stdin.write(frame(initialize(initializationOptions={"triggers": {"@": {"directory": str(first)}}})))
        proc.stdin.write(frame(did_open("file:///u.md", "hi @bea")))
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": "file:///u.md", "version": 2},
            "contentChanges": [{"text": "hi @bea and @ann"}]}}))
        proc.stdin.flush()
        _, opened, changed = read_frames(proc.stdout, 3)
        codes = lambda m: [(d["range"]["start"]["character"], d["code"]) for d in m["params"]["diagnostics"]]
        assert codes(opened) == [(3, "unknown-person")]
        assert codes(changed) == [(3, "unknown-person")]
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration", "params": {
            "settings": {"atpad": {"triggers": {"@": {"directory": str(second)}}}}}}))
        proc.stdin.flush()
        (published,) = read_frames(proc.stdout, 1)
        assert codes(published) == [(12, "unknown-person")]
    finally:
        proc.kill()


# MARK: - The conversation's people first

PARTICIPANTS = {"data": {"repository": {"issueOrPullRequest": {
    "author": {"login": "jroe", "name": "Jane Roe"}, "assignees": {"nodes": []},
    "reviewRequests": {"nodes": []}, "reviews": {"nodes": [{"author": {"login": "batman", "name": "Bruce Wayne"}}]},
    "comments": {"nodes": []}}}}}


def fake_gh(tmp_path):
    """A stand-in for gh: `api graphql` for octo/atpad#12 answers PARTICIPANTS; any other
    call fails. Each call is logged with its arguments."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "gh.log"
    script = bin_dir / "gh"
    script.write_text(f"""#!/usr/bin/env python3
import json, sys
open({str(log)!r}, "a").write(json.dumps(sys.argv[1:]) + "\\n")
if sys.argv[1:9] != ["api", "graphql", "-f", "owner=octo", "-f", "name=atpad", "-F", "number=12"]:
    sys.exit(64)
print(json.dumps({json.dumps(PARTICIPANTS)}))
""")
    script.chmod(0o755)
    return {**server_env(FOLDER), "PATH": f"{bin_dir}:{os.environ['PATH']}"}, log


def labels_once_participants_arrive(proc, uri, first_id):
    """Asks for completion at the end of `hi @` until the participants rank first (they
    arrive in the background); returns the items."""
    request_id = first_id
    deadline = time.monotonic() + 20
    while True:
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": request_id, "method": "textDocument/completion", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 0, "character": 4}}}))
        proc.stdin.flush()
        while True:
            [message] = read_frames(proc.stdout, 1)
            if message.get("id") == request_id:
                break
        items = message["result"]["items"]
        if items and items[0]["label"] == "Jane Roe":
            return items
        assert time.monotonic() < deadline, [i["label"] for i in items]
        request_id += 1


@pytest.mark.parametrize("given", ["option", "client"])
def test_the_conversations_people_come_first(tmp_path, given):
    env, log = fake_gh(tmp_path)
    option = ["--to", "github:octo/atpad#12"] if given == "option" else []
    options = {"to": "github:octo/atpad#12"} if given == "client" else None
    proc = subprocess.Popen([atpad_binary(), "lsp", "-d", PEOPLE_FILE, *option], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                "params": {"capabilities": {}, "initializationOptions": options}}))
        proc.stdin.write(frame(did_open("file:///p.md", "hi @")))
        proc.stdin.flush()
        items = labels_once_participants_arrive(proc, "file:///p.md", 2)
        assert [i["label"] for i in items[:2]] == ["Jane Roe", "Bruce Wayne"]
        assert items[0]["detail"] == "@jroe · author" and items[1]["detail"] == "@batman · reviewer"
        assert items[0]["textEdit"]["newText"] == "@jroe"
        assert [json.loads(line)[:2] for line in log.read_text().splitlines()] == [["api", "graphql"]]
    finally:
        proc.kill()


def test_a_list_cut_at_the_limit_is_incomplete(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("limit = 1\n")
    proc = start_raw("--config", str(config))
    try:
        proc.stdin.write(frame(initialize()))
        proc.stdin.write(frame(did_open("file:///l.md", "hi @jo")))
        proc.stdin.write(frame(completion(2, "file:///l.md", 0, 6)))
        proc.stdin.flush()
        answer = next(m for m in read_frames(proc.stdout, 3) if m.get("id") == 2)
        assert answer["result"]["isIncomplete"] is True
        [item] = answer["result"]["items"]
        # What was typed: the client asks again at the next character.
        assert item["filterText"] == "@jo"
    finally:
        proc.kill()
