import ChimeCore
import Testing

/// Answers written on this machine in the forms other clients read (RFC 9074 and Thunderbird's),
/// and what a reader makes of them, snoozes above all.
struct AlarmAnswersTests {
    let noon = Instant(secondsSince1970: 1_795_780_800)  // 2026-11-27 12:00 UTC
    let uids = AlarmUIDs()

    func answer(_ e: inout Event, _ keys: Set<String>, at: Instant, snooze: AlarmAnswers.SnoozeWrite? = nil) {
        var alarms = e.alarms, extras = e.icsExtras
        AlarmAnswers.answer(alarms: &alarms, extras: &extras, answering: keys, at: at, snooze: snooze)
        e.alarms = alarms
        e.icsExtras = extras
    }

    func snooze(_ minutes: Int64, at: Instant, occurrences: Set<Instant> = [], series: Bool = false) -> AlarmAnswers.SnoozeWrite {
        let uids = self.uids
        return .init(until: at.adding(minutes * 60), occurrences: occurrences, isSeries: series) { uids.make() }
    }

    func event(_ alarms: [Alarm], rule: String? = nil) throws -> Event {
        var e = Event(title: "Dentist", calendar: "c", start: .utc(Instant(secondsSince1970: noon.secondsSince1970 + 3600).utc), duration: 1800)
        e.alarms = alarms
        if let rule { e.recurrenceRules = [try RecurrenceRule(parsing: rule)] }
        return e
    }

    func firings(_ e: Event, from: Instant, hours: Int64 = 48) -> [Instant] {
        AlarmAgenda.firings(of: [(.event(e), [])], zone: .utc, from: from, to: from.adding(hours * 3600)).map(\.fireAt)
    }

    @Test func aSnoozeWritesBothDialectsAndASnoozeAgainReplacesIt() throws {
        var e = try event([.relative(-900)])
        answer(&e, ["-900"], at: noon.adding(2700), snooze: snooze(10, at: noon.adding(2700)))
        #expect(e.alarms.count == 2)
        #expect(e.alarms[0].uid == "alarm-1" && e.alarms[0].acknowledged == noon.adding(2700))
        #expect(e.alarms[1].trigger == .absolute(noon.adding(3300)) && e.alarms[1].snoozes == "alarm-1" && e.alarms[1].uid == "alarm-2")
        #expect(e.icsExtras.sorted() == ["X-MOZ-LASTACK:20261127T124500Z", "X-MOZ-SNOOZE-TIME:20261127T125500Z"])
        #expect(firings(e, from: noon) == [noon.adding(3300)], "only the snooze rings")
        // It rang; snoozed again for 5 minutes: one snooze alarm, one Thunderbird line, both moved on.
        answer(
            &e, [e.alarms[1].trigger.keyText!], at: noon.adding(3300),
            snooze: snooze(5, at: noon.adding(3300)))
        #expect(e.alarms.filter { $0.snoozes != nil }.map(\.trigger) == [.absolute(noon.adding(3600))])
        #expect(e.icsExtras.sorted() == ["X-MOZ-LASTACK:20261127T125500Z", "X-MOZ-SNOOZE-TIME:20261127T130000Z"])
        #expect(firings(e, from: noon) == [noon.adding(3600)])
        // Dismissed: the snooze alarm and its line go; nothing rings.
        answer(&e, [e.alarms[1].trigger.keyText!], at: noon.adding(3600))
        #expect(e.alarms.count == 1 && e.icsExtras == ["X-MOZ-LASTACK:20261127T130000Z"])
        #expect(firings(e, from: noon).isEmpty)
    }

    @Test func aSnoozedOccurrenceOfASeriesIsNamedByItsStartForThunderbird() throws {
        var e = try event([.relative(-900)], rule: "FREQ=DAILY")
        let start = noon.adding(3600)
        answer(
            &e, ["-900"], at: noon.adding(2700),
            snooze: snooze(10, at: noon.adding(2700), occurrences: [start], series: true))
        #expect(e.icsExtras.contains("X-MOZ-SNOOZE-TIME-\(start.secondsSince1970 * 1_000_000):20261127T125500Z"), "\(e.icsExtras)")
        #expect(firings(e, from: noon) == [noon.adding(3300), noon.adding(86_400 + 2700)], "the snooze, then tomorrow's alarm")
    }

    /// Thunderbird knows only its own lines: dismissing the snooze there moves X-MOZ-LASTACK on
    /// and drops X-MOZ-SNOOZE-TIME, leaving the RFC 9074 snooze alarm. It must not ring then.
    @Test func aSnoozeDismissedInThunderbirdDoesNotRingFromItsRFC9074Twin() throws {
        var e = try event([.relative(-900)])
        answer(&e, ["-900"], at: noon.adding(2700), snooze: snooze(10, at: noon.adding(2700)))
        var thunderbird = e
        thunderbird.icsExtras = ["X-MOZ-LASTACK:20261127T124800Z"]
        #expect(firings(thunderbird, from: noon).isEmpty)
        // Snoozed again there (to 13:10): its own line rings, once.
        thunderbird.icsExtras.append("X-MOZ-SNOOZE-TIME:20261127T131000Z")
        #expect(firings(thunderbird, from: noon) == [noon.adding(4200)])
        // The copy as written here still rings its snooze once (the two dialects are one ring).
        #expect(firings(e, from: noon) == [noon.adding(3300)])
    }
}

/// Alarm UIDs numbered in order, so that a test can name them.
final class AlarmUIDs: @unchecked Sendable {
    private var next = 0
    func make() -> String {
        next += 1
        return "alarm-\(next)"
    }
}
