#!/usr/bin/env python3
"""Makes docs/images/chooser.png, the README's picture of the editor with the chooser open,
from a real run: the built atpad in a detached tmux, a comment typed into it, the screen
captured with its colours (`tmux capture-pane -e`) and drawn cell by cell into a PNG.

    python3 scripts/screenshot.py [PATH/TO/atpad] [OUT.png]

Defaults: .build/debug/atpad and docs/images/chooser.png. Needs tmux, Pillow
(`pip install pillow`; only this script needs it, not the tests) and a monospace TrueType
font (DejaVu Sans Mono, Debian's fonts-dejavu-core).
"""
import os
import re
import sys
import tempfile
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))
from tmux import Session  # noqa: E402  (the tests' harness: waits on the screen, no sleeps)


WIDTH, HEIGHT = 78, 16
FONT_SIZE = 18
FONTS = ["/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
         "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"]
COMMENT = ("Thanks @jdoe for the review!\n\n"
           "I moved the parser into its own file and kept the old entry point,\n"
           "so nothing downstream changes. ")
TYPED = "Could @jo"

# A dark palette (the xterm colours, softened) for the 16 named colours.
PALETTE16 = ["#1e1e1e", "#e06c75", "#98c379", "#e5c07b", "#61afef", "#c678dd", "#56b6c2", "#d0d0d0",
             "#5c6370", "#ff7b86", "#b5e890", "#ffd68a", "#82c4ff", "#e09cf0", "#7fd6e0", "#ffffff"]
DEFAULT_FG, DEFAULT_BG = "#d0d0d0", "#1e1e1e"


def xterm256(n):
    if n < 16:
        return PALETTE16[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    level = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (level, level, level)


class Style:
    def __init__(self):
        self.reset()

    def reset(self):
        self.fg = self.bg = None
        self.bold = self.dim = self.underline = self.reverse = self.italic = False

    def apply(self, params):
        codes = [int(p) if p else 0 for p in params.split(";")] if params else [0]
        i = 0
        while i < len(codes):
            c = codes[i]
            if c == 0:
                self.reset()
            elif c == 1:
                self.bold = True
            elif c == 2:
                self.dim = True
            elif c == 3:
                self.italic = True
            elif c == 4:
                self.underline = True
            elif c == 7:
                self.reverse = True
            elif c == 22:
                self.bold = self.dim = False
            elif c == 23:
                self.italic = False
            elif c == 24:
                self.underline = False
            elif c == 27:
                self.reverse = False
            elif 30 <= c <= 37:
                self.fg = PALETTE16[c - 30]
            elif 90 <= c <= 97:
                self.fg = PALETTE16[c - 90 + 8]
            elif 40 <= c <= 47:
                self.bg = PALETTE16[c - 40]
            elif 100 <= c <= 107:
                self.bg = PALETTE16[c - 100 + 8]
            elif c == 39:
                self.fg = None
            elif c == 49:
                self.bg = None
            elif c in (38, 48) and i + 1 < len(codes):
                if codes[i + 1] == 5 and i + 2 < len(codes):
                    colour = xterm256(codes[i + 2])
                    i += 2
                elif codes[i + 1] == 2 and i + 4 < len(codes):
                    colour = "#%02x%02x%02x" % tuple(codes[i + 2:i + 5])
                    i += 4
                else:
                    colour = None
                if c == 38:
                    self.fg = colour
                else:
                    self.bg = colour
            i += 1

    def colours(self):
        fg, bg = self.fg or DEFAULT_FG, self.bg or DEFAULT_BG
        if self.reverse:
            fg, bg = bg, fg
        if self.dim:
            fg = "#%02x%02x%02x" % tuple((int(fg[k:k + 2], 16) + int(bg[k:k + 2], 16)) // 2 for k in (1, 3, 5))
        return fg, bg


def cells(captured):
    """The screen as rows of (text, fg, bg, bold, underline, columns) cells."""
    rows = []
    for line in captured.split("\n")[:HEIGHT]:
        style, row = Style(), []
        for part in re.split(r"(\x1b\[[0-9;:]*m)", line):
            if part.startswith("\x1b["):
                style.apply(part[2:-1].replace(":", ";"))
                continue
            for ch in part:
                if unicodedata.combining(ch) and row:
                    text, *rest = row[-1]
                    row[-1] = (text + ch, *rest)
                    continue
                wide = unicodedata.east_asian_width(ch) in ("W", "F")
                fg, bg = style.colours()
                row.append((ch, fg, bg, style.bold, style.underline, 2 if wide else 1))
        # capture-pane leaves out the blanks at the end of a row; the cursor may be there.
        used = sum(cell[-1] for cell in row)
        row += [(" ", DEFAULT_FG, DEFAULT_BG, False, False, 1)] * max(0, WIDTH - used)
        rows.append(row)
    return rows


def render(rows, cursor, out):
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        sys.exit("screenshot.py: Pillow is missing (pip install pillow)")
    regular, bold = (ImageFont.truetype(path, FONT_SIZE) for path in FONTS)
    cell_w = round(regular.getlength("M"))
    ascent, descent = regular.getmetrics()
    cell_h = ascent + descent + 2
    pad = 14
    image = Image.new("RGB", (WIDTH * cell_w + 2 * pad, HEIGHT * cell_h + 2 * pad), DEFAULT_BG)
    draw = ImageDraw.Draw(image)
    for y, row in enumerate(rows):
        x = 0
        for text, fg, bg, is_bold, underline, columns in row:
            left, top = pad + x * cell_w, pad + y * cell_h
            if (y, x) == cursor:
                fg, bg = bg, DEFAULT_FG
            draw.rectangle([left, top, left + columns * cell_w - 1, top + cell_h - 1], fill=bg)
            if text.strip():
                draw.text((left, top + 1), text, font=bold if is_bold else regular, fill=fg)
            if underline:
                draw.line([left, top + ascent + 2, left + columns * cell_w - 1, top + ascent + 2], fill=fg)
            x += columns
    image.save(out, optimize=True)


def capture(binary):
    """Runs atpad in tmux, types into a comment until the chooser is open, and returns
    the screen with its escape sequences and the cursor's (row, column)."""
    with tempfile.TemporaryDirectory() as home:
        comment = Path(home) / "review.md"
        comment.write_text(COMMENT)
        env = {"HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state",
               "XDG_CACHE_HOME": home + "/cache", "LC_ALL": "C.UTF-8", "ATPAD_DRAFTS": "off"}
        session = Session(f"{binary} {comment}", width=WIDTH, height=HEIGHT, env=env, cwd=home,
                          term="tmux-256color")
        try:
            session.wait_for("review.md", what="the first frame")
            session.keys("C-End")
            session.wait_for("Ln 4, Col 32", what="the cursor at the end")
            session.type(TYPED)
            session.wait_for("Jo Ng", what="the chooser")
            captured = session.screen(attributes=True)
            cursor = session.cursor()
            session.keys("C-q")
        finally:
            session.close()
    return captured, cursor


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / ".build" / "debug" / "atpad")
    out = sys.argv[2] if len(sys.argv) > 2 else str(ROOT / "docs" / "images" / "chooser.png")
    captured, cursor = capture(binary)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    render(cells(captured), cursor, out)
    print(out)


if __name__ == "__main__":
    main()
