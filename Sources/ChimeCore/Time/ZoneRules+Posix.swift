/// Zones whose name carries their rules: `POSIX:<rule>` or `POSIX:<rule> <TZID>`, where `<rule>`
/// is a POSIX TZ string (`<+0130>-1:30<+0230>-2:30,M4.2.0/2,M10.2.0/3`) and the optional TZID is
/// the name a calendar file gave the zone.
///
/// They hold a calendar file's own VTIMEZONE when no tzdata zone has the same offsets: the store
/// keeps a zoned time as text (`20261201T200000;<zone name>`) and reads the zone back with
/// ``ZoneRules/named(_:)``, so a name that *is* the rules survives the store, an export and a new
/// process unchanged, and the events stay on their own wall clock. tzdata names cannot contain
/// `:`, so these names never collide with one.
///
/// ```swift
/// let zone = try ZoneRules.named("POSIX:<+0130>-1:30<+0230>-2:30,M4.2.0/2,M10.2.0/3 /Europe/CUSTOM")
/// zone.importedTZID                                         // "/Europe/CUSTOM"
/// zone.offset(at: Instant(secondsSince1970: 1_782_864_000))  // 9000 (July 2026: +02:30)
/// ```
extension ZoneRules {
    /// The prefix of names that carry their rules.
    public static let posixPrefix = "POSIX:"

    /// The POSIX TZ rule of a `POSIX:` zone, e.g. `<+0130>-1:30<+0230>-2:30,M4.2.0/2,M10.2.0/3`.
    public var posixRule: String? {
        guard identifier.hasPrefix(Self.posixPrefix) else { return nil }
        return String(identifier.dropFirst(Self.posixPrefix.count).prefix { $0 != " " })
    }

    /// The TZID a calendar file gave a `POSIX:` zone, if its name keeps one.
    public var importedTZID: String? {
        guard identifier.hasPrefix(Self.posixPrefix), let space = identifier.firstIndex(of: " ") else { return nil }
        let tzid = identifier[identifier.index(after: space)...]
        return tzid.isEmpty ? nil : String(tzid)
    }

    /// The name of the zone that follows `rule` in every year, keeping `tzid` (the file's name for it).
    static func posixName(_ rule: PosixTimeZoneRule, tzid: String?) -> String {
        posixPrefix + rule.text + (tzid.map { $0.isEmpty ? "" : " " + $0 } ?? "")
    }

    /// Rebuilds a `POSIX:` zone from its name (what ``named(_:)`` calls); nil when the rule does
    /// not parse or an offset is a day or more from UTC.
    static func posix(named name: String) -> ZoneRules? {
        guard name.hasPrefix(posixPrefix) else { return nil }
        let text = String(name.dropFirst(posixPrefix.count).prefix { $0 != " " })
        guard let rule = PosixTimeZoneRule(text), abs(rule.standardOffset) < 86_400,
            abs(rule.daylight?.offset ?? 0) < 86_400
        else { return nil }
        return posix(rule, identifier: name)
    }

    /// A zone following `rule` in every year from 0001 (the table is written out from year 1, so
    /// that times before 1970 follow the rule too, as the file's own VTIMEZONE said).
    static func posix(_ rule: PosixTimeZoneRule, identifier: String) -> ZoneRules {
        var transitions: [Int64] = []
        var offsets: [Int32] = []
        if rule.daylight != nil {
            for year in 1..<1970 {
                for t in rule.transitions(in: year) {
                    transitions.append(t.at)
                    offsets.append(t.offsetAfter)
                }
            }
        }
        return ZoneRules(
            identifier: identifier, transitions: transitions, offsetsAfter: offsets,
            initialOffset: rule.standardOffset, footer: rule)
    }

    /// Why a zone's offsets cannot be one POSIX rule.
    public struct PosixRuleUnavailable: Error, Hashable, Sendable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// The POSIX rule that gives this zone's offsets at every instant from `start` through `end`:
    /// a fixed offset when nothing changes there, else one offset change each way per year, each on
    /// the n-th or last weekday of a month (`BYMONTH=3;BYDAY=-1SU`) or a fixed date, at a fixed wall
    /// time. The rule is read off the zone's offsets, not off the VTIMEZONE's text, so RRULE and
    /// RDATE definitions are treated alike, and it is checked against every change in the span.
    ///
    /// ```swift
    /// try cet.posixRule(after: start2026, through: end2037).text   // "<+0100>-1<+0200>-2,M3.5.0/2,M10.5.0/3"
    /// ```
    func posixRule(after start: Int64, through end: Int64) throws(PosixRuleUnavailable) -> PosixTimeZoneRule {
        let changes = tableChanges(after: start, through: end)
        guard let last = changes.last else {
            return PosixTimeZoneRule(standardOffset: offset(at: Instant(secondsSince1970: start)), daylight: nil)
        }
        let low = min(last.offsetBefore, last.offsetAfter)
        let high = max(last.offsetBefore, last.offsetAfter)
        func pattern(_ before: Int32, _ after: Int32) throws(PosixRuleUnavailable) -> (PosixTimeZoneRule.DateRule, Int32) {
            let same = changes.filter { $0.offsetBefore == before && $0.offsetAfter == after }
            guard let reference = same.indices.last, let found = YearlyOnsetPattern.infer(from: same, reference: reference) else {
                throw PosixRuleUnavailable(reason: "no yearly change from \(VTimeZone.utcOffsetText(before)) to \(VTimeZone.utcOffsetText(after))")
            }
            let date: PosixTimeZoneRule.DateRule
            switch found.date {
            case .weekdayOrdinal(let month, let weekday, let ordinal):
                date = .monthWeekDay(month: month, week: ordinal < 0 ? 5 : ordinal, weekday: weekday.rawValue - 1)
            case .fixedDay(let month, let day) where !(month == 2 && day == 29):
                date = .julianNoLeap(
                    CivilDate(year: 2001, month: month, day: day).daysSinceEpoch
                        - CivilDate(year: 2001, month: 1, day: 1).daysSinceEpoch + 1)
            default:
                throw PosixRuleUnavailable(reason: "the change to \(VTimeZone.utcOffsetText(after)) is on \(found.date), which a POSIX rule cannot say")
            }
            return (date, Int32(found.timeOfDay))
        }
        let (startDate, startTime) = try pattern(low, high)
        let (endDate, endTime) = try pattern(high, low)
        let rule = PosixTimeZoneRule(
            standardOffset: low,
            daylight: .init(
                offset: high, start: startDate, startTime: startTime,
                end: endDate, endTime: endTime))
        let candidate = Self.posix(rule, identifier: Self.posixName(rule, tzid: nil))
        guard hasSameOffsets(as: candidate, after: start, through: end) else {
            throw PosixRuleUnavailable(reason: "its offset changes do not follow one yearly rule (\(changes.count) changes)")
        }
        return rule
    }

    /// Whether both zones are at the same UTC offset at every instant from `start` through `end`.
    ///
    /// ```swift
    /// try ZoneRules.named("Europe/Berlin").hasSameOffsets(as: try .named("Europe/Paris"),
    ///                                                     after: 0, through: 2_145_916_800)   // true (1970–2037)
    /// ```
    public func hasSameOffsets(as other: ZoneRules, after start: Int64, through end: Int64) -> Bool {
        offset(at: Instant(secondsSince1970: start)) == other.offset(at: Instant(secondsSince1970: start))
            && tableChanges(after: start, through: end) == other.tableChanges(after: start, through: end)
    }
}

extension PosixTimeZoneRule {
    /// The rule as POSIX TZ text, zones named by their offsets as tzdata does (`<+0130>`), every
    /// offset and time written out: `<+0100>-1<+0200>-2,M3.5.0/2,M10.5.0/3`, `<+0530>-5:30`.
    var text: String {
        func name(_ offset: Int32) -> String { "<" + VTimeZone.utcOffsetText(offset) + ">" }
        // POSIX offsets are west-positive.
        var s = name(standardOffset) + Self.clock(-standardOffset)
        guard let dst = daylight else { return s }
        s += name(dst.offset) + Self.clock(-dst.offset)
        s += "," + Self.text(dst.start) + "/" + Self.clock(dst.startTime)
        s += "," + Self.text(dst.end) + "/" + Self.clock(dst.endTime)
        return s
    }

    /// `[-]h[:mm[:ss]]`.
    private static func clock(_ seconds: Int32) -> String {
        let m = abs(Int(seconds))
        var s = (seconds < 0 ? "-" : "") + String(m / 3600)
        if m % 3600 != 0 { s += ":" + pad(m / 60 % 60, 2) }
        if m % 60 != 0 { s += ":" + pad(m % 60, 2) }
        return s
    }

    private static func text(_ rule: DateRule) -> String {
        switch rule {
        case .julianNoLeap(let n): return "J\(n)"
        case .zeroBased(let n): return "\(n)"
        case .monthWeekDay(let month, let week, let weekday): return "M\(month).\(week).\(weekday)"
        }
    }
}
