// The only C in atpad: ncursesw with wide characters, plus wrappers for what Swift
// cannot import (function-like macros, variadic functions, non-concurrency-safe globals).
//
// Everything here is a stateless `static inline` function: Swift emits a private copy of
// such a function into each object file that calls it, so a `static` variable in this
// header would silently exist once per Swift file. State (the signal flag) lives in Swift.
#ifndef ATPAD_NCURSES_SHIM_H
#define ATPAD_NCURSES_SHIM_H
// Must come before <ncurses.h>: defines given in Package.swift do not reach the importer.
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <langinfo.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>
#include <ncurses.h>
#include <term.h>

// Not declared by <wchar.h> under the feature macros the importer sees.
extern int wcwidth(wchar_t c);

// MARK: Globals that Swift 6 refuses to read directly

static inline WINDOW *atpad_stdscr(void) { return stdscr; }
static inline int atpad_colors(void) { return COLORS; }
static inline FILE *atpad_stdin(void) { return stdin; }
static inline FILE *atpad_stdout(void) { return stdout; }

static inline int atpad_getmaxy(WINDOW *w) { int y, x; getmaxyx(w, y, x); (void)x; return y; }
static inline int atpad_getmaxx(WINDOW *w) { int y, x; getmaxyx(w, y, x); (void)y; return x; }

// MARK: terminfo

// tigetstr answers NULL for an absent capability and (char *)-1 for a name that is not a
// string capability; callers only care whether there is a string.
static inline const char *atpad_tigetstr(const char *name) {
    char *value = tigetstr(name);
    return (value == NULL || value == (char *)-1) ? NULL : value;
}

// tiparm is variadic, which Swift cannot call: fixed-argument forms for one and two
// parameters (colours; cursor row and column).
static inline const char *atpad_tiparm1(const char *capability, int a) {
    return tiparm(capability, a);
}
static inline const char *atpad_tiparm2(const char *capability, int a, int b) {
    return tiparm(capability, a, b);
}

// tigetflag answers -1 for a name that is not a boolean capability: false here.
static inline int atpad_tigetflag(const char *name) {
    return tigetflag(name) > 0;
}

// MARK: Signals

// Installs `handler` for `sig` without SA_RESTART, so a wait in poll() ends at once;
// the previous disposition goes to `old` for restoring.
static inline int atpad_set_signal(int sig, void (*handler)(int), struct sigaction *old) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    return sigaction(sig, &action, old);
}

static inline int atpad_restore_signal(int sig, const struct sigaction *old) {
    return sigaction(sig, old, NULL);
}

// Whether `sig` is ignored now (the union inside struct sigaction is awkward in Swift).
static inline int atpad_signal_is_ignored(int sig) {
    struct sigaction action;
    return sigaction(sig, NULL, &action) == 0 && action.sa_handler == SIG_IGN;
}

// MARK: The terminal's size

#include <sys/ioctl.h>

// ioctl is variadic, which Swift cannot call: the window size of the terminal on `fd`.
// (Not `lines`/`columns`: <term.h> defines those as macros.)
static inline int atpad_window_size(int fd, int *height, int *width) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *height = size.ws_row;
    *width = size.ws_col;
    return 0;
}

#include <malloc.h>

/// Keeps frame-sized buffers (a 120×40 screen is about 150 KB) on the heap instead of
/// fresh mmaps: above glibc's default 128 KB threshold every frame would pay for new pages
/// (page faults on first touch) and an munmap.
static inline void atpad_keep_frames_on_heap(void) {
#ifdef M_MMAP_THRESHOLD
    mallopt(M_MMAP_THRESHOLD, 8 * 1024 * 1024);
#endif
    // Each frame frees what the last one allocated: without these the heap top is given
    // back and taken again (a brk or mprotect system call) on every keystroke.
#ifdef M_TRIM_THRESHOLD
    mallopt(M_TRIM_THRESHOLD, 64 * 1024 * 1024);
#endif
#ifdef M_TOP_PAD
    mallopt(M_TOP_PAD, 4 * 1024 * 1024);
#endif
}

#endif
