/// RRULE text: parsing (`NAME=VALUE;…`, case-insensitive names) and canonical formatting.
extension RecurrenceRule {
    /// Parses and validates RRULE text such as `FREQ=MONTHLY;BYDAY=-1FR;COUNT=10`.
    /// A leading `RRULE:` is accepted.
    public init(parsing text: String) throws(RecurrenceRuleError) {
        var body = Substring(text.trimmingSpaces())
        if body.prefix(6).asciiUppercased == "RRULE:" { body = body.dropFirst(6) }
        guard !body.isEmpty else { throw .syntax(text, reason: "empty rule") }

        var seen: Set<String> = []
        var frequency: RecurrenceFrequency?
        var interval = 1
        var count: Int?
        var until: RecurrenceUntil?
        var lists: [String: [Int]] = [:]
        var days: [RecurrenceDayOfWeek] = []
        var weekStart: Weekday?
        var calendar: RecurrenceCalendar?
        var skip: RecurrenceSkip?
        var leapMonths: [Int] = []

        for segment in body.splitASCII(";", omittingEmptySubsequences: false) {
            if segment.isEmpty { continue }  // tolerate a trailing ";"
            guard let eq = segment.firstIndex(of: "=") else {
                throw .syntax(String(segment), reason: "expected NAME=VALUE")
            }
            let name = segment[..<eq].asciiUppercased
            let value = String(segment[segment.index(after: eq)...])
            guard Self.partNames.contains(name) else {
                throw name.isEmpty ? .syntax(String(segment), reason: "missing rule part name") : .unknownPart(name)
            }
            guard seen.insert(name).inserted else { throw .duplicatePart(name) }
            guard !value.isEmpty else { throw .invalidValue(part: name, value: "", expected: "a value is required") }

            switch name {
            case "FREQ":
                guard let f = RecurrenceFrequency(rfc5545: value) else {
                    throw .invalidValue(part: name, value: value, expected: "must be SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY")
                }
                frequency = f
            case "INTERVAL": interval = try Self.integer(name, value)
            case "COUNT": count = try Self.integer(name, value)
            case "UNTIL": until = try Self.untilValue(value)
            case "WKST":
                guard let d = Weekday(rfc5545: value) else {
                    throw .invalidValue(part: name, value: value, expected: "must be one of MO, TU, WE, TH, FR, SA, SU")
                }
                weekStart = d
            case "BYDAY":
                days = try value.splitASCII(",", omittingEmptySubsequences: false).map(Self.dayOfWeek)
            case "RSCALE":
                guard let c = RecurrenceCalendar(rfc7529: value) else {
                    throw .invalidValue(
                        part: name, value: value, expected: "not a calendar Chime knows; use one of \(RecurrenceCalendar.namesForHelp.uppercased())")
                }
                calendar = c
            case "SKIP":
                guard let s = RecurrenceSkip(rawValue: value.uppercased()) else {
                    throw .invalidValue(part: name, value: value, expected: "must be OMIT, BACKWARD or FORWARD")
                }
                skip = s
            case "BYMONTH":
                var ordinary: [Int] = []
                for item in value.splitASCII(",", omittingEmptySubsequences: false) {
                    if item.last == "L" || item.last == "l" {
                        leapMonths.append(try Self.integer(name, String(item.dropLast())))
                    } else {
                        ordinary.append(try Self.integer(name, String(item)))
                    }
                }
                lists[name] = ordinary
            default:
                lists[name] = try value.splitASCII(",", omittingEmptySubsequences: false).map { item throws(RecurrenceRuleError) in
                    try Self.integer(name, String(item))
                }
            }
        }
        guard let frequency else { throw .missingFrequency }
        if let skip, calendar == nil {
            throw .notAllowed(part: "SKIP", value: skip.rawValue, reason: "allowed only with RSCALE (RFC 7529), e.g. RSCALE=GREGORIAN;SKIP=\(skip.rawValue)")
        }
        let end: RecurrenceEnd
        switch (count, until) {
        case (.some, .some): throw .conflict("COUNT and UNTIL cannot both be given (RFC 5545 §3.3.10)")
        case (.some(let n), nil): end = .count(n)
        case (nil, .some(let u)): end = .until(u)
        case (nil, nil): end = .never
        }
        try self.init(
            frequency, interval: interval, daysOfTheWeek: days,
            daysOfTheMonth: lists["BYMONTHDAY"] ?? [], monthsOfTheYear: lists["BYMONTH"] ?? [],
            weeksOfTheYear: lists["BYWEEKNO"] ?? [], daysOfTheYear: lists["BYYEARDAY"] ?? [],
            setPositions: lists["BYSETPOS"] ?? [], hours: lists["BYHOUR"] ?? [],
            minutes: lists["BYMINUTE"] ?? [], seconds: lists["BYSECOND"] ?? [],
            end: end, firstDayOfTheWeek: weekStart, calendar: calendar, skip: skip ?? .omit,
            leapMonthsOfTheYear: leapMonths)
    }

    /// Canonical RRULE text: RSCALE first (as RFC 7529 writes it), then the parts in RFC 5545
    /// grammar order, lists sorted, INTERVAL=1 and SKIP=OMIT left out, SKIP last.
    /// `RecurrenceRule(parsing: r.rfc5545) == r` for every valid rule.
    public var rfc5545: String {
        var parts = calendar.map { ["RSCALE=" + $0.rfc7529] } ?? []
        parts.append("FREQ=" + frequency.rfc5545)
        switch end {
        case .never: break
        case .count(let n): parts.append("COUNT=\(n)")
        case .until(let u): parts.append("UNTIL=\(u)")
        }
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        func list(_ name: String, _ values: [Int]) {
            if !values.isEmpty { parts.append(name + "=" + values.map(String.init).joined(separator: ",")) }
        }
        list("BYSECOND", bySecond)
        list("BYMINUTE", byMinute)
        list("BYHOUR", byHour)
        if !daysOfTheWeek.isEmpty { parts.append("BYDAY=" + daysOfTheWeek.map(\.description).joined(separator: ",")) }
        list("BYMONTHDAY", daysOfTheMonth)
        list("BYYEARDAY", daysOfTheYear)
        list("BYWEEKNO", weeksOfTheYear)
        if !monthsOfTheYear.isEmpty || !leapMonthsOfTheYear.isEmpty {
            parts.append("BYMONTH=" + monthCodes.map(\.description).joined(separator: ","))
        }
        list("BYSETPOS", setPositions)
        if let w = firstDayOfTheWeek { parts.append("WKST=" + w.rfc5545) }
        if calendar != nil && skip != .omit { parts.append("SKIP=" + skip.rawValue) }
        return parts.joined(separator: ";")
    }

    static let partNames: Set<String> = [
        "FREQ", "UNTIL", "COUNT", "INTERVAL", "BYSECOND", "BYMINUTE", "BYHOUR", "BYDAY",
        "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYMONTH", "BYSETPOS", "WKST", "RSCALE", "SKIP"
    ]

    private static func integer(_ part: String, _ text: String) throws(RecurrenceRuleError) -> Int {
        let digits = text.first == "+" || text.first == "-" ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), digits.count <= 10, let v = Int(text) else {
            throw .invalidValue(part: part, value: text, expected: "not an integer")
        }
        return v
    }

    private static func dayOfWeek(_ item: Substring) throws(RecurrenceRuleError) -> RecurrenceDayOfWeek {
        let text = String(item)
        guard item.count >= 2, let day = Weekday(rfc5545: item.suffix(2)) else {
            throw .invalidValue(part: "BYDAY", value: text, expected: "expected [+|-][1…53]MO…SU, e.g. MO, 2TU or -1FR")
        }
        let ordinalText = item.dropLast(2)
        if ordinalText.isEmpty { return RecurrenceDayOfWeek(day) }
        let digits = ordinalText.first == "+" || ordinalText.first == "-" ? ordinalText.dropFirst() : ordinalText
        guard !digits.isEmpty, digits.count <= 3, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let n = Int(ordinalText) else {
            throw .invalidValue(part: "BYDAY", value: text, expected: "expected [+|-][1…53]MO…SU, e.g. MO, 2TU or -1FR")
        }
        guard n != 0 else { throw .invalidValue(part: "BYDAY", value: text, expected: "the week ordinal cannot be 0") }
        return RecurrenceDayOfWeek(day, weekNumber: n)
    }

    private static func untilValue(_ text: String) throws(RecurrenceRuleError) -> RecurrenceUntil {
        guard let parsed = BasicDateTime.parse(text) else {
            throw .invalidValue(part: "UNTIL", value: text, expected: "expected a date YYYYMMDD or a date-time YYYYMMDDTHHMMSS[Z]")
        }
        switch parsed {
        case .date(let d): return .date(d)
        case .local(let l): return .local(l)
        case .utc(let l): return .utc(Instant(utc: l))
        }
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
