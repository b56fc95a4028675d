// The libical peer of `chime expand --batch` for the whole-process benchmark (bench only, never
// shipped): the same JSON-lines contract on the subset the benchmark workload uses — "id",
// "dtstart", "tzid", "rrule" (one string), "limit" {"count", "until_utc"} — one answer line per
// input line, {"id":…,"local":[…],"utc":[…]} or {"id":…,"error":…}.
// The JSON reading is a minimal scanner for flat input like the workload's, not a parser.
//   cc -O2 -o libical-batch libical-batch.c -lical
#include <libical/ical.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// The value of "key" in `line`: a string (escapes kept as written, quotes stripped) copied into
// `out`, or for objects and numbers the raw text up to the closing brace/comma. 0 if absent.
static int field(const char *line, const char *key, char *out, size_t size) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\"", key);
    const char *p = strstr(line, pattern);
    if (p == NULL) return 0;
    p += strlen(pattern);
    while (*p == ' ' || *p == ':') p++;
    size_t n = 0;
    if (*p == '"') {
        p++;
        while (*p && *p != '"' && n + 2 < size) {
            if (*p == '\\' && p[1]) out[n++] = *p++;
            out[n++] = *p++;
        }
    } else if (*p == '{') {
        while (*p && *p != '}' && n + 1 < size) out[n++] = *p++;
    } else {
        while (*p && *p != ',' && *p != '}' && n + 1 < size) out[n++] = *p++;
    }
    out[n] = 0;
    return 1;
}

static void fail(const char *id, const char *message) {
    printf("{\"id\":%s,\"error\":\"%s\"}\n", id, message);
}

static void put_basic(char *buf, const struct tm *t, int date_only) {
    if (date_only) {
        snprintf(buf, 32, "%04d%02d%02d", t->tm_year + 1900, t->tm_mon + 1, t->tm_mday);
    } else {
        snprintf(buf, 32, "%04d%02d%02dT%02d%02d%02d", t->tm_year + 1900, t->tm_mon + 1, t->tm_mday,
                 t->tm_hour, t->tm_min, t->tm_sec);
    }
}

int main(void) {
    static char out_buffer[1 << 16];
    setvbuf(stdout, out_buffer, _IOFBF, sizeof out_buffer);
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    int64_t *utc = malloc(sizeof(int64_t) * 100001);
    int64_t *local = malloc(sizeof(int64_t) * 100001);
    while ((length = getline(&line, &capacity, stdin)) >= 0) {
        char id[520] = "null", raw[512], dtstart[64], tzid[128] = "floating", rrule[1024] = "", limit[256] = "";
        if (field(line, "id", raw, sizeof raw)) snprintf(id, sizeof id, "\"%s\"", raw);
        if (!field(line, "dtstart", dtstart, sizeof dtstart)) { fail(id, "dtstart: required"); fflush(stdout); continue; }
        field(line, "tzid", tzid, sizeof tzid);
        field(line, "rrule", rrule, sizeof rrule);
        field(line, "limit", limit, sizeof limit);
        int max_count = 100000;
        int64_t until = INT64_MAX;
        const char *c = strstr(limit, "\"count\"");
        if (c) max_count = atoi(strchr(c, ':') + 1);
        const char *u = strstr(limit, "\"until_utc\"");
        if (u) {
            u = strchr(strchr(u, ':'), '"') + 1;
            char text[17] = {0};
            memcpy(text, u, 16);
            struct icaltimetype t = icaltime_from_string(text);
            until = (int64_t)icaltime_as_timet_with_zone(t, icaltimezone_get_utc_timezone());
        }

        icalerror_clear_errno();
        struct icalrecurrencetype rule = icalrecurrencetype_from_string(rrule);
        if (rule.freq == ICAL_NO_RECURRENCE || icalerrno != ICAL_NO_ERROR) { fail(id, "rrule: invalid"); fflush(stdout); continue; }
        struct icaltimetype start = icaltime_from_string(dtstart);
        if (icaltime_is_null_time(start) || !icaltime_is_valid_time(start)) { fail(id, "dtstart: invalid"); fflush(stdout); continue; }
        int date_only = start.is_date;
        icaltimezone *zone = icaltimezone_get_utc_timezone();
        if (strcmp(tzid, "UTC") == 0) {
            start = icaltime_set_timezone(&start, zone);
        } else if (strcmp(tzid, "floating") != 0) {
            zone = icaltimezone_get_builtin_timezone(tzid);
            if (zone == NULL) { fail(id, "tzid: unknown time zone"); fflush(stdout); continue; }
            start = icaltime_set_timezone(&start, zone);
        }
        icalrecur_iterator *it = icalrecur_iterator_new(rule, start);
        if (it == NULL) { fail(id, "rrule: refused"); fflush(stdout); continue; }
        int n = 0;
        while (n < max_count) {
            struct icaltimetype next = icalrecur_iterator_next(it);
            if (icaltime_is_null_time(next)) break;
            int64_t t = (int64_t)icaltime_as_timet_with_zone(next, zone);
            if (t > until) break;
            // The wall-clock reading of the instant in the zone (a gap time shows after the gap).
            struct icaltimetype wall = icaltime_from_timet_with_zone((time_t)t, date_only, zone);
            local[n] = date_only ? (int64_t)icaltime_as_timet(wall)
                                 : (int64_t)icaltime_as_timet_with_zone(wall, icaltimezone_get_utc_timezone());
            utc[n++] = t;
        }
        icalrecur_iterator_free(it);

        char text[32];
        struct tm tm;
        printf("{\"id\":%s,\"local\":[", id);
        for (int i = 0; i < n; i++) {
            time_t t = (time_t)local[i];
            gmtime_r(&t, &tm);
            put_basic(text, &tm, date_only);
            printf(i ? ",\"%s\"" : "\"%s\"", text);
        }
        fputs("],\"utc\":[", stdout);
        for (int i = 0; i < n; i++) {
            time_t t = (time_t)utc[i];
            gmtime_r(&t, &tm);
            put_basic(text, &tm, 0);
            printf(i ? ",\"%sZ\"" : "\"%sZ\"", text);
        }
        fputs("]}\n", stdout);
        fflush(stdout);  // the contract: each answer is out before the next line is read
    }
    free(line);
    return 0;
}
