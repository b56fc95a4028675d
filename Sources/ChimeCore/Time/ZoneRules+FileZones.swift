import Foundation
import Synchronization

/// What a zone that only a calendar file defines (its own VTIMEZONE under a TZID that is no
/// IANA or Windows name) becomes, so that its events stay on their wall clock in the store.
public enum FileZoneResolution: Sendable {
    /// A tzdata zone with the same UTC offsets over the years checked.
    case tzdata(ZoneRules)
    /// No tzdata zone matches: the file's rules as a `POSIX:` zone (``ZoneRules/posixPrefix``).
    case posix(ZoneRules)
    /// Neither: the rules cannot be named; `reason` says why. Times in it can only be kept as instants.
    case inexpressible(reason: String)
}

extension ZoneRules {
    /// The zone to keep in place of `rules`, a file's own VTIMEZONE called `tzid`, for events in
    /// `years` (from the earliest year the file uses the zone, through 2037 or later):
    ///
    /// 1. a tzdata zone whose UTC offset equals the file's at every instant of those years —
    ///    candidates in this order, the first that matches wins:
    ///    zones the TZID names (`…/Europe/Berlin`, a city such as `Amsterdam / Berlin`), by position;
    ///    the Windows zone the TZID names with an Exchange suffix dropped (`W. Europe Standard Time 1`);
    ///    the representative zone of every Windows zone in CLDR order (so a CET rule becomes
    ///    Europe/Berlin, not Europe/Andorra); then every zone of `zone1970.tab` in its order;
    /// 2. else the file's rules as one POSIX rule, checked over the same years (``posixRule(after:through:)``);
    /// 3. else ``FileZoneResolution/inexpressible(reason:)``.
    ///
    /// ```swift
    /// let outlook = try ZoneRules(vtimezone)   // TZID "GMT +0100 (Standard) / GMT +0200 (Daylight)"
    /// ZoneRules.resolveFileZone(outlook, tzid: outlook.identifier, years: 2026...2037)   // .tzdata(Europe/Berlin)
    /// ```
    public static func resolveFileZone(_ rules: ZoneRules, tzid: String, years: ClosedRange<Int>) -> FileZoneResolution {
        // A day either side: local times on the first and last days are read on either clock.
        let start = Int64(CivilDate.days(year: years.lowerBound, month: 1, day: 1)) * 86_400 - 86_400
        let end = Int64(CivilDate.days(year: years.upperBound + 1, month: 1, day: 1)) * 86_400 + 86_400
        if let match = tzdataZone(agreeingWith: rules, tzid: tzid, after: start, through: end) { return .tzdata(match) }
        do {
            let rule = try rules.posixRule(after: start, through: end)
            return .posix(try named(posixName(rule, tzid: tzid)))
        } catch {
            return .inexpressible(reason: "\(error)")
        }
    }

    /// The first candidate tzdata zone (see ``resolveFileZone(_:tzid:years:)``) at the same offsets
    /// as `rules` from `start` through `end`.
    static func tzdataZone(agreeingWith rules: ZoneRules, tzid: String, after start: Int64, through end: Int64) -> ZoneRules? {
        // Cheap test first: the offsets in January and July of the last year.
        let probes = [end - 350 * 86_400, end - 170 * 86_400].map { Instant(secondsSince1970: $0) }
        let expected = probes.map(rules.offset(at:))
        for name in candidateNames(for: tzid) {
            guard let zone = try? named(name), !zone.identifier.hasPrefix(posixPrefix),
                probes.map(zone.offset(at:)) == expected,
                zone.hasSameOffsets(as: rules, after: start, through: end)
            else { continue }
            return zone
        }
        return nil
    }

    /// Candidate tzdata names for a file's TZID, in the order they are tried, without repeats.
    static func candidateNames(for tzid: String) -> [String] {
        var names = zonesMentioned(in: tzid)
        // Exchange numbers its own copies of a Windows zone: "W. Europe Standard Time 1".
        let trimmed = tzid.trimmingCharacters(in: .whitespaces)
        let withoutNumber = trimmed.replacingOccurrences(of: #"\s+\d+$"#, with: "", options: .regularExpression)
        for name in [trimmed, withoutNumber] { if let iana = WindowsZones.ianaIdentifier(for: name) { names.append(iana) } }
        names += WindowsZones.representativeZones
        names += tzdataTables().zone1970
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }

    /// tzdata zones the text names, by where they appear: a full name (`Europe/Berlin`) or a
    /// city, the name's last part with spaces for `_` (`Berlin`, `New York`), as a whole word.
    static func zonesMentioned(in text: String) -> [String] {
        let lower = text.lowercased()
        var found: [(position: Int, name: String)] = []
        for name in tzdataTables().all {
            let city = (name.split(separator: "/").last.map(String.init) ?? name).replacingOccurrences(of: "_", with: " ")
            for key in [name.lowercased(), city.lowercased()] where key.count >= 4 {
                if let position = wordPosition(of: key, in: lower) { found.append((position, name)); break }
            }
        }
        return found.sorted { ($0.position, $0.name) < ($1.position, $1.name) }.map(\.name)
    }

    private static func wordPosition(of key: String, in text: String) -> Int? {
        var searchStart = text.startIndex
        while let range = text.range(of: key, range: searchStart..<text.endIndex) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            if !(before?.isLetter ?? false) && !(after?.isLetter ?? false) {
                return text.distance(from: text.startIndex, to: range.lowerBound)
            }
            searchStart = text.index(after: range.lowerBound)
        }
        return nil
    }

    private static let tables = Mutex<(zone1970: [String], all: [String])?>(nil)

    /// Zone names from the tzdata folder's `zone1970.tab` (in file order) and, for
    /// ``zonesMentioned(in:)``, also `zone.tab`; read once per process.
    static func tzdataTables() -> (zone1970: [String], all: [String]) {
        if let known = tables.withLock({ $0 }) { return known }
        func read(_ file: String) -> [String] {
            guard let data = FileManager.default.contents(atPath: zoneInfoDirectory + "/" + file) else { return [] }
            return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
                guard !line.hasPrefix("#") else { return nil }
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                return fields.count >= 3 ? String(fields[2]) : nil
            }
        }
        let zone1970 = read("zone1970.tab")
        var seen: Set<String> = []
        let all = (zone1970 + read("zone.tab")).filter { seen.insert($0).inserted }
        let result = (zone1970, all)
        tables.withLock { $0 = result }
        return result
    }
}
