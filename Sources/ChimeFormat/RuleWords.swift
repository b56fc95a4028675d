import ChimeCore

/// A repeat rule in the user's language, for what the everyday commands say back (`Repeats:
/// wöchentlich am Montag und Donnerstag`). English is ``RecurrenceRule/summary``. Other languages
/// get words for what every language can say plainly (a frequency and its interval, weekdays,
/// days of the month, a weekday's place in its month, a count, an end date); a rule with more
/// (BYSETPOS, months, another calendar) is shown as its RRULE alone rather than half in English.
public enum RuleWords {
    /// The words for `rule`, nil when its language has none for some part of it.
    ///
    /// ```swift
    /// RuleWords.words(try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,TH"), messages: german)
    /// // "wöchentlich am Montag und Donnerstag"
    /// ```
    public static func words(_ rule: RecurrenceRule, messages: Messages) -> String? {
        guard messages.language != nil else { return rule.summary }
        guard rule.calendar == nil || rule.calendar == .gregorian, rule.skip == .omit, rule.monthsOfTheYear.isEmpty,
            rule.leapMonthsOfTheYear.isEmpty, rule.bySecond.isEmpty, rule.byMinute.isEmpty, rule.byHour.isEmpty,
            rule.daysOfTheYear.isEmpty, rule.weeksOfTheYear.isEmpty, rule.setPositions.isEmpty, rule.firstDayOfTheWeek == nil,
            rule.daysOfTheWeek.allSatisfy({ $0.weekNumber == 0 || (rule.frequency == .monthly && ordinalWeekdays.contains($0.weekNumber)) }),
            rule.daysOfTheMonth.allSatisfy({ $0 > 0 })
        else { return nil }
        let workdays = [Weekday.monday, .tuesday, .wednesday, .thursday, .friday].map { RecurrenceDayOfWeek($0) }
        var text: String
        if rule.frequency == .weekly && rule.interval == 1 && rule.daysOfTheWeek == workdays.sorted() {
            text = messages("every weekday", context: "repeat")
        } else {
            guard let base = frequency(rule, messages) else { return nil }
            text = base
            if !rule.daysOfTheWeek.isEmpty {
                let days = list(rule.daysOfTheWeek.map { day($0, messages) }, messages)
                text = messages("{rule} on {days}", context: "repeat", ["rule": text, "days": days])
            }
        }
        if !rule.daysOfTheMonth.isEmpty {
            text = messages("{rule} on day {days}", context: "repeat", ["rule": text, "days": list(rule.daysOfTheMonth.map(String.init), messages)])
        }
        switch rule.end {
        case .never: break
        case .count(let n): text += messages.plural(", {count} time", ", {count} times", count: n)
        case .until(let until):
            let date: String
            switch until {
            case .date(let d): date = messages.dayHeading(d)
            case .local(let l): date = "\(messages.dayHeading(l.date)) \(DisplayText.hhmm(l))"
            case .utc(let i): date = "\(messages.dayHeading(i.utc.date)) \(DisplayText.hhmm(i.utc)) UTC"
            }
            text += messages(", until {date}", context: "repeat", ["date": date])
        }
        return text
    }

    private static func frequency(_ rule: RecurrenceRule, _ messages: Messages) -> String? {
        let n = rule.interval
        switch rule.frequency {
        case .hourly: return n == 1 ? messages("hourly", context: "repeat") : messages.plural("every {count} hour", "every {count} hours", count: n)
        case .daily: return n == 1 ? messages("daily", context: "repeat") : messages.plural("every {count} day", "every {count} days", count: n)
        case .weekly: return n == 1 ? messages("weekly", context: "repeat") : messages.plural("every {count} week", "every {count} weeks", count: n)
        case .monthly: return n == 1 ? messages("monthly", context: "repeat") : messages.plural("every {count} month", "every {count} months", count: n)
        case .yearly: return n == 1 ? messages("yearly", context: "repeat") : messages.plural("every {count} year", "every {count} years", count: n)
        default: return nil
        }
    }

    /// The places of a weekday in its month said in words: the first to the fifth, and the last.
    static let ordinalWeekdays: Set<Int> = [1, 2, 3, 4, 5, -1]

    /// A weekday of a rule, with its place in the month when it has one (`letzten Freitag`, `最后一个星期五`).
    private static func day(_ day: RecurrenceDayOfWeek, _ messages: Messages) -> String {
        let name = weekday(day.dayOfTheWeek, messages)
        switch day.weekNumber {
        case 1: return messages("the first {weekday}", context: "repeat", ["weekday": name])
        case 2: return messages("the second {weekday}", context: "repeat", ["weekday": name])
        case 3: return messages("the third {weekday}", context: "repeat", ["weekday": name])
        case 4: return messages("the fourth {weekday}", context: "repeat", ["weekday": name])
        case 5: return messages("the fifth {weekday}", context: "repeat", ["weekday": name])
        case -1: return messages("the last {weekday}", context: "repeat", ["weekday": name])
        default: return name
        }
    }

    /// A weekday as its language writes it inside a sentence (`Montag`, `понедельник`, `lundi`):
    /// from the catalog, since the locale's own names are capitalised for headings in some
    /// languages and not in others.
    static func weekday(_ day: Weekday, _ messages: Messages) -> String {
        switch day {
        case .monday: messages("Monday", context: "weekday in a sentence")
        case .tuesday: messages("Tuesday", context: "weekday in a sentence")
        case .wednesday: messages("Wednesday", context: "weekday in a sentence")
        case .thursday: messages("Thursday", context: "weekday in a sentence")
        case .friday: messages("Friday", context: "weekday in a sentence")
        case .saturday: messages("Saturday", context: "weekday in a sentence")
        case .sunday: messages("Sunday", context: "weekday in a sentence")
        }
    }

    /// `Montag, Mittwoch und Freitag`, `星期一、星期三和星期五`.
    private static func list(_ items: [String], _ messages: Messages) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        let first = items.dropLast().joined(separator: messages(", ", context: "list separator"))
        return messages("{first} and {last}", context: "list", ["first": first, "last": last])
    }
}
