import ChimeCore
import ChimeFormat
import Foundation
import Glibc

/// `chime expand --batch`: one JSON object per input line → one JSON line per input line, in
/// order, each answer written before the next read waits, so another program can drive it as a
/// co-process. Occurrences are written as bytes, not as a String each.
enum BatchExpansion {
    /// Sets without a limit are expanded up to this many occurrences; more is an error, not a
    /// silent cut.
    static let unlimitedCap = 100_000

    static func run() {
        var out = OutputBuffer()
        var input = StandardInputLines()
        // Answers are flushed whenever reading on would wait, so a co-process that writes a line
        // and waits gets its answer; input that is already there is answered in large writes.
        while let line = input.next(beforeWaiting: { out.flush() }) {
            respond(to: line, into: &out)
            if out.isFull { out.flush() }
        }
        out.flush()
    }

    /// One answer line, newline included.
    static func respond(to line: String, into out: inout OutputBuffer) {
        var id = "null"
        do {
            let object = try parse(line)
            if let value = object["id"] {
                guard let s = value as? String else { throw LineError("id: must be a string") }
                id = JSONText.string(s)
            }
            var expansion = Expansion()
            try expand(object, into: &expansion)
            out.append(bytes: #"{"id":"#.utf8)
            out.append(id)
            out.append(bytes: #","local":["#.utf8)
            for (i, local) in expansion.local.enumerated() {
                if expansion.isAllDay {
                    if i > 0 { out.append(byte: UInt8(ascii: ",")) }
                    out.append(byte: UInt8(ascii: "\""))
                    out.appendBasic(days: Int(local))
                    out.append(byte: UInt8(ascii: "\""))
                } else {
                    out.appendBasic(localSeconds: local, quoted: true, utc: false, comma: i > 0)
                }
            }
            out.append(bytes: #"],"utc":["#.utf8)
            for (i, utc) in expansion.utc.enumerated() {
                out.appendBasic(localSeconds: utc, quoted: true, utc: true, comma: i > 0)
            }
            out.append(bytes: "]}\n".utf8)
        } catch let error as LineError {
            out.append(JSONText.object([("id", id), ("error", JSONText.string(error.message))]) + "\n")
        } catch {
            out.append(JSONText.object([("id", id), ("error", JSONText.string("\(error)"))]) + "\n")
        }
    }

    struct LineError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    private static func parse(_ line: String) throws -> [String: Any] {
        guard !isBlank(line) else { throw LineError("empty line") }
        let parsed: Any
        do { parsed = try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed]) } catch {
            throw LineError("not valid JSON")
        }
        guard let object = parsed as? [String: Any] else { throw LineError("expected a JSON object") }
        return object
    }

    /// What `text.trimmingCharacters(in: .whitespaces).isEmpty` says, without Foundation's
    /// NSString round trip, which took a third of the time a batch spends outside the engine.
    /// Foundation's `.whitespaces` is tab, the Zs category and U+200B (Zs in older Unicode);
    /// checked against it for every scalar.
    static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0 == "\t" || $0 == "\u{200B}" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// The occurrences of one line as numbers, formatted only once the whole set is known good
    /// (a set over the cap is an error line, not a partial answer).
    struct Expansion {
        var isAllDay = false
        /// Wall-clock seconds since 1970 in the zone, or days since 1970 for an all-day set.
        var local: [Int64] = []
        /// UTC seconds since 1970.
        var utc: [Int64] = []
    }

    /// A line's fields. Any other is refused, so that a misspelt one (`"tz"` for `"tzid"`) is
    /// not silently left out: without its zone, a set would be expanded as floating.
    static let fields: Set<String> = ["id", "dtstart", "tzid", "rrule", "rdate", "exdate", "limit"]
    private static let meant = [
        "tz": "tzid", "timezone": "tzid", "zone": "tzid", "start": "dtstart", "rrules": "rrule",
        "rdates": "rdate", "exdates": "exdate", "count": "limit", "until": "limit"
    ]

    static func expand(_ object: [String: Any], into expansion: inout Expansion) throws {
        if object.keys.contains(where: { !fields.contains($0) }), let unknown = object.keys.filter({ !fields.contains($0) }).min() {
            let hint = meant[unknown.lowercased()].map { " (did you mean \"\($0)\"?)" } ?? ""
            throw LineError("unknown field \"\(unknown)\"\(hint); the fields are id, dtstart, tzid, rrule, rdate, exdate and limit")
        }
        let tzid = try string(object, "tzid") ?? "floating"
        let zoneArgument: ZoneArgument
        do { zoneArgument = try ZoneArgument(tzid) } catch { throw LineError("tzid: \(error)") }
        guard let startText = try string(object, "dtstart") else { throw LineError("dtstart: required") }
        guard let start = Self.date(startText) else {
            throw LineError("dtstart: invalid date or date-time \"\(startText)\" (\(Self.dateForms))")
        }
        let recurrenceStart = zoneArgument.recurrenceStart(start)
        // Floating wall times (and all-day dates) are converted as if the zone were UTC.
        let zone: ZoneRules
        if case .zone(let z) = zoneArgument { zone = z } else { zone = .utc }

        var rules: [RecurrenceRule] = []
        for text in try strings(object, "rrule") where !isBlank(text) {
            do { rules.append(try RecurrenceRule(parsing: text)) } catch { throw LineError("rrule: \(error)") }
        }
        let set = RecurrenceSet(
            start: recurrenceStart, rules: rules,
            dates: try dates(object, "rdate"), exceptionDates: try dates(object, "exdate"))

        var maxCount = Int.max
        var untilInstant = Int64.max
        var hasLimit = false
        if let limit = object["limit"] {
            guard let limit = limit as? [String: Any] else { throw LineError("limit: expected an object such as {\"count\": 10}") }
            if let unknown = limit.keys.first(where: { $0 != "count" && $0 != "until_utc" }) {
                throw LineError("limit: unknown field \"\(unknown)\" (use count and/or until_utc)")
            }
            if let c = limit["count"] {
                guard type(of: c) != Bool.self, let n = c as? Int, n >= 0 else { throw LineError("limit.count: expected a non-negative integer") }
                maxCount = n
                hasLimit = true
            }
            if let u = limit["until_utc"] {
                guard let text = u as? String, case .utc(let l)? = BasicDateTime.parse(text) else {
                    throw LineError("limit.until_utc: expected YYYYMMDDTHHMMSSZ")
                }
                untilInstant = l.localSeconds
                hasLimit = true
            }
        }
        let isAllDay = set.start.isAllDay
        expansion.isAllDay = isAllDay
        expansion.local.reserveCapacity(min(maxCount, 1024))
        expansion.utc.reserveCapacity(min(maxCount, 1024))
        var offsetHint = -2
        for o in set.occurrences(floatingZone: zone) {
            if expansion.utc.count >= maxCount || o.instant.secondsSince1970 > untilInstant { break }
            if !hasLimit && expansion.utc.count == unlimitedCap {
                throw LineError("more than \(unlimitedCap) occurrences: give limit.count or limit.until_utc")
            }
            let t = o.instant.secondsSince1970
            expansion.local.append(isAllDay ? Int64(o.date.daysSinceEpoch) : t + Int64(zone.offset(at: o.instant, hint: &offsetHint)))
            expansion.utc.append(t)
        }
    }

    private static func string(_ object: [String: Any], _ key: String) throws -> String? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        guard let s = value as? String else { throw LineError("\(key): expected a string") }
        return s
    }

    private static func strings(_ object: [String: Any], _ key: String) throws -> [String] {
        guard let value = object[key], !(value is NSNull) else { return [] }
        if let s = value as? String { return [s] }
        guard let list = value as? [Any], let strings = list as? [String] else {
            throw LineError("\(key): expected a string or an array of strings")
        }
        return strings
    }

    private static func dates(_ object: [String: Any], _ key: String) throws -> [RecurrenceDate] {
        guard let value = object[key], !(value is NSNull) else { return [] }
        guard let list = value as? [Any] else { throw LineError("\(key): expected an array of dates") }
        return try list.enumerated().map { index, item in
            guard let text = item as? String, let parsed = date(text) else {
                throw LineError("\(key)[\(index)]: invalid date or date-time \(item) (\(dateForms))")
            }
            return parsed.recurrenceDate
        }
    }

    /// A date of a line: RFC 5545's basic form first (what generated input carries, read at
    /// speed), else ISO 8601 as `--dtstart` takes it (what people type); never a word like
    /// "today", whose meaning would change with the day the batch runs.
    static func date(_ text: String) -> DateValue? {
        BasicDateTime.parse(text).map(DateValue.init) ?? DateExpression.written(text)
    }

    static let dateForms = "expected 2026-01-05T09:00[:00][Z], 2026-01-05, 20260105T090000[Z] or 20260105"
}

/// Standard input split into lines the way `readLine(strippingNewline: true)` splits it (a final
/// line without a newline counts; "\r\n" ends a line too), read in large blocks.
struct StandardInputLines {
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false

    /// The next line, or nil at the end of input. `beforeWaiting` runs before a read that
    /// would block.
    mutating func next(beforeWaiting: () -> Void) -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 10) {
                var end = newline
                if end > start && buffer[end - 1] == 13 { end -= 1 }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = newline + 1
                return line
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = String(decoding: buffer[start...], as: UTF8.self)
                start = buffer.count
                return line
            }
            buffer.removeSubrange(0..<start)
            start = 0
            var ready = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 0) == 0 { beforeWaiting() }
            let chunk = 1 << 16
            let old = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: chunk))
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress! + old, chunk) }
            if n < 0 && errno == EINTR { buffer.removeSubrange(old...); continue }
            buffer.removeSubrange((old + max(n, 0))...)
            if n <= 0 { atEnd = true }
        }
    }
}
