import ChimeCore

/// Turns TZID parameters into zones: IANA names from tzdata, Windows names as Outlook writes them,
/// Mozilla's `/mozilla.org/…/Europe/Berlin` prefixes, and otherwise the file's own VTIMEZONE.
///
/// A zone only the file defines ("GMT +0100 (Standard) / GMT +0200 (Daylight)",
/// "Customized Time Zone", "/Europe/CUSTOM") is replaced, once per file, by a zone the store can
/// name (``ZoneRules/resolveFileZone(_:tzid:years:)``): the tzdata zone with the same offsets over
/// the years the file uses it, else a `POSIX:` zone carrying the file's rules. Only a definition
/// that is neither keeps its own rules, and its times are then read as UTC instants
/// (``needsUTCFallback(_:)``), with a warning in ``warnings``.
struct ZoneResolver {
    /// For calendars whose times are floating: X-WR-TIMEZONE.
    var floatingDefault: ZoneRules?
    /// TZID → the zone that stands for the file's definition.
    private var custom: [String: ZoneRules] = [:]
    /// Identifiers of definitions kept as they are (inexpressible): their times become instants.
    private var kept: Set<String> = []
    /// What was done with definitions that could not be kept on their wall clock:
    /// `file:line: TZID: "Name": …`.
    private(set) var warnings: [ICSError] = []

    /// The last year the offsets of a file's zone are compared through (tzdata's 32-bit horizon;
    /// later years follow both zones' yearly rules).
    static let comparedThroughYear = 2037

    /// - Parameters:
    ///   - definitions: the file's VTIMEZONEs, by TZID.
    ///   - calendar: the VCALENDAR, to find the years each TZID is used in; without it the
    ///     offsets are compared from 1970.
    ///   - known: resolutions other files of the same pull made (nil: this file's alone).
    init(
        definitions: [String: ZoneRules], floatingDefault: ZoneRules?, calendar: ICSComponent? = nil, file: String = "<input>",
        known: ZoneDefinitions? = nil
    ) {
        self.floatingDefault = floatingDefault
        // Only a definition tzdata does not name needs the years (most files define named zones).
        let needsYears = definitions.keys.contains { Self.namedZone($0) == nil }
        let years = needsYears ? calendar.map(Self.yearsByTZID) ?? [:] : [:]
        for (tzid, rules) in definitions.sorted(by: { $0.key < $1.key }) {
            guard Self.namedZone(tzid) == nil else { continue }  // never consulted: the name wins
            // Only zones the file uses are resolved (each a search through tzdata at worst).
            if calendar != nil && years[tzid] == nil { continue }
            let used = years[tzid] ?? 1970...1970
            // Through 2037, never further: later years repeat the same yearly rule, and a date in
            // the year 8662 (a fuzzer's, or a typo's) made the comparison take seconds.
            let first = min(used.lowerBound, Self.comparedThroughYear)
            let range = first...Self.comparedThroughYear
            let resolution = known?.resolution(of: rules, tzid: tzid, years: range) ?? ZoneRules.resolveFileZone(rules, tzid: tzid, years: range)
            switch resolution {
            case .tzdata(let zone), .posix(let zone):
                custom[tzid] = zone
            case .inexpressible(let reason):
                custom[tzid] = rules
                kept.insert(rules.identifier)
                let line = calendar?.components.first { $0.name == "VTIMEZONE" && $0["TZID"]?.value.trimmingSpaces == tzid }?.line ?? 0
                warnings.append(
                    ICSError(
                        file: file, line: line, property: "TZID",
                        "\"\(tzid)\": no tzdata zone has its UTC offsets in \(range.lowerBound)–\(range.upperBound) and its rules are not one yearly rule (\(reason)); its times were imported as UTC instants, so repeating events in it keep their UTC time across its daylight-saving changes"
                    ))
            }
        }
    }

    func zone(_ tzid: String) -> ZoneRules? {
        let name = tzid.trimmingSpaces
        return Self.namedZone(name) ?? custom[name]
    }

    /// The zone a TZID names without the file's help: IANA, Windows, a prefixed IANA name, or
    /// Chime's own `POSIX:` names (which carry their rules).
    static func namedZone(_ tzid: String) -> ZoneRules? {
        let name = tzid.trimmingSpaces
        if let z = try? ZoneRules.named(name) { return z }
        if let iana = WindowsZones.ianaIdentifier(for: name), let z = try? ZoneRules.named(iana) { return z }
        // "/citadel.org/20190101_1/Europe/Berlin", "/mozilla.org/20050126_1/America/New_York"
        let parts = name.split(separator: "/")
        for n in stride(from: min(3, parts.count), through: 1, by: -1) {
            let tail = parts.suffix(n).joined(separator: "/")
            if tail != name, let z = try? ZoneRules.named(tail) { return z }
        }
        return nil
    }

    static func named(_ name: String) -> ZoneRules? { try? ZoneRules.named(name) }

    /// True for a file's own definition that could not be replaced by a nameable zone: times in it
    /// are kept as instants.
    func needsUTCFallback(_ zone: ZoneRules) -> Bool { kept.contains(zone.identifier) && custom[zone.identifier] === zone }

    /// The first and last year of the date-times written with each TZID anywhere in the file.
    static func yearsByTZID(_ calendar: ICSComponent) -> [String: ClosedRange<Int>] {
        var result: [String: ClosedRange<Int>] = [:]
        func visit(_ c: ICSComponent) {
            guard c.name != "VTIMEZONE" else { return }
            for p in c.properties {
                guard let tzid = p.parameter("TZID")?.trimmingSpaces else { continue }
                for value in p.value.split(separator: ",") {
                    let digits = String(value).trimmingSpaces.prefix(4)
                    guard digits.count == 4, let year = Int(digits) else { continue }
                    let known = result[tzid]
                    result[tzid] = min(known?.lowerBound ?? year, year)...max(known?.upperBound ?? year, year)
                }
            }
            c.components.forEach(visit)
        }
        visit(calendar)
        return result
    }
}
