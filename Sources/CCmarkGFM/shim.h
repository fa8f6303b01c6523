// cmark-gfm, GitHub's Markdown parser (Debian libcmark-gfm-dev and
// libcmark-gfm-extensions-dev): the parser and the core extensions GitHub enables.
#ifndef ATPAD_CMARK_GFM_SHIM_H
#define ATPAD_CMARK_GFM_SHIM_H
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#endif
