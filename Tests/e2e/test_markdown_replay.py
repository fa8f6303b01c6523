"""`atpad replay --format github` (issue 23): in Markdown formats no search starts where
GitHub would not make a mention — each fence kind, indented code, fences in list items
and quotes, code spans, link destinations — and `#` starting a heading starts none; in
other formats today's rules stay."""
import json

import pytest

PEOPLE = [{"id": "u1", "name": "John Doe", "handle": "jdoe"}]
CHANNELS = [{"id": "C1", "name": "general"}]


@pytest.fixture
def run(atpad, people):
    directory = people(PEOPLE)
    channels = people(CHANNELS, name="channels.json")

    def replay(text, keys, fmt="github"):
        # `--text=…` so that a text starting with `-` is not an option; none when empty.
        start = [f"--text={text}"] if text else []
        proc = atpad("replay", "--format", fmt, "-d", directory, "-t", f"#={channels}",
                     "--implicit", "0", *start, f"--keys={keys}", check_exit=0)
        return json.loads(proc.stdout)
    return replay


@pytest.mark.parametrize("text,keys", [
    ("", "```<Enter>@jo"),
    ("", "~~~<Enter>@jo"),
    ("para\n\n", "    @jo"),
    ("- ```\n  ", "@jo"),
    ("1. ~~~\n   ", "@jo"),
    ("> ```\n> ", "@jo"),
    ("use ", "`@jo"),
    ("see [docs](", "@jo"),
    ("", "#"),
    ("para\n", "#"),
])
def test_no_search_where_github_makes_no_mention(run, text, keys):
    out = run(text, keys)
    assert out["chooser"] is None, out


@pytest.mark.parametrize("text,keys", [
    ("", "@jo"),
    ("```\ncode\n```\n", "@jo"),
    ("- item ", "@jo"),
    ("> quote ", "@jo"),
    ("# Heading ", "@jo"),
    ("1. ```sh\n   make\n   ```\n2. then ", "@jo"),
    ("see ", "#ge"),
])
def test_search_in_prose(run, text, keys):
    out = run(text, keys)
    assert out["chooser"] is not None and out["chooser"]["open"], out


def test_a_pick_in_a_list_item_is_a_mention_and_saves_as_github(run):
    out = run("- ask ", "@jo<Enter>")
    assert out["markup"] == "- ask @[John Doe](u1) "


def test_other_formats_keep_todays_rules(run):
    assert run("para\n\n", "    @jo", fmt="atpad")["chooser"] is not None
    assert run("", "#", fmt="slack")["chooser"] is not None
    assert run("", "```<Enter>@jo", fmt="atpad")["chooser"] is None
