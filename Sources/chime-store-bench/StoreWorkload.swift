import ChimeCore
import ChimeStore
import ChimeTestSupport

/// The generated store: what was saved, for the calcurse export and the lookup benchmark.
struct GeneratedStore {
    var events: [Event] = []
    var reminders: [Reminder] = []
    var eventCalendars: [ChimeCore.Calendar] = []
    var recurringEvents = 0
    var allDayEvents = 0
    var seconds = 0.0
}

/// The store workload: seeded events spread over 2026–2027 in four calendars, 30% recurring
/// (DAILY/INTERVAL, WEEKLY BYDAY lists, MONTHLY BYMONTHDAY and 2TU/-1FR, YEARLY; some COUNT or
/// UNTIL), mixed zones, 1–2 alarms each; plus reminders (some due, some recurring, priorities).
/// The rule weights are tuned so that 2026-06-01..2027-06-01 holds about 170,000 occurrences.
enum StoreWorkload {
    /// nil = floating (read in UTC: the benchmark opens the store with `floatingZone: .utc`
    /// and runs `chime agenda` with TZ=UTC).
    static let zones: [(String?, Int)] = [
        ("UTC", 20), ("Europe/Berlin", 22), ("America/New_York", 22),
        ("Asia/Tokyo", 10), ("Australia/Sydney", 10), (nil, 16)
    ]
    static let words = [
        "Stand-up", "Review", "Lunch", "Gym", "Call", "Dentist", "Planning", "1:1", "Yoga",
        "Piano", "Sync", "Retro", "Dinner", "Train", "Meeting", "Football"
    ]
    static let firstDay = CivilDate(year: 2026, month: 1, day: 1)
    static let dayCount = 730  // 2026-01-01 ... 2027-12-31

    enum Kind { case daily, weekly, monthlyDay, monthlyNth, yearly }
    static let kinds: [(Kind, Int)] = [(.daily, 50), (.weekly, 27), (.monthlyDay, 9), (.monthlyNth, 8), (.yearly, 7)]
    static let weekdaySets: [([Weekday], Int)] = [
        ([.monday, .wednesday, .friday], 4), ([.tuesday, .thursday], 4), ([.monday, .tuesday, .wednesday, .thursday, .friday], 3),
        ([.monday], 2), ([.friday], 2), ([.saturday, .sunday], 1), ([.monday, .thursday], 2), ([.wednesday], 2)
    ]

    static func generate(path: String, events n: Int, reminders m: Int, seed: UInt64) throws -> GeneratedStore {
        var g = SeededRandom(seed: seed)
        var out = GeneratedStore()
        let clock = ContinuousClock()
        let started = clock.now
        let store = try EventStore(path: path, floatingZone: .utc)
        out.eventCalendars = [try store.defaultCalendarForNewEvents()]
        for (title, color) in [("Work", "#3366CC"), ("Home", "#33AA55"), ("Sport", "#CC6633")] {
            let c = ChimeCore.Calendar(title: title, entityType: .event, color: color)
            try store.saveCalendar(c)
            out.eventCalendars.append(c)
        }
        var saved = 0
        func tick() throws { saved += 1; if saved % 1_000 == 0 { try store.commit() } }
        for i in 0..<n {
            let e = event(i, &g, calendars: out.eventCalendars)
            if !e.recurrenceRules.isEmpty { out.recurringEvents += 1 }
            if e.isAllDay { out.allDayEvents += 1 }
            try store.save(e, span: .thisEvent, commit: false)
            out.events.append(e)
            try tick()
        }
        let lists = [try store.defaultCalendarForNewReminders(), ChimeCore.Calendar(title: "Errands", entityType: .reminder)]
        try store.saveCalendar(lists[1])
        for i in 0..<m {
            let r = reminder(i, &g, lists: lists)
            try store.save(r, commit: false)
            out.reminders.append(r)
            try tick()
        }
        try store.commit()
        out.seconds = seconds(clock.now - started)
        return out
    }

    /// The ten years before ``firstDay``: where ``addHistory(path:events:seed:)`` puts its events.
    static let historyDays = 3_652

    /// Adds `n` past events (spread over the ten years before ``firstDay``, the same mix of
    /// kinds, zones and alarms, every series ended before it) and `n / 5` completed reminders to
    /// the store at `path`: a store that grew over ten years, with the same current weeks.
    /// Returns the seconds it took.
    static func addHistory(path: String, events n: Int, seed: UInt64) throws -> Double {
        var g = SeededRandom(seed: seed &+ 0x5EED)
        let clock = ContinuousClock()
        let started = clock.now
        let store = try EventStore(path: path, floatingZone: .utc)
        let calendars = try store.calendars(for: .event)
        let lists = try store.calendars(for: .reminder)
        let historyStart = firstDay.adding(days: -historyDays)
        for i in 0..<n {
            var e = event(i, &g, calendars: calendars, from: historyStart, days: historyDays - 400)
            e.title = "Past " + e.title
            // A series of the past ended then: its last instance before the current years.
            e.recurrenceRules = e.recurrenceRules.map { rule in
                let last = min(e.start.local.date.adding(days: g.int(in: 30...365)), firstDay.adding(days: -1))
                if e.start.isAllDay { return try! rule.with(end: .until(.date(last))) }
                return try! rule.with(end: .until(.utc(Instant(secondsSince1970: Int64(last.daysSinceEpoch) * 86_400))))
            }
            try store.save(e, span: .thisEvent, commit: false)
            if i % 1_000 == 999 { try store.commit() }
        }
        for i in 0..<(n / 5) {
            var r = Reminder(title: "Past \(g.pick(["Buy", "Call", "Pay", "Email"])) \(i)", calendar: g.pick(lists).identifier)
            r.dueDate = .floating(LocalDateTime(date: historyStart.adding(days: g.int(in: 0...(historyDays - 1))), hour: g.int(in: 8...20)))
            r.alarms = g.chance(0.3) ? [.relative(-900)] : []
            r.isCompleted = true
            try store.save(r, commit: false)
            if i % 1_000 == 999 { try store.commit() }
        }
        try store.commit()
        return seconds(clock.now - started)
    }

    static func event(
        _ i: Int, _ g: inout SeededRandom, calendars: [ChimeCore.Calendar], from: CivilDate = firstDay, days: Int = dayCount
    ) -> Event {
        let calendar = g.pick(calendars).identifier
        var date = from.adding(days: g.int(in: 0...(days - 1)))
        let allDay = g.chance(0.05)
        let title = "\(g.pick(words)) \(i)"
        var rule: RecurrenceRule?
        if g.chance(0.30) {
            let kind = g.weighted(kinds)
            let made = recurrence(kind, &g, date: &date, allDay: allDay)
            rule = made
        }
        var e: Event
        if allDay {
            e = Event(title: title, calendar: calendar, start: .allDay(date), duration: 86_400)
        } else {
            let local = LocalDateTime(date: date, hour: g.int(in: 7...20), minute: g.pick([0, 15, 30, 45]))
            let start: CalendarDate
            switch g.weighted(zones) {
            case nil: start = .floating(local)
            case "UTC"?: start = .utc(local)
            case let name?: start = .zoned(local, try! ZoneRules.named(name))
            }
            e = Event(title: title, calendar: calendar, start: start, duration: Int64(g.pick([15, 30, 30, 45, 60, 60, 90, 120])) * 60)
        }
        if let rule { e.recurrenceRules = [finish(rule, &g, start: e.start)] }
        if g.chance(0.2) { e.location = g.pick(["Room 1", "Office", "Home", "Café", "Gym"]) }
        let at = e.start.instant(floatingZone: .utc).secondsSince1970
        e.alarms = (0..<g.int(in: 1...2)).map { _ in
            g.chance(0.15)
                ? .absolute(Instant(secondsSince1970: at - Int64(g.pick([600, 3_600, 86_400]))))
                : .relative(-Int64(g.pick([300, 600, 900, 1_800, 3_600, 86_400])))
        }
        return e
    }

    /// A rule of `kind` (open-ended for now), moving `date` so that DTSTART is an occurrence.
    static func recurrence(_ kind: Kind, _ g: inout SeededRandom, date: inout CivilDate, allDay: Bool) -> RecurrenceRule {
        switch kind {
        case .daily:
            return try! RecurrenceRule(.daily, interval: g.weighted([(1, 6), (2, 2), (3, 2), (7, 1)]))
        case .weekly:
            let days = g.weighted(weekdaySets)
            while !days.contains(date.weekday) { date = date.adding(days: 1) }
            return try! RecurrenceRule(.weekly, interval: g.weighted([(1, 4), (2, 1)]), daysOfTheWeek: days.map { RecurrenceDayOfWeek($0) })
        case .monthlyDay:
            let days = g.distinct(upTo: 2) { $0.int(in: 2...28) }
            date = CivilDate(year: date.year, month: date.month, day: days.min()!)
            return try! RecurrenceRule(.monthly, daysOfTheMonth: days)
        case .monthlyNth:
            let n = g.pick([1, 2, 2, 3, 4, -1, -1])
            let day = g.pick(Weekday.allCases)
            date = nthWeekday(year: date.year, month: date.month, n, day)
            return try! RecurrenceRule(.monthly, daysOfTheWeek: [RecurrenceDayOfWeek(day, weekNumber: n)])
        case .yearly:
            return try! RecurrenceRule(.yearly)
        }
    }

    /// Adds COUNT (20%) or UNTIL (15%); most rules stay open-ended.
    static func finish(_ rule: RecurrenceRule, _ g: inout SeededRandom, start: CalendarDate) -> RecurrenceRule {
        let roll = g.int(in: 0...99)
        if roll < 20 {
            let count = rule.frequency == .yearly ? g.int(in: 2...5) : g.int(in: 5...60)
            return try! rule.with(end: .count(count))
        }
        if roll < 35 {
            let last = start.local.date.adding(days: g.int(in: 30...365))
            if start.isAllDay { return try! rule.with(end: .until(.date(last))) }
            let instant = Instant(secondsSince1970: Int64(last.daysSinceEpoch) * 86_400 + 86_399)
            return try! rule.with(end: .until(.utc(instant)))
        }
        return rule
    }

    static func reminder(_ i: Int, _ g: inout SeededRandom, lists: [ChimeCore.Calendar]) -> Reminder {
        var r = Reminder(
            title: "\(g.pick(["Buy", "Call", "Pay", "Email", "Fix", "Book"])) \(g.pick(words)) \(i)",
            calendar: g.pick(lists).identifier)
        r.priority = g.weighted([(0, 50), (1, 10), (5, 20), (9, 20)])
        if g.chance(0.6) {
            let local = LocalDateTime(date: firstDay.adding(days: g.int(in: 0...(dayCount - 1))), hour: g.int(in: 8...20))
            r.dueDate = g.chance(0.5) ? .floating(local) : .zoned(local, try! ZoneRules.named(g.pick(["Europe/Berlin", "America/New_York"])))
            if g.chance(0.25) {
                r.recurrenceRules = [try! RecurrenceRule(g.pick([.daily, .weekly, .monthly]), interval: g.int(in: 1...2))]
            } else if g.chance(0.1) {
                r.isCompleted = true
            }
            if g.chance(0.3) { r.alarms = [.relative(-900)] }
        }
        return r
    }

    /// The `n`th (negative: from the end) `day` of a month.
    static func nthWeekday(year: Int, month: Int, _ n: Int, _ day: Weekday) -> CivilDate {
        if n > 0 {
            var d = CivilDate(year: year, month: month, day: 1)
            while d.weekday != day { d = d.adding(days: 1) }
            return d.adding(days: 7 * (n - 1))
        }
        var d = CivilDate(year: year, month: month, day: CivilDate.daysInMonth(year: year, month: month))
        while d.weekday != day { d = d.adding(days: -1) }
        return d.adding(days: 7 * (n + 1))
    }
}
