import Foundation
import Testing
@testable import ChimeCore

/// One case of a `Fixtures/*.rrtest` file:
///
/// ```
/// # name: monthly last friday
/// DTSTART;TZID=America/New_York:19970905T090000
/// RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=4
/// EXDATE;TZID=America/New_York:19970926T090000
/// EXPECT 1997-09-05T09:00:00-04:00
/// ```
///
/// Cases are separated by blank lines; other `#` lines are comments. DTSTART is
/// `DTSTART;TZID=Zone:local`, `DTSTART:utcZ`, `DTSTART:local` (floating, read in UTC) or
/// `DTSTART;VALUE=DATE:date` (all-day, EXPECT gives dates). RDATE and EXDATE take comma-separated
/// dates, local times (in DTSTART's zone) or UTC times. A set whose rules all have COUNT or UNTIL
/// must produce exactly the EXPECT list; otherwise the list is its beginning.
struct GoldenCase: Sendable, CustomTestStringConvertible {
    var file: String
    var name: String
    var recurrence: RecurrenceSet?
    /// The zone the occurrences are shown on (DTSTART's zone, or UTC).
    var zone: ZoneRules = .utc
    var expected: [String] = []
    /// Parse errors: reported by the test rather than crashing the loader.
    var problem: String?

    var testDescription: String { "\(file): \(name)" }
    var isAllDay: Bool { recurrence?.start.isAllDay ?? false }
    /// Whether the EXPECT list is the whole set (every rule bounded by COUNT or UNTIL).
    var isComplete: Bool { recurrence?.rules.allSatisfy { $0.end != .never } ?? false }

    /// The instant of an EXPECT line (midnight UTC for an all-day date).
    func instant(_ text: String) -> Instant {
        ExpectedTimes.instant(isAllDay ? text + "T00:00:00Z" : text)
    }

    /// An occurrence written as an EXPECT line would write it.
    func show(_ o: Occurrence) -> String {
        guard isAllDay else { return o.wallClock(in: zone) }
        let d = o.date
        let text = "\(ExpectedTimes.four(d.year))-\(ExpectedTimes.two(d.month))-\(ExpectedTimes.two(d.day))"
        // An all-day occurrence must also sit at midnight (UTC floating zone); show it if not.
        return instant(text) == o.instant ? text : text + " @ \(o.instant)"
    }
}

enum GoldenFixtures {
    /// Every case of every `.rrtest` file in the test bundle's Fixtures folder.
    static func load() -> [GoldenCase] {
        guard let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            return [GoldenCase(file: "Fixtures", name: "folder", problem: "Fixtures folder missing from the test bundle")]
        }
        let files = ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "rrtest" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        return files.flatMap { url -> [GoldenCase] in
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                return [GoldenCase(file: url.lastPathComponent, name: "file", problem: "unreadable")]
            }
            return parse(text, file: url.lastPathComponent)
        }
    }

    static func parse(_ text: String, file: String) -> [GoldenCase] {
        var cases: [GoldenCase] = []
        var block: [String] = []
        for line in (text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(in: .whitespaces) } + [""]) {
            if line.isEmpty {
                if block.contains(where: { !$0.hasPrefix("#") }) { cases.append(parseCase(block, file: file)) }
                block = []
            } else {
                block.append(line)
            }
        }
        return cases
    }

    private struct Failure: Error { var message: String }

    private static func parseCase(_ lines: [String], file: String) -> GoldenCase {
        var result = GoldenCase(file: file, name: "case at “\(lines[0])”")
        do {
            var start: RecurrenceStart?
            var rules: [RecurrenceRule] = []
            var dates: [RecurrenceDate] = []
            var exceptions: [RecurrenceDate] = []
            for line in lines {
                if line.hasPrefix("# name:") { result.name = line.dropFirst(7).trimmingCharacters(in: .whitespaces); continue }
                if line.hasPrefix("#") { continue }
                if line.hasPrefix("EXPECT ") { result.expected.append(String(line.dropFirst(7)).trimmingCharacters(in: .whitespaces)); continue }
                guard let colon = line.firstIndex(of: ":") else { throw Failure(message: "no ':' in “\(line)”") }
                let head = line[..<colon].split(separator: ";").map(String.init)
                let value = String(line[line.index(after: colon)...])
                var params: [String: String] = [:]
                for p in head.dropFirst() {
                    let kv = p.split(separator: "=", maxSplits: 1).map(String.init)
                    guard kv.count == 2 else { throw Failure(message: "bad parameter “\(p)”") }
                    params[kv[0].uppercased()] = kv[1]
                }
                if let tzid = params["TZID"] {
                    guard let z = try? ZoneRules.named(tzid) else { throw Failure(message: "unknown zone \(tzid)") }
                    if head[0] == "DTSTART" {
                        result.zone = z
                    } else if z != result.zone {
                        throw Failure(message: "\(head[0]) must use DTSTART's zone")
                    }
                }
                switch head[0].uppercased() {
                case "DTSTART":
                    switch try Self.value(value) {
                    case .date(let d): start = .allDay(d)
                    case .local(let l): start = params["TZID"] == nil ? .floating(l) : .zoned(l, result.zone)
                    case .instant(let i): start = .utc(i.utc)
                    }
                case "RRULE":
                    do { rules.append(try RecurrenceRule(parsing: value)) } catch { throw Failure(message: "RRULE: \(error)") }
                case "RDATE": dates += try value.split(separator: ",").map { try Self.value(String($0)) }
                case "EXDATE": exceptions += try value.split(separator: ",").map { try Self.value(String($0)) }
                default: throw Failure(message: "unknown line “\(line)”")
                }
            }
            guard let start else { throw Failure(message: "no DTSTART") }
            guard !result.expected.isEmpty else { throw Failure(message: "no EXPECT lines") }
            result.recurrence = RecurrenceSet(start: start, rules: rules, dates: dates, exceptionDates: exceptions)
        } catch let failure as Failure {
            result.problem = failure.message
        } catch {
            result.problem = "\(error)"
        }
        return result
    }

    /// `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `YYYYMMDDTHHMMSSZ`.
    private static func value(_ text: String) throws -> RecurrenceDate {
        let c = Array(text.utf8)
        func num(_ from: Int, _ count: Int) throws -> Int {
            guard let v = Int(String(decoding: c[from..<(from + count)], as: UTF8.self)) else { throw Failure(message: "bad value “\(text)”") }
            return v
        }
        guard c.count == 8 || c.count == 15 || (c.count == 16 && c[15] == UInt8(ascii: "Z")) else {
            throw Failure(message: "bad value “\(text)”")
        }
        let date = CivilDate(year: try num(0, 4), month: try num(4, 2), day: try num(6, 2))
        if c.count == 8 { return .date(date) }
        let local = LocalDateTime(date: date, hour: try num(9, 2), minute: try num(11, 2), second: try num(13, 2))
        if c.count == 15 { return .local(local) }
        return .instant(
            Instant(
                secondsSince1970: ExpectedTimes.daysFromCivil(date.year, date.month, date.day) * 86_400
                    + Int64(local.hour * 3600 + local.minute * 60 + local.second)))
    }
}
