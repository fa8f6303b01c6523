"""Issue 13 in a real terminal (docs/keys.md, docs/behaviour.md) with the bundled sample and emoji
directories: the one-line picker's selected entry, a burst of keys, `:tada` + Tab and
re-targeting a mention with Ctrl-Space."""
import json


# Every editor here starts without drafts, and is ready once its title shows.
QUIET = {"env": {"ATPAD_DRAFTS": "off"}, "ready": lambda sc: "atpad" in sc or ".txt" in sc}


def save_and_quit(s, path):
    s.keys("C-s")
    s.wait_for("Saved")
    s.keys("C-q")
    assert s.exit_status() == 0
    return path.read_text()


def test_one_line_picker_always_shows_the_selected_entry(sessions, atpad, tmp_path):
    names = [r["name"] for r in json.loads(atpad("search", "jo", "--json", check_exit=0).stdout)["results"]]
    for downs in range(0, 6):
        path = tmp_path / f"p{downs}.txt"
        s = sessions([str(path)], width=30, height=5, **QUIET)
        s.type("@jo")
        # The results, not only the picker: the sample directory may still be loading.
        s.wait_for(lambda sc: sc.splitlines()[-1].startswith("@jo: ") and names[0] in sc.splitlines()[-1],
                   what="the picker with its results")
        for _ in range(downs):
            s.keys("Down")
        selected = names[downs]
        bottom = s.wait_for(lambda sc: selected in sc.splitlines()[-1], what=f"{selected} on the picker line")
        assert len(bottom.splitlines()[-1]) <= 30
        # The highlighted (reverse or coloured) part of the line is the selected name.
        s.keys("Enter")
        s.wait_for(lambda sc: not sc.splitlines()[-1].startswith("@jo: "), what="the pick")
        text = save_and_quit(s, path)
        assert json.loads(atpad("mentions", str(path), check_exit=0).stdout)[0]["name"] == selected, text


def test_a_burst_ends_where_replay_ends(sessions, replay, tmp_path):
    keys = "y @jdoe & "
    path = tmp_path / "burst.txt"
    s = sessions([str(path)], **QUIET)
    s.type(keys)  # one write: the editor reads it as one burst
    # On a loaded machine the sample directory may still be loading when the burst
    # arrives: the search then shows "loading directory…" until its answer closes it.
    screen = s.wait_for(lambda sc: "y @jdoe &" in sc and "Col 11" in sc and "loading directory" not in sc,
                        what="the burst")
    assert "no matches" not in screen
    assert "┌" not in screen
    expected = replay("--keys", keys)
    assert expected["chooser"] is None
    assert save_and_quit(s, path) == expected["markup"]


def test_tada_and_tab_inserts_the_emoji(sessions, tmp_path):
    path = tmp_path / "emoji.txt"
    s = sessions([str(path)], **QUIET)
    s.type("great :tada")
    s.wait_for("🎉 party popper", what="the chooser's row, its emoji before its name")
    s.keys("Tab")
    s.wait_for(lambda sc: "great 🎉" in sc and "party popper" not in sc, what="the emoji")
    assert save_and_quit(s, path) == "great 🎉"


def test_ctrl_space_retargets_a_selected_mention(sessions, tmp_path):
    path = tmp_path / "retarget.atpad"
    s = sessions([str(path)], **QUIET)
    s.type("hi @jd")
    s.wait_for("John Doe")
    s.keys("Enter")
    s.wait_for(lambda sc: "hi @John Doe" in sc and "┌" not in sc, what="the pick")
    s.type("there")  # after the space the pick added
    for _ in range(6):
        s.keys("Left")
    s.keys("BSpace")  # selects the mention
    s.keys("C-Space")
    s.wait_for(lambda sc: "│ @John Doe" in sc, what="the query row of the re-targeting chooser")
    for _ in range(8):
        s.keys("BSpace")
    s.type("jane")
    screen = s.wait_for(lambda sc: "│ @jane" in sc and "Jane Doe" in sc, what="the edited query")
    assert "hi @John Doe there" in screen, "the text is untouched"
    s.keys("Enter")
    s.wait_for(lambda sc: "hi @Jane Doe" in sc and "┌" not in sc, what="the re-targeted mention")
    assert save_and_quit(s, path) == "hi @[Jane Doe](u2) there"
