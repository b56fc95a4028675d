import ChimeCore

/// Turns TZID parameters into zones: the file's own VTIMEZONE definitions when the TZID is not
/// an IANA name, IANA names from tzdata, Windows names as Outlook writes them, and Mozilla's
/// `/mozilla.org/…/Europe/Berlin` prefixes.
struct ZoneResolver {
    /// For calendars whose times are floating: X-WR-TIMEZONE.
    var floatingDefault: ZoneRules?
    private var custom: [String: ZoneRules] = [:]

    init(definitions: [String: ZoneRules], floatingDefault: ZoneRules?) {
        self.custom = definitions
        self.floatingDefault = floatingDefault
    }

    func zone(_ tzid: String) -> ZoneRules? {
        let name = tzid.trimmingSpaces
        if let z = try? ZoneRules.named(name) { return z }
        if let iana = WindowsZones.ianaIdentifier(for: name), let z = try? ZoneRules.named(iana) { return z }
        // "/citadel.org/20190101_1/Europe/Berlin", "/mozilla.org/20050126_1/America/New_York"
        let parts = name.split(separator: "/")
        for n in stride(from: min(3, parts.count), through: 1, by: -1) {
            let tail = parts.suffix(n).joined(separator: "/")
            if tail != name, let z = try? ZoneRules.named(tail) { return z }
        }
        return custom[name]
    }

    static func named(_ name: String) -> ZoneRules? { try? ZoneRules.named(name) }

    /// True for a zone built from the file's own VTIMEZONE (not in tzdata).
    func isFileDefined(_ zone: ZoneRules) -> Bool { custom[zone.identifier] === zone }
}
