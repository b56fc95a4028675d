#!/usr/bin/env python3
"""Print every occurrence in [START, END) of an .ics file as "UTC-start<TAB>summary", sorted.

The independent reader for Chime's export test: the `icalendar` package parses the file and
`recurring-ical-events` expands RRULE/RDATE/EXDATE/RECURRENCE-ID (both from PyPI, test-only).
A VEVENT without DTSTART is dropped before expanding.
usage: occurrences.py FILE.ics 2026-11-01T00:00:00Z 2027-03-01T00:00:00Z
"""
import datetime
import sys

import icalendar
import recurring_ical_events

path, start, end = sys.argv[1], sys.argv[2], sys.argv[3]
parse = lambda s: datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
with open(path, "rb") as f:
    calendar = icalendar.Calendar.from_ical(f.read())
# A VEVENT without DTSTART cannot be placed in time: dropped, as Chime drops it (the expander
# would otherwise stop at the first one).
for component in list(calendar.subcomponents):
    if component.name == "VEVENT" and "DTSTART" not in component:
        calendar.subcomponents.remove(component)
lines = []
for event in recurring_ical_events.of(calendar, components=["VEVENT"]).between(parse(start), parse(end)):
    dtstart = event["DTSTART"].dt
    if isinstance(dtstart, datetime.datetime):
        if dtstart.tzinfo is None:      # floating: the test runs with TZ=UTC
            dtstart = dtstart.replace(tzinfo=datetime.timezone.utc)
        key = dtstart.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    else:                               # all-day: midnight UTC (TZ=UTC)
        key = dtstart.strftime("%Y-%m-%dT00:00:00Z")
    lines.append(f"{key}\t{event.get('SUMMARY', '')}")
print("\n".join(sorted(lines)))
