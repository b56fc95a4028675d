import ChimeCore
import Foundation

/// Writes the generated events and reminders in calcurse 4.7's data format (`apts`, `todo`).
///
/// calcurse has no zones: every time is converted to UTC and calcurse runs with TZ=UTC. It
/// keeps a fixed UTC time of day, so occurrences of zoned series move by an hour across DST
/// where Chime's do not. calcurse 4.7 does have extended rules (`w1 w3 w5` weekdays, `d15`
/// month days, `w16` = 2nd Tuesday, `w-12` = last Friday: ±(7·n + weekday), Sunday 0), which
/// are used here; COUNT becomes an until date (the last occurrence of Chime's expansion).
/// Where the UTC conversion moves a start to another day the by-days move with it; calcurse
/// refuses a file whose start day is not an occurrence, so such a start is moved to the next
/// day the calcurse rule allows (counted in `moved`).
enum CalcurseExport {
    struct Result {
        var appointments = 0
        var events = 0
        var todos = 0
        var moved = 0
    }

    /// A calcurse rule: type D/W/M/Y, interval, until date, and the extended by-day parts.
    struct Rule {
        var type: Character
        var interval: Int
        var weekdays: [Int] = []  // W: 0 = Sunday … 6 = Saturday
        var monthDays: [Int] = []  // M: d<n>
        var nth: [(n: Int, weekday: Int)] = []  // M: w±(7n + weekday)
        var until: CivilDate?

        var text: String {
            var s = "{\(interval)\(type)"
            if let until { s += " -> " + mdy(until) }
            s += weekdays.map { " w\($0)" }.joined()
            s += monthDays.map { " d\($0)" }.joined()
            s += nth.map { " w\($0.n < 0 ? -(7 * -$0.n + $0.weekday) : 7 * $0.n + $0.weekday)" }.joined()
            return s + "}"
        }

        /// True when calcurse accepts `d` as an occurrence day of this rule.
        func matches(_ d: CivilDate) -> Bool {
            let wd = d.weekday.rawValue - 1
            switch type {
            case "W": return weekdays.isEmpty || weekdays.contains(wd)
            case "M":
                if !monthDays.isEmpty { return monthDays.contains(d.day) }
                if !nth.isEmpty {
                    return nth.contains { n in
                        guard n.weekday == wd else { return false }
                        let last = CivilDate.daysInMonth(year: d.year, month: d.month)
                        return n.n > 0 ? (d.day - 1) / 7 + 1 == n.n : (last - d.day) / 7 + 1 == -n.n
                    }
                }
                return true
            default: return true
            }
        }
    }

    static func write(events: [Event], reminders: [Reminder], to dir: String) throws -> Result {
        var result = Result()
        var apts = ""
        apts.reserveCapacity(events.count * 80)
        for e in events {
            apts += line(for: e, result: &result)
            apts += "\n"
        }
        var todo = ""
        for r in reminders {
            let p = r.isCompleted ? -max(r.priority, 1) : r.priority
            todo += "[\(p)] \(r.title)\n"
            result.todos += 1
        }
        try apts.write(toFile: dir + "/apts", atomically: false, encoding: .utf8)
        try todo.write(toFile: dir + "/todo", atomically: false, encoding: .utf8)
        return result
    }

    static func line(for e: Event, result: inout Result) -> String {
        let title = e.title
        let flag = e.alarms.isEmpty ? "|" : "!"
        if case .allDay(let day) = e.start {
            result.events += 1
            guard var rule = rule(for: e, shift: 0) else { return "\(mdy(day)) [1] \(title)" }
            var start = day
            if !rule.matches(start) { start = next(after: start, rule); result.moved += 1 }
            if let u = rule.until, u < start { rule.until = start }
            return "\(mdy(start)) [1] \(rule.text) \(title)"
        }
        result.appointments += 1
        let startInstant = e.start.instant(floatingZone: .utc).secondsSince1970
        let duration = e.durationSeconds(floatingZone: .utc)
        var s = Instant(secondsSince1970: startInstant).utc
        let shift = s.date.daysSinceEpoch - e.start.local.date.daysSinceEpoch
        guard var rule = rule(for: e, shift: shift) else {
            return "\(stamp(s)) -> \(stamp(LocalDateTime(localSeconds: s.localSeconds + duration)))\(flag)\(title)"
        }
        if !rule.matches(s.date) {
            s.date = next(after: s.date, rule)
            result.moved += 1
        }
        if let u = rule.until, u < s.date { rule.until = s.date }
        return "\(stamp(s)) -> \(stamp(LocalDateTime(localSeconds: s.localSeconds + duration))) \(rule.text) \(flag)\(title)"
    }

    /// The closest calcurse rule for the event's (single) RRULE; by-days moved by `shift` days
    /// (the start's UTC date minus its local date).
    static func rule(for e: Event, shift: Int) -> Rule? {
        guard let r = e.recurrenceRules.first else { return nil }
        var rule: Rule
        switch r.frequency {
        case .daily: rule = Rule(type: "D", interval: r.interval)
        case .weekly:
            rule = Rule(type: "W", interval: r.interval)
            rule.weekdays = r.daysOfTheWeek.map { (($0.dayOfTheWeek.rawValue - 1 + shift) % 7 + 7) % 7 }.sorted()
        case .monthly:
            rule = Rule(type: "M", interval: r.interval)
            rule.monthDays = r.daysOfTheMonth.map { min(31, max(1, $0 + shift)) }.sorted()
            rule.nth = r.daysOfTheWeek.filter { $0.weekNumber != 0 }
                .map { (n: $0.weekNumber, weekday: (($0.dayOfTheWeek.rawValue - 1 + shift) % 7 + 7) % 7) }
        case .yearly: rule = Rule(type: "Y", interval: r.interval)
        default: return nil  // not generated by the workload
        }
        if case .never = r.end { return rule }
        // COUNT and UNTIL: the last occurrence of Chime's own expansion, as a UTC date.
        var last: Occurrence?
        for o in e.recurrenceSet.occurrences(floatingZone: .utc) { last = o }
        if let last { rule.until = e.isAllDay ? last.date : last.instant.utc.date }
        return rule
    }

    static func next(after d: CivilDate, _ rule: Rule) -> CivilDate {
        var x = d
        for _ in 0..<400 { x = x.adding(days: 1); if rule.matches(x) { return x } }
        return d
    }

    static func mdy(_ d: CivilDate) -> String { "\(pad(d.month))/\(pad(d.day))/\(d.year)" }
    static func stamp(_ l: LocalDateTime) -> String { "\(mdy(l.date)) @ \(pad(l.hour)):\(pad(l.minute))" }
    static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

/// calcurse's occurrence count for the query: the same -Q run with a format that prints each
/// appointment's start (an appointment crossing midnight is listed on both days; counted once)
/// and one line per all-day event.
enum CalcurseCount {
    static func occurrences(_ calcurse: String, _ args: [String], environment: [String: String], scratch: String) -> Int {
        let format = [
            "--format-apt", "A %(start:%s) %m\\n", "--format-recur-apt", "A %(start:%s) %m\\n",
            "--format-event", "E %m\\n", "--format-recur-event", "E %m\\n"
        ]
        let r = timeProcess(calcurse, args + format, environment: environment, stdout: scratch)
        guard r.status == 0, let text = try? String(contentsOfFile: scratch, encoding: .utf8) else { return -1 }
        var appointments = Set<Substring>()
        var events = 0
        for line in text.split(separator: "\n") {
            if line.hasPrefix("A ") { appointments.insert(line) } else if line.hasPrefix("E ") { events += 1 }
        }
        return appointments.count + events
    }
}
