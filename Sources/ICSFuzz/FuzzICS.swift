// libFuzzer harness for the .ics parser (`make fuzz`, Tests/Fuzz/README.md).
//
// Fuzz build (Tests/Fuzz/fuzz.sh): `-sanitize=fuzzer,address -DFUZZING`; libFuzzer supplies main() and calls
// LLVMFuzzerTestOneInput once per generated input. Normal build: the `@main` below replays the files
// given as arguments through the same checks, with a readable Swift backtrace:
//     swift run --scratch-path .build-fuzzcheck ICSFuzz Tests/Fuzz/Crashes/ICSFuzz/*
//
// Every trap is a finding. Tests/ChimeICSTests/FuzzRegressionTests.swift replays the corpus and the
// crashers through the same checks in `make test`; keep the two in step.

import ChimeCore
import ChimeICS

/// Fixed inputs of the writer, so that a run is deterministic.
let fuzzNow = Instant(secondsSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

/// The checks one input goes through. A thrown `ICSError` is the right answer to a bad file; any trap,
/// and any failed check below, is a finding.
public func checkICS(_ bytes: [UInt8]) {
    // 1. Structure. Writing the tree back as (unfolded) content lines and reading it again gives the same tree.
    guard let calendar = try? ICalendar.parseComponents(bytes, file: "fuzz.ics") else { return }
    let written = calendar.contentLines.joined(separator: "\r\n") + "\r\n"
    let reread: ICSComponent
    do { reread = try ICalendar.parseComponents(Array(written.utf8), file: "rewritten.ics") } catch {
        fatalError("component tree written back does not parse: \(error)\n\(written)")
    }
    fuzzCheck(withoutLines(reread) == withoutLines(calendar), "component tree changed when written back:\n\(written)")

    // 2. Items. A strict parse that succeeds means a repairing one does too, with the same items
    // and no repairs.
    let strict = try? ICalendar.parse(bytes, file: "fuzz.ics", strict: true)
    guard let lenient = try? ICalendar.parse(bytes, file: "fuzz.ics") else {
        fuzzCheck(strict == nil, "the strict parse succeeded, the repairing one failed")
        return
    }
    if let strict {
        fuzzCheck(strict.items.count == lenient.items.count, "strict and repairing parses differ")
        fuzzCheck(lenient.repairs.isEmpty, "a file read strictly needed repairs")
    }

    // 3. Expansion of what was read (zoned starts, custom VTIMEZONEs, RDATE and EXDATE merging).
    for item in lenient.items {
        if case .event(let e) = item.item { _ = e.recurrenceSet.first(5) }
    }

    // 4. Export. The writer's file parses strictly, with the same items (what the model holds: text, dates,
    //    recurrence, alarm triggers); after that first normalisation (the writer adds ACTION/DESCRIPTION to
    //    alarms, which then read back as kept lines) exporting again is a fixed point, byte for byte.
    let items = lenient.items.map(\.item)
    let (first, firstBytes) = exportAndRead(items, calendarName: lenient.calendarName, round: 1)
    for (a, b) in zip(items, first.items.map(\.item)) {
        fuzzCheck(
            modelled(a) == modelled(b),
            "item changed by export and import:\n\(modelled(a))\n\(modelled(b))\n"
                + String(decoding: firstBytes, as: UTF8.self))
    }
    let (second, secondBytes) = exportAndRead(first.items.map(\.item), calendarName: first.calendarName, round: 2)
    let (_, thirdBytes) = exportAndRead(second.items.map(\.item), calendarName: second.calendarName, round: 3)
    fuzzCheck(
        secondBytes == thirdBytes,
        "export is not a fixed point:\n\(String(decoding: secondBytes, as: UTF8.self))"
            + "\n---\n" + String(decoding: thirdBytes, as: UTF8.self))
}

/// Serializes and parses back strictly; the exported file must parse and hold as many items.
func exportAndRead(_ items: [AnyCalendarItem], calendarName: String?, round: Int) -> (ICSParseResult, [UInt8]) {
    let bytes = ICalendar.serialize(items, calendarName: calendarName, now: fuzzNow, floatingZone: .utc)
    let result: ICSParseResult
    do { result = try ICalendar.parse(bytes, file: "export\(round).ics", strict: true) } catch {
        fatalError("exported file (round \(round)) does not parse: \(error)\n" + String(decoding: bytes, as: UTF8.self))
    }
    fuzzCheck(result.items.count == items.count, "export (round \(round)) has \(result.items.count) items, not \(items.count)")
    return (result, bytes)
}

/// What an item means, without the identifier (new on every parse) and the kept iCalendar lines.
func modelled(_ item: AnyCalendarItem) -> String {
    func alarms(_ a: [Alarm]) -> String { "\(a.map(\.trigger))" }
    // On a UTC start a wall time (RDATE:…, read on the set's clock) and the instant (RDATE:…Z) the writer
    // turns it into are the same date: compare them as instants.
    func dates(_ ds: [RecurrenceDate], _ start: CalendarDate) -> String {
        let normalized = ds.map { d -> RecurrenceDate in
            if case .utc = start, case .local(let l) = d { return .instant(Instant(utc: l)) }
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

/// The tree without line numbers (they differ between a file and its rewrite).
func withoutLines(_ c: ICSComponent) -> ICSComponent {
    ICSComponent(
        name: c.name, properties: c.properties.map { ICSProperty(name: $0.name, parameters: $0.parameters, value: $0.value) },
        components: c.components.map(withoutLines))
}

/// `precondition` that reports its message in -O builds too (the fuzz build and `make test` are release
/// builds, where `precondition` traps without saying why).
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
    if !condition { fatalError(message(), file: file, line: line) }
}

#if FUZZING
    /// libFuzzer entry point. Must not print; returns 0. (Only in the fuzz build, so that other targets can
    /// link this module without a duplicate symbol.)
    @_cdecl("LLVMFuzzerTestOneInput")
    public func icsFuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        checkICS(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
#else
    import Foundation

    /// Normal build: replays the files named on the command line (libFuzzer is not linked).
    @main
    enum ICSFuzzReplay {
        static func main() throws {
            let paths = CommandLine.arguments.dropFirst()
            if paths.isEmpty {
                print("usage: ICSFuzz FILE... (replays each file through the fuzz checks)")
            }
            for path in paths {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                let bytes = [UInt8](data)
                do {
                    let result = try ICalendar.parse(bytes, file: path)
                    print(
                        "\(path): \(result.items.count) items, \(result.overrides.count) overrides, \(result.skipped.count) skipped"
                            + result.skipped.map { "\n  skipped: \($0)" }.joined())
                } catch {
                    print("\(path): rejected: \(error)")
                }
                checkICS(bytes)
            }
        }
    }
#endif
