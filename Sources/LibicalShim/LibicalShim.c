#include "LibicalShim.h"
#include <libical/ical.h>
#include <pthread.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

const char *chime_libical_version(void) { return ICAL_VERSION; }

static int expand_locked(const char *rrule, const char *dtstart, const char *tzid,
                         int64_t until_utc, int max_count, int64_t *out) {
    icalerror_clear_errno();
    struct icalrecurrencetype rule = icalrecurrencetype_from_string(rrule);
    if (rule.freq == ICAL_NO_RECURRENCE || icalerrno != ICAL_NO_ERROR) return CHIME_LIBICAL_BAD_RULE;

    struct icaltimetype start = icaltime_from_string(dtstart);
    if (icaltime_is_null_time(start) || !icaltime_is_valid_time(start)) return CHIME_LIBICAL_BAD_START;

    icaltimezone *zone = icaltimezone_get_utc_timezone();
    if (strcmp(tzid, "UTC") == 0) {
        start = icaltime_set_timezone(&start, zone);
    } else if (strcmp(tzid, "floating") != 0) {
        zone = icaltimezone_get_builtin_timezone(tzid);
        if (zone == NULL) return CHIME_LIBICAL_BAD_ZONE;
        start = icaltime_set_timezone(&start, zone);
    }

    icalrecur_iterator *it = icalrecur_iterator_new(rule, start);
    if (it == NULL) return CHIME_LIBICAL_BAD_RULE;
    int n = 0;
    while (n < max_count) {
        struct icaltimetype next = icalrecur_iterator_next(it);
        if (icaltime_is_null_time(next)) break;
        int64_t t = (int64_t)icaltime_as_timet_with_zone(next, zone);
        if (t > until_utc) break;
        out[n++] = t;
    }
    icalrecur_iterator_free(it);
    return n;
}

int chime_libical_expand(const char *rrule, const char *dtstart, const char *tzid,
                         int64_t until_utc, int max_count, int64_t *out) {
    pthread_mutex_lock(&lock);
    int n = expand_locked(rrule, dtstart, tzid, until_utc, max_count, out);
    pthread_mutex_unlock(&lock);
    return n;
}
