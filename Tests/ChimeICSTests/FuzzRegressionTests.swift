import ChimeCore
import ChimeICS
import Foundation
import Testing

// Replays the fuzzers' committed inputs in `make test`: every seed in Tests/Fuzz/Corpus/<target>/ and
// every crash, timeout or leak kept in Tests/Fuzz/Crashes/<target>/ (Tests/Fuzz/README.md) goes through
// the checks of the harnesses Sources/RRuleFuzz/FuzzRRule.swift and Sources/ICSFuzz/FuzzICS.swift, in
// process. A failed check traps, as in the fuzzer: it ends the test process, and `make test` fails.
//
// The checks are copied from the harnesses (this target cannot import executable targets it does not
// depend on): keep `FuzzReplay.checkRRule` and `FuzzReplay.checkICS` in step with them.

@Suite("Fuzz regression inputs")
struct FuzzRegressionTests {
    @Test("RRULE corpus and crashers", arguments: FuzzReplay.inputs("RRuleFuzz"))
    func rrule(input: FuzzReplay.Input) throws {
        FuzzReplay.checkRRule(String(decoding: try input.bytes(), as: UTF8.self))
    }

    @Test(".ics corpus and crashers", arguments: FuzzReplay.inputs("ICSFuzz"))
    func ics(input: FuzzReplay.Input) throws {
        FuzzReplay.checkICS(try input.bytes())
    }

    @Test("Both targets have seeds")
    func seedsExist() {
        #expect(FuzzReplay.inputs("RRuleFuzz").count(where: { $0.path.hasPrefix("Corpus/") }) >= 10)
        #expect(FuzzReplay.inputs("ICSFuzz").count(where: { $0.path.hasPrefix("Corpus/") }) >= 5)
    }
}

enum FuzzReplay {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// One file, named by its path under Tests/Fuzz (so a failing case says which input it was).
    struct Input: Sendable, CustomTestStringConvertible {
        let path: String
        var testDescription: String { path }
        func bytes() throws -> [UInt8] { Array(try Data(contentsOf: FuzzReplay.folder.appendingPathComponent(path))) }
    }

    /// Corpus/<target>/* and Crashes/<target>/*, sorted; README and dot files are not inputs.
    static func inputs(_ target: String) -> [Input] {
        ["Corpus", "Crashes"].flatMap { kind -> [Input] in
            let dir = folder.appendingPathComponent(kind).appendingPathComponent(target)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted()
                .map { Input(path: "\(kind)/\(target)/\($0)") }
        }
    }

    /// `precondition` that reports its message in -O builds too (`make test` is a release build).
    static func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
        if !condition { fatalError(message(), file: file, line: line) }
    }

    // MARK: RRuleFuzz (copy of Sources/RRuleFuzz/FuzzRRule.swift `checkRRule`)

    static let rruleStarts: [RecurrenceStart] = [
        .utc(LocalDateTime(year: 2026, month: 1, day: 1, hour: 9)),
        .zoned(LocalDateTime(year: 2026, month: 3, day: 8, hour: 2, minute: 30), (try? ZoneRules.named("America/New_York")) ?? .utc),
        .allDay(CivilDate(year: 2024, month: 2, day: 29)),
        .floating(LocalDateTime(year: 9999, month: 12, day: 28, hour: 23, minute: 59, second: 59)),
    ]

    static func checkRRule(_ text: String) {
        guard let rule = try? RecurrenceRule(parsing: text) else { return }
        let canonical = rule.rfc5545
        let again: RecurrenceRule
        do { again = try RecurrenceRule(parsing: canonical) } catch {
            fatalError("canonical text does not parse: \(canonical) (from \(text)): \(error)")
        }
        fuzzCheck(again == rule, "round trip mismatch: \(text) -> \(canonical) -> \(again.rfc5545)")
        fuzzCheck(again.rfc5545 == canonical, "canonical text is not a fixed point: \(canonical) -> \(again.rfc5545)")
        for start in rruleStarts { checkExpansion(rule, from: start) }
    }

    static func checkExpansion(_ rule: RecurrenceRule, from start: RecurrenceStart) {
        let set = RecurrenceSet(start: start, rules: [rule])
        let occurrences = set.first(20)
        fuzzCheck(occurrences.first?.nominal == start.local, "DTSTART is not the first occurrence: \(rule) from \(start)")
        for (a, b) in zip(occurrences, occurrences.dropFirst()) {
            fuzzCheck(a.instant < b.instant, "occurrences out of order or repeated: \(a), \(b) for \(rule) from \(start)")
        }
        if case .count(let n) = rule.end {
            fuzzCheck(occurrences.count <= n, "\(occurrences.count) occurrences for COUNT=\(n): \(rule) from \(start)")
        }
        if occurrences.count >= 2 {
            let i = occurrences.count / 2 - 1
            let next = set.next(after: occurrences[i].instant)
            fuzzCheck(next == occurrences[i + 1],
                         "next(after: \(occurrences[i])) = \(next.map(String.init(describing:)) ?? "nil"), "
                             + "the walk gave \(occurrences[i + 1]) for \(rule) from \(start)")
        }
    }

    // MARK: ICSFuzz (copy of Sources/ICSFuzz/FuzzICS.swift `checkICS`)

    static let icsNow = Instant(secondsSince1970: 1_767_225_600)

    static func checkICS(_ bytes: [UInt8]) {
        guard let calendar = try? ICalendar.parseComponents(bytes, file: "fuzz.ics") else { return }
        let written = calendar.contentLines.joined(separator: "\r\n") + "\r\n"
        let reread: ICSComponent
        do { reread = try ICalendar.parseComponents(Array(written.utf8), file: "rewritten.ics") } catch {
            fatalError("component tree written back does not parse: \(error)\n\(written)")
        }
        fuzzCheck(withoutLines(reread) == withoutLines(calendar), "component tree changed when written back:\n\(written)")

        let strict = try? ICalendar.parse(bytes, file: "fuzz.ics", lenient: false)
        guard let lenient = try? ICalendar.parse(bytes, file: "fuzz.ics", lenient: true) else {
            fuzzCheck(strict == nil, "the strict parse succeeded, the lenient one failed")
            return
        }
        if let strict { fuzzCheck(strict.items.count == lenient.items.count, "strict and lenient parses differ") }

        for item in lenient.items {
            if case .event(let e) = item.item { _ = e.recurrenceSet.first(5) }
        }

        let items = lenient.items.map(\.item)
        let (first, firstBytes) = exportAndRead(items, calendarName: lenient.calendarName, round: 1)
        for (a, b) in zip(items, first.items.map(\.item)) {
            fuzzCheck(modelled(a) == modelled(b), "item changed by export and import:\n\(modelled(a))\n\(modelled(b))\n"
                             + String(decoding: firstBytes, as: UTF8.self))
        }
        let (second, secondBytes) = exportAndRead(first.items.map(\.item), calendarName: first.calendarName, round: 2)
        let (_, thirdBytes) = exportAndRead(second.items.map(\.item), calendarName: second.calendarName, round: 3)
        fuzzCheck(secondBytes == thirdBytes, "export is not a fixed point:\n\(String(decoding: secondBytes, as: UTF8.self))"
                         + "\n---\n" + String(decoding: thirdBytes, as: UTF8.self))
    }

    static func exportAndRead(_ items: [AnyCalendarItem], calendarName: String?, round: Int) -> (ICSParseResult, [UInt8]) {
        let bytes = ICalendar.serialize(items, calendarName: calendarName, now: icsNow, floatingZone: .utc)
        let result: ICSParseResult
        do { result = try ICalendar.parse(bytes, file: "export\(round).ics", lenient: false) } catch {
            fatalError("exported file (round \(round)) does not parse: \(error)\n" + String(decoding: bytes, as: UTF8.self))
        }
        fuzzCheck(result.items.count == items.count, "export (round \(round)) has \(result.items.count) items, not \(items.count)")
        return (result, bytes)
    }

    static func modelled(_ item: AnyCalendarItem) -> String {
        func alarms(_ a: [Alarm]) -> String { "\(a.map(\.trigger))" }
        // On a UTC start a wall time (RDATE:…, read on the set's clock) and the instant (RDATE:…Z) the writer
        // turns it into are the same date: compare them as instants.
        func dates(_ ds: [RecurrenceDate], _ start: CalendarDate) -> String {
            let normalized = ds.map { d -> RecurrenceDate in
                if case .utc = start, case .local(let l) = d { return .instant(Instant(secondsSince1970: l.localSeconds)) }
                return d
            }
            return "\(normalized)"
        }
        switch item {
        case .event(let e):
            return "event uid=\(e.externalIdentifier) title=\(e.title.debugDescription) notes=\(String(describing: e.notes)) "
                + "location=\(String(describing: e.location)) url=\(String(describing: e.url)) start=\(e.start) end=\(e.end) "
                + "rules=\(e.recurrenceRules) rdates=\(dates(e.recurrenceDates, e.start)) exdates=\(dates(e.exceptionDates, e.start)) seq=\(e.sequence) "
                + "alarms=\(alarms(e.alarms))"
        case .reminder(let r):
            return "todo uid=\(r.externalIdentifier) title=\(r.title.debugDescription) notes=\(String(describing: r.notes)) "
                + "location=\(String(describing: r.location)) url=\(String(describing: r.url)) "
                + "start=\(String(describing: r.startDate)) due=\(String(describing: r.dueDate)) priority=\(r.priority) "
                + "completed=\(r.isCompleted) at=\(String(describing: r.completionDate)) rules=\(r.recurrenceRules) "
                + "seq=\(r.sequence) alarms=\(alarms(r.alarms))"
        }
    }

    static func withoutLines(_ c: ICSComponent) -> ICSComponent {
        ICSComponent(name: c.name, properties: c.properties.map { ICSProperty(name: $0.name, parameters: $0.parameters, value: $0.value) },
                     components: c.components.map(withoutLines))
    }
}
