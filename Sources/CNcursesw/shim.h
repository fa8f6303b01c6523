// The only C in atpad: ncursesw with wide characters, plus wrappers for what Swift
// cannot import (macros, non-concurrency-safe globals).
#ifndef ATPAD_NCURSES_SHIM_H
#define ATPAD_NCURSES_SHIM_H
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <wchar.h>
#include <ncurses.h>
#endif
