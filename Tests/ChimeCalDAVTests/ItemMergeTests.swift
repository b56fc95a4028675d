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
        let m = ItemMerge(base: .reminder(reminder("Milk", due: 1)), local: .reminder(reminder("Goat milk", due: 2)),
                          server: .reminder(reminder("Cow milk", due: 1)))
        guard case .reminder(let r) = m.merged else { Issue.record("kind changed"); return }
        #expect(r.title == "Cow milk")
        #expect(r.dueDate == .floating(LocalDateTime(year: 2026, month: 12, day: 2, hour: 9)))   // only we moved it
        #expect(m.lostFields == ["title"])
    }

    @Test func aCompletionIsNeverUndoneByTheOtherSide() throws {
        let m = ItemMerge(base: .reminder(reminder("Milk")), local: .reminder(reminder("Milk", completed: true)),
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
}
