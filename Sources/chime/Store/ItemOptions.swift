import ArgumentParser
import ChimeCore

/// Options `add` and `edit` share.
struct ItemOptions: ParsableArguments {
    @Option(help: "Notes (free text).") var notes: String?
    @Option(help: "Location (free text; for a geofence use --at).") var location: String?
    @Option(help: "A URL.") var url: String?

    @Option(name: .customLong("repeat"), help: ArgumentHelp(
        "daily, weekdays, weekly, monthly, yearly, 'every 2 weeks on mon,thu', 'every 3 days', 'weekly 10 times', or an RRULE ('FREQ=MONTHLY;BYDAY=-1FR'); repeatable.",
        valueName: "rule"))
    var rules: [String] = []

    @Option(name: .customLong("alarm"), parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "How long before the start (events) or due time (reminders): 15m, 1h, 1d; '+15m' or 'after 15m' for after; or a date. Repeatable.",
        valueName: "when"))
    var alarms: [String] = []

    @Flag(help: "No alarm at all (a reminder otherwise fires at its due time).") var noAlarm = false

    @Option(name: .customLong("remove-alarm"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("Remove the alarm given this way, as --alarm takes it (15m, +1h, a date); repeatable.", valueName: "when"))
    var removedAlarms: [String] = []

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
            if let seconds = try? Durations.alarmOffset(text) {
                try OptionBounds.check("--alarm", text: text, seconds: seconds, OptionBounds.offsetSeconds)
            }
        }
        if noAlarm && (!alarms.isEmpty || at != nil) {
            throw ValidationError("--no-alarm cannot go with --alarm or --at")
        }
    }

    func parsedRules() throws -> [RecurrenceRule] {
        try rules.map { text in
            do { return try RecurrenceRule(phrase: text) } catch { throw InputError("--repeat: \(error)") }
        }
    }

    static func alarm(_ text: String, option: String) throws -> Alarm {
        if let seconds = try? Durations.alarmOffset(text) { return .relative(seconds) }
        guard let date = try? CLIContext.instant(text, option: option) else {
            throw InputError("\(option): \"\(text)\" is neither an offset (\(Durations.alarmAccepted)) nor a date")
        }
        return .absolute(date)
    }

    func parsedAlarms() throws -> [Alarm] {
        var result: [Alarm] = try alarms.map { try Self.alarm($0, option: "--alarm") }
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

    /// Applies the options that were given: new alarms replace the old ones (all of them, or
    /// with `keepingAlarms` only those of the same kind — timed or location); `--remove-alarm`
    /// drops the ones it names; `--no-alarm` drops all and marks a reminder as not to fire.
    func apply(to item: inout some CalendarItem, replacingAlarms: Bool) throws {
        if let notes { item.notes = notes }
        if let location { item.location = location }
        if let url { item.url = url }
        if !rules.isEmpty { item.recurrenceRules = try parsedRules() }
        let newAlarms = try parsedAlarms()
        if !newAlarms.isEmpty || replacingAlarms { item.alarms = replacingAlarms ? newAlarms : item.alarms + newAlarms }
        for text in removedAlarms {
            let gone = try Self.alarm(text, option: "--remove-alarm")
            let before = item.alarms.count
            item.alarms.removeAll { $0.trigger == gone.trigger }
            guard item.alarms.count < before else {
                let listed = item.alarms.map { DisplayText.alarm($0) }.joined(separator: "; ")
                throw InputError("--remove-alarm: \"\(text)\" is not one of the alarms (\(listed.isEmpty ? "there are none" : listed))")
            }
        }
        if noAlarm {
            item.alarms = []
            if item is Reminder, !item.icsExtras.contains(AlarmDefaults.noAlarmMarker) { item.icsExtras.append(AlarmDefaults.noAlarmMarker) }
        } else if !item.alarms.isEmpty {
            item.icsExtras.removeAll { $0 == AlarmDefaults.noAlarmMarker }
        }
    }
}
