import ChimeCore
import Foundation

/// `chime expand --batch`: one JSON object per input line → one JSON line per input line, in
/// order, flushed line by line so another program can drive it as a co-process.
enum BatchExpansion {
    /// Sets without a limit are expanded up to this many occurrences; more is an error, not a
    /// silent cut.
    static let unlimitedCap = 100_000

    static func run() {
        while let line = readLine(strippingNewline: true) {
            let answer = respond(to: line)
            FileHandle.standardOutput.write(Data((answer + "\n").utf8))
        }
    }

    struct LineError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    static func respond(to line: String) -> String {
        var id = "null"
        do {
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { throw LineError("empty line") }
            let parsed: Any
            do { parsed = try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed]) } catch {
                throw LineError("not valid JSON")
            }
            guard let object = parsed as? [String: Any] else { throw LineError("expected a JSON object") }
            if let value = object["id"] {
                guard let s = value as? String else { throw LineError("id: must be a string") }
                id = JSONText.string(s)
            }
            let (local, utc) = try expand(object)
            return JSONText.object([("id", id), ("local", JSONText.array(local.map(JSONText.string))),
                                    ("utc", JSONText.array(utc.map(JSONText.string)))])
        } catch let error as LineError {
            return JSONText.object([("id", id), ("error", JSONText.string(error.message))])
        } catch {
            return JSONText.object([("id", id), ("error", JSONText.string("\(error)"))])
        }
    }

    static func expand(_ object: [String: Any]) throws -> (local: [String], utc: [String]) {
        let tzid = try string(object, "tzid") ?? "floating"
        let zoneArgument: ZoneArgument
        do { zoneArgument = try ZoneArgument(tzid) } catch { throw LineError("tzid: \(error)") }
        guard let startText = try string(object, "dtstart") else { throw LineError("dtstart: required") }
        guard let start = BasicDateTime.parse(startText) else {
            throw LineError("dtstart: invalid date or date-time \"\(startText)\" (expected YYYYMMDDTHHMMSS or YYYYMMDD)")
        }
        let recurrenceStart: RecurrenceStart
        switch (start, zoneArgument) {
        case (.date(let d), _): recurrenceStart = .allDay(d)
        case (.local(let l), .floating): recurrenceStart = .floating(l)
        case (.local(let l), .zone(let z)): recurrenceStart = z.isUTC ? .utc(l) : .zoned(l, z)
        case (.utc(let l), .floating): recurrenceStart = .utc(l)
        case (.utc(let l), .zone(let z)):
            recurrenceStart = z.isUTC ? .utc(l) : .zoned(z.localTime(at: Instant(secondsSince1970: l.localSeconds)), z)
        }
        // Floating wall times (and all-day dates) are converted as if the zone were UTC.
        let zone: ZoneRules
        if case .zone(let z) = zoneArgument { zone = z } else { zone = .utc }

        var rules: [RecurrenceRule] = []
        for text in try strings(object, "rrule") where !text.trimmingCharacters(in: .whitespaces).isEmpty {
            do { rules.append(try RecurrenceRule(parsing: text)) } catch { throw LineError("rrule: \(error)") }
        }
        let set = RecurrenceSet(start: recurrenceStart, rules: rules,
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
        var local: [String] = []
        var utc: [String] = []
        for o in set.occurrences(floatingZone: zone) {
            if local.count >= maxCount || o.instant.secondsSince1970 > untilInstant { break }
            if !hasLimit && local.count == unlimitedCap {
                throw LineError("more than \(unlimitedCap) occurrences: give limit.count or limit.until_utc")
            }
            local.append(set.start.isAllDay ? o.date.basicFormat : zone.localTime(at: o.instant).basicFormat)
            utc.append(o.instant.utcBasicFormat)
        }
        return (local, utc)
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
            guard let text = item as? String, let parsed = BasicDateTime.parse(text) else {
                throw LineError("\(key)[\(index)]: invalid date or date-time \(item) (expected YYYYMMDDTHHMMSS or YYYYMMDD)")
            }
            switch parsed {
            case .date(let d): return .date(d)
            case .local(let l): return .local(l)
            case .utc(let l): return .instant(Instant(secondsSince1970: l.localSeconds))
            }
        }
    }
}
