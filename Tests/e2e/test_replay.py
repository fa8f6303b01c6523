"""`atpad replay` end to end (docs/commands.md, "`atpad replay`"): the JSON it prints for
key scripts, and its errors."""
import json

SMALL = [
    {"id": "u1", "name": "John Doe", "handle": "jdoe"},
    {"id": "u2", "name": "Jane Roe", "handle": "jroe"},
    {"id": "u3", "name": "Johanna Lee"},
    {"id": "u4", "name": "Bruce Wayne", "handle": "batman"},
    {"id": "u5", "name": "王伟"},
]


def test_pick_from_bundled_directory_prints_exact_json(atpad):
    proc = atpad("replay", "--keys", "hi @john<Enter>", check_exit=0)
    assert proc.stdout.strip() == (
        '{"text": "hi @John Doe ", "markup": "hi @[John Doe](u1) ", "cursor": 13, '
        '"mentions": [{"trigger": "@", "id": "u1", "name": "John Doe", "start": 3, "end": 12, '
        '"utf16": [3, 12], "utf8": [3, 12]}], "selectedMention": null, "chooser": null}'
    )


def test_open_chooser_shape(replay, people):
    out = replay("-d", people(SMALL), "--keys", "@jo")
    assert out["chooser"] == {"open": True, "trigger": "@", "query": "jo",
                              "items": ["u1", "u3", "u2"], "selected": 0, "loading": False}
    assert out["cursor"] == 3


def test_arrow_then_enter_picks_second(replay, people):
    out = replay("-d", people(SMALL), "--keys", "@jo<Down><Enter>")
    assert out["markup"] == "@[Johanna Lee](u3) "


def test_no_matches_keeps_chooser_open(replay, people):
    out = replay("-d", people(SMALL), "--keys", "@zzz")
    assert out["chooser"]["open"] is True
    assert out["chooser"]["items"] == []


def test_implicit_search_not_drawn_without_results(replay, people):
    out = replay("-d", people(SMALL), "--keys", "xyz")
    assert out["chooser"]["open"] is False
    out = replay("-d", people(SMALL), "--implicit", "0", "--keys", "xyz")
    assert out["chooser"] is None


def test_implicit_pick_consumes_preceding_words(replay, people):
    out = replay("-d", people(SMALL), "--keys", "bruce wayn<Tab>")
    assert out["markup"] == "@[Bruce Wayne](u4) "


def test_backspace_selects_then_deletes(replay):
    out = replay("--text", "hi @[John Doe](u1)|", "--keys", "<BS>")
    assert out["selectedMention"] == "u1"
    assert out["text"] == "hi @John Doe"
    out = replay("--text", "hi @[John Doe](u1)|", "--keys", "<BS><BS>")
    assert out["text"] == "hi " and out["mentions"] == [] and out["selectedMention"] is None


def test_trim_mentions(replay):
    out = replay("--trim-mentions", "--text", "@[John Doe](u1)|", "--keys", "<BS><BS>")
    assert out["markup"] == "@[John](u1)"
    assert out["selectedMention"] == "u1"


def test_undo_pick_brings_back_query(replay):
    out = replay("--keys", "@jo<Enter><C-z>")
    assert out["text"] == "@jo" and out["chooser"] is None


def test_text_cursor_defaults_to_end_and_escaped_bar(replay):
    out = replay("--text", "a\\|b")
    assert out["text"] == "a|b" and out["cursor"] == 3
    out = replay("--text", "ab|cd")
    assert out["cursor"] == 2


def test_positions_in_every_unit(replay, people):
    out = replay("-d", people(SMALL), "--text", "👩‍💻 é |", "--keys", "@王<Enter>")
    m = out["mentions"][0]
    # 👩‍💻 is 3 scalars, 5 UTF-16 units, 11 UTF-8 bytes; é is 1, 1, 2.
    assert (m["start"], m["end"]) == (6, 9)
    assert m["utf16"] == [8, 11]
    assert m["utf8"] == [15, 22]


def test_second_trigger_routes_to_its_directory(replay, people, tmp_path):
    channels = people([{"id": "c1", "name": "general"}, {"id": "c2", "name": "random"}], name="channels.json")
    out = replay("-d", people(SMALL), "-t", f"#={channels}", "--keys", "#ge<Enter>")
    assert out["markup"] == "#[general](c1) "
    assert out["mentions"][0]["trigger"] == "#"


def test_paste_of_markup_becomes_mentions(replay):
    out = replay("--keys", "<Paste>cc @[Jane Roe](u2) thanks</Paste>")
    assert [m["id"] for m in out["mentions"]] == ["u2"]
    assert out["chooser"] is None


def test_control_characters_in_names_stay_data_and_json_stays_valid(atpad, people):
    path = people([{"id": "x\u0007", "name": "Evil\u001b[31m Name\n"}])
    proc = atpad("replay", "-d", path, "--keys", "@ev<Enter>", check_exit=0)
    out = json.loads(proc.stdout)
    assert out["mentions"][0]["name"] == "Evil\u001b[31m Name\n"
    assert "\u001b" not in proc.stdout, "control characters are escaped in the JSON"


def test_second_cursor_mark_is_an_error_naming_the_column(atpad):
    proc = atpad("replay", "--text", "ab|cd|", check_exit=2)
    assert proc.stdout == ""
    assert "column 6" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_unknown_key_name_is_an_error(atpad):
    proc = atpad("replay", "--keys", "ab<Foo>", check_exit=2)
    assert "<Foo>" in proc.stderr and "column 3" in proc.stderr


def test_directory_not_json_names_file_and_line(atpad, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('[\n{"id": "1", "name": "A"},\n{"id": 2 "name": "B"}\n]')
    proc = atpad("replay", "-d", str(bad), "--keys", "@", check_exit=2)
    assert "bad.json:3" in proc.stderr


def test_directory_entry_without_name_names_field(atpad, tmp_path):
    bad = tmp_path / "noname.json"
    bad.write_text('[\n{"id": "1", "name": "A"},\n{"id": "2"}\n]')
    proc = atpad("replay", "-d", str(bad), check_exit=2)
    assert "noname.json:3" in proc.stderr and '"name"' in proc.stderr


def test_missing_directory_file(atpad, tmp_path):
    proc = atpad("replay", "-d", str(tmp_path / "nope.json"), check_exit=2)
    assert "nope.json" in proc.stderr


def test_bad_trigger_option(atpad):
    proc = atpad("replay", "-t", "x=foo.json", check_exit=2)
    assert "--trigger" in proc.stderr


def test_unknown_option_is_usage_error(atpad):
    atpad("replay", "--frobnicate", check_exit=2)


def test_version_and_help(atpad):
    assert atpad("--version", check_exit=0).stdout.strip()
    assert "replay" in atpad("--help", check_exit=0).stdout


def test_help_shows_the_editors_options_before_the_subcommands(atpad):
    for flag in ("--help", "-h"):
        out = atpad(flag, check_exit=0).stdout
        assert out.index("-f, --format") < out.index("--print") < out.index("SUBCOMMANDS:"), out
        assert "render" in out[out.index("SUBCOMMANDS:"):]
    # The subcommands' help is unchanged, both ways of asking for it.
    for args in (("help", "search"), ("search", "--help")):
        out = atpad(*args, check_exit=0).stdout
        assert "Rank the directory" in out and "SUBCOMMANDS:" not in out
    assert "-f, --format" in atpad("help", "edit", check_exit=0).stdout


def test_spelling_corrections_with_spell(replay, people, atpad):
    """docs/spelling.md, "In `atpad replay`": with `--spell`, each key's text is checked
    before the next key, so F7 and Alt-N find the typos and a pick fixes one (undone by
    one Ctrl-Z); the directory's names are known words; code is never checked."""
    text = "Ask Zorblax Quenfeld about teh cat and wrod|"
    directory = people(SMALL + [{"id": "u9", "name": "Zorblax Quenfeld"}])
    out = replay("--spell", "en_US", "-d", directory, "--text", text, "--keys", "<Home><F7>")
    assert out["cursor"] == text.index("teh")
    assert out["chooser"]["items"][0] == "spelling:the"
    assert out["chooser"]["items"][-2:] == ["spelling.add", "spelling.ignore"]
    out = replay("--spell", "en_US", "-d", directory, "--text", text, "--keys", "<Home><F7><M-n><Enter>")
    assert out["text"] == "Ask Zorblax Quenfeld about teh cat and word"
    out = replay("--spell", "en_US", "-d", directory, "--text", text, "--keys", "<Home><F7><Enter><C-z>")
    assert out["text"] == text[:-1]
    # Typed: the word is marked once the cursor has left it.
    out = replay("--spell", "en_US", "--keys", "a wrod is<F7><Enter>")
    assert out["text"] == "a word is"
    out = replay("--spell", "en_US", "--format", "github", "--text", "see `teh` and wrod|", "--keys", "<Home><F7>")
    assert out["cursor"] == 14
    # Without the directory its names are typos; without --spell nothing is checked
    # (replay reads no config).
    out = replay("--spell", "en_US", "--text", text, "--keys", "<Home><F7>")
    assert out["cursor"] == text.index("Zorblax")
    out = replay("-d", directory, "--text", text, "--keys", "<Home><F7>")
    assert out["chooser"] is None and out["cursor"] == 0


def test_spell_with_a_missing_dictionary_says_so_once(atpad):
    proc = atpad("replay", "--spell", "xx_YY", "--text", "teh|", "--keys", "<F7>", check_exit=0)
    assert json.loads(proc.stdout)["chooser"] is None
    assert proc.stderr == ("atpad: no Hunspell dictionary for xx_YY (install hunspell-xx-yy, or see "
                           "docs/spelling.md); spelling is not checked\n")
    proc = atpad("replay", "--spell", "../en_US", "--keys", "x", check_exit=2)
    assert "--spell" in proc.stderr
