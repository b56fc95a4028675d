// A test-and-benchmark-only bridge to libical's recurrence iterator, so Chime's engine can be
// compared with an independent implementation on identical input.
#pragma once
#include <stdint.h>

#define CHIME_LIBICAL_BAD_RULE (-1)
#define CHIME_LIBICAL_BAD_ZONE (-2)
#define CHIME_LIBICAL_BAD_START (-3)

/// Expands `rrule` from `dtstart` (`YYYYMMDDTHHMMSS` or `YYYYMMDD`) in `tzid` (`UTC`,
/// `floating`, or an IANA name), writing UTC seconds since 1970 into `out`.
/// Stops after `max_count` instances or at the first instance later than `until_utc`.
/// Floating times are converted as if the zone were UTC. Returns the number written or a
/// negative CHIME_LIBICAL_* error. Thread-safe (libical keeps global state; calls are serialised).
int chime_libical_expand(const char *rrule, const char *dtstart, const char *tzid,
                         int64_t until_utc, int max_count, int64_t *out);

/// libical's version string, for benchmark reports.
const char *chime_libical_version(void);
