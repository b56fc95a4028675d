#pragma once
// glibc's gettext and per-thread locales: Swift's Glibc module exports neither gettext nor
// ngettext, and a thread's own locale (uselocale) lets a long-running process read each call
// in the language of that moment without touching the process's global locale.
#include <libintl.h>
#include <locale.h>
#include <langinfo.h>

// LC_ALL_MASK is a macro Swift cannot import.
static inline locale_t chime_newlocale(const char *name) { return newlocale(LC_ALL_MASK, name, (locale_t)0); }
