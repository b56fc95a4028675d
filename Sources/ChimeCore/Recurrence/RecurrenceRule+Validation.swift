/// The RFC 5545 §3.3.10 constraints, checked once when a rule is made. Only a validated rule
/// can exist, so the expander never meets a value it cannot handle.
extension RecurrenceRule {
    func validate() throws(RecurrenceRuleError) {
        guard interval >= 1, interval <= Int(Int32.max) else {
            throw .invalidValue(part: "INTERVAL", value: String(interval), expected: "must be a positive integer (1 or more)")
        }
        switch end {
        case .count(let n) where n < 1:
            throw .invalidValue(part: "COUNT", value: String(n), expected: "must be a positive integer (1 or more)")
        default: break
        }
        try check("BYSECOND", bySecond, 0...60, "values must be 0…60")
        try check("BYMINUTE", byMinute, 0...59, "values must be 0…59")
        try check("BYHOUR", byHour, 0...23, "values must be 0…23")
        if calendar == nil && skip != .omit {
            throw .notAllowed(part: "SKIP", value: skip.rawValue, reason: "allowed only with RSCALE (RFC 7529), e.g. RSCALE=GREGORIAN;SKIP=\(skip.rawValue)")
        }
        let months = calendar?.monthsInYear ?? 12
        try check(
            "BYMONTH", monthsOfTheYear, 1...months,
            calendar.map { "values must be 1…\(months) in the \($0.rfc7529) calendar" } ?? "values must be 1…12")
        if let leap = leapMonthsOfTheYear.first {
            guard let calendar, calendar.hasLeapMonths else {
                throw .notAllowed(part: "BYMONTH", value: "\(leap)L", reason: "leap months exist only with RSCALE=CHINESE, DANGI or HEBREW")
            }
            try check("BYMONTH", leapMonthsOfTheYear, 1...12, "leap months must be 1L…12L")
        }
        try checkSigned("BYMONTHDAY", daysOfTheMonth, 31)
        try checkSigned("BYYEARDAY", daysOfTheYear, calendar?.longestYear ?? 366)
        if let w = weeksOfTheYear.first, let calendar, calendar != .gregorian {
            throw .notAllowed(
                part: "BYWEEKNO", value: String(w), reason: "week numbers exist only in the Gregorian calendar, not with RSCALE=\(calendar.rfc7529)")
        }
        try checkSigned("BYWEEKNO", weeksOfTheYear, 53)
        try checkSigned("BYSETPOS", setPositions, 366)

        let ordinalDays = daysOfTheWeek.filter { $0.weekNumber != 0 }
        if let first = ordinalDays.first {
            switch frequency {
            case .monthly:
                if let bad = ordinalDays.first(where: { abs($0.weekNumber) > 5 }) {
                    throw .invalidValue(part: "BYDAY", value: bad.description, expected: "in a MONTHLY rule the ordinal must be -5…-1 or 1…5")
                }
            case .yearly:
                if let bad = ordinalDays.first(where: { abs($0.weekNumber) > 53 }) {
                    throw .invalidValue(part: "BYDAY", value: bad.description, expected: "the ordinal must be -53…-1 or 1…53")
                }
                if !weeksOfTheYear.isEmpty {
                    throw .notAllowed(part: "BYDAY", value: first.description, reason: "an ordinal weekday cannot be combined with BYWEEKNO")
                }
            default:
                throw .notAllowed(
                    part: "BYDAY", value: first.description,
                    reason: "an ordinal weekday is allowed only in MONTHLY and YEARLY rules, not \(frequency.rfc5545)")
            }
        }
        if let w = weeksOfTheYear.first, frequency != .yearly {
            throw .notAllowed(part: "BYWEEKNO", value: String(w), reason: "allowed only in YEARLY rules, not \(frequency.rfc5545)")
        }
        if let d = daysOfTheYear.first, [.daily, .weekly, .monthly].contains(frequency) {
            throw .notAllowed(part: "BYYEARDAY", value: String(d), reason: "not allowed in \(frequency.rfc5545) rules")
        }
        if let d = daysOfTheMonth.first, frequency == .weekly {
            throw .notAllowed(part: "BYMONTHDAY", value: String(d), reason: "not allowed in WEEKLY rules")
        }
        if let p = setPositions.first, bySecond.isEmpty, byMinute.isEmpty, byHour.isEmpty, daysOfTheWeek.isEmpty,
            daysOfTheMonth.isEmpty, daysOfTheYear.isEmpty, weeksOfTheYear.isEmpty, monthsOfTheYear.isEmpty, leapMonthsOfTheYear.isEmpty
        {
            throw .notAllowed(part: "BYSETPOS", value: String(p), reason: "needs another BYxxx part to select from")
        }
    }

    private func check(_ part: String, _ values: [Int], _ range: ClosedRange<Int>, _ expected: String) throws(RecurrenceRuleError) {
        if let bad = values.first(where: { !range.contains($0) }) {
            throw .invalidValue(part: part, value: String(bad), expected: expected)
        }
    }

    private func checkSigned(_ part: String, _ values: [Int], _ limit: Int) throws(RecurrenceRuleError) {
        if let bad = values.first(where: { $0 == 0 || abs($0) > limit }) {
            throw .invalidValue(part: part, value: String(bad), expected: "values must be -\(limit)…-1 or 1…\(limit)")
        }
    }
}
