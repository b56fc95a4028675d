import ChimeCalDAV
import ChimeCore
import Testing

/// The three-way merge a sync makes when both sides changed one item.
@Suite struct ItemMergeTests {
    private func reminder(_ title: String, notes: String? = nil, due: Int? = nil, completed: Bool = false) -> Reminder {
        var r = Reminder(identifier: "R", title: title, calendar: "L")
        r.notes = notes
        r.dueDate = due.map { .floating(LocalDateTime(year: 2026, month: 12, day: $0, hour: 9)) }
        r.isCompleted = completed
        return r
    }

    @Test func changesToDifferentFieldsAreBothKept() throws {
        let base = reminder("Milk", due: 1)
        let local = reminder("Oat milk", due: 1)
        let server = reminder("Milk", notes: "2 litres", due: 1)
        let m = ItemMerge(base: .reminder(base), local: .reminder(local), server: .reminder(server))
        guard case .reminder(let r) = m.merged else { Issue.record("kind changed"); return }
        #expect(r.title == "Oat milk" && r.notes == "2 litres")
        #expect(m.lostFields.isEmpty && m.hasLocalChanges)
    }

    @Test func onTheSameFieldTheServerWinsAndTheLossIsNamed() throws {
        let m = ItemMerge(
            base: .reminder(reminder("Milk", due: 1)), local: .reminder(reminder("Goat milk", due: 2)),
            server: .reminder(reminder("Cow milk", due: 1)))
        guard case .reminder(let r) = m.merged else { Issue.record("kind changed"); return }
        #expect(r.title == "Cow milk")
        #expect(r.dueDate == .floating(LocalDateTime(year: 2026, month: 12, day: 2, hour: 9)))  // only we moved it
        #expect(m.lostFields == ["title"])
    }

    @Test func aCompletionIsNeverUndoneByTheOtherSide() throws {
        let m = ItemMerge(
            base: .reminder(reminder("Milk")), local: .reminder(reminder("Milk", completed: true)),
            server: .reminder(reminder("Milk!", completed: false)))
        guard case .reminder(let r) = m.merged else { Issue.record("kind changed"); return }
        #expect(r.isCompleted && r.title == "Milk!")
        #expect(m.hasLocalChanges)
    }

    @Test func withoutABaseEveryLocalDifferenceLosesToTheServer() throws {
        let m = ItemMerge(base: nil, local: .reminder(reminder("Mine")), server: .reminder(reminder("Theirs")))
        #expect(m.merged == .reminder(reminder("Theirs")))
        #expect(m.lostFields == ["the whole item"] && !m.hasLocalChanges)
    }

    @Test func eventFieldsMergeTheSameWay() throws {
        let zone = try ZoneRules.named("Europe/Berlin")
        func event(_ title: String, hour: Int, location: String? = nil) -> Event {
            var e = Event(title: title, calendar: "C", start: .zoned(LocalDateTime(year: 2026, month: 12, day: 1, hour: hour), zone), duration: 3600)
            e.location = location
            return e
        }
        let base = event("Review", hour: 9)
        let m = ItemMerge(base: .event(base), local: .event(event("Review", hour: 10)), server: .event(event("Review", hour: 9, location: "Room 4")))
        guard case .event(let e) = m.merged else { Issue.record("kind changed"); return }
        #expect(e.location == "Room 4")
        #expect(e.start == .zoned(LocalDateTime(year: 2026, month: 12, day: 1, hour: 10), zone))
        #expect(m.lostFields.isEmpty)
    }

    /// An alarm answered here while the server's copy changed (a 412 between the answer and an
    /// edit made on another device): the merged copy has both the edit and the answer, in both
    /// dialects; answered on both sides, the later answer stays, and nothing is called lost.
    @Test func anAnswerSurvivesAnEditThereAndTheLaterOfTwoAnswersStays() throws {
        func event(_ title: String, acknowledged: String? = nil, lastAck: String? = nil) -> Event {
            var e = Event(title: title, calendar: "C", start: .floating(LocalDateTime(year: 2026, month: 12, day: 4, hour: 10)), duration: 3600)
            var alarm = Alarm.relative(-600)
            if let acknowledged { alarm.icsExtras.append("ACKNOWLEDGED:" + acknowledged) }
            e.alarms = [alarm, .relative(-60)]
            e.icsExtras = ["X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC"] + (lastAck.map { ["X-MOZ-LASTACK:" + $0] } ?? [])
            return e
        }
        let base = event("Review")
        let answeredHere = event("Review", acknowledged: "20261204T095100Z", lastAck: "20261204T095100Z")
        let m = ItemMerge(base: .event(base), local: .event(answeredHere), server: .event(event("Design review")))
        guard case .event(let e) = m.merged else { Issue.record("kind changed"); return }
        #expect(e.title == "Design review")
        #expect(e.alarms[0].icsExtras == ["ACKNOWLEDGED:20261204T095100Z"] && e.alarms[1].icsExtras.isEmpty, "\(e.alarms)")
        #expect(e.icsExtras.contains("X-MOZ-LASTACK:20261204T095100Z") && e.icsExtras.contains("X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC"))
        #expect(m.hasLocalChanges && m.lostFields.isEmpty)

        // Answered on both machines: the later answer, whichever side gave it; no conflict.
        let earlierThere = event("Review", acknowledged: "20261204T095000Z", lastAck: "20261204T095000Z")
        let both = ItemMerge(base: .event(base), local: .event(answeredHere), server: .event(earlierThere))
        guard case .event(let b) = both.merged else { Issue.record("kind changed"); return }
        #expect(b.alarms[0].icsExtras == ["ACKNOWLEDGED:20261204T095100Z"] && b.icsExtras.contains("X-MOZ-LASTACK:20261204T095100Z"))
        #expect(both.lostFields.isEmpty && both.hasLocalChanges)
        let laterThere = event("Review", acknowledged: "20261204T095200Z", lastAck: "20261204T095200Z")
        let theirs = ItemMerge(base: .event(base), local: .event(answeredHere), server: .event(laterThere))
        #expect(theirs.merged == .event(laterThere) && theirs.lostFields.isEmpty && !theirs.hasLocalChanges)

        // The alarms themselves changed there: the server's alarms, said as a loss as before.
        var moved = event("Review")
        moved.alarms = [.relative(-900)]
        let changed = ItemMerge(base: .event(base), local: .event(answeredHere), server: .event(moved))
        guard case .event(let c) = changed.merged else { Issue.record("kind changed"); return }
        #expect(c.alarms == [.relative(-900)] && changed.lostFields == ["alarms"])
    }
}
