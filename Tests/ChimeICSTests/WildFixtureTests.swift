import ChimeCore
import ChimeICS
import ChimeStore
import Foundation
import Testing

/// Files as real clients write them, each with one kind of fault (Fixtures/wild/README.md says
/// where each comes from). Each test imports the file the default way and checks the exact
/// occurrences in a window, the titles, every repair (its `FILE:LINE: PROPERTY:` and key words),
/// that a strict import refuses the file naming file and line, and what the Python peer reads.
@Suite struct WildFixtureTests {
    static let from = "2026-11-01T00:00:00Z", to = "2027-01-15T00:00:00Z"

    /// Each repair in order: its `FILE:LINE: PROPERTY:` prefix and words it must contain.
    func expectRepairs(_ said: [String], _ expected: [(String, [String])], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(said.count == expected.count, "\(said)", sourceLocation: sourceLocation)
        for (line, (prefix, words)) in zip(said, expected) {
            #expect(line.hasPrefix(prefix) && words.allSatisfy { line.contains($0) }, "\(line)", sourceLocation: sourceLocation)
        }
    }

    func expectStrictRefusal(_ name: String, _ prefix: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let error = try Wild.strictRefusal(name)
        #expect(error?.description.hasPrefix(prefix) == true, "\(String(describing: error))", sourceLocation: sourceLocation)
    }

    /// The peer finds exactly `expected` (nil: the same occurrences as Chime), or cannot read the
    /// file and says `refusal`.
    func expectPeer(
        _ name: String, agreesWith ours: [String], expected: [String]? = nil, refusal: String? = nil,
        to: String = Self.to, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        switch Wild.peer(Wild.path(name), from: Self.from, to: to) {
        case .unavailable(let why): Issue.record("the peer cannot run: \(why)", sourceLocation: sourceLocation)
        case .failed(let message):
            #expect(refusal != nil && message.contains(refusal!), "peer: \(message)", sourceLocation: sourceLocation)
        case .occurrences(let theirs):
            #expect(refusal == nil, "the peer read \(name)", sourceLocation: sourceLocation)
            #expect(theirs == (expected ?? ours), sourceLocation: sourceLocation)
        }
    }

    func events(_ t: TemporaryStore) throws -> [Event] {
        try t.store.allItems(in: nil).compactMap { if case .event(let e) = $0 { return e } else { return nil } }
    }

    // MARK: Items that cannot be read whole

    @Test func googleEventWithoutSummaryIsUntitledAndOneWithoutStartIsSkippedAlone() throws {
        let name = "google-untitled.ics"
        let i = try Wild.importAndList(name, from: Self.from, to: Self.to)
        #expect(i.occurrences == ["2026-11-02T08:00:00Z\tPlanning", "2026-11-03T13:00:00Z\t", "2026-11-05T00:00:00Z\tOffsite"])
        #expect(DisplayText.itemTitle("") == "(no title)")
        #expect(i.report.eventsAdded == 3)
        // SUMMARY is optional in RFC 5545: no repair. DTSTART is not: that event alone is skipped.
        expectRepairs(i.repairs, [])
        expectRepairs(i.skipped, [("google-untitled.ics:35: VEVENT:", ["missing DTSTART", "skipped"])])
        try expectStrictRefusal(name, "google-untitled.ics:35: VEVENT: missing DTSTART")
        // occurrences.py drops a VEVENT without DTSTART before expanding, as Chime does.
        expectPeer(name, agreesWith: i.occurrences)
    }

    @Test func calendarLabsEmptyRRuleOnEveryHolidayImportsThemAllOnce() throws {
        let name = "calendarlabs-us-holidays.ics"
        let i = try Wild.importAndList(name, from: Self.from, to: Self.to)
        #expect(
            i.spans == [
                "2026-11-11T00:00:00Z/2026-11-12T00:00:00Z\tVeterans Day",
                "2026-11-26T00:00:00Z/2026-11-27T00:00:00Z\tThanksgiving Day",
                "2026-12-25T00:00:00Z/2026-12-26T00:00:00Z\tChristmas Day",
                "2027-01-01T00:00:00Z/2027-01-02T00:00:00Z\tNew Year's Day"
            ])
        #expect(try events(i.store).allSatisfy { $0.recurrenceRules.isEmpty })
        expectRepairs(i.repairs, [19, 32, 45, 58].map { ("calendarlabs-us-holidays.ics:\($0): RRULE: \"\":", ["empty", "does not repeat"]) })
        try expectStrictRefusal(name, "calendarlabs-us-holidays.ics:19: RRULE:")
        expectPeer(name, agreesWith: i.occurrences)
    }

    // MARK: RRULE spellings

    @Test func rruleSpellingsAreReadAsTheirEvidentMeaning() throws {
        let name = "rrule-spellings.ics"
        let i = try Wild.importAndList(name, from: Self.from, to: "2026-12-01T00:00:00Z")
        func starts(_ title: String) -> [String] {
            i.occurrences.filter { $0.hasSuffix("\t" + title) }.map { String($0.prefix(20)) }
        }
        #expect(
            starts("Spaces") == [
                "2026-11-02T06:00:00Z", "2026-11-03T06:00:00Z", "2026-11-04T06:00:00Z",
                "2026-11-09T06:00:00Z", "2026-11-10T06:00:00Z", "2026-11-11T06:00:00Z"
            ])
        #expect(starts("Escaped") == ["2026-11-02T07:00:00Z", "2026-11-16T07:00:00Z", "2026-11-30T07:00:00Z"])
        #expect(starts("Trailing") == ["2026-11-02T08:00:00Z", "2026-11-03T08:00:00Z", "2026-11-04T08:00:00Z"])
        #expect(starts("Lower") == ["2026-11-02T09:00:00Z", "2026-11-03T09:00:00Z"])
        // COUNT=-1: the count is dropped, the rule kept: every day, without end.
        #expect(starts("Negative").count == 29 && starts("Negative").last == "2026-11-30T10:00:00Z")
        // COUNT with UNTIL: UNTIL kept (the 4th, 23:59:59Z), COUNT=10 dropped.
        #expect(starts("Both") == ["2026-11-02T11:00:00Z", "2026-11-03T11:00:00Z", "2026-11-04T11:00:00Z"])
        expectRepairs(
            i.repairs,
            [
                ("rrule-spellings.ics:12: RRULE:", ["MO, TU, WE", "removed spaces"]),
                ("rrule-spellings.ics:20: RRULE:", ["\\;", "removed backslash escapes"]),
                ("rrule-spellings.ics:28: RRULE:", ["removed empty parts"]),
                ("rrule-spellings.ics:36: RRULE:", ["freq=daily", "upper case"]),
                ("rrule-spellings.ics:44: RRULE:", ["COUNT=-1", "repeats without a count"]),
                ("rrule-spellings.ics:52: RRULE:", ["COUNT and UNTIL", "kept UNTIL", "dropped COUNT=10"])
            ])
        try expectStrictRefusal(name, "rrule-spellings.ics:12: RRULE:")
        // The peer (python-dateutil's rrulestr underneath) refuses the whole file at the first
        // rule with a space; one event at a time it reads the escaped, trailing ";", lower-case
        // and COUNT-with-UNTIL rules as Chime does and refuses the spaces and COUNT=-1 ones
        // (see `rruleSpellingsOneAtATimeInThePeer`).
        expectPeer(name, agreesWith: i.occurrences, refusal: "BadRuleStringFormat")
    }

    /// Each RRULE spelling alone, in the peer: which ones it reads, and that it then agrees.
    @Test func rruleSpellingsOneAtATimeInThePeer() throws {
        guard Wild.peerAvailable else { Issue.record("the peer cannot run"); return }
        let text = String(decoding: try Wild.bytes("rrule-spellings.ics"), as: UTF8.self)
        let head = text.components(separatedBy: "BEGIN:VEVENT")[0]
        let t = try TemporaryStore()
        var read: [String] = []
        for event in text.components(separatedBy: "BEGIN:VEVENT").dropFirst() {
            let body = "BEGIN:VEVENT" + event.components(separatedBy: "END:VCALENDAR")[0]
            let title = body.components(separatedBy: "SUMMARY:")[1].components(separatedBy: "\r\n")[0]
            let file = t.folder + "/\(title).ics"
            let bytes = Array((head + body + "END:VCALENDAR\r\n").utf8)
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let ours = try Wild.importAndList(bytes, file: "\(title).ics", from: Self.from, to: "2026-12-01T00:00:00Z").occurrences
            if case .occurrences(let theirs) = Wild.peer(file, from: Self.from, to: "2026-12-01T00:00:00Z") {
                #expect(theirs == ours, "\(title)")
                read.append(title)
            }
        }
        // The peer refuses "MO, TU, WE" and COUNT=-1 (BadRuleStringFormat); the rest it reads as Chime does.
        #expect(read == ["Escaped", "Trailing", "Lower", "Both"])
    }

    // MARK: Ends

    @Test func nextcloudEndsBeforeStartOrOfTheOtherKind() throws {
        let name = "nextcloud-end-faults.ics"
        let i = try Wild.importAndList(name, from: Self.from, to: Self.to)
        #expect(
            i.spans == [
                // DTEND 09:00 before DTSTART 10:00 (Berlin, +01:00): ends where it starts.
                "2026-11-09T09:00:00Z/2026-11-09T09:00:00Z\tBackwards",
                // DATE start, DATE-TIME end at noon on the 11th: all-day through the 11th.
                "2026-11-10T00:00:00Z/2026-11-12T00:00:00Z\tDay with a time end",
                // DATE-TIME start 14:00 Berlin, DATE end the 13th: until midnight Berlin (23:00Z).
                "2026-11-12T13:00:00Z/2026-11-12T23:00:00Z\tTimed with a day end"
            ])
        expectRepairs(
            i.repairs,
            [
                ("nextcloud-end-faults.ics:29: DTEND:", ["is before DTSTART", "ends where it starts"]),
                ("nextcloud-end-faults.ics:40: DTEND:", ["date-time on an all-day event", "20261112"]),
                ("nextcloud-end-faults.ics:51: DTEND:", ["date on an event with a start time", "midnight"])
            ])
        try expectStrictRefusal(name, "nextcloud-end-faults.ics:29: DTEND:")
        // The peer swaps a backwards start and end (python-recurring-ical-events, its tracker number 132), so
        // "Backwards" starts at 09:00 Berlin = 08:00Z; and it reads a DATE start with a
        // DATE-TIME end as a start at midnight in the end's zone (23:00Z the day before).
        expectPeer(
            name, agreesWith: i.occurrences,
            expected: [
                "2026-11-09T08:00:00Z\tBackwards", "2026-11-09T23:00:00Z\tDay with a time end", "2026-11-12T13:00:00Z\tTimed with a day end"
            ])
    }

    // MARK: Alarms, zones, lines

    @Test func thunderbirdAlarmsWithoutOrWithAnUnreadableTriggerAreDroppedAlone() throws {
        let name = "thunderbird-alarm-faults.ics"
        let i = try Wild.importAndList(name, from: Self.from, to: Self.to)
        #expect(i.spans == ["2026-11-13T09:00:00Z/2026-11-13T10:00:00Z\tDentist"])
        #expect(i.report.alarms == 1)
        let dentist = try #require(try i.store.store.allItems(in: nil).first)
        #expect(dentist.alarms.map(\.trigger) == [.relative(offset: -300, relatedTo: .start)])
        expectRepairs(
            i.repairs,
            [
                ("thunderbird-alarm-faults.ics:30: VALARM:", ["missing TRIGGER", "alarm was dropped", "item kept"]),
                ("thunderbird-alarm-faults.ics:36: TRIGGER:", ["-PT15", "alarm was dropped"])
            ])
        try expectStrictRefusal(name, "thunderbird-alarm-faults.ics:30: VALARM: missing TRIGGER")
        // icalendar refuses the whole file for the one bad TRIGGER.
        expectPeer(name, agreesWith: i.occurrences, refusal: "Invalid iCalendar duration: -PT15")
    }

    @Test func exchange2007ZoneNameNoOneKnowsIsReadFloating() throws {
        let name = "exchange2007-unknown-tzid.ics"
        let i = try Wild.importAndList(name, from: Self.from, to: Self.to)
        // Floating, in the store's floating zone (UTC in this test): 09:00 wall clock.
        #expect(
            i.spans == [
                "2026-11-16T09:00:00Z/2026-11-16T10:00:00Z\tWeekly sync",
                "2026-11-17T10:00:00Z/2026-11-17T11:00:00Z\tBudget review"
            ])
        let sync = try #require(try i.store.store.allItems(in: nil).first { $0.title == "Weekly sync" })
        if case .event(let e) = sync { #expect(e.start == .floating(LocalDateTime(year: 2026, month: 11, day: 16, hour: 9))) }
        expectRepairs(
            i.repairs,
            [
                ("exchange2007-unknown-tzid.ics:10: DTSTART:", ["(GMT+01.00) Sarajevo/Warsaw/Zagreb", "floating"]),
                ("exchange2007-unknown-tzid.ics:11: DTEND:", ["unknown time zone", "floating"])
            ])
        try expectStrictRefusal(name, "exchange2007-unknown-tzid.ics:10: DTSTART: unknown time zone")
        expectPeer(name, agreesWith: i.occurrences)
    }

    @Test func lineFaultsAreRepairedOrSkippedAndTheRestKept() throws {
        let name = "php-export-line-faults.ics"
        let i = try Wild.importAndList(name, from: Self.from, to: Self.to)
        #expect(
            i.spans == [
                "2026-11-14T08:00:00Z/2026-11-14T10:00:00Z\tMorning row",
                "2026-11-15T09:00:00Z/2026-11-15T11:00:00Z\tErgometer test"
            ])
        let items = try events(i.store)
        let row = try #require(items.first { $0.title == "Morning row" })
        #expect(row.notes == "Meet at the boathouse ten minutes early. Bring warm clothes, the river is cold in November.")
        #expect(row.location == "Boathouse")
        #expect(items.first { $0.title == "Ergometer test" }?.location == nil)
        expectRepairs(
            i.repairs,
            [
                ("php-export-line-faults.ics:13:", ["river is cold", "joined to the line before"]),
                ("php-export-line-faults.ics:22: LOCATION:", ["missing ':'", "skipped"]),
                ("php-export-line-faults.ics:25:", ["<br />", "skipped"]),
                ("php-export-line-faults.ics:26:", ["Warning", "skipped"])
            ])
        try expectStrictRefusal(name, "php-export-line-faults.ics:13:")
        expectPeer(name, agreesWith: i.occurrences, refusal: "Content line could not be parsed")
    }

    // MARK: One item per UID

    @Test func appleCopiesOfOneUIDBecomeOneItem() throws {
        let name = "apple-duplicate-uids.ics"
        let i = try Wild.importAndList(name, from: Self.from, to: Self.to)
        // SEQUENCE 1 beats 0 (though first); equal SEQUENCE: newer LAST-MODIFIED (though first);
        // all equal: the last one.
        #expect(
            i.occurrences == [
                "2026-11-17T09:00:00Z\tDentist (moved)", "2026-11-18T18:00:00Z\tBook club (new room)",
                "2026-11-19T07:00:00Z\tYoga (studio 2)"
            ])
        #expect(i.report.eventsAdded == 3)
        expectRepairs(
            i.repairs,
            [
                ("apple-duplicate-uids.ics:16: UID:", ["6A1F3C2E", "line 5", "dropped this one"]),
                ("apple-duplicate-uids.ics:38: UID:", ["B7C8D9E0", "line 27", "dropped this one"]),
                ("apple-duplicate-uids.ics:49: UID:", ["C1D2E3F4", "line 59", "dropped this one"])
            ])
        try expectStrictRefusal(name, "apple-duplicate-uids.ics:16: UID:")
        // The peer agrees on SEQUENCE and LAST-MODIFIED but keeps the first of two equal copies.
        expectPeer(
            name, agreesWith: i.occurrences,
            expected: [
                "2026-11-17T09:00:00Z\tDentist (moved)",
                "2026-11-18T18:00:00Z\tBook club (new room)", "2026-11-19T07:00:00Z\tYoga"
            ])
    }

    // MARK: Overrides that match no generated instance

    @Test func googleOverrideOfAnInstanceTheEditedRuleNoLongerMakes() throws {
        let name = "google-moved-instance.ics"
        let i = try Wild.importAndList(name, from: Self.from, to: "2026-12-01T00:00:00Z")
        // Weekly on Tuesday 10:00 Berlin; the Monday 9 Nov override (from the rule before it was
        // edited) is kept, at its own time; the Monday 16 Nov one is excluded by EXDATE: dropped.
        #expect(
            i.occurrences == [
                "2026-11-03T09:00:00Z\tReview", "2026-11-10T09:00:00Z\tReview",
                "2026-11-11T14:00:00Z\tReview (moved to Wednesday)", "2026-11-17T09:00:00Z\tReview",
                "2026-11-24T09:00:00Z\tReview"
            ])
        #expect(i.report.overrides == 1)
        expectRepairs(
            i.repairs,
            [
                ("google-moved-instance.ics:42: RECURRENCE-ID:", ["20261109T100000", "not an occurrence", "extra occurrence"]),
                ("google-moved-instance.ics:57: RECURRENCE-ID:", ["20261116T100000", "EXDATE", "dropped"])
            ])
        try expectStrictRefusal(name, "google-moved-instance.ics:42: RECURRENCE-ID:")
        expectPeer(name, agreesWith: i.occurrences, to: "2026-12-01T00:00:00Z")
    }

    @Test func outlookInvitationToOneInstanceWithoutItsSeries() throws {
        let name = "outlook-single-instance-invite.ics"
        let i = try Wild.importAndList(name, from: Self.from, to: Self.to)
        #expect(i.spans == ["2026-11-19T13:00:00Z/2026-11-19T14:00:00Z\tJour fixe"])
        #expect(i.report.eventsAdded == 1 && i.report.alarms == 1)
        expectRepairs(i.repairs, [("outlook-single-instance-invite.ics:21: RECURRENCE-ID:", ["no series with UID", "event of its own"])])
        try expectStrictRefusal(name, "outlook-single-instance-invite.ics:21: RECURRENCE-ID:")
        expectPeer(name, agreesWith: i.occurrences)
    }

    @Test func outlookDateTimeRecurrenceIDOnAnAllDaySeries() throws {
        let name = "outlook-allday-recurrence-id.ics"
        let i = try Wild.importAndList(name, from: Self.from, to: Self.to)
        #expect(
            i.spans == [
                "2026-11-20T00:00:00Z/2026-11-21T00:00:00Z\tTeam day",
                "2026-11-26T00:00:00Z/2026-11-27T00:00:00Z\tTeam day (Thursday this week)",
                "2026-12-04T00:00:00Z/2026-12-05T00:00:00Z\tTeam day",
                "2026-12-11T00:00:00Z/2026-12-12T00:00:00Z\tTeam day"
            ])
        expectRepairs(i.repairs, [("outlook-allday-recurrence-id.ics:38: RECURRENCE-ID:", ["date-time on an all-day series", "20261127"])])
        try expectStrictRefusal(name, "outlook-allday-recurrence-id.ics:38: RECURRENCE-ID:")
        expectPeer(name, agreesWith: i.occurrences)
    }

    /// A RANGE=THISANDFUTURE override, then an override of a later instance naming it by its time
    /// after the split (10:00, not the rule's 09:00).
    @Test func lotusNotesOverrideAfterAThisAndFutureSplit() throws {
        let name = "lotus-notes-thisandfuture.ics"
        let i = try Wild.importAndList(name, from: Self.from, to: Self.to)
        let peer = [
            "2026-11-23T09:00:00Z\tDaily check-in", "2026-11-24T09:00:00Z\tDaily check-in",
            "2026-11-25T10:00:00Z\tDaily check-in (new time)", "2026-11-26T10:00:00Z\tDaily check-in (new time)",
            "2026-11-26T11:00:00Z\tCheck-in with the auditor", "2026-11-27T10:00:00Z\tDaily check-in (new time)"
        ]
        expectPeer(name, agreesWith: i.occurrences, expected: peer)
        try expectStrictRefusal(name, "lotus-notes-thisandfuture.ics:38: RECURRENCE-ID:")
        // RECURRENCE-IDs name original instances: 10:00 on the 26th was none (the split moved
        // 09:00 to 10:00), so, as for the peer, it is an extra occurrence beside the moved one.
        expectRepairs(i.repairs, [("lotus-notes-thisandfuture.ics:38: RECURRENCE-ID:", ["20261126T100000Z", "not an occurrence", "extra occurrence"])])
        #expect(i.occurrences == peer)
    }

    /// The same file written as RFC 5545 says: the later override names the instance by its
    /// original time (09:00), which the split moved to 10:00.
    @Test func thisAndFutureThenAnOverrideByItsOriginalTime() throws {
        let text = String(decoding: try Wild.bytes("lotus-notes-thisandfuture.ics"), as: UTF8.self)
            .replacingOccurrences(of: "RECURRENCE-ID:20261126T100000Z", with: "RECURRENCE-ID:20261126T090000Z")
        let t = try TemporaryStore()
        let file = t.folder + "/rfc.ics"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let expected = [
            "2026-11-23T09:00:00Z\tDaily check-in", "2026-11-24T09:00:00Z\tDaily check-in",
            "2026-11-25T10:00:00Z\tDaily check-in (new time)", "2026-11-26T11:00:00Z\tCheck-in with the auditor",
            "2026-11-27T10:00:00Z\tDaily check-in (new time)"
        ]
        if Wild.peerAvailable { #expect(Wild.peer(file, from: Self.from, to: Self.to) == .occurrences(expected)) }
        let i = try Wild.importAndList(Array(text.utf8), file: "rfc.ics", from: Self.from, to: Self.to)
        #expect(i.occurrences == expected)
        #expect(i.repairs.isEmpty, "\(i.repairs)")
    }

    // MARK: RSCALE

    @Test func appleRScaleRuleRepeatsOnTheChineseDate() throws {
        let name = "apple-rscale.ics"
        // 2026-11-08 is the 30th of the 9th Chinese month. Without SKIP (RFC 7529's OMIT, what
        // Apple writes) the years whose 9th month has 29 days have no occurrence: 2027–2029.
        let i = try Wild.importAndList(name, from: Self.from, to: "2031-12-31T00:00:00Z")
        #expect(
            i.occurrences == [
                "2026-11-08T00:00:00Z\tGrandma's birthday (lunar)", "2026-11-10T18:00:00Z\tChoir",
                "2026-11-17T18:00:00Z\tChoir", "2030-10-26T00:00:00Z\tGrandma's birthday (lunar)",
                "2031-11-14T00:00:00Z\tGrandma's birthday (lunar)"
            ])
        #expect(i.repairs.isEmpty, "\(i.repairs)")
        #expect(try Wild.strictRefusal(name) == nil)
        // dateutil has no RSCALE: the peer refuses the whole file.
        expectPeer(name, agreesWith: i.occurrences, refusal: "BadRuleStringFormat", to: "2031-12-31T00:00:00Z")
    }
}
