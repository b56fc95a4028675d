import Foundation

extension ZoneRules {
    /// A VTIMEZONE describing this zone for events between `from` and `to`, the way good
    /// exporters write one:
    /// - while the zone follows a yearly DST pattern, one STANDARD and one DAYLIGHT observance
    ///   with `RRULE:FREQ=YEARLY;BYDAY=…;BYMONTH=…`, each with DTSTART at its last change at or
    ///   before `from` (or its first change in the pattern, if the pattern began later);
    /// - changes in the span that do not follow that pattern (history: a zone that changed its
    ///   rules or its standard offset) as further observances, DTSTART the first, RDATEs the rest;
    /// - a zone with no change in the span (Asia/Tokyo, UTC, fixed offsets) as one STANDARD
    ///   observance from 1970.
    ///
    /// Observances come in that order: the yearly STANDARD and DAYLIGHT first, then the history
    /// by date. The pattern is read off the zone's own offsets (its POSIX footer, for tzdata zones), so
    /// rules that came from a VTIMEZONE are written back the same way. TZNAMEs come from the
    /// tzdata footer when the zone is a tzdata zone. Reading the result with `ZoneRules(_:)`
    /// gives this zone's offsets at every instant from `from` to `to`.
    ///
    /// ```swift
    /// let berlin = try ZoneRules.named("Europe/Berlin")
    /// let vtz = berlin.vTimeZone(from: Instant(secondsSince1970: 1_767_225_600),   // 2026-01-01
    ///                            to: Instant(secondsSince1970: 1_798_761_600))     // 2027-01-01
    /// vtz.contentLines()
    /// // BEGIN:VTIMEZONE, TZID:Europe/Berlin,
    /// // BEGIN:STANDARD, DTSTART:20251026T030000, TZOFFSETFROM:+0200, TZOFFSETTO:+0100,
    /// //   RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10, TZNAME:CET, END:STANDARD,
    /// // BEGIN:DAYLIGHT, DTSTART:20250330T020000, TZOFFSETFROM:+0100, TZOFFSETTO:+0200,
    /// //   RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3, TZNAME:CEST, END:DAYLIGHT, END:VTIMEZONE
    /// ```
    public func vTimeZone(from: Instant, to: Instant) -> VTimeZone {
        let year: Int64 = 366 * 86_400
        let lo = min(max(from.secondsSince1970, Self.firstWritableSecond), Self.lastWritableSecond)
        // Past 2400 every zone repeats its footer: scanning further adds nothing.
        let hi = min(max(lo, min(to.secondsSince1970, Self.lastWritableSecond)), max(lo, Self.vTimeZoneExpansionEnd))
        // A year before `from` holds the change in effect at `from`; five after `to` confirm the pattern.
        let scanEnd = hi + 5 * year
        let changes = offsetChanges(after: lo - year - 1, through: scanEnd)
        let names = tzdataNames()
        var observances: [VTimeZone.Observance] = []

        let lastInSpan = changes.lastIndex { $0.at <= hi }
        var historyEnd = lastInSpan.map { $0 + 1 } ?? 0
        if let last = lastInSpan, let pattern = Self.currentYearlyPattern(in: changes, last: last, through: hi, scannedThrough: scanEnd) {
            historyEnd = pattern.run.lowerBound
            for kind in [pattern.intoStandard, pattern.intoDaylight] {
                let onsets = changes[pattern.run].filter {
                    $0.offsetBefore == kind.offsetBefore && $0.offsetAfter == kind.offsetAfter
                }
                guard let start = onsets.last(where: { $0.at <= lo }) ?? onsets.first, let end = onsets.last else { continue }
                var rule = kind.date.recurrenceRule
                // The zone left the pattern after `to` (within the scanned years): say when it stopped.
                if pattern.ends { rule = (try? rule.with(end: .until(.utc(Instant(secondsSince1970: end.at))))) ?? rule }
                observances.append(
                    VTimeZone.Observance(
                        kind: kind.offsetAfter > kind.offsetBefore ? .daylight : .standard,
                        start: LocalDateTime(localSeconds: start.localOnset),
                        offsetFrom: kind.offsetBefore, offsetTo: kind.offsetAfter,
                        rule: rule, name: names[kind.offsetAfter]))
            }
        }

        // History: from the change in effect at `from` up to where the pattern takes over.
        let historyStart = changes.lastIndex { $0.at <= lo } ?? 0
        if historyStart < historyEnd {
            var groups: [(key: HistoryKey, onsets: [Int64])] = []
            for i in historyStart..<historyEnd {
                let change = changes[i]
                let key = HistoryKey(
                    kind: Self.historicKind(changes, i), offsetBefore: change.offsetBefore,
                    offsetAfter: change.offsetAfter)
                if let g = groups.firstIndex(where: { $0.key == key }) {
                    groups[g].onsets.append(change.localOnset)
                } else {
                    groups.append((key, [change.localOnset]))
                }
            }
            let latest = changes[historyEnd - 1].localOnset
            let hasPattern = !observances.isEmpty
            for (key, onsets) in groups {
                // Only the change still in effect at the end can be named from today's rules.
                let current = !hasPattern && onsets.contains(latest)
                observances.append(
                    VTimeZone.Observance(
                        kind: key.kind, start: LocalDateTime(localSeconds: onsets[0]),
                        offsetFrom: key.offsetBefore, offsetTo: key.offsetAfter,
                        dates: onsets.dropFirst().map { LocalDateTime(localSeconds: $0) },
                        name: current ? names[key.offsetAfter] : nil))
            }
        }

        if observances.isEmpty {
            let offset = offset(at: Instant(secondsSince1970: lo))
            let startYear = min(1970, LocalDateTime(localSeconds: lo - year + Int64(offset)).date.year)
            observances.append(
                VTimeZone.Observance(
                    kind: .standard, start: LocalDateTime(year: startYear, month: 1, day: 1),
                    offsetFrom: offset, offsetTo: offset, name: names[offset]))
        }
        return VTimeZone(identifier: identifier, observances: observances)
    }

    private struct HistoryKey: Hashable {
        var kind: VTimeZone.Observance.Kind
        var offsetBefore: Int32
        var offsetAfter: Int32
    }

    /// RFC 5545 years are 0000…9999; keep a year of margin either side for the scan.
    private static let firstWritableSecond = Int64(CivilDate.days(year: 2, month: 1, day: 1)) * 86_400
    private static let lastWritableSecond = Int64(CivilDate.days(year: 9990, month: 1, day: 1)) * 86_400

    /// A yearly DST pattern and the unbroken run of `changes` that follows it.
    private struct CurrentPattern {
        var intoStandard: YearlyOnsetPattern
        var intoDaylight: YearlyOnsetPattern
        /// Indexes in `changes` of the run through the last change in the span.
        var run: ClosedRange<Int>
        /// Whether the zone leaves the pattern within the scanned changes (a change it did not
        /// predict, or one it predicted that did not happen).
        var ends: Bool
    }

    /// The yearly pattern in force at `changes[last]` (the last change at or before `end`): two
    /// changes back and forth between the same two offsets within a year, each kind on a
    /// ``YearlyDateRule``, seen at least twice, and the pattern predicting no change between
    /// `changes[last]` and `end` that did not happen. `nil` when the zone does not follow such a
    /// pattern there (Morocco's Ramadan changes, a year that ends summer time for good).
    private static func currentYearlyPattern(
        in changes: [OffsetChange], last: Int, through end: Int64,
        scannedThrough scanEnd: Int64
    ) -> CurrentPattern? {
        let latest = changes[last]
        let partner = [last - 1, last + 1].first { i in
            changes.indices.contains(i) && changes[i].offsetBefore == latest.offsetAfter
                && changes[i].offsetAfter == latest.offsetBefore && abs(changes[i].at - latest.at) < 366 * 86_400
        }
        guard partner != nil else { return nil }
        let high = max(latest.offsetBefore, latest.offsetAfter)
        let low = min(latest.offsetBefore, latest.offsetAfter)
        func infer(_ before: Int32, _ after: Int32) -> YearlyOnsetPattern? {
            let same = changes.filter { $0.offsetBefore == before && $0.offsetAfter == after }
            return YearlyOnsetPattern.infer(from: same, reference: same.lastIndex { $0.at <= end } ?? 0)
        }
        guard let intoDaylight = infer(low, high), let intoStandard = infer(high, low),
            let first = changes.first
        else { return nil }
        let firstYear = LocalDateTime(localSeconds: first.localOnset).date.year - 1
        let lastYear = Instant(secondsSince1970: scanEnd).utc.date.year + 1
        let expected = (firstYear...lastYear)
            .flatMap { [intoDaylight.change(in: $0), intoStandard.change(in: $0)].compactMap { $0 } }
            .sorted { $0.at < $1.at }
        guard let j = expected.firstIndex(of: latest) else { return nil }
        // A change the pattern predicts before `end` that did not happen: not the current rules.
        if j + 1 < expected.count && expected[j + 1].at <= end { return nil }
        var (i, k) = (last, j)
        while i > 0 && k > 0 && changes[i - 1] == expected[k - 1] {
            i -= 1
            k -= 1
        }
        var (n, m) = (last, j)
        while n + 1 < changes.count && m + 1 < expected.count && changes[n + 1] == expected[m + 1] {
            n += 1
            m += 1
        }
        let run = i...n
        // One year of a "pattern" is a coincidence, not a rule.
        guard changes[run].filter({ $0.offsetAfter == high }).count >= 2,
            changes[run].filter({ $0.offsetAfter == low }).count >= 2
        else { return nil }
        let ends = n + 1 < changes.count || (m + 1 < expected.count && expected[m + 1].at <= scanEnd)
        return CurrentPattern(intoStandard: intoStandard, intoDaylight: intoDaylight, run: run, ends: ends)
    }

    /// DAYLIGHT for a raise of the offset that a later change within a year takes back;
    /// STANDARD for everything else (a new standard offset, the return from summer time).
    private static func historicKind(_ changes: [OffsetChange], _ i: Int) -> VTimeZone.Observance.Kind {
        let change = changes[i]
        guard change.offsetAfter > change.offsetBefore, i + 1 < changes.count else { return .standard }
        let next = changes[i + 1]
        return next.offsetAfter < change.offsetAfter && next.at - change.at < 366 * 86_400 ? .daylight : .standard
    }

    /// TZNAMEs by offset, from the POSIX footer of the tzdata file, when this zone is that file's
    /// (`CET-1CEST,…` → +3600: CET, +7200: CEST), or from the rule of a `POSIX:` zone. Empty for
    /// other rules.
    private func tzdataNames() -> [Int32: String] {
        let footer: String
        if let rule = posixRule {
            footer = rule  // a `POSIX:` zone: its own rule names the offsets (`<+0130>`)
        } else {
            guard let loaded = try? ZoneRules.named(identifier), loaded === self,
                let data = FileManager.default.contents(atPath: Self.zoneInfoDirectory + "/" + identifier),
                let tzif = try? TZifData(bytes: [UInt8](data)), let tzifFooter = tzif.footer
            else { return [:] }
            footer = tzifFooter
        }
        guard let rule = PosixTimeZoneRule(footer) else { return [:] }
        var s = Substring(footer)
        func name() -> String? {
            if s.first == "<" {
                guard let close = s.firstIndex(of: ">") else { return nil }
                defer { s = s[s.index(after: close)...] }
                return String(s[s.index(after: s.startIndex)..<close])
            }
            let letters = s.prefix { $0.isLetter }
            guard letters.count >= 3 else { return nil }
            s = s.dropFirst(letters.count)
            return String(letters)
        }
        var result: [Int32: String] = [:]
        result[rule.standardOffset] = name()
        s = s.drop { "+-:0123456789".contains($0) }
        if let daylight = rule.daylight, let dstName = name(), daylight.offset != rule.standardOffset {
            result[daylight.offset] = dstName
        }
        return result
    }
}

extension VTimeZone {
    /// The component as unfolded content lines, without line ends (the caller folds and adds CRLF):
    /// `BEGIN:VTIMEZONE`, `TZID`, then per observance `BEGIN:STANDARD`/`DAYLIGHT`, `DTSTART`,
    /// `TZOFFSETFROM`, `TZOFFSETTO`, `RRULE`, `RDATE`s, `TZNAME`, `END:…`, and `END:VTIMEZONE`.
    ///
    /// ```swift
    /// VTimeZone(identifier: "Asia/Tokyo", observances: [
    ///     .init(kind: .standard, start: LocalDateTime(year: 1970, month: 1, day: 1),
    ///           offsetFrom: 32_400, offsetTo: 32_400, name: "JST")]).contentLines()
    /// // ["BEGIN:VTIMEZONE", "TZID:Asia/Tokyo", "BEGIN:STANDARD", "DTSTART:19700101T000000",
    /// //  "TZOFFSETFROM:+0900", "TZOFFSETTO:+0900", "TZNAME:JST", "END:STANDARD", "END:VTIMEZONE"]
    /// ```
    public func contentLines() -> [String] {
        var lines = ["BEGIN:VTIMEZONE", "TZID:" + ICalendarText.escaped(identifier)]
        for observance in observances {
            let component = observance.kind.componentName
            lines.append("BEGIN:" + component)
            lines.append("DTSTART:" + observance.start.basicFormat)
            lines.append("TZOFFSETFROM:" + Self.utcOffsetText(observance.offsetFrom))
            lines.append("TZOFFSETTO:" + Self.utcOffsetText(observance.offsetTo))
            if let rule = observance.rule { lines.append("RRULE:" + rule.rfc5545) }
            for date in observance.dates { lines.append("RDATE:" + date.basicFormat) }
            if let name = observance.name { lines.append("TZNAME:" + ICalendarText.escaped(name)) }
            lines.append("END:" + component)
        }
        lines.append("END:VTIMEZONE")
        return lines
    }

    /// RFC 5545 UTC-OFFSET text: `+HHMM`, or `+HHMMSS` when the seconds are not zero; UTC is `+0000`.
    ///
    /// ```swift
    /// VTimeZone.utcOffsetText(19_800)   // "+0530"
    /// VTimeZone.utcOffsetText(-18_000)  // "-0500"
    /// VTimeZone.utcOffsetText(-2_079)   // "-003439"
    /// ```
    public static func utcOffsetText(_ seconds: Int32) -> String {
        let magnitude = abs(Int(seconds))
        let text = pad(magnitude / 3600, 2) + pad(magnitude / 60 % 60, 2)
        return (seconds < 0 ? "-" : "+") + text + (magnitude % 60 == 0 ? "" : pad(magnitude % 60, 2))
    }

}
