/// Recurrence in words: what people type for `--repeat`, and a rule said back in English.
extension RecurrenceRule {
    /// The forms ``init(phrase:)`` reads, for help texts and errors:
    /// ``phraseExamples``, or an RRULE such as ``ruleExample``.
    public static let phraseForms = phraseExamples + ", or an RRULE such as " + ruleExample

    /// The phrases of ``phraseForms``, read as written in every language.
    public static let phraseExamples =
        "daily, weekdays, weekly, monthly, yearly, \"every 2 weeks on mon,thu\", "
        + "\"every other tuesday\", \"last friday of the month\", \"monthly on the 15th\", \"every 3 days\", "
        + "\"weekly 10 times\", \"weekly until 2027-03-01\", \"yearly on the chinese calendar\""

    /// The RRULE of ``phraseForms``.
    public static let ruleExample = "FREQ=MONTHLY;BYDAY=-1FR"

    /// The English words ``init(phrase:)`` reads, that a slip in one may be told it meant.
    public static let phraseWords: [String] =
        [
            "annually", "biweekly", "daily", "days", "every", "fifth", "first", "fortnightly", "fourth", "hourly",
            "last", "month", "monthly", "months", "other", "second", "third", "times", "until", "week", "weekday",
            "weekdays", "weekends", "weekly", "weeks", "year", "yearly", "years", "chinese", "hebrew", "calendar"
        ] + DatePhrases.weekdays

    /// Reads a repeat phrase, or an RRULE when the text has `=`:
    /// `daily`, `weekdays`, `weekends`, `weekly`, `fortnightly`, `monthly`, `yearly`,
    /// `every day|week|month|year`, `every 2 weeks`, `every mon,thu`, `weekly on mon and thu`,
    /// `every other tuesday`, `last friday of the month`, `first monday of every month`,
    /// `monthly on the 1st and 15th`, `yearly on dec 25`, each optionally ending in `N times` or
    /// `until YYYY-MM-DD` (that day included).
    ///
    /// ```swift
    /// try RecurrenceRule(phrase: "every 2 weeks on mon,thu").rfc5545   // "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"
    /// try RecurrenceRule(phrase: "weekdays").summary                  // "every weekday"
    /// ```
    public init(phrase text: String) throws(RecurrenceRuleError) {
        if text.contains("=") {
            try self.init(parsing: text)
            return
        }
        // "yearly on the chinese calendar": the phrase, counted in that calendar (RFC 7529); a
        // date some years lack comes the day or month before, as `--calendar-system` does.
        let lower = text.lowercased().trimmingSpaces()
        if lower.hasSuffix(" calendar") {
            let parts = lower.dropLast(" calendar".count).split(separator: " ")
            if parts.count >= 2, let calendar = RecurrenceCalendar(rfc7529: parts.last!) {
                var rest = Array(parts.dropLast())
                while let last = rest.last, ["on", "the", "in", "by"].contains(last) { rest.removeLast() }
                try self.init(phrase: rest.joined(separator: " "))
                self = try counted(in: calendar, skip: .backward)
                return
            }
        }
        let bad = RecurrenceRuleError.notARepeat(text)
        var words = text.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "," })
            .map(String.init).filter { !["and", "on", "the", "of", "each"].contains($0) }
        var end = RecurrenceEnd.never
        if words.count >= 2, words.last == "times" || words.last == "time", let n = Int(words[words.count - 2]), n > 0 {
            end = .count(n)
            words.removeLast(2)
            if words.last == "for" { words.removeLast() }
        } else if words.count >= 2, words[words.count - 2] == "until" {
            guard let day = Self.isoDate(words[words.count - 1]) else {
                throw RecurrenceRuleError.syntax(text, reason: "`until` takes a date written 2027-03-01")
            }
            end = .until(.date(day))
            words.removeLast(2)
        }
        let weekdays: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday]
        var frequency: RecurrenceFrequency?
        var interval = 1
        var days: [Weekday] = []
        var positioned: [RecurrenceDayOfWeek] = []  // last friday, 2nd tuesday (of the month)
        var monthDays: [Int] = []  // the 1st, the 15th
        var months: [Int] = []  // yearly on dec 25
        var i = 0
        // After "last friday" or "the 15th": "month" or "every month" only says what it is of.
        func skipOfTheMonth() {
            if i < words.count, words[i] == "month" { i += 1 } else if i + 1 < words.count, words[i] == "every", words[i + 1] == "month" { i += 2 }
        }
        let units: [String: RecurrenceFrequency] = [
            "hour": .hourly, "day": .daily, "week": .weekly, "month": .monthly, "year": .yearly
        ]
        let adverbs: [String: (RecurrenceFrequency, Int)] = [
            "hourly": (.hourly, 1), "daily": (.daily, 1), "weekly": (.weekly, 1), "biweekly": (.weekly, 2),
            "fortnightly": (.weekly, 2), "monthly": (.monthly, 1), "yearly": (.yearly, 1), "annually": (.yearly, 1)
        ]
        while i < words.count {
            let word = words[i]
            i += 1
            if frequency == nil, let (f, n) = adverbs[word] { (frequency, interval) = (f, n); continue }
            if frequency == nil, word == "weekdays" || word == "weekday" { frequency = .weekly; days = weekdays; continue }
            if frequency == nil, word == "weekends" || word == "weekend" { frequency = .weekly; days = [.saturday, .sunday]; continue }
            if let n = Self.ordinal(word), i < words.count, let day = Weekday(word: words[i]) {
                guard frequency == nil || frequency == .monthly else { throw bad }
                frequency = .monthly
                positioned.append(RecurrenceDayOfWeek(day, weekNumber: n))
                i += 1
                skipOfTheMonth()
                continue
            }
            // "yearly on dec 25", "every year on 25 december", "annually on march 3rd": one day of the year.
            if i < words.count, let (month, day) = Self.dayOfYear(word, words[i]) {
                guard frequency == nil || frequency == .yearly, months.isEmpty else { throw bad }
                frequency = .yearly
                months = [month]
                monthDays = [day]
                i += 1
                continue
            }
            // "day 15" (what the repeat tables of other languages say "the 15th" as).
            if word == "day", i < words.count, let n = Int(words[i]), (1...31).contains(n) {
                guard frequency == nil || frequency == .monthly else { throw bad }
                frequency = .monthly
                i += 1
                // "day 2 tuesday": the table read "am 2." as a day before it met "Dienstag".
                if n <= 5, i < words.count, let weekday = Weekday(word: words[i]) {
                    positioned.append(RecurrenceDayOfWeek(weekday, weekNumber: n))
                    i += 1
                } else {
                    monthDays.append(n)
                }
                skipOfTheMonth()
                continue
            }
            if let n = Self.dayOfMonth(word) {
                guard frequency == nil || frequency == .monthly else { throw bad }
                frequency = .monthly
                monthDays.append(n)
                skipOfTheMonth()
                continue
            }
            // "every monday and every thursday": the second `every` says nothing new.
            if word == "every", frequency == .weekly, i < words.count, Weekday(word: words[i]) != nil { continue }
            if word == "every" && frequency == nil {
                guard i < words.count else { throw bad }
                if words[i] == "other" {
                    guard i + 1 < words.count else { throw bad }
                    interval = 2
                    i += 1
                } else if let n = Int(words[i]) {
                    guard n > 0, i + 1 < words.count else { throw bad }
                    interval = n
                    i += 1
                }
                var unit = words[i]
                if unit.hasSuffix("s") && units[String(unit.dropLast())] != nil { unit.removeLast() }
                if let f = units[unit] { frequency = f; i += 1; continue }
                if unit == "weekday" { frequency = .weekly; days = weekdays; i += 1; continue }
                if Weekday(word: unit) != nil { frequency = .weekly; continue }
                throw bad
            }
            if let day = Weekday(word: word.hasSuffix("s") && Weekday(word: word) == nil ? String(word.dropLast()) : word) {
                guard frequency == nil || frequency == .weekly else { throw bad }
                frequency = .weekly
                days.append(day)
                continue
            }
            throw bad
        }
        guard let frequency else { throw bad }
        try self.init(
            frequency, interval: interval, daysOfTheWeek: days.map { RecurrenceDayOfWeek($0) } + positioned,
            daysOfTheMonth: monthDays, monthsOfTheYear: months, end: end)
    }

    /// `dec 25`, `25 december`, `march 3rd`: a month and a day it has (29 February included).
    private static func dayOfYear(_ a: String, _ b: String) -> (month: Int, day: Int)? {
        let pair: (Int, Int)? =
            if let month = DateExpression.month(a), let day = DateExpression.dayNumber(b) {
                (month, day)
            } else if let day = DateExpression.dayNumber(a), let month = DateExpression.month(b) {
                (month, day)
            } else {
                nil
            }
        guard let (month, day) = pair, CivilDate(year: 2028, month: month, day: day).isValid else { return nil }
        return (month, day)
    }

    /// `2027-03-01`, a real day.
    private static func isoDate(_ word: String) -> CivilDate? {
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        let date = CivilDate(year: y, month: m, day: d)
        return date.isValid ? date : nil
    }

    /// `first`…`fifth`, `1st`…`5th` (or `1`…`5`), `last`: a weekday's place in its month.
    private static func ordinal(_ word: String) -> Int? {
        if word == "last" { return -1 }
        if let n = ["first", "second", "third", "fourth", "fifth"].firstIndex(of: word) { return n + 1 }
        if let n = Int(word), (1...5).contains(n) { return n }
        guard let n = dayOfMonth(word), n <= 5 else { return nil }
        return n
    }

    /// `1st`, `2nd`, `15th`, `31st`: a day of the month, written with its suffix.
    private static func dayOfMonth(_ word: String) -> Int? {
        guard word.count >= 3, ["st", "nd", "rd", "th"].contains(String(word.suffix(2))),
            let n = Int(word.dropLast(2)), (1...31).contains(n)
        else { return nil }
        return n
    }

    /// The rule in English: `every 2 weeks on Monday and Thursday`, `monthly on the last Friday`,
    /// `every weekday, 10 times`. Parts that have no words here (BYSETPOS, BYHOUR…) are added as
    /// the RRULE itself, so the text never says less than the rule.
    public var summary: String {
        let unitNames: [RecurrenceFrequency: String] = [
            .secondly: "second", .minutely: "minute", .hourly: "hour", .daily: "day", .weekly: "week", .monthly: "month", .yearly: "year"
        ]
        let adverbs: [RecurrenceFrequency: String] = [.hourly: "hourly", .daily: "daily", .weekly: "weekly", .monthly: "monthly", .yearly: "yearly"]
        let workdays = [Weekday.monday, .tuesday, .wednesday, .thursday, .friday].map { RecurrenceDayOfWeek($0) }
        var text: String
        if frequency == .weekly && interval == 1 && daysOfTheWeek == workdays.sorted() {
            text = "every weekday"
        } else {
            text = interval == 1 ? (adverbs[frequency] ?? "every \(unitNames[frequency]!)") : "every \(interval) \(unitNames[frequency]!)s"
            if !daysOfTheWeek.isEmpty {
                text +=
                    " on "
                    + Self.list(
                        daysOfTheWeek.map { d in
                            d.weekNumber == 0 ? d.dayOfTheWeek.name : "the \(Self.ordinal(d.weekNumber)) \(d.dayOfTheWeek.name)"
                        })
            }
        }
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September",
            "October", "November", "December"
        ]
        // One day of the year (a birthday, a holiday) as people say it: `yearly on December 25`.
        let dayOfYear =
            frequency == .yearly && daysOfTheWeek.isEmpty && monthsOfTheYear.count == 1 && daysOfTheMonth.count == 1
            && daysOfTheMonth[0] > 0 && (calendar == nil || calendar == .gregorian)
        if dayOfYear {
            text += " on \(months[monthsOfTheYear[0] - 1]) \(daysOfTheMonth[0])"
        } else if !daysOfTheMonth.isEmpty {
            text += " on the " + Self.list(daysOfTheMonth.map(Self.ordinal))
        }
        if dayOfYear {
            // Said above.
        } else if let calendar, calendar != .gregorian {
            // Month names belong to the calendar: say its month numbers.
            if !monthCodes.isEmpty {
                text += " in " + Self.list(monthCodes.map { $0.leap ? "leap month \($0.number)" : "month \($0.number)" })
            }
            text += " on the \(calendar.name) calendar"
            switch skip {
            case .omit: break
            case .backward: text += ", earlier in years without that date"
            case .forward: text += ", later in years without that date"
            }
        } else if !monthsOfTheYear.isEmpty {
            text += " in " + Self.list(monthsOfTheYear.map { months[$0 - 1] })
        }
        let spoken =
            !bySecond.isEmpty || !byMinute.isEmpty || !byHour.isEmpty || !daysOfTheYear.isEmpty
            || !weeksOfTheYear.isEmpty || !setPositions.isEmpty || firstDayOfTheWeek != nil
            || (skip != .omit && calendar == .gregorian)
        if spoken { text += " (\(rfc5545))" }
        switch end {
        case .never: break
        case .count(let n): text += n == 1 ? ", once" : ", \(n) times"
        case .until(let u):
            switch u {
            case .date(let d): text += ", until \(d)"
            case .local(let l): text += ", until \(l.date) \(DisplayText.hhmm(l))"
            case .utc(let i): text += ", until \(i.utc.date) \(DisplayText.hhmm(i.utc)) UTC"
            }
        }
        return text
    }

    private static func ordinal(_ n: Int) -> String {
        if n == -1 { return "last" }
        if n < 0 { return "\(ordinal(-n)) to last" }
        let suffix = (11...13).contains(n % 100) ? "th" : ["th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"][n % 10]
        return "\(n)\(suffix)"
    }

    private static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}
