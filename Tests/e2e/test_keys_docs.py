"""The key list of the man page is the keymap's (`atpad keys`), as the README's is."""
import re
import subprocess
import sys

from conftest import ROOT, atpad_binary


def test_the_man_page_lists_every_row_of_atpad_keys(atpad):
    table = atpad("keys", check_exit=0).stdout.splitlines()
    assert table[:2] == ["| key | action |", "|---|---|"]
    page = subprocess.run([sys.executable, str(ROOT / "scripts" / "manpage.py"), atpad_binary()],
                          capture_output=True, text=True, check=True).stdout
    keys = page[page.index(".SH KEYS"):page.index(".SH FILES")]
    listed = re.findall(r"\.TP\n\\fB(.*)\\fR\n", keys)
    expected = [line.strip("|").split(" | ")[0].strip().replace("-", "\\-") for line in table[2:]]
    assert listed == expected
