import ArgumentParser
import ChimeCore

/// Options `add` and `edit` share.
struct ItemOptions: ParsableArguments {
    @Option(help: "Notes (free text).") var notes: String?
    @Option(help: "Location (free text; for a geofence use --at).") var location: String?
    @Option(help: "A URL.") var url: String?

    @Option(name: .customLong("repeat"), help: ArgumentHelp("An RFC 5545 RRULE, e.g. 'FREQ=WEEKLY;BYDAY=MO,WE'; repeatable.", valueName: "rrule"))
    var rules: [String] = []

    @Option(name: .customLong("alarm"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("An offset from the start (events) or due date (reminders), e.g. -15m, -1d, -PT10M; or a date for an absolute alarm. Repeatable.", valueName: "when"))
    var alarms: [String] = []

    @Option(help: ArgumentHelp("A geofence alarm: \"Title@LAT,LON[,RADIUS_M]\" (radius 0 or absent = default).", valueName: "place"))
    var at: String?

    @Option(help: "Fire the --at alarm on arriving or on leaving.") var on: ProximityArgument = .arrive

    enum ProximityArgument: String, ExpressibleByArgument, CaseIterable {
        case arrive, leave
        var proximity: Proximity { self == .arrive ? .enter : .leave }
    }

    func validate() throws {
        if let at {
            do { _ = try Self.place(at) } catch { throw ValidationError("\(error)") }
        }
        for text in alarms {
            if let seconds = try? Durations.seconds(text, option: "--alarm") {
                try OptionBounds.check("--alarm", text: text, seconds: seconds, OptionBounds.offsetSeconds)
            }
        }
    }

    func parsedRules() throws -> [RecurrenceRule] {
        try rules.map { text in
            do { return try RecurrenceRule(parsing: text) } catch { throw InputError("--repeat: \(error)") }
        }
    }

    func parsedAlarms() throws -> [Alarm] {
        var result: [Alarm] = try alarms.map { text in
            if let seconds = try? Durations.seconds(text, option: "--alarm") { return .relative(seconds) }
            guard let date = try? CLIContext.instant(text, option: "--alarm") else {
                throw InputError("--alarm: \"\(text)\" is neither an offset (\(Durations.accepted)) nor a date")
            }
            return .absolute(date)
        }
        if let at { result.append(.location(try Self.place(at), on.proximity)) }
        return result
    }

    /// `Title@LAT,LON[,RADIUS]`.
    static func place(_ text: String) throws -> StructuredLocation {
        let usage = "--at: \"\(text)\" is not Title@LAT,LON[,RADIUS] (e.g. \"Office@52.52,13.405,100\")"
        guard let at = text.lastIndex(of: "@") else { throw InputError(usage) }
        let numbers = text[text.index(after: at)...].split(separator: ",").map { Double($0.filter { !$0.isWhitespace }) }
        guard numbers.count == 2 || numbers.count == 3, let lat = numbers[0], let lon = numbers[1] else { throw InputError(usage) }
        let radius = numbers.count == 3 ? numbers[2] : 0
        guard let radius else { throw InputError(usage) }
        let place = StructuredLocation(title: String(text[..<at]), latitude: lat, longitude: lon, radius: radius)
        do { try place.validate() } catch { throw InputError("--at: \(error)") }
        return place
    }

    /// Applies the options that were given.
    func apply(to item: inout some CalendarItem, replacingAlarms: Bool) throws {
        if let notes { item.notes = notes }
        if let location { item.location = location }
        if let url { item.url = url }
        if !rules.isEmpty { item.recurrenceRules = try parsedRules() }
        let newAlarms = try parsedAlarms()
        if !newAlarms.isEmpty || replacingAlarms { item.alarms = replacingAlarms ? newAlarms : item.alarms + newAlarms }
    }
}
