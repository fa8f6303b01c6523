/* The floor of keystroke echo for any ncurses program on this machine: read a key with
 * getch, add it with addch, refresh. No editor logic at all. BENCHMARKS.md runs it beside
 * nano and atpad under ../shared/tools/tui_latency.py to show where the echo budget sits.
 *
 *   cc -O2 scripts/ncurses_echo_floor.c -o bench-out/echo-floor -lncursesw
 *   python3 ../shared/tools/tui_latency.py --preset cat,nano \
 *       --program "floor=$PWD/bench-out/echo-floor" --file empty --paste-kb 0
 *
 * Ctrl-Q quits. */
#include <locale.h>
#include <ncurses.h>

int main(void) {
    setlocale(LC_ALL, "");
    initscr();
    raw();
    noecho();
    keypad(stdscr, TRUE);
    mvaddstr(0, 0, "echo floor");
    move(1, 0);
    refresh();
    for (;;) {
        int c = getch();
        if (c == 17) break; /* Ctrl-Q */
        addch(c == '\r' ? '\n' : c);
        refresh();
    }
    endwin();
    return 0;
}
