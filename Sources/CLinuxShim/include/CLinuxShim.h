#pragma once
// timerfd is not exported by Swift's Glibc module; these are the calls the wall-clock timer needs.
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <poll.h>
