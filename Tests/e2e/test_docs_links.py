"""Every link in the Markdown people read resolves inside the repository.

The rule (CONTRIBUTING.md, "Links"): a link is relative and names a file of the repository,
and an anchor (`#section`) names a heading of that file as GitHub spells it. No link leaves
the repository — no absolute path, no `../` past its root, no `file:` — except https links
to the public sites in PUBLIC, for credit where the text names a source (they are not
fetched: the tests run without a network)."""
import re
import unicodedata
from urllib.parse import unquote, urlsplit

import pytest

from conftest import ROOT

PUBLIC = {"github.com"}

PAGES = sorted([ROOT / name for name in ["README.md", "CONTRIBUTING.md", "ARCHITECTURE.md", "BENCHMARKS.md"]]
               + list((ROOT / "docs").glob("*.md")))


def prose(text, spans=True):
    """The text without fenced blocks, comments and (with `spans`) code spans, where
    `[x](y)` is not a link and `# x` is not a heading."""
    text = re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text, flags=re.M | re.S)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    if not spans:
        return text
    return re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", "", text, flags=re.S)


def links(text):
    """The targets of inline links and images, reference definitions, <autolinks> and
    HTML href/src attributes."""
    body = prose(text)
    found = re.findall(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", body)
    found += re.findall(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", body, flags=re.M)
    found += re.findall(r"<((?:https?|ftp|file|mailto):[^>\s]+)>", body)
    found += re.findall(r"(?:href|src)=\"([^\"]+)\"", body)
    return found


def slug(heading):
    """A heading's anchor as GitHub makes it: the rendered text (links as their text, no
    code or emphasis marks) in lower case, letters, digits, `-` and `_` kept, spaces as `-`."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).replace("`", "").replace("*", "").lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(path):
    seen, result = {}, set()
    for line in prose(path.read_text(), spans=False).splitlines():
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            result.add(base if count == 0 else f"{base}-{count}")
    result.update(re.findall(r"<a (?:name|id)=\"([^\"]+)\"", path.read_text()))
    return result


def problems_in(page):
    problems = []
    for target in links(page.read_text()):
        where = f"{page.relative_to(ROOT)}: {target}"
        parts = urlsplit(target)
        if parts.scheme:
            if parts.scheme != "https" or parts.hostname not in PUBLIC:
                problems.append(where + " (leaves the repository)")
            continue
        if target.startswith("/"):
            problems.append(where + " (an absolute path)")
            continue
        file = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
        if ROOT.resolve() not in [file, *file.parents]:
            problems.append(where + " (outside the repository)")
            continue
        if not file.exists():
            problems.append(where + " (no such file)")
            continue
        if parts.fragment and file.suffix == ".md" and parts.fragment not in anchors(file):
            problems.append(where + " (no such heading)")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_resolves_inside_the_repository(page):
    assert problems_in(page) == []


def test_the_pages_are_there_and_have_links():
    names = {str(p.relative_to(ROOT)) for p in PAGES}
    assert {"README.md", "CONTRIBUTING.md", "ARCHITECTURE.md", "BENCHMARKS.md", "docs/keys.md"} <= names
    assert len(links((ROOT / "README.md").read_text())) >= 10


def test_the_checker_finds_what_is_wrong(tmp_path, monkeypatch):
    """The checker itself: each kind of bad link is caught, good ones pass."""
    page = ROOT / "docs" / "keys.md"
    text = "\n".join([
        "# Top", "## Every key (also `F1`)", "",
        "[ok](../README.md) [ok](#every-key-also-f1) [ok](formats.md#which-format-a-file-is-in)",
        "[bad](../../shared/SPEC.md) [bad](nowhere.md) [bad](formats.md#no-such-heading)",
        "[bad](/etc/passwd) [bad](http://example.com/) [ok](https://github.com/rspeer/wordfreq)",
        "`[not a link](nowhere.md)`", "```", "[not a link](nowhere.md)", "```",
    ])
    monkeypatch.setattr(type(page), "read_text", lambda self, *a, **k: text if self == page else
                        open(self, encoding="utf-8").read())
    found = problems_in(page)
    assert [p.split(": ", 1)[1] for p in found] == [
        "../../shared/SPEC.md (outside the repository)", "nowhere.md (no such file)",
        "formats.md#no-such-heading (no such heading)", "/etc/passwd (an absolute path)",
        "http://example.com/ (leaves the repository)"]
