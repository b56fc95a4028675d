#pragma once
// timerfd is not exported by Swift's Glibc module; these are the calls the wall-clock timer needs.
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <poll.h>
// malloc_trim: the daemon gives back the heap its start-up freed; mallopt: a command's heap grows
// in large steps.
#include <malloc.h>

// Names the calling thread (at most 15 bytes, longer names are cut): pthread_setname_np needs
// _GNU_SOURCE, which the Glibc module is not built with.
int chime_set_current_thread_name(const char *name);

// Turns off SQLite's memory statistics (sqlite3_config is variadic, which Swift cannot call);
// only before SQLite's first use in the process, which returns SQLITE_MISUSE after it. Debian
// builds SQLite with them on: every allocation and free then takes a global mutex, 5 % of an
// import's storing thread. Nothing in Chime reads them (sqlite3_memory_used, a soft heap limit).
int chime_sqlite_without_memory_statistics(void);
