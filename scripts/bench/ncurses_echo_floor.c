/* The floor of keystroke echo for any ncurses program on this machine: read a key with
 * getch, add it with addch, refresh. No editor logic at all. BENCHMARKS.md runs it beside
 * nano and atpad under ../shared/tools/tui_latency.py to show where the echo budget sits,
 * and under scripts/bench/echo_timeline.py, for which it writes atpad's trace format when
 * ATPAD_TRACE_FILE is set (columns 6 and 7: key read, frame written; CLOCK_MONOTONIC µs).
 *
 *   cc -O2 scripts/bench/ncurses_echo_floor.c -o bench-out/echo-floor -lncursesw
 *   python3 ../shared/tools/tui_latency.py --preset cat,nano \
 *       --program "floor=$PWD/bench-out/echo-floor" --file empty --paste-kb 0
 *   python3 scripts/bench/echo_timeline.py bench-out/echo-floor
 *
 * Ctrl-Q quits; a file argument is ignored. */
#include <locale.h>
#include <ncurses.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long micros(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000L + t.tv_nsec / 1000;
}

int main(void) {
    const char *path = getenv("ATPAD_TRACE_FILE");
    FILE *trace = path ? fopen(path, "w") : NULL;
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
        long woke = micros();
        if (c == 17) break; /* Ctrl-Q */
        addch(c == '\r' ? '\n' : c);
        refresh();
        long drawn = micros();
        if (trace) {
            fprintf(trace, "1\t%ld\t0\t0\t0\t%ld\t%ld\n", drawn - woke, woke, drawn);
            fflush(trace);
        }
    }
    endwin();
    return 0;
}
