/// The POSIX TZ string at the end of a TZif file (e.g. `EST5EDT,M3.2.0,M11.1.0`), which gives
/// the rules after the last explicit transition (2037 in Debian's files).
///
/// Offsets are stored east-positive (the POSIX text is west-positive).
struct PosixTimeZoneRule: Equatable {
    var standardOffset: Int32
    var daylight: Daylight?

    struct Daylight: Equatable {
        var offset: Int32
        var start: DateRule
        var startTime: Int32  // seconds after local midnight, standard time
        var end: DateRule
        var endTime: Int32  // seconds after local midnight, daylight time
    }

    enum DateRule: Equatable {
        case julianNoLeap(Int)  // Jn, 1…365, February 29 never counted
        case zeroBased(Int)  // n, 0…365
        case monthWeekDay(month: Int, week: Int, weekday: Int)  // Mm.w.d, d: 0 = Sunday

        func date(in year: Int) -> CivilDate {
            switch self {
            case .julianNoLeap(let n):
                var dayOfYear = n
                if CivilDate.isLeapYear(year) && n >= 60 { dayOfYear += 1 }
                return CivilDate(year: year, month: 1, day: 1).adding(days: dayOfYear - 1)
            case .zeroBased(let n):
                return CivilDate(year: year, month: 1, day: 1).adding(days: n)
            case .monthWeekDay(let month, let week, let weekday):
                let first = CivilDate(year: year, month: month, day: 1)
                let firstSundayBased = first.weekday.rawValue - 1  // 0 = Sunday
                var day = 1 + (weekday - firstSundayBased + 7) % 7 + (week - 1) * 7
                let length = CivilDate.daysInMonth(year: year, month: month)
                while day > length { day -= 7 }
                return CivilDate(year: year, month: month, day: day)
            }
        }
    }

    /// The UTC instants of the year's transitions, each with the offset that follows it, sorted.
    func transitions(in year: Int) -> [(at: Int64, offsetAfter: Int32)] {
        guard let dst = daylight else { return [] }
        let start = Int64(dst.start.date(in: year).daysSinceEpoch) * 86_400 + Int64(dst.startTime) - Int64(standardOffset)
        let end = Int64(dst.end.date(in: year).daysSinceEpoch) * 86_400 + Int64(dst.endTime) - Int64(dst.offset)
        let pair = [(at: start, offsetAfter: dst.offset), (at: end, offsetAfter: standardOffset)]
        return pair.sorted { $0.at < $1.at }
    }

    init(standardOffset: Int32, daylight: Daylight?) {
        self.standardOffset = standardOffset
        self.daylight = daylight
    }

    // MARK: - Parsing

    init?(_ text: String) {
        var s = Substring(text)
        guard PosixTimeZoneRule.skipName(&s), let std = PosixTimeZoneRule.parseOffset(&s) else { return nil }
        standardOffset = -std
        if s.isEmpty { daylight = nil; return }
        guard PosixTimeZoneRule.skipName(&s) else { return nil }
        var dstOffset = standardOffset + 3600
        if let first = s.first, first != "," {
            guard let o = PosixTimeZoneRule.parseOffset(&s) else { return nil }
            dstOffset = -o
        }
        // Without rules POSIX leaves the dates to the implementation; tzdata always writes them.
        guard s.first == "," else { return nil }
        s.removeFirst()
        guard let (start, startTime) = PosixTimeZoneRule.parseDateTime(&s), s.first == "," else { return nil }
        s.removeFirst()
        guard let (end, endTime) = PosixTimeZoneRule.parseDateTime(&s), s.isEmpty else { return nil }
        daylight = Daylight(offset: dstOffset, start: start, startTime: startTime, end: end, endTime: endTime)
    }

    private static func skipName(_ s: inout Substring) -> Bool {
        if s.first == "<" {
            guard let close = s.firstIndex(of: ">") else { return false }
            s = s[s.index(after: close)...]
            return true
        }
        let name = s.prefix { $0.isLetter }
        guard name.count >= 3 else { return false }
        s = s.dropFirst(name.count)
        return true
    }

    /// `[+-]hh[:mm[:ss]]` in seconds, sign as written.
    private static func parseOffset(_ s: inout Substring) -> Int32? {
        var sign: Int32 = 1
        if s.first == "+" { s.removeFirst() } else if s.first == "-" { sign = -1; s.removeFirst() }
        var parts: [Int32] = []
        while parts.count < 3 {
            let digits = s.prefix { $0.isNumber }
            guard !digits.isEmpty, let v = Int32(digits) else { return parts.isEmpty ? nil : nil }
            parts.append(v)
            s = s.dropFirst(digits.count)
            if s.first == ":" { s.removeFirst() } else { break }
        }
        while parts.count < 3 { parts.append(0) }
        return sign * (parts[0] * 3600 + parts[1] * 60 + parts[2])
    }

    private static func parseDateTime(_ s: inout Substring) -> (DateRule, Int32)? {
        let rule: DateRule
        if s.first == "M" {
            s.removeFirst()
            let fields = s.prefix { $0.isNumber || $0 == "." }.split(separator: ".").compactMap { Int($0) }
            s = s.dropFirst(s.prefix { $0.isNumber || $0 == "." }.count)
            guard fields.count == 3, (1...12).contains(fields[0]), (1...5).contains(fields[1]), (0...6).contains(fields[2])
            else { return nil }
            rule = .monthWeekDay(month: fields[0], week: fields[1], weekday: fields[2])
        } else if s.first == "J" {
            s.removeFirst()
            let digits = s.prefix { $0.isNumber }
            guard let n = Int(digits), (1...365).contains(n) else { return nil }
            s = s.dropFirst(digits.count)
            rule = .julianNoLeap(n)
        } else {
            let digits = s.prefix { $0.isNumber }
            guard let n = Int(digits), (0...365).contains(n) else { return nil }
            s = s.dropFirst(digits.count)
            rule = .zeroBased(n)
        }
        var time: Int32 = 7200
        if s.first == "/" {
            s.removeFirst()
            guard let t = parseOffset(&s) else { return nil }
            time = t
        }
        return (rule, time)
    }
}
