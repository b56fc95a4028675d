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
