import ChimeCore
import Synchronization

/// VTIMEZONE definitions read once for many files: what each distinct definition makes (its
/// rules) and the zone that stands for it (``ZoneRules/resolveFileZone(_:tzid:years:)``, a search
/// through tzdata) are kept for the life of this object.
///
/// A CalDAV pull reads one file per item, and every copy of a calendar carries the same
/// definition: an Outlook "Customized Time Zone" was built and searched for again in each, about
/// 1.5 ms of CPU per item. Pass one object to every ``ICalendar/parse(_:file:strict:zones:)`` of a
/// pull; each file's repairs and warnings are still its own (a definition that needed a repair is
/// read again in each file, so each says it).
///
/// ```swift
/// let zones = ZoneDefinitions()
/// for copy in copies { results.append(try ICalendar.parse(Array(copy.utf8), file: copy.href, zones: zones)) }
/// ```
public final class ZoneDefinitions: Sendable {
    /// A definition as written, without its line numbers.
    private struct Definition: Hashable {
        let component: ICSComponent

        init(_ c: ICSComponent) {
            var c = c
            Self.dropLines(&c)
            component = c
        }

        private static func dropLines(_ c: inout ICSComponent) {
            c.line = 0
            for i in c.properties.indices { c.properties[i].line = 0 }
            for i in c.components.indices { dropLines(&c.components[i]) }
        }
    }

    private struct Resolution: Hashable {
        let rules: ObjectIdentifier
        let tzid: String
        let years: ClosedRange<Int>
    }

    private struct State: @unchecked Sendable {
        var rules: [Definition: ZoneRules] = [:]
        /// The rules in `rules`, by identity: held here, so an identity is never reused for others.
        var held: Set<ObjectIdentifier> = []
        var resolutions: [Resolution: FileZoneResolution] = [:]
        var made = 0
        var resolved = 0
    }
    private let state = Mutex(State())

    public init() {}

    /// How many definitions were read and how many searches through tzdata were made (for tests).
    var counts: (made: Int, resolved: Int) { state.withLock { ($0.made, $0.resolved) } }

    /// The rules of `component`, made by `make` the first time its text is seen. `make` reports
    /// whether it needed a repair; such rules are not kept.
    func rules(of component: ICSComponent, make: () throws -> (rules: ZoneRules, repaired: Bool)) rethrows -> ZoneRules {
        let key = Definition(component)
        if let kept = state.withLock({ $0.rules[key] }) { return kept }
        let made = try make()
        state.withLock { $0.made += 1 }
        if !made.repaired {
            state.withLock { s in
                s.rules[key] = made.rules
                s.held.insert(ObjectIdentifier(made.rules))
            }
        }
        return made.rules
    }

    /// ``ZoneRules/resolveFileZone(_:tzid:years:)``, once per kept rules, TZID and years (rules
    /// this object does not hold are resolved each time).
    func resolution(of rules: ZoneRules, tzid: String, years: ClosedRange<Int>) -> FileZoneResolution {
        let key = Resolution(rules: ObjectIdentifier(rules), tzid: tzid, years: years)
        let (isHeld, kept) = state.withLock { s in (s.held.contains(key.rules), s.resolutions[key]) }
        if let kept { return kept }
        let resolved = ZoneRules.resolveFileZone(rules, tzid: tzid, years: years)
        state.withLock { s in
            s.resolved += 1
            if isHeld { s.resolutions[key] = resolved }
        }
        return resolved
    }
}
