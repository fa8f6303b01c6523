"""`atpad search` end to end (docs/commands.md, "`atpad search`"): TSV, JSON with match
ranges, limit, typing."""
import json


def test_tsv_results(atpad, people):
    path = people([{"id": "u1", "name": "John Doe", "handle": "jdoe"}, {"id": "u2", "name": "Jane Roe"}])
    out = atpad("search", "jd", "-d", path, check_exit=0).stdout
    assert out.splitlines()[0] == "u1\tJohn Doe\tjdoe"


def test_json_with_matches(atpad, people):
    path = people([{"id": "u1", "name": "John Doe", "handle": "jdoe"}])
    out = json.loads(atpad("search", "doe", "-d", path, "--json", check_exit=0).stdout)
    assert out == {"query": "doe", "results": [{"id": "u1", "name": "John Doe", "handle": "jdoe", "matches": [[5, 8]]}]}


def test_limit(atpad):
    out = atpad("search", "a", "--limit", "3", check_exit=0).stdout
    assert len(out.splitlines()) == 3


def test_type_and_timing(atpad):
    lines = atpad("search", "jo", "--type", "--timing", "--json", check_exit=0).stdout.splitlines()
    first = json.loads(lines[0])
    assert set(first) == {"load_ms", "entries", "index", "index_note"} and first["entries"] >= 200
    # The bundled sample is small: parsed each time, never indexed.
    assert first["index"] == "none"
    steps = [json.loads(line) for line in lines[1:]]
    assert [s["query"] for s in steps] == ["j", "jo"]
    assert all(isinstance(s["ms"], float) and isinstance(s["results"], list) for s in steps)
