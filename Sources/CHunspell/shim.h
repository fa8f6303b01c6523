// Hunspell, the spelling checker of LibreOffice, Firefox and Chromium (Debian:
// libhunspell-dev), through its C API: a handle made from a dictionary's .aff and .dic
// files, asked whether a word is spelt right and what it might be (docs/spelling.md).
#ifndef ATPAD_HUNSPELL_SHIM_H
#define ATPAD_HUNSPELL_SHIM_H
#include <hunspell/hunspell.h>
#endif
